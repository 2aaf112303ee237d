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
	return RecordData(filepath.Base(path), data, opt), nil
}

// RecordData verifies a ledger record file's content, as Record does; name
// is the file's base name, which an approval or consumption must match.
func RecordData(name string, data []byte, opt Options) []Violation {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return []Violation{{name, "not a JSON object: " + err.Error()}}
	}
	var rec ledger.Sealed
	switch {
	case probe["guard_status"] != nil:
		rec = &ledger.Guard{}
	case probe["consumed_at"] != nil:
		rec = &ledger.Consumption{}
	case probe["approval_id"] != nil:
		rec = &ledger.Approval{}
	case probe["report_sha256"] != nil:
		rec = &ledger.Outcome{}
	default:
		return []Violation{{name, "not an approval, consumption, outcome or guard record"}}
	}
	return RecordAs(name, data, rec, opt)
}

// RecordAs decodes a ledger record file's content into rec (an approval,
// consumption, outcome or guard record a reader expects) and verifies it: its schema,
// seal and signature by opt's keys, and that an approval or consumption
// names its file. A reader uses rec only when nothing is returned.
func RecordAs(name string, data []byte, rec ledger.Sealed, opt Options) (out []Violation) {
	for _, err := range ledger.Unmarshal(data, rec, opt.trusted()...) {
		out = append(out, Violation{name, strings.TrimSpace(err.Error())})
	}
	switch r := rec.(type) {
	case *ledger.Guard:
		out = append(out, guardViolations(name, r)...)
	case *ledger.Consumption:
		if r.ApprovalID+".consumed.json" != name {
			out = append(out, Violation{name, "approval_id does not name the file"})
		}
	case *ledger.Approval:
		if r.ApprovalID+".json" != name || !ledger.ValidID(r.ApprovalID) {
			out = append(out, Violation{name, "approval_id does not name the file"})
		}
		if r.Decision != ledger.Granted && r.Decision != ledger.Denied {
			out = append(out, Violation{name, "decision " + r.Decision + ", want granted or denied"})
		}
	}
	return out
}
