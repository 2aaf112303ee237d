package authority

import (
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/sotparse"
)

// runOn runs the Analyzer over the workspace in dir. The driver (package
// checks) imports this package, so in-package tests build the pass here.
func runOn(t *testing.T, dir string) (*sotparse.Workspace, []analysis.Diagnostic) {
	t.Helper()
	ws, err := sotparse.Load(dir, sotparse.Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	var diags []analysis.Diagnostic
	pass := &analysis.Pass{
		Analyzer: Analyzer,
		Fset:     ws.Fset,
		ResultOf: map[*analysis.Analyzer]any{sotparse.Analyzer: ws},
		Report:   func(d analysis.Diagnostic) { diags = append(diags, d) },
	}
	if _, err := Analyzer.Run(pass); err != nil {
		t.Fatal(err)
	}
	return ws, diags
}
