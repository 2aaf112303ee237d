package consistency_test

import (
	"testing"

	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/consistency"
)

// TestParaphrases runs the paraphrase sets of consistency's rules: each
// corpus instance said in other words must be found, and consistent
// near-misses must stay silent.
func TestParaphrases(t *testing.T) {
	for _, rule := range []string{"record-contradiction"} {
		t.Run(rule, func(t *testing.T) {
			checktest.Paraphrases(t, "testdata/paraphrase/"+rule+".txtar", rule, consistency.Analyzer)
		})
	}
}
