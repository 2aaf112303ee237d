package checks_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/registry"
)

// TestMaxFindingsMatchesCap is the guarantee of a run that holds only the
// findings its cap can show (Options.MaxFindings): capped as its caller
// caps it, it reports what a run holding every finding reports, and counts
// the same findings beyond the cap, file by file and severity by severity.
// The workspace has findings on most lines, places where findings merge
// (an item with no Status: line and no criteria), a file with a
// suppression, and a check turned off.
func TestMaxFindingsMatchesCap(t *testing.T) {
	dir := t.TempDir()
	front := "---\nname: x\nowner: jp\nstatus: draft\ncreated: 2026-06-01\nlast_reviewed: 2026-06-01\nlifecycle_classification: planning\ncore_promotion_status: not-promoted\n---\n\n# X\n\n"
	files := map[string]string{"WORKBOARD.yaml": "items: []\n"}
	for i := range 12 {
		var b strings.Builder
		b.WriteString(front)
		for j := range 8 {
			fmt.Fprintf(&b, "Line %d of %d.  \n\n\n\n", j, i)
			fmt.Fprintf(&b, "### CTO-WORK-%03d - Item %d\n\n", 100*i+j, j)
		}
		if i == 5 {
			b.WriteString("Trailing.  <!-- sotvet:ignore hygiene -- kept -->\n")
		}
		files[fmt.Sprintf(".sot/D%02d-ISSUES.md", i)] = b.String()
	}
	checktest.WriteFiles(t, dir, files)
	sev := map[string]checks.Severity{"frontmatter": checks.SeverityOff}
	run := func(maxFindings, perFile, cap int) ([]string, checks.Omitted) {
		t.Helper()
		res, _, err := checks.Run(checks.Options{Root: dir, FS: os.DirFS(dir), Analyzers: registry.All, Severity: sev, ReleaseText: true, NoFixes: true, ForgetModel: true, MaxPerFile: perFile, MaxFindings: maxFindings})
		if err != nil {
			t.Fatal(err)
		}
		res.Cap(perFile, cap)
		var out []string
		for _, f := range res.Findings {
			out = append(out, show(f)+fmt.Sprint(f.Related))
		}
		return out, res.Omitted
	}
	all, _ := run(0, 0, 0)
	if len(all) < 200 || !strings.Contains(fmt.Sprint(all), "also [") {
		t.Fatalf("want a workspace with many findings, some merged: %d", len(all))
	}
	for _, n := range []int{1, 7, 50, 199, len(all) - 1, len(all), len(all) + 5} {
		for _, perFile := range []int{0, 9} {
			want, wantOmit := run(0, perFile, n)
			got, gotOmit := run(n, perFile, n)
			if d := diffLines(want, got); d != "" || strings.Join(want, "\n") != strings.Join(got, "\n") {
				t.Errorf("max %d, per file %d: the findings differ:\n%s", n, perFile, d)
			}
			if fmt.Sprint(wantOmit) != fmt.Sprint(gotOmit) {
				t.Errorf("max %d, per file %d: omitted %v, want %v", n, perFile, gotOmit, wantOmit)
			}
			// What is shown and what is counted are every finding, once
			// (the per-file cap counts no finding turned off, suppressed
			// or folded into another), and each check's counts add up.
			if len(got)+gotOmit.Total != len(all) {
				t.Errorf("max %d, per file %d: %d shown and %d counted, want %d in all", n, perFile, len(got), gotOmit.Total, len(all))
			}
			byCheck := 0
			for _, k := range gotOmit.ByCheck {
				byCheck += k
			}
			if byCheck != gotOmit.Total {
				t.Errorf("max %d, per file %d: omitted by check %d, in all %d", n, perFile, byCheck, gotOmit.Total)
			}
		}
	}
}
