package workboard_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/workboard"
)

func TestClean(t *testing.T)    { checktest.Run(t, "testdata/clean", workboard.Analyzer) }
func TestNone(t *testing.T)     { checktest.Run(t, "testdata/none", workboard.Analyzer) }
func TestSyntax(t *testing.T)   { checktest.Run(t, "testdata/syntax", workboard.Analyzer) }
func TestEmpty(t *testing.T)    { checktest.Run(t, "testdata/empty", workboard.Analyzer) }
func TestSchema(t *testing.T)   { checktest.Run(t, "testdata/schema", workboard.Analyzer) }
func TestIDs(t *testing.T)      { checktest.Run(t, "testdata/ids", workboard.Analyzer) }
func TestStatus(t *testing.T)   { checktest.Run(t, "testdata/status", workboard.Analyzer) }
func TestBlockers(t *testing.T) { checktest.Run(t, "testdata/blockers", workboard.Analyzer) }
func TestSource(t *testing.T)   { checktest.Run(t, "testdata/source", workboard.Analyzer) }

func TestExtraStatuses(t *testing.T) {
	checktest.SetFlag(t, workboard.Analyzer, "extra-statuses", "shipped,unknown")
	checktest.Run(t, "testdata/status-extra", workboard.Analyzer)
}

func TestIDPatternFlag(t *testing.T) {
	// With a looser pattern the two malformed ids of testdata/ids pass.
	checktest.SetFlag(t, workboard.Analyzer, "id-pattern", `^(?i)CTO-WORK-\d+$`)
	fs := checktest.Findings(t, "testdata/ids", workboard.Analyzer)
	for _, f := range fs {
		if f.Category == "id-format" {
			t.Errorf("unexpected %s:%d: %s", f.File, f.Line, f.Message)
		}
	}
	if err := workboard.Analyzer.Flags.Set("id-pattern", "("); err == nil {
		t.Error("an invalid regular expression was accepted")
	}
}

// TestLarge runs the check over a generated workboard of 10,000 items in one
// long blocked_by chain (deep enough to overflow a naive recursive search)
// closed into a cycle by its last item, plus a missing blocker.
func TestLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large workboard")
	}
	const n = 10000
	var b strings.Builder
	b.WriteString("items:\n")
	id := func(i int) string { return fmt.Sprintf("CTO-WORK-%03d", i) }
	for i := 1; i <= n; i++ {
		blocker := id(i + 1)
		if i == n {
			blocker = id(1)
		}
		fmt.Fprintf(&b, "  - id: %s\n    title: Item %d\n    status: draft\n    blocked_by: [%s]\n    source: .sot/A.md\n", id(i), i, blocker)
	}
	fmt.Fprintf(&b, "  - id: %s\n    title: Dangling\n    status: draft\n    blocked_by: [CTO-WORK-999999]\n    source: .sot/A.md\n", id(n+1))
	want := fmt.Sprintf("WORKBOARD.yaml:5: workboard: ^blocked_by cycle: CTO-WORK-001 -> CTO-WORK-002 -> .* -> CTO-WORK-%d -> CTO-WORK-001$\n", n) +
		fmt.Sprintf("WORKBOARD.yaml:%d: workboard: ^work item CTO-WORK-%d is blocked by CTO-WORK-999999, which is not in the workboard$\n", 5*n+5, n+1)
	dir := t.TempDir()
	checktest.WriteFiles(t, dir, map[string]string{
		".sot/A.md":      "# A\n",
		"WORKBOARD.yaml": b.String(),
		"WANT":           want,
	})
	checktest.Run(t, dir, workboard.Analyzer)
}

// TestCorpus runs the check over the reconstructed cto-planb workspace and
// logs what it finds.
func TestCorpus(t *testing.T) {
	dir := checktest.CorpusDir(t)
	if _, err := os.Stat(filepath.Join(dir, "WORKBOARD.yaml")); err != nil {
		t.Skip("corpus not present:", err)
	}
	checktest.LogFindings(t, checktest.Findings(t, dir, workboard.Analyzer))
}

func TestDoc(t *testing.T) {
	if !strings.HasPrefix(workboard.Analyzer.Doc, "workboard: check WORKBOARD.yaml ") {
		t.Errorf("Doc does not start with the summary: %q", workboard.Analyzer.Doc)
	}
}
