package evidence

import (
	"fmt"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	hevidence "github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/sotparse"
)

// The staged proof ladder's facts: what a document says about a run's
// stage, its approval and its operator outcome.
func init() {
	add := func(spec factSpec, keys ...string) {
		for _, k := range keys {
			factSpecs[k] = spec
		}
	}
	add(factSpec{field: "stage", kind: kInt, get: func(r *hevidence.Report) any { return r.Stage }}, "stage", "proof stage")
	add(factSpec{field: "mutation_mode", kind: kWord, get: func(r *hevidence.Report) any { return r.MutationMode }}, "mutation mode")
	add(factSpec{field: "approval_id", kind: kWord, get: func(r *hevidence.Report) any { return r.ApprovalID }}, "approval id")
	add(factSpec{field: "approval_consumed", kind: kBool, get: func(r *hevidence.Report) any { return r.ApprovalConsumed }}, "approval consumed")
	add(factSpec{field: "consumed_by_pass_evidence", kind: kWord, get: func(r *hevidence.Report) any { return r.ConsumedByPassEvidence }}, "consumed by pass evidence")
	add(factSpec{field: "operator_outcome_required", kind: kBool, get: func(r *hevidence.Report) any { return r.OperatorOutcomeRequired }}, "operator outcome required")
	add(factSpec{field: "source_non_mutation.unchanged (negated)", kind: kBool, get: func(r *hevidence.Report) any {
		return r.SourceNonMutation != nil && !r.SourceNonMutation.Unchanged
	}}, "source repository mutated", "source mutated")
	add(factSpec{field: outcomeField, kind: kWord, get: func(*hevidence.Report) any { return "" }}, "operator outcome")
	runGetters[outcomeField] = outcomeOf
}

const outcomeField = "outcome.json decision"

// runGetters read facts that lie beside report.json, by field.
var runGetters = map[string]func(dir string) any{}

// outcomeOf is the run's recorded operator decision: accepted, rejected,
// or none when it has no valid outcome.json.
func outcomeOf(dir string) any {
	data, err := ledger.ReadFile(filepath.Join(dir, ledger.OutcomeFile))
	if err != nil {
		return "none"
	}
	var o ledger.Outcome
	if len(ledger.Unmarshal(data, &o)) > 0 {
		return "invalid"
	}
	return o.Decision
}

// stageHeading matches a section about one stage: "Stage 3 - Copied Repo
// Fixture", "Stage 5: owned repo".
var stageHeading = lazyRE.New(`(?i)^stage\s+([1-9])\b`)

// stageSections reports a run cited in a section about stage N whose
// report is a staged run at another stage: the document files the
// evidence under the wrong rung.
func (c *checker) stageSections(d *sotparse.Doc, s sections, cites []*citation) {
	c.stageClaims(d, s, cites)
	for _, ct := range cites {
		if ct.missing {
			continue
		}
		r := c.verify(ct.dir)
		if r.report == nil || r.report.Stage == 0 {
			continue
		}
		n, _ := stageOf(s, ct.ref.Pos)
		if n != 0 && n != r.report.Stage {
			c.pass.Report(analysis.Diagnostic{Pos: ct.ref.Pos, End: ct.ref.End, Category: CategoryMismatch,
				Message: fmt.Sprintf("stage: the document cites run %s under stage %d, but its report.json has stage %d", r.report.RunID, n, r.report.Stage)})
		}
	}
}

// stageOf returns the stage whose section holds p, and that section's
// heading index; 0 when p is in no stage's section.
func stageOf(s sections, p token.Pos) (int, int) {
	for i := s.at(p); i >= 0; i-- {
		if m := stageHeading.FindStringSubmatch(s.hs[i].Text); m != nil && before(p, s.end(i, true)) {
			n, _ := strconv.Atoi(m[1])
			return n, i
		}
	}
	return 0, -1
}

// stageClaims checks "Status: validated ..." in a stage's section against
// the staged runs the section cites: one of them must be a verified pass at
// that stage, with an accepted operator outcome when its report requires
// one. Sections that cite no staged run on this machine are not judged.
func (c *checker) stageClaims(d *sotparse.Doc, s sections, cites []*citation) {
	for _, l := range d.StatusLines {
		if !strings.HasPrefix(strings.ToLower(strings.TrimSpace(l.Value)), "validated") {
			continue
		}
		n, h := stageOf(s, l.Pos)
		if n == 0 {
			continue
		}
		start, end := s.hs[h].Pos, s.end(h, true)
		var staged []string
		ok := false
		for _, ct := range cites {
			if ct.missing || ct.ref.Pos < start || !before(ct.ref.Pos, end) {
				continue
			}
			r := c.verify(ct.dir)
			if r.report == nil || r.report.Stage == 0 {
				continue
			}
			rep := r.report
			staged = append(staged, fmt.Sprintf("%s (stage %d, %s)", rep.RunID, rep.Stage, rep.Status))
			if rep.Stage == n && rep.Status == hevidence.StatusPass && r.err == nil && len(r.violations) == 0 &&
				(!rep.OperatorOutcomeRequired || outcomeOf(ct.dir) == ledger.Accepted) {
				ok = true
			}
		}
		if len(staged) == 0 || ok {
			continue
		}
		c.pass.Report(analysis.Diagnostic{Pos: l.Pos, End: l.End, Category: CategoryMismatch,
			Message: fmt.Sprintf("stage %d: the document says validated, but no run it cites under this stage is a verified pass at stage %d with the operator outcome it requires: %s",
				n, n, strings.Join(staged, ", "))})
	}
}
