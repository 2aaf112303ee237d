package contradiction_test

import (
	"testing"

	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/contradiction"
)

// TestParaphrases runs the paraphrase sets of the rules: each corpus
// instance said in other words must be found, and consistent near-misses
// must stay silent. The sets were written from each rule's description, not
// from its code. known lists, per rule, the variants the rule still gets
// wrong: they are logged, and the list may only shrink.
func TestParaphrases(t *testing.T) {
	known := map[string][]string{
		"missing-id": {"neg/skip-recorded-in-workboard", "neg/skip-recorded-in-issues"},
	}
	for _, rule := range []string{"stale-record", "misplaced-guard", "provenance", "role", "circular-readiness", "superseded", "approval-timeline", "mislabeled-command", "copied-results", "closeout-workboard", "missing-id"} {
		t.Run(rule, func(t *testing.T) {
			checktest.ParaphrasesKnown(t, "testdata/paraphrase/"+rule+".txtar", rule, known[rule], contradiction.Analyzer)
		})
	}
}
