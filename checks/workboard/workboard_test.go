package workboard_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
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

// setFlag sets an analyzer flag for the duration of the test.
func setFlag(t *testing.T, name, value string) {
	t.Helper()
	f := workboard.Analyzer.Flags.Lookup(name)
	if f == nil {
		t.Fatalf("no flag %s", name)
	}
	old := f.Value.String()
	if err := f.Value.Set(value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Value.Set(old) })
}

func TestExtraStatuses(t *testing.T) {
	setFlag(t, "extra-statuses", "shipped,unknown")
	checktest.Run(t, "testdata/status-extra", workboard.Analyzer)
}

func TestIDPatternFlag(t *testing.T) {
	// With a looser pattern the two malformed ids of testdata/ids pass.
	setFlag(t, "id-pattern", `^(?i)CTO-WORK-\d+$`)
	fs := run(t, "testdata/ids")
	for _, f := range fs {
		if f.Category == "id-format" {
			t.Errorf("unexpected %s:%d: %s", f.File, f.Line, f.Message)
		}
	}
	if err := workboard.Analyzer.Flags.Set("id-pattern", "("); err == nil {
		t.Error("an invalid regular expression was accepted")
	}
}

func run(t *testing.T, dir string) []checks.Finding {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, _, err := checks.Run(checks.Options{Root: abs, FS: os.DirFS(abs), Analyzers: []*analysis.Analyzer{workboard.Analyzer}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Findings
}

// TestLarge runs the check over a generated workboard of 10,000 items in one
// long blocked_by chain (deep enough to overflow a naive recursive search)
// closed into a cycle by its last item, plus a missing blocker.
func TestLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large workboard")
	}
	const n = 10000
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".sot"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".sot", "A.md"), []byte("# A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
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
	if err := os.WriteFile(filepath.Join(dir, "WORKBOARD.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("WORKBOARD.yaml:5: workboard: ^blocked_by cycle: CTO-WORK-001 -> CTO-WORK-002 -> .* -> CTO-WORK-%d -> CTO-WORK-001$\n", n) +
		fmt.Sprintf("WORKBOARD.yaml:%d: workboard: ^work item CTO-WORK-%d is blocked by CTO-WORK-999999, which is not in the workboard$\n", 5*n+5, n+1)
	if err := os.WriteFile(filepath.Join(dir, "WANT"), []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	checktest.Run(t, dir, workboard.Analyzer)
}

// TestCorpus runs the check over the reconstructed cto-planb workspace and
// logs what it finds.
func TestCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "cto-planb")
	if _, err := os.Stat(filepath.Join(dir, "WORKBOARD.yaml")); err != nil {
		t.Skip("corpus not present:", err)
	}
	for _, f := range run(t, dir) {
		t.Logf("%s:%d:%d: [%s/%s] %s", f.File, f.Line, f.Col, f.Check, f.Category, f.Message)
	}
}

func TestDoc(t *testing.T) {
	if !strings.HasPrefix(workboard.Analyzer.Doc, "workboard: check WORKBOARD.yaml ") {
		t.Errorf("Doc does not start with the summary: %q", workboard.Analyzer.Doc)
	}
}
