package syntax_test

import (
	"testing"

	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/syntax"
)

func TestClean(t *testing.T)  { checktest.Run(t, "testdata/clean", syntax.Analyzer) }
func TestBroken(t *testing.T) { checktest.Run(t, "testdata/broken", syntax.Analyzer) }
