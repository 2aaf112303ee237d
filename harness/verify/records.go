package verify

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/svrnty/sotvet/harness/ledger"
)

// Record verifies one ledger record file: an approval decision, its
// consumption, an operator outcome or a guard record, by its seal and
// its fields.
func Record(path string, opt Options) (out []Violation, err error) {
	data, err := ledger.ReadFile(path)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(path)
	bad := func(format string, err error) {
		out = append(out, Violation{Artifact: name, Message: strings.TrimSpace(format + err.Error())})
	}
	var probe map[string]json.RawMessage
	if err = json.Unmarshal(data, &probe); err != nil {
		bad("not a JSON object: ", err)
		return out, nil
	}
	var rec ledger.Sealed
	switch {
	case probe["guard_status"] != nil:
		g := &ledger.Guard{}
		rec = g
		defer func() { out = append(out, guardViolations(name, g)...) }()
	case probe["consumed_at"] != nil:
		c := &ledger.Consumption{}
		rec = c
		defer func() {
			if c.ApprovalID+".consumed.json" != name {
				out = append(out, Violation{name, "approval_id does not name the file"})
			}
		}()
	case probe["approval_id"] != nil:
		a := &ledger.Approval{}
		rec = a
		defer func() {
			if a.ApprovalID+".json" != name || !ledger.ValidID(a.ApprovalID) {
				out = append(out, Violation{name, "approval_id does not name the file"})
			}
			if a.Decision != ledger.Granted && a.Decision != ledger.Denied {
				out = append(out, Violation{name, "decision " + a.Decision + ", want granted or denied"})
			}
		}()
	case probe["report_sha256"] != nil:
		rec = &ledger.Outcome{}
	default:
		out = append(out, Violation{name, "not an approval, consumption, outcome or guard record"})
		return out, nil
	}
	for _, err := range ledger.Unmarshal(data, rec, opt.trusted()...) {
		bad("", err)
	}
	return out, nil
}
