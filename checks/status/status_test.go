package status_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/internal/vocab"
	"github.com/svrnty/sotvet/checks/status"
)

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
		{dir: "stale-issue", category: "stale-issue"},
		{dir: "stale-remains-blocked", category: "stale-remains-blocked"},
		{dir: "stale-blocked-by", category: "stale-blocked-by"},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			if tc.extra != "" {
				checktest.SetFlag(t, status.Analyzer, vocab.FlagName, tc.extra)
			}
			for _, f := range checktest.Run(t, filepath.Join("testdata", tc.dir), status.Analyzer) {
				if f.Category != tc.category {
					t.Errorf("%s:%d: category %q, want %q", f.File, f.Line, f.Category, tc.category)
				}
				want := checks.SeverityError
				if strings.HasPrefix(tc.category, "stale-") {
					want = checks.SeverityWarning // staleness is reported, never fatal
				}
				if f.Severity != want {
					t.Errorf("%s:%d: severity %q, want %s", f.File, f.Line, f.Severity, want)
				}
				if len(f.Related) == 0 {
					t.Errorf("%s:%d: no related location", f.File, f.Line)
				}
			}
		})
	}
}

// TestExtraStatusesOff checks that a status outside the vocabulary is not
// compared with the workboard.
func TestExtraStatusesOff(t *testing.T) {
	for _, f := range checktest.Findings(t, filepath.Join("testdata", "extra-statuses"), status.Analyzer) {
		t.Errorf("unexpected finding without -extra-statuses: %s:%d: %s", f.File, f.Line, f.Message)
	}
}

func TestDoc(t *testing.T) {
	a := status.Analyzer
	checktest.Doc(t, a, "status: check that document, work item and workboard statuses agree")
	if a.Flags.Lookup(vocab.FlagName) == nil {
		t.Errorf("no -%s flag", vocab.FlagName)
	}
}

// TestCorpus runs the check over the real corpus and logs the findings.
func TestCorpus(t *testing.T) {
	checktest.LogFindings(t, checktest.Findings(t, checktest.CorpusDir(t), status.Analyzer))
}

// BenchmarkRun measures the check alone, on the corpus parsed once
// (SOTVET_BENCH_CORPUS names another workspace, a synthetic one say).
func BenchmarkRun(b *testing.B) {
	checktest.BenchPass(b, checktest.BenchCorpusDir(b), nil, status.Analyzer)
}
