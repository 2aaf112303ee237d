package checks_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/sotparse"
)

// relatedAnalyzer reports the first heading of every document, pointing at
// the workboard's first byte when withRelated.
func relatedAnalyzer(withRelated bool) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     "relatedtest",
		Doc:      "relatedtest: reports the first heading of every document",
		Requires: []*analysis.Analyzer{sotparse.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
			for _, d := range ws.Docs {
				if len(d.Headings) == 0 {
					continue
				}
				h := d.Headings[0]
				diag := analysis.Diagnostic{Pos: h.Pos, End: h.End, Category: "h1", Message: "heading"}
				if withRelated {
					diag.Related = []analysis.RelatedInformation{{Pos: ws.Workboard.File.Pos(0), Message: "the workboard"}}
				}
				pass.Report(diag)
			}
			return nil, nil
		},
	}
}

// TestRelatedKeepsFingerprints checks that related places are resolved to
// file, line and column, and leave the fingerprint as it was.
func TestRelatedKeepsFingerprints(t *testing.T) {
	dir := t.TempDir()
	checktest.WriteFiles(t, dir, map[string]string{
		"WORKBOARD.yaml":     "items: []\n",
		".sot/X-EVIDENCE.md": "---\nname: x\n---\n\n# X\n",
	})
	plain, _ := checktest.Result(t, dir, relatedAnalyzer(false))
	with, _ := checktest.Result(t, dir, relatedAnalyzer(true))
	if len(plain.Findings) != 1 || len(with.Findings) != 1 {
		t.Fatalf("findings %d and %d, want 1 each", len(plain.Findings), len(with.Findings))
	}
	if a, b := plain.Findings[0].Fingerprint, with.Findings[0].Fingerprint; a != b || a == "" {
		t.Errorf("fingerprint %q without related places, %q with them", a, b)
	}
	want := checks.Related{File: "WORKBOARD.yaml", Line: 1, Col: 1, Message: "the workboard"}
	if r := with.Findings[0].Related; len(r) != 1 || r[0] != want {
		t.Errorf("related %+v, want [%+v]", r, want)
	}
	if len(plain.Findings[0].Related) != 0 {
		t.Errorf("related %+v on a finding without any", plain.Findings[0].Related)
	}
}
