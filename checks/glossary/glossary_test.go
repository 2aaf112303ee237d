package glossary_test

import (
	"path/filepath"
	"testing"

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
	checktest.Doc(t, a, "glossary: check that terms documents say CONTEXT.md defines are defined there")
	if a.URL != "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#glossary" {
		t.Errorf("URL = %q", a.URL)
	}
}

// TestCorpus runs the check over the real corpus and logs the findings.
func TestCorpus(t *testing.T) {
	checktest.LogFindings(t, checktest.Findings(t, checktest.CorpusDir(t), glossary.Analyzer))
}

// BenchmarkCorpus measures the check (the parse included) on the real corpus.
func BenchmarkCorpus(b *testing.B) {
	checktest.BenchRun(b, checktest.CorpusDir(b), nil, glossary.Analyzer)
}
