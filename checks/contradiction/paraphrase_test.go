package contradiction_test

import (
	"testing"

	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/contradiction"
)

// rules are the rules that have a paraphrase set, testdata/paraphrase/RULE.txtar.
var rules = []string{"stale-record", "misplaced-guard", "provenance", "role", "circular-readiness", "superseded",
	"approval-timeline", "mislabeled-command", "copied-results", "closeout-workboard", "missing-id"}

// TestParaphrases runs the paraphrase sets of the rules: each corpus
// instance said in other words must be found, and consistent near-misses
// must stay silent. The sets were written from each rule's description, not
// from its code.
func TestParaphrases(t *testing.T) {
	for _, rule := range rules {
		t.Run(rule, func(t *testing.T) {
			checktest.Paraphrases(t, "testdata/paraphrase/"+rule+".txtar", rule, contradiction.Analyzer)
		})
	}
}
