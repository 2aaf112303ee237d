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
		{"stale-other-blocked-dated", "stale-other-blocked", nil},
		// Missed: "is blocked on the data-retention question" (a plain
		// "is blocked" with "on" declares a dependency, as "is blocked
		// by" does), "reported this morning that" (words between the verb
		// and "that"), "is blocked again until" (a word inside the phrase).
		{"stale-other-blocked-forms", "stale-other-blocked", []string{"forms-11", "forms-14", "forms-15"}},
		{"stale-other-blocked-review", "stale-other-blocked", nil},
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
