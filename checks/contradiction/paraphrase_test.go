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
		"superseded": {"pos/scope-evidence-bullet", "pos/must-remain-candidate", "pos/table-cell", "pos/word-order", "pos/bold-as",
			"pos/blocker-kind-dated", "pos/record-kind", "pos/closeout-validates", "neg/attempt-links-successor", "neg/until-met"},
		"approval-timeline": {"pos/proof-file", "pos/prose-denial-fenced-path", "pos/table", "pos/bold-code-pending-date", "pos/evidence-kind",
			"pos/yaml-fact-granted-false", "pos/other-validated-side", "pos/corpus-pointer", "pos/run-directory", "neg/blocked-run"},
	}
	for _, rule := range []string{"stale-record", "misplaced-guard", "provenance", "role", "circular-readiness", "superseded", "approval-timeline"} {
		t.Run(rule, func(t *testing.T) {
			checktest.ParaphrasesKnown(t, "testdata/paraphrase/"+rule+".txtar", rule, known[rule], contradiction.Analyzer)
		})
	}
}
