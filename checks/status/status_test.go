package status_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/internal/vocab"
	"github.com/svrnty/sotvet/checks/status"
	"github.com/svrnty/sotvet/internal/cputime"
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
		{dir: "stale-other-blocked", category: "stale-other-blocked"},
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
	checktest.BenchPass(b, checktest.BenchCorpusDir(b), cputime.Process, status.Analyzer)
}

// TestOtherBlockedShapes writes the stale-other-blocked situation twice
// from one template: with the defect (the other item validated, a
// statement dated after its validation), and consistent (the item still a
// candidate, the only dated statement older than the validation). The
// consistent set is the rule's negative set: any finding there is a false
// alarm.
func TestOtherBlockedShapes(t *testing.T) {
	files := func(defect bool) map[string]string {
		st := "candidate"
		later := ""
		if defect {
			st = "validated"
			later = "\n## New Evidence - 2026-06-03\n\n- `CTO-WORK-070` remains blocked until the rerun.\n"
		}
		doc := func(body string) string {
			return "---\nname: Test Document\nstatus: draft\nowner: jp\ncreated: 2026-06-01\nlast_reviewed: 2026-06-03\n---\n\n# Test Document\n\n" + body
		}
		item := func(id, title, status string) string {
			return "  - id: " + id + "\n    title: " + title + "\n    status: " + status + "\n    blocked_by: []\n    source: .sot/03-PROTOCOLS/CTO-B-ISSUES.md\n"
		}
		return map[string]string{
			"WORKBOARD.yaml": "items:\n" + item("CTO-WORK-070", "Journaled", "validated") + item("CTO-WORK-071", "Other", st),
			".sot/03-PROTOCOLS/CTO-B-ISSUES.md": doc("## CTO-WORK-070 - Journaled\n\nStatus: validated.\n\n## CTO-WORK-071 - Other\n\nStatus: " + st +
				".\n\n## Pass Evidence - 2026-06-02\n\n- Result: `CTO-WORK-070` is validated.\n"),
			".sot/03-PROTOCOLS/CTO-A-ISSUES.md": doc("## CTO-WORK-075 - Dependent\n\nStatus: candidate.\n\nAcceptance:\n\n- [ ] `CTO-WORK-071` remains blocked until the pass exists.\n\n" +
				"## Old Evidence - 2026-06-01\n\n- `CTO-WORK-070` remains blocked because no pass exists.\n- `CTO-WORK-071` is still blocked.\n" + later),
		}
	}
	for _, defect := range []bool{true, false} {
		dir := t.TempDir()
		checktest.WriteFiles(t, dir, files(defect))
		fs := checktest.Findings(t, dir, status.Analyzer)
		if !defect {
			for _, f := range fs {
				t.Errorf("consistent set: false alarm %s:%d: [%s] %s", f.File, f.Line, f.Category, f.Message)
			}
			continue
		}
		if len(fs) != 2 {
			t.Errorf("defect set: %d findings, want 2 (CTO-WORK-070 and CTO-WORK-071)", len(fs))
		}
		for _, f := range fs {
			if f.Category != "stale-other-blocked" || f.Severity != checks.SeverityWarning || len(f.Related) == 0 {
				t.Errorf("%s:%d: [%s] %s %s with %d related", f.File, f.Line, f.Category, f.Severity, f.Message, len(f.Related))
			}
		}
	}
}

// TestStillBlockedChanges: the remain patterns are kept per set of
// -still-blocked phrases, so a change of the flag within one process (a
// session whose configuration changed) is seen by the next run, and so is
// its restoring.
func TestStillBlockedChanges(t *testing.T) {
	dir := t.TempDir()
	checktest.WriteFiles(t, dir, map[string]string{
		".sot/03-PROTOCOLS/CTO-HOLD-ISSUES.md": "---\nname: cto-hold-issues\nstatus: draft\nowner: jp\ncreated: 2026-06-01\nlast_reviewed: 2026-06-01\n---\n\n# CTO Hold Issues\n\n" +
			"## CTO-WORK-040 - On Hold\n\nStatus: validated.\n\nThis issue is on hold until the pass report exists.\n",
	})
	count := func(t *testing.T, want int) {
		t.Helper()
		fs := checktest.Findings(t, dir, status.Analyzer)
		if len(fs) != want {
			checktest.LogFindings(t, fs)
			t.Fatalf("%d findings, want %d", len(fs), want)
		}
		for _, f := range fs {
			if f.Category != "remains-blocked" {
				t.Errorf("%s:%d: category %q, want remains-blocked", f.File, f.Line, f.Category)
			}
		}
	}
	count(t, 0)
	t.Run("on-hold", func(t *testing.T) {
		checktest.SetFlag(t, status.Analyzer, "still-blocked", "is on hold")
		count(t, 1)
	})
	count(t, 0) // the flag restored
}
