package evidence

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"

	"golang.org/x/tools/go/analysis"

	hevidence "github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/ledger"
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
	if len(ledger.Unmarshal(data, &o, nil)) > 0 {
		return "invalid"
	}
	return o.Decision
}

// stageHeading matches a section about one stage: "Stage 3 - Copied Repo
// Fixture", "Stage 5: owned repo".
var stageHeading = regexp.MustCompile(`(?i)^stage\s+([1-9])\b`)

// stageSections reports a run cited in a section about stage N whose
// report is a staged run at another stage: the document files the
// evidence under the wrong rung.
func (c *checker) stageSections(s sections, cites []*citation) {
	for _, ct := range cites {
		if ct.missing {
			continue
		}
		r := c.verify(ct.dir)
		if r.report == nil || r.report.Stage == 0 {
			continue
		}
		n := 0
		for i := s.at(ct.ref.Pos); i >= 0; i-- {
			h := s.hs[i]
			if m := stageHeading.FindStringSubmatch(h.Text); m != nil && before(ct.ref.Pos, s.end(i, true)) {
				n, _ = strconv.Atoi(m[1])
				break
			}
		}
		if n != 0 && n != r.report.Stage {
			c.pass.Report(analysis.Diagnostic{Pos: ct.ref.Pos, End: ct.ref.End, Category: CategoryMismatch,
				Message: fmt.Sprintf("stage: the document cites run %s under stage %d, but its report.json has stage %d", r.report.RunID, n, r.report.Stage)})
		}
	}
}
