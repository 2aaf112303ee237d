package evidence

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"

	hevidence "github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/harness/verify"
	"github.com/svrnty/sotvet/sotparse"
)

// guardFacts are the Route State facts compared with guard records: the
// normalised key and the record's value.
var guardFacts = map[string]func(*ledger.Guard) string{
	"guard status":                func(g *ledger.Guard) string { return g.GuardStatus },
	"core route admission status": func(g *ledger.Guard) string { return g.CoreRouteAdmissionStatus },
	"blocked reason":              func(g *ledger.Guard) string { return g.BlockedReason },
	"next allowed action":         func(g *ledger.Guard) string { return g.NextAllowedAction },
}

// guardRecord is one guard record file, verified.
type guardRecord struct {
	path       string
	g          *ledger.Guard // nil when it could not be decoded
	violations []verify.Violation
	err        error
}

func (r *guardRecord) ok() bool { return r.err == nil && len(r.violations) == 0 && r.g != nil }

// guardCitation is a document's citation of guard records: one record
// file, or a guards directory (every record in it).
type guardCitation struct {
	ref     sotparse.Ref
	local   string
	records []*guardRecord
	missing bool
}

// isGuardPath says whether p names a guard record (…/guards/<guard-id>.json)
// or a guards directory.
func isGuardPath(p string) bool {
	if path.Base(p) == ledger.GuardsDir {
		return true
	}
	return path.Base(path.Dir(p)) == ledger.GuardsDir && ledger.ValidGuardID(strings.TrimSuffix(path.Base(p), ".json")) && strings.HasSuffix(p, ".json")
}

// guards compares the document's Route State facts with the latest
// verified guard record it cites.
func (c *checker) guards(d *sotparse.Doc) {
	var cites []*guardCitation
	for _, r := range d.Refs.Of(sotparse.RefAbsPath) {
		if r.Kind != sotparse.RefAbsPath {
			continue
		}
		p := r.Text
		if p != "/" {
			p = strings.TrimSuffix(path.Clean(p), "/")
		}
		if !isGuardPath(p) {
			continue
		}
		local, _ := c.local(p)
		cites = append(cites, c.guardCitation(r, local))
	}
	// The latest verified record cited, and where.
	var latest *guardRecord
	var latestRef sotparse.Ref
	seen := map[string]bool{}
	for _, ct := range cites {
		if ct.missing {
			if reportMissing && !seen[ct.local] {
				c.pass.Report(analysis.Diagnostic{Pos: ct.ref.Pos, End: ct.ref.End, Category: CategoryMissing,
					Message: "cited guard record not found on this machine: " + ct.ref.Text})
			}
			seen[ct.local] = true
			continue
		}
		for _, r := range ct.records {
			if !r.ok() {
				if !seen[r.path] {
					c.pass.Report(analysis.Diagnostic{Pos: ct.ref.Pos, End: ct.ref.End, Category: CategoryInvalid,
						Message: fmt.Sprintf("cited guard record %s fails verification: %s", r.path, guardProblem(r))})
				}
				seen[r.path] = true
				continue
			}
			if latest == nil || r.g.Later(latest.g) {
				latest, latestRef = r, ct.ref
			}
		}
	}
	reviewed, hasDate := docDate(d)
	for _, f := range d.Facts.Each() {
		key := normKey(f.Key)
		get, ok := guardFacts[key]
		if !ok {
			continue
		}
		stated, ok := scalar(f.Value)
		if !ok {
			continue
		}
		field := strings.ReplaceAll(key, " ", "_")
		claimsPass := (key == "guard status" && stated == ledger.GuardPass) ||
			(key == "core route admission status" && stated == ledger.RouteAdmitted)
		switch {
		case latest == nil:
			if claimsPass {
				c.pass.Report(analysis.Diagnostic{Pos: f.ValuePos, End: f.End, Category: CategoryMismatch,
					Message: fmt.Sprintf("%s: the document says %s, but it cites no verified guard record (sotvet guard) that passed", field, stated)})
			}
		case get(latest.g) == stated:
		case claimsPass || !hasDate || !recordDay(latest.g).Before(reviewed):
			// A claim of pass answers to the latest record whatever its
			// age; any other fact to a record not older than the
			// document's review.
			why := "the latest verified guard record it cites"
			if !claimsPass {
				why = "a guard record newer than the document's review"
			}
			c.pass.Report(analysis.Diagnostic{Pos: f.ValuePos, End: f.End, Category: CategoryMismatch,
				Message: fmt.Sprintf("%s: the document says %s, but %s, %s (%s), has %s",
					field, stated, why, latest.g.GuardID, latest.g.StartedAt, get(latest.g)),
				Related: []analysis.RelatedInformation{{Pos: latestRef.Pos, End: latestRef.End, Message: "guard record " + latest.g.GuardID + " cited here"}},
			})
		}
	}
}

// guardCitation loads what a citation names.
func (c *checker) guardCitation(r sotparse.Ref, local string) *guardCitation {
	ct := &guardCitation{ref: r, local: local}
	info, err := os.Stat(local)
	if err != nil {
		ct.missing = true
		return ct
	}
	if !info.IsDir() {
		ct.records = []*guardRecord{c.guardRecord(local)}
		return ct
	}
	ents, err := os.ReadDir(local)
	if err != nil {
		ct.records = []*guardRecord{{path: local, err: err}}
		return ct
	}
	for _, e := range ents {
		if id, ok := strings.CutSuffix(e.Name(), ".json"); ok && ledger.ValidGuardID(id) {
			ct.records = append(ct.records, c.guardRecord(filepath.Join(local, e.Name())))
		}
	}
	return ct
}

// guardRecord verifies and decodes one record, once per run.
func (c *checker) guardRecord(p string) *guardRecord {
	if r, ok := c.guardCache[p]; ok {
		return r
	}
	r := &guardRecord{path: p}
	c.guardCache[p] = r
	r.violations, r.err = verify.Record(p, verify.Options{TrustedKeys: trustedKeys.keys})
	if r.err != nil {
		return r
	}
	data, err := ledger.ReadFile(p)
	if err != nil {
		r.err = err
		return r
	}
	var g ledger.Guard
	if hevidence.DecodeStrict(data, &g) == nil {
		r.g = &g
	}
	return r
}

func guardProblem(r *guardRecord) string {
	switch {
	case r.err != nil:
		return r.err.Error()
	case len(r.violations) > 0:
		return summarize(r.violations)
	}
	return "not a guard record"
}

// docDate is the day the document was last reviewed (else created).
func docDate(d *sotparse.Doc) (time.Time, bool) {
	fm := d.Frontmatter
	if fm == nil {
		return time.Time{}, false
	}
	for _, f := range []*sotparse.Field{fm.LastReviewed, fm.Created} {
		if f == nil {
			continue
		}
		if t, err := f.Date(); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// recordDay is the UTC day the guard ran: documents are reviewed by the
// day, so a record of the review's own day counts as newer.
func recordDay(g *ledger.Guard) time.Time {
	t, err := time.Parse(time.RFC3339, g.StartedAt)
	if err != nil {
		return time.Time{}
	}
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
