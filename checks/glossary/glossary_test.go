package glossary_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/glossary"
)

func TestGlossary(t *testing.T) {
	for _, tc := range []struct {
		dir, category string
	}{
		{"clean", ""},
		{"undefined", "undefined-term"},
		{"empty-definition", "empty-definition"},
		{"missing-glossary", "missing-glossary"},
		{"unreadable-glossary", ""},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			for _, f := range checktest.Run(t, filepath.Join("testdata", tc.dir), glossary.Analyzer) {
				if f.Category != tc.category {
					t.Errorf("%s:%d: category %q, want %q", f.File, f.Line, f.Category, tc.category)
				}
				if f.Severity != checks.SeverityError {
					t.Errorf("%s:%d: severity %q, want error", f.File, f.Line, f.Severity)
				}
			}
		})
	}
}

func TestDoc(t *testing.T) {
	a := glossary.Analyzer
	if err := analysis.Validate([]*analysis.Analyzer{a}); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(a.Doc, "\n")
	if first != "glossary: check that terms documents say CONTEXT.md defines are defined there" {
		t.Errorf("Doc summary = %q", first)
	}
	if a.URL != "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#glossary" {
		t.Errorf("URL = %q", a.URL)
	}
}

// TestCorpus runs the check over the real corpus and logs the findings.
func TestCorpus(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpus", "cto-planb"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	res, _, err := checks.Run(checks.Options{Root: dir, FS: os.DirFS(dir), Analyzers: []*analysis.Analyzer{glossary.Analyzer}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		t.Logf("%s:%d:%d: [%s/%s] %s", f.File, f.Line, f.Col, f.Check, f.Category, f.Message)
	}
	t.Logf("%d findings", len(res.Findings))
}

// BenchmarkCorpus measures the check (the parse included) on the real corpus.
func BenchmarkCorpus(b *testing.B) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpus", "cto-planb"))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("corpus not available: %v", err)
	}
	fsys := os.DirFS(dir)
	for b.Loop() {
		if _, _, err := checks.Run(checks.Options{Root: dir, FS: fsys, Analyzers: []*analysis.Analyzer{glossary.Analyzer}}); err != nil {
			b.Fatal(err)
		}
	}
}
