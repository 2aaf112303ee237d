package authority_test

import (
	"testing"

	"github.com/svrnty/sotvet/checks/authority"
	"github.com/svrnty/sotvet/checks/checktest"
)

// TestParaphrases runs the paraphrase sets of the claim rules: the corpus
// instance said in other words must be found, consistent near-misses not.
// A claim of promotion may be reported as one of Core authority ("is a
// Core Protocol"): its set asks for either.
func TestParaphrases(t *testing.T) {
	t.Run("core-authority", func(t *testing.T) {
		checktest.Paraphrases(t, "testdata/paraphrase/core-authority.txtar", "core-authority", authority.Analyzer)
	})
	t.Run("core-promotion", func(t *testing.T) {
		checktest.Paraphrases(t, "testdata/paraphrase/core-promotion.txtar", "core-promotion|core-authority", authority.Analyzer)
	})
	// Sets written last, from the class descriptions alone (issue 35). The
	// claim rules are expressions matched on sentences and "- key: value"
	// facts; what they do not read yet: a key/value table row, a bold
	// label whose colon is inside the emphasis, and the claim's other
	// word orders (passive, "defaults to", "serves as", "replaced ... as",
	// "flipped ... to true", "given by JP").
	missing := map[string][]string{
		"runtime-default-activation": {},
		"default-backend":            {},
		"approval-contradiction":     {},
	}
	for _, rule := range []string{"runtime-default-activation", "default-backend", "approval-contradiction"} {
		t.Run(rule, func(t *testing.T) {
			checktest.ParaphrasesMissing(t, "testdata/paraphrase/"+rule+".txtar", rule, missing[rule], authority.Analyzer)
		})
	}
}
