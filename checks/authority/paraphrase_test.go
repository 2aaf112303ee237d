package authority_test

import (
	"testing"

	"github.com/svrnty/sotvet/checks/authority"
	"github.com/svrnty/sotvet/checks/checktest"
)

// TestParaphrases runs the paraphrase sets of the claim rules: the corpus
// instance said in other words must be found, consistent near-misses not.
func TestParaphrases(t *testing.T) {
	checktest.Paraphrases(t, "testdata/paraphrase/core-authority.txtar", "core-authority", authority.Analyzer)
}
