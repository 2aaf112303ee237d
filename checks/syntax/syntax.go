package syntax

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/sotparse"
)

//go:embed doc.go
var doc string

// Analyzer reports the problems sotparse recorded for the "syntax" check.
var Analyzer = &analysis.Analyzer{
	Name:     "syntax",
	Doc:      docutil.MustExtract(doc, "syntax"),
	URL:      "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#syntax",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
	for _, p := range ws.ProblemsFor("syntax") {
		pass.Report(analysis.Diagnostic{Pos: p.Pos, End: p.End, Category: "syntax", Message: p.Message})
	}
	return nil, nil
}
