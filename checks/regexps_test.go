package checks_test

import (
	"testing"

	_ "github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/internal/lazyre"
)

// TestExpressionsCompile: the checks' regular expressions, compiled on
// first use rather than at init, are all valid (CompileAll panics on one
// that is not).
func TestExpressionsCompile(t *testing.T) {
	lazyre.CompileAll()
}
