package structure_test

import (
	"testing"

	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/structure"
)

// TestParaphrases runs the paraphrase set of near-duplicate-line: the
// corpus instances restated in other words must be found, parallel
// statements must stay silent. Written from the rule's description.
func TestParaphrases(t *testing.T) {
	checktest.Paraphrases(t, "testdata/paraphrase/near-duplicate-line.txtar", "near-duplicate-line", structure.Analyzer)
}
