package status_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/internal/vocab"
	"github.com/svrnty/sotvet/checks/status"
)

// setFlag sets an analyzer flag for the duration of the test.
func setFlag(t *testing.T, name, value string) {
	t.Helper()
	f := status.Analyzer.Flags.Lookup(name)
	if f == nil {
		t.Fatalf("no flag -%s", name)
	}
	old := f.Value.String()
	if err := f.Value.Set(value); err != nil {
		t.Fatalf("-%s=%s: %v", name, value, err)
	}
	t.Cleanup(func() { _ = f.Value.Set(old) })
}

func TestStatus(t *testing.T) {
	for _, tc := range []struct {
		dir      string
		category string // of every finding
		extra    string // -extra-statuses
	}{
		{dir: "clean"},
		{dir: "doc-status", category: "doc-status"},
		{dir: "workboard-mismatch", category: "workboard-mismatch"},
		{dir: "unchecked-acceptance", category: "unchecked-acceptance"},
		{dir: "blocked-by-open", category: "blocked-by-open"},
		{dir: "remains-blocked", category: "remains-blocked"},
		{dir: "extra-statuses", category: "workboard-mismatch", extra: "superseded"},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			if tc.extra != "" {
				setFlag(t, vocab.FlagName, tc.extra)
			}
			for _, f := range checktest.Run(t, filepath.Join("testdata", tc.dir), status.Analyzer) {
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

// TestExtraStatusesOff checks that a status outside the vocabulary is not
// compared with the workboard.
func TestExtraStatusesOff(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join("testdata", "extra-statuses"))
	if err != nil {
		t.Fatal(err)
	}
	res, _, err := checks.Run(checks.Options{Root: abs, FS: os.DirFS(abs), Analyzers: []*analysis.Analyzer{status.Analyzer}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		t.Errorf("unexpected finding without -extra-statuses: %s:%d: %s", f.File, f.Line, f.Message)
	}
}

func TestDoc(t *testing.T) {
	a := status.Analyzer
	if err := analysis.Validate([]*analysis.Analyzer{a}); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(a.Doc, "\n")
	if first != "status: check that document, work item and workboard statuses agree" {
		t.Errorf("Doc summary = %q", first)
	}
	if a.Flags.Lookup(vocab.FlagName) == nil {
		t.Errorf("no -%s flag", vocab.FlagName)
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
	res, _, err := checks.Run(checks.Options{Root: dir, FS: os.DirFS(dir), Analyzers: []*analysis.Analyzer{status.Analyzer}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		t.Logf("%s:%d:%d: [%s/%s] %s", f.File, f.Line, f.Col, f.Check, f.Category, f.Message)
	}
	t.Logf("%d findings", len(res.Findings))
}
