package consistency_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/consistency"
	"github.com/svrnty/sotvet/internal/cputime"
)

// errorCategories are the categories that are errors by default.
var errorCategories = map[string]bool{"duplicate-heading": true, "record-contradiction": true}

func TestConsistency(t *testing.T) {
	for _, dir := range []string{"clean", "defects"} {
		t.Run(dir, func(t *testing.T) {
			seen := map[string]bool{}
			for _, f := range checktest.Run(t, filepath.Join("testdata", dir), consistency.Analyzer) {
				seen[f.Category] = true
				want := checks.SeverityWarning
				if errorCategories[f.Category] {
					want = checks.SeverityError
				}
				if f.Severity != want {
					t.Errorf("%s:%d: %s severity %q, want %s", f.File, f.Line, f.Category, f.Severity, want)
				}
				if len(f.Related) == 0 {
					t.Errorf("%s:%d: no related location", f.File, f.Line)
				}
			}
			if dir == "defects" {
				for _, c := range []string{"draft-complete", "stale-review", "duplicate-heading", "date-order", "count-mismatch", "record-contradiction", "schema-drift"} {
					if !seen[c] {
						t.Errorf("no %s finding", c)
					}
				}
			}
		})
	}
}

// TestFixes applies the fixes: draft-complete sets the status, stale-review
// bumps last_reviewed. Both assert a judgement, so only an unsafe run
// applies them.
func TestFixes(t *testing.T) {
	res, ws := checktest.Result(t, filepath.Join("testdata", "defects"), consistency.Analyzer)
	if out, n := checks.ApplyFixes(ws, res.Findings, false); len(out) != 0 || n.Applied != 0 || n.Unsafe == 0 {
		t.Errorf("a safe run applied %+v, changing %d files; want every fix left as unsafe", n, len(out))
	}
	out, _ := checks.ApplyFixes(ws, res.Findings, true)
	got := string(out[".sot/03-PROTOCOLS/CTO-BAD-ISSUES.md"])
	for _, want := range []string{"\nstatus: validated\n", "\nlast_reviewed: 2026-06-03\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("fixed file lacks %q:\n%s", want, got[:200])
		}
	}
}

// TestDeclaredSchema checks that -schema reports every document whose
// identity keys differ, the majority included.
func TestDeclaredSchema(t *testing.T) {
	checktest.SetFlag(t, consistency.Analyzer, "schema", "title,route")
	var files []string
	for _, f := range checktest.Findings(t, filepath.Join("testdata", "defects"), consistency.Analyzer) {
		if f.Category == "schema-drift" {
			files = append(files, filepath.Base(f.File))
			if !strings.Contains(f.Message, "the workspace's schema (-schema) is title+route") {
				t.Errorf("message %q", f.Message)
			}
		}
	}
	if strings.Join(files, " ") != "CTO-BAD-ISSUES.md CTO-ONE-PRD.md CTO-TWO-PRD.md" {
		t.Errorf("schema-drift in %q", files)
	}
	if err := consistency.Analyzer.Flags.Set("schema", "name,colour"); err == nil {
		t.Error("-schema name,colour accepted")
	}
}

func TestDoc(t *testing.T) {
	checktest.Doc(t, consistency.Analyzer, "consistency: report documents whose frontmatter, headings, counts or record statements contradict the workspace")
}

// TestCorpus runs the check over the real corpus and logs the findings.
func TestCorpus(t *testing.T) {
	checktest.LogFindings(t, checktest.Findings(t, checktest.CorpusDir(t), consistency.Analyzer))
}

// BenchmarkRun measures the check alone on the corpus parsed once.
func BenchmarkRun(b *testing.B) {
	checktest.BenchPass(b, checktest.BenchCorpusDir(b), cputime.Process, consistency.Analyzer)
}

func TestRunStamps(t *testing.T) {
	for in, want := range map[string]int{
		"`/runs/20260601T025817Z-r1-x`":        1,
		"20260601T025817Z":                     1,
		"a20260601T025817Z":                    0,
		"20260601T025817Zb":                    0,
		"2026061T025817Z 20260601T02581Z":      0,
		"Z 20260601T025817Z, 20260602T000000Z": 2,
	} {
		if got := len(consistency.RunStamps([]byte(in))); got != want {
			t.Errorf("%q: %d stamps, want %d", in, got, want)
		}
	}
}

func TestISODates(t *testing.T) {
	for in, want := range map[string]string{
		"Runtime Evidence - 2026-06-01":     "2026-06-01",
		"2026-06-01 and 2026-06-02":         "2026-06-01 2026-06-02",
		"x2026-06-01":                       "",
		"2026-06-011":                       "",
		"2026-6-01, 12026-06-01, 2026-06-0": "",
		"Stage-2 run - 2026-06-01T02:58":    "", // a timestamp, not a date word
		"---2026-06-01---":                  "2026-06-01",
	} {
		if got := strings.Join(consistency.ISODates(in), " "); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
