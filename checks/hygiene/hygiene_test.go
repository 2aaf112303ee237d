package hygiene_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/hygiene"
	"github.com/svrnty/sotvet/internal/cputime"
)

func TestHygiene(t *testing.T) {
	for _, dir := range []string{"clean", "defects"} {
		t.Run(dir, func(t *testing.T) {
			for _, f := range checktest.Run(t, filepath.Join("testdata", dir), hygiene.Analyzer) {
				if f.Severity != checks.SeverityWarning {
					t.Errorf("%s:%d: severity %q, want warning", f.File, f.Line, f.Severity)
				}
				if len(f.Fixes) != 1 {
					t.Errorf("%s:%d: %d fixes, want 1", f.File, f.Line, len(f.Fixes))
				}
			}
		})
	}
}

// TestFixes applies every fix to the defects workspace: the result has no
// findings left.
func TestFixes(t *testing.T) {
	res, ws := checktest.Result(t, filepath.Join("testdata", "defects"), hygiene.Analyzer)
	out, n := checks.ApplyFixes(ws, res.Findings, false)
	if n.Applied == 0 {
		t.Fatal("no fix applied")
	}
	got := string(out[".sot/03-PROTOCOLS/CTO-HYGIENE-ISSUES.md"])
	want := "# CTO Hygiene\n\nTwo blank lines above.\nTrailing spaces here.\nA tab too\n\nThree blank lines below.\n\nThe end.\n"
	if !strings.HasSuffix(got, want) {
		t.Errorf("fixed body:\n%q\nwant suffix:\n%q", got, want)
	}
	if got := string(out[".sot/03-PROTOCOLS/CTO-NOEOL-ISSUES.md"]); !strings.HasSuffix(got, "Text.\n") {
		t.Errorf("no-newline file fixed to %q", got)
	}
}

// TestRulesFlag checks that -rules selects rules by either name and rejects
// unknown ones.
func TestRulesFlag(t *testing.T) {
	checktest.SetFlag(t, hygiene.Analyzer, "rules", "MD047,no-trailing-spaces")
	var cats []string
	for _, f := range checktest.Findings(t, filepath.Join("testdata", "defects"), hygiene.Analyzer) {
		cats = append(cats, f.Category)
	}
	slices.Sort(cats)
	cats = slices.Compact(cats)
	if !slices.Equal(cats, []string{"final-newline", "trailing-spaces"}) {
		t.Errorf("categories %q", cats)
	}
	if err := hygiene.Analyzer.Flags.Set("rules", "MD999"); err == nil {
		t.Error("-rules MD999 accepted")
	}
}

func TestDoc(t *testing.T) {
	checktest.Doc(t, hygiene.Analyzer, "hygiene: report blank-line runs, blank lines at the end of a file and trailing spaces in documents")
	for _, r := range hygiene.Rules {
		if !strings.Contains(hygiene.Analyzer.Doc, r.MD) || !strings.Contains(hygiene.Analyzer.Doc, r.Name) {
			t.Errorf("doc does not name %s (%s)", r.Name, r.MD)
		}
	}
}

// TestCorpus runs the check over the real corpus and logs the findings.
func TestCorpus(t *testing.T) {
	checktest.LogFindings(t, checktest.Findings(t, checktest.CorpusDir(t), hygiene.Analyzer))
}

// TestCRLF checks that a file with CRLF line endings gets the same
// findings, and that the blank-lines fix keeps its line endings whole.
func TestCRLF(t *testing.T) {
	body := "---\r\nname: cto-crlf-issues\r\n---\r\n\r\n# CRLF\r\n\r\n\r\nText. \r\n"
	dir := t.TempDir()
	checktest.WriteFiles(t, dir, map[string]string{".sot/03-PROTOCOLS/CTO-CRLF-ISSUES.md": body})
	res, ws := checktest.Result(t, dir, hygiene.Analyzer)
	var cats []string
	for _, f := range res.Findings {
		cats = append(cats, f.Category)
	}
	if strings.Join(cats, ",") != "blank-lines,trailing-spaces" {
		t.Fatalf("categories %q", cats)
	}
	out, _ := checks.ApplyFixes(ws, res.Findings, false)
	if got, want := string(out[".sot/03-PROTOCOLS/CTO-CRLF-ISSUES.md"]), "---\r\nname: cto-crlf-issues\r\n---\r\n\r\n# CRLF\r\n\r\nText.\r\n"; got != want {
		t.Errorf("fixed to %q, want %q", got, want)
	}
}

// TestFinalLineBreaks checks final-newline on the line breaks a file may
// end with: one of any kind is enough (a lone CR is classic Mac OS's), and
// the fix keeps the first.
func TestFinalLineBreaks(t *testing.T) {
	for _, c := range []struct{ end, msg, fixed string }{
		{"\n", "", ""},
		{"\r\n", "", ""},
		{"\r", "", ""},
		{"", "file does not end with a newline (MD047)", "\n"},
		{"\r\r", "file ends with 1 blank line; end it with a single newline (MD047)", "\r"},
		{"\n \n\n", "file ends with 2 blank lines; end it with a single newline (MD047)", "\n"},
		{"\r\n\r\n", "file ends with 1 blank line; end it with a single newline (MD047)", "\r\n"},
	} {
		body := "---\nname: cto-end\n---\n\n# End\n\nText."
		dir := t.TempDir()
		checktest.WriteFiles(t, dir, map[string]string{".sot/03-PROTOCOLS/CTO-END.md": body + c.end})
		res, ws := checktest.Result(t, dir, hygiene.Analyzer)
		var msgs []string
		for _, f := range res.Findings {
			if f.Category == "final-newline" {
				msgs = append(msgs, f.Message)
			}
		}
		if c.msg == "" {
			if len(msgs) != 0 {
				t.Errorf("ending %q: %q", c.end, msgs)
			}
			continue
		}
		if len(msgs) != 1 || msgs[0] != c.msg {
			t.Errorf("ending %q: %q, want %q", c.end, msgs, c.msg)
			continue
		}
		out, _ := checks.ApplyFixes(ws, res.Findings, false)
		if got := string(out[".sot/03-PROTOCOLS/CTO-END.md"]); got != body+c.fixed {
			t.Errorf("ending %q fixed to %q, want %q", c.end, got, body+c.fixed)
		}
	}
}

// TestBlank checks blank's first-byte shortcut against strings.TrimSpace,
// Unicode spaces included.
func TestBlank(t *testing.T) {
	for _, s := range []string{"", " ", "\t", " \t\r", "\v\f", "x", " x", "\u00a0", "\u2003 ", "\u00a0x", "é", "\x85", "\xc2\x85", "  \u3000"} {
		if got, want := hygiene.BlankForTest(s), strings.TrimSpace(s) == ""; got != want {
			t.Errorf("blank(%q) = %v, want %v", s, got, want)
		}
	}
}

// BenchmarkRun measures the check alone, on the corpus parsed once
// (SOTVET_BENCH_CORPUS names another workspace, a synthetic one say).
func BenchmarkRun(b *testing.B) {
	checktest.BenchPass(b, checktest.BenchCorpusDir(b), cputime.Process, hygiene.Analyzer)
}
