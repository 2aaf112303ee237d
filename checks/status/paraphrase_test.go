package status_test

import (
	"testing"

	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/status"
)

// TestParaphrases runs the paraphrase sets of the stale-other rules: each
// corpus instance said in other words must be found, and consistent
// near-misses must stay silent. The sets were written from each rule's
// description, not from its code.
func TestParaphrases(t *testing.T) {
	for _, rule := range []string{"stale-other-blocked", "stale-remains-blocked", "stale-blocker", "pending-validation"} {
		t.Run(rule, func(t *testing.T) {
			checktest.Paraphrases(t, "testdata/paraphrase/"+rule+".txtar", rule, status.Analyzer)
		})
	}
}
