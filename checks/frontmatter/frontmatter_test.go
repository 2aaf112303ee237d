package frontmatter_test

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/frontmatter"
)

func TestFrontmatter(t *testing.T) {
	for _, tc := range []struct {
		dir   string
		flags map[string]string
	}{
		{dir: "clean"},
		{dir: "missing"},
		{dir: "required"},
		{dir: "status"},
		{dir: "extra-statuses", flags: map[string]string{"extra-statuses": "done,superseded"}},
		{dir: "dates", flags: map[string]string{"today": "2026-06-15"}},
		{dir: "unknown-key", flags: map[string]string{"allow-keys": "reviewers"}},
		{dir: "syntax"},
		{dir: "scope", flags: map[string]string{"scope": "{CONTEXT.md,.sot/03-PROTOCOLS/**}"}},
		{dir: "require", flags: map[string]string{"require": "name,owner"}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			checktest.SetFlag(t, frontmatter.Analyzer, "today", "2026-06-15")
			for _, name := range slices.Sorted(maps.Keys(tc.flags)) {
				checktest.SetFlag(t, frontmatter.Analyzer, name, tc.flags[name])
			}
			checktest.Run(t, filepath.Join("testdata", tc.dir), frontmatter.Analyzer)
		})
	}
}

// TestCategories checks the sub-rule id of each kind of finding.
func TestCategories(t *testing.T) {
	checktest.SetFlag(t, frontmatter.Analyzer, "today", "2026-06-15")
	want := map[string][]string{
		"missing":  {"missing"},
		"required": {"required", "empty", "empty", "empty", "required", "required", "required"},
		"status":   {"status", "status", "status"},
		"dates":    {"date", "date", "future-date", "date-order", "date", "date"},
		"syntax":   {"syntax", "syntax", "syntax", "syntax", "syntax"},
	}
	for _, dir := range slices.Sorted(maps.Keys(want)) {
		fs := checktest.Run(t, filepath.Join("testdata", dir), frontmatter.Analyzer)
		var got []string
		for _, f := range fs {
			got = append(got, f.Category)
		}
		slices.Sort(got)
		exp := slices.Clone(want[dir])
		slices.Sort(exp)
		if !slices.Equal(got, exp) {
			t.Errorf("%s: categories %v, want %v", dir, got, exp)
		}
	}
	checktest.SetFlag(t, frontmatter.Analyzer, "allow-keys", "reviewers")
	for _, f := range checktest.Run(t, filepath.Join("testdata", "unknown-key"), frontmatter.Analyzer) {
		if f.Category != "unknown-key" || f.Severity != checks.SeverityWarning {
			t.Errorf("unknown key finding has category %q severity %q, want unknown-key warning", f.Category, f.Severity)
		}
	}
}

// applyFix applies the edits of a finding's only fix to its file.
func applyFix(t *testing.T, dir string, f checks.Finding) string {
	t.Helper()
	if len(f.Fixes) != 1 {
		t.Fatalf("%s:%d: %d fixes, want 1", f.File, f.Line, len(f.Fixes))
	}
	content, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.File)))
	if err != nil {
		t.Fatal(err)
	}
	edits := slices.Clone(f.Fixes[0].Edits)
	slices.SortFunc(edits, func(a, b checks.Edit) int { return b.Start - a.Start })
	out := string(content)
	for _, e := range edits {
		if e.File != f.File {
			t.Fatalf("edit of %s in a finding of %s", e.File, f.File)
		}
		out = out[:e.Start] + e.New + out[e.End:]
	}
	return out
}

func TestFixes(t *testing.T) {
	checktest.SetFlag(t, frontmatter.Analyzer, "today", "2026-06-15")
	type fixCase struct {
		file, category, message string
		want                    string // the fixed file
	}
	run := func(dir string, cases []fixCase) {
		fs := checktest.Run(t, filepath.Join("testdata", dir), frontmatter.Analyzer)
		for _, fc := range cases {
			found := false
			for _, f := range fs {
				if f.File != fc.file || f.Category != fc.category || !strings.Contains(f.Message, fc.message) {
					continue
				}
				found = true
				if got := applyFix(t, filepath.Join("testdata", dir), f); got != fc.want {
					t.Errorf("%s: fixed file:\n%s\nwant:\n%s", fc.file, got, fc.want)
				}
			}
			if !found {
				t.Errorf("%s: no %s finding %q", fc.file, fc.category, fc.message)
			}
		}
		for _, f := range fs {
			fixable := (f.Category == "required" && strings.Contains(f.Message, "core_promotion_status")) ||
				(f.Category == "status" && strings.Contains(f.Message, "lower-case"))
			if !fixable && len(f.Fixes) > 0 {
				t.Errorf("%s:%d: unexpected fix for %q", f.File, f.Line, f.Message)
			}
		}
	}
	run("required", []fixCase{
		{
			file: ".sot/03-PROTOCOLS/CTO-SPARSE-PRD.md", category: "required", message: `"core_promotion_status"`,
			want: "---\nstatus: draft\ncreated: 2026-06-01\nlast_reviewed: 2026-06-01\nlifecycle_classification: planning\ncore_promotion_status: not-promoted\n---\n\n# CTO Sparse PRD\n",
		},
		{
			file: ".sot/03-PROTOCOLS/CTO-CRLF-PRD.md", category: "required", message: `"core_promotion_status"`,
			want: "---\r\ntitle: CTO CRLF PRD\r\nstatus: draft\r\nowner: jp\r\ncreated: 2026-06-01\r\nlast_reviewed: 2026-06-01\r\nlifecycle_classification: sot\r\ncore_promotion_status: not-promoted\r\n---\r\n\r\n# CTO CRLF PRD\r\n",
		},
	})
	run("status", []fixCase{
		{
			file: ".sot/03-PROTOCOLS/CTO-CASED-PRD.md", category: "status", message: `"Validated"`,
			want: "---\nname: cto-cased-prd\nstatus: validated\nowner: jp\ncreated: 2026-06-01\nlast_reviewed: 2026-06-01\nlifecycle_classification: planning\ncore_promotion_status: not-promoted\n---\n\n# CTO Cased PRD\n",
		},
		{
			file: ".sot/03-PROTOCOLS/CTO-QUOTED-PRD.md", category: "status", message: `"BLOCKED"`,
			want: "---\nname: cto-quoted-prd\nstatus: \"blocked\" # until the gate passes\nowner: jp\ncreated: 2026-06-01\nlast_reviewed: 2026-06-01\nlifecycle_classification: planning\ncore_promotion_status: not-promoted\n---\n\n# CTO Quoted PRD\n",
		},
	})
}

func TestFlagValidation(t *testing.T) {
	for _, tc := range []struct{ name, value string }{
		{"scope", "../outside/**"},
		{"scope", "/etc/**"},
		{"scope", ".sot/[unclosed"},
		{"today", "2026-6-1"},
		{"today", "tomorrow"},
	} {
		f := frontmatter.Analyzer.Flags.Lookup(tc.name)
		old := f.Value.String()
		if err := f.Value.Set(tc.value); err == nil {
			t.Errorf("-%s=%q: no error", tc.name, tc.value)
		}
		if got := f.Value.String(); got != old {
			t.Errorf("-%s=%q: rejected value changed the flag to %q", tc.name, tc.value, got)
		}
	}
}

func TestDoc(t *testing.T) {
	checktest.Doc(t, frontmatter.Analyzer, "frontmatter: check document frontmatter against the workspace convention")
}

// TestCorpus runs the check over the real corpus and logs the findings.
func TestCorpus(t *testing.T) {
	checktest.LogFindings(t, checktest.Findings(t, checktest.CorpusDir(t), frontmatter.Analyzer))
}
