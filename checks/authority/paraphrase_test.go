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
	// Sets written last, from the class descriptions alone (issue 35).
	// Their table rows, bold labels and other word orders (the passive,
	// "defaults to", "serves as", "replaced ... as", "flipped ... to true",
	// "given by JP") are read as facts in every form (sotparse's
	// KeyValues) and as sentences in their canonical form (canonical).
	for _, rule := range []string{"runtime-default-activation", "default-backend", "approval-contradiction"} {
		t.Run(rule, func(t *testing.T) {
			checktest.Paraphrases(t, "testdata/paraphrase/"+rule+".txtar", rule, authority.Analyzer)
		})
	}
}
