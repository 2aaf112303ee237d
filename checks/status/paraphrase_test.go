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
	for _, set := range []struct {
		file, rule string
		missing    []string
	}{
		{"stale-other-blocked", "stale-other-blocked", nil},
		// Missed for their verb or clause, not their date: "we confirmed
		// that `X` continues" (a clause after "that"), "`X` (checked
		// ...) stays blocked", "has stayed blocked".
		{"stale-other-blocked-dated", "stale-other-blocked", []string{"dated-05", "dated-06", "dated-07"}},
		{"stale-remains-blocked", "stale-remains-blocked", nil},
		{"stale-blocker", "stale-blocker", nil},
		{"stale-blocker-dated", "stale-blocker", nil},
		{"pending-validation", "pending-validation", nil},
	} {
		t.Run(set.file, func(t *testing.T) {
			checktest.ParaphrasesMissing(t, "testdata/paraphrase/"+set.file+".txtar", set.rule, set.missing, status.Analyzer)
		})
	}
}
