package structure_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/structure"
	"github.com/svrnty/sotvet/config"
	"github.com/svrnty/sotvet/internal/cputime"
)

const fullSections = "Problem Statement|Problem,Solution,Scope,Non-Goals,Acceptance Criteria,Validation,Success Definition"

func TestStructure(t *testing.T) {
	for _, tc := range []struct {
		dir      string
		sections string
		category []string // of the findings, in order
	}{
		{dir: "clean"},
		{dir: "sections", category: []string{"missing-section", "missing-section", "missing-section", "h1"}},
		{dir: "full-sections", sections: fullSections, category: []string{"missing-section", "missing-section", "missing-section", "missing-section", "missing-section", "missing-section"}},
		{dir: "items", category: []string{"item-status", "item-status", "item-status", "item-acceptance", "item-status"}},
		{dir: "headings", category: []string{"heading-level", "heading-level", "h1", "h1", "h1"}},
		{dir: "duplicate-line", category: []string{"duplicate-line", "duplicate-line", "duplicate-line"}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			if tc.sections != "" {
				checktest.SetFlag(t, structure.Analyzer, "prd-sections", tc.sections)
			}
			var got []string
			for _, f := range checktest.Run(t, filepath.Join("testdata", tc.dir), structure.Analyzer) {
				got = append(got, f.Category)
				if f.Severity != checks.SeverityError {
					t.Errorf("%s:%d: severity %q, want error", f.File, f.Line, f.Severity)
				}
			}
			if !slices.Equal(got, tc.category) {
				t.Errorf("categories %q, want %q", got, tc.category)
			}
		})
	}
}

// TestSectionsFlag checks the forms -prd-sections accepts: a comma list, a
// YAML list of strings, and a YAML list of lists (what sotvet.yaml passes).
func TestSectionsFlag(t *testing.T) {
	f := structure.Analyzer.Flags.Lookup("prd-sections")
	if got, want := f.DefValue, strings.Join(structure.DefaultPRDSections, ","); got != want {
		t.Errorf("default %q, want %q", got, want)
	}
	for in, want := range map[string]string{
		"Problem Statement|Problem, Solution ,":          "Problem Statement|Problem,Solution",
		"- Problem Statement|Problem\n- Solution\n":      "Problem Statement|Problem,Solution",
		"- [Problem Statement, Problem]\n- [Solution]\n": "Problem Statement|Problem,Solution",
		"[Scope, [Non-Goals, Out of Scope]]":             "Scope,Non-Goals|Out of Scope",
		"":                                               "",
	} {
		checktest.SetFlag(t, structure.Analyzer, "prd-sections", in)
		if got := f.Value.String(); got != want {
			t.Errorf("Set(%q): %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"A||B", "- [A, {b: c}]\n", "- {a: b}\n", "- [unclosed\n"} {
		if err := f.Value.Set(bad); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
	checktest.SetFlag(t, structure.Analyzer, "prd-sections", strings.Join(structure.DefaultPRDSections, ","))
}

// TestConfig checks that sotvet.yaml reaches the flag, as a list of strings
// and as a list of lists, and that a bad value is a positioned error.
func TestConfig(t *testing.T) {
	reg := []*analysis.Analyzer{structure.Analyzer}
	for _, src := range []string{
		"checks:\n  structure:\n    prd-sections:\n      - Problem Statement|Problem\n      - Solution\n",
		"checks:\n  structure:\n    prd-sections:\n      - [Problem Statement, Problem]\n      - [Solution]\n",
	} {
		c, err := config.Parse("sotvet.yaml", []byte(src), reg)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		f := structure.Analyzer.Flags.Lookup("prd-sections")
		old := f.Value.String()
		if err := c.Apply(reg, nil); err != nil {
			t.Fatal(err)
		}
		if got := f.Value.String(); got != "Problem Statement|Problem,Solution" {
			t.Errorf("%q: flag %q", src, got)
		}
		_ = f.Value.Set(old)
	}
	_, err := config.Parse("sotvet.yaml", []byte("checks:\n  structure:\n    prd-sections:\n      - [A, {b: c}]\n"), reg)
	if ce, ok := err.(*config.Error); !ok || ce.Line != 4 {
		t.Errorf("bad prd-sections: error %v, want a config error at line 4", err)
	}
}

// TestFix checks that the suggested fix deletes the repeated line.
func TestFix(t *testing.T) {
	res, ws := checktest.Result(t, filepath.Join("testdata", "duplicate-line"), structure.Analyzer)
	out, n := checks.ApplyFixes(ws, res.Findings, false)
	if n.Applied != 3 {
		t.Errorf("%d fixes applied, want 3", n.Applied)
	}
	got := string(out[".sot/03-PROTOCOLS/CTO-A-EVIDENCE.md"])
	if strings.Count(got, "- Do not activate Case as default backend.\n") != 1 || !strings.Contains(got, "- Do not rerun Case.\n") {
		t.Errorf("fixed content:\n%s", got)
	}
	// Three equal lines become one.
	if strings.Count(got, "Same paragraph line.") != 1 || strings.Count(got, "Separated line.") != 2 {
		t.Errorf("fixed content:\n%s", got)
	}
}

func TestDoc(t *testing.T) {
	a := structure.Analyzer
	checktest.Doc(t, a, "structure: check document outlines: PRD sections, work items, headings, repeated lines", "prd-sections", "framing-words")
	if a.URL != "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#structure" {
		t.Errorf("URL = %q", a.URL)
	}
	if !strings.Contains(a.Doc, strings.Join(structure.DefaultPRDSections, ", ")) {
		t.Error("Doc does not spell out the default -prd-sections")
	}
}

// TestCorpus runs the check over the real corpus and logs the findings.
func TestCorpus(t *testing.T) {
	checktest.LogFindings(t, checktest.Findings(t, checktest.CorpusDir(t), structure.Analyzer))
}

// BenchmarkCorpus measures the check (the parse included) on the real corpus.
func BenchmarkCorpus(b *testing.B) {
	checktest.BenchRun(b, checktest.CorpusDir(b), nil, structure.Analyzer)
}

// BenchmarkRun measures the check alone, on the corpus parsed once
// (SOTVET_BENCH_CORPUS names another workspace, a synthetic one say).
func BenchmarkRun(b *testing.B) {
	checktest.BenchPass(b, checktest.BenchCorpusDir(b), cputime.Process, structure.Analyzer)
}

// TestNearDuplicateLine checks the near-duplicate-line rule: a warning,
// with the item before as its related place; -framing-words replaces the
// words it drops.
func TestNearDuplicateLine(t *testing.T) {
	dir := filepath.Join("testdata", "near-duplicate-line")
	for _, f := range checktest.Run(t, dir, structure.Analyzer) {
		if f.Category != "near-duplicate-line" || f.Severity != checks.SeverityWarning {
			t.Errorf("%s:%d: %s %s, want a near-duplicate-line warning", f.File, f.Line, f.Category, f.Severity)
		}
		if len(f.Related) != 1 || f.Related[0].Line != f.Line-1 {
			t.Errorf("%s:%d: related %v, want the line before", f.File, f.Line, f.Related)
		}
	}
	checktest.SetFlag(t, structure.Analyzer, "framing-words", "require")
	if fs := checktest.Findings(t, dir, structure.Analyzer); len(fs) != 1 {
		t.Errorf("-framing-words=require: %d findings, want 1 (line 10)", len(fs))
	}
}
