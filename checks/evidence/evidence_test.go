package evidence_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/evidence"
	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/engine/fake"
	hevidence "github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/verify"
	"github.com/svrnty/sotvet/internal/raceexit"
	"github.com/svrnty/sotvet/internal/testtmp"
)

// TestMain lets the test binary act as the fake backend, so that the
// tests can make real runs.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "harness" && os.Args[2] == "fake-backend" {
		os.Exit(fake.Main(os.Args[3:], os.Stdout, os.Stderr))
	}
	raceexit.Set() // the fake backends it runs are this binary
	os.Exit(testtmp.Run(testtmp.RunFunc(func() int {
		code := m.Run()
		if runsDir != "" {
			os.RemoveAll(runsDir)
		}
		return code
	})))
}

// citedRoot is where the testdata documents say the runs are.
const citedRoot = "/home/svrnty/.hermes/profiles/cto-planb/harness-runs"

var (
	runsOnce sync.Once
	runsDir  string
	runsErr  error
)

// runs makes, once, the runs the testdata documents cite: a pass, a
// failed-tests fixture, a run blocked at the engine gate, a pass whose
// test.log was then changed, and a directory with no report.
func runs(t *testing.T) string {
	t.Helper()
	runsOnce.Do(func() { runsDir, runsErr = makeRuns() })
	if runsErr != nil {
		t.Fatal(runsErr)
	}
	return runsDir
}

func makeRuns() (string, error) {
	dir, err := os.MkdirTemp("", "sotvet-evidence-runs-")
	if err != nil {
		return "", err
	}
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	for _, r := range []struct {
		id, engine, fixture, status string
	}{
		{"20260601T000000Z-pass", "fake", "", "pass"},
		{"20260601T000001Z-failed-tests", "fake", "failed-tests", "fail"},
		{"20260601T000002Z-blocked", "case", "", "blocked"},
		{"20260601T000003Z-tampered", "fake", "", "pass"},
	} {
		res, err := harness.Run(context.Background(), harness.Options{
			CaseDir:     filepath.Join("..", "..", "testdata", "cases", "r1-string-slugify"),
			Engine:      r.engine,
			Fixture:     r.fixture,
			RunsRoot:    dir,
			RunDir:      filepath.Join(dir, r.id),
			FakeCommand: []string{exe, "harness", "fake-backend"},
			Environ:     os.Environ(),
			Version:     "test",
		})
		if err != nil {
			return "", err
		}
		if res.Report.Status != r.status {
			return "", fmt.Errorf("run %s: status %s, want %s", r.id, res.Report.Status, r.status)
		}
	}
	log := filepath.Join(dir, "20260601T000003Z-tampered", hevidence.TestLog)
	b, err := os.ReadFile(log)
	if err != nil {
		return "", err
	}
	b[len(b)/2] ^= 0x01
	if err := os.WriteFile(log, b, 0o644); err != nil {
		return "", err
	}
	if err := os.Mkdir(filepath.Join(dir, "20260601T000004Z-empty"), 0o755); err != nil {
		return "", err
	}
	return dir, nil
}

// setFlag sets an analyzer flag for the duration of the test.
func setFlag(t *testing.T, name, value string) {
	t.Helper()
	if name == "runs-root" {
		// A list flag: clear before setting, and before restoring.
		checktest.SetFlag(t, evidence.Analyzer, name, "")
	}
	checktest.SetFlag(t, evidence.Analyzer, name, value)
}

func TestEvidence(t *testing.T) {
	dir := runs(t)
	for _, tc := range []struct {
		dir      string
		category string // of every finding
		missing  bool   // -report-missing
	}{
		{dir: "agree"},
		{dir: "disagree", category: evidence.CategoryMismatch},
		{dir: "binding", category: evidence.CategoryMismatch},
		{dir: "prose"},
		{dir: "invalid"},
		{dir: "missing", category: evidence.CategoryMissing, missing: true},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			setFlag(t, "runs-root", citedRoot+"="+dir)
			if tc.missing {
				setFlag(t, "report-missing", "true")
			}
			for _, f := range checktest.Run(t, filepath.Join("testdata", tc.dir), evidence.Analyzer) {
				if tc.category != "" && f.Category != tc.category {
					t.Errorf("%s:%d: category %q, want %q", f.File, f.Line, f.Category, tc.category)
				}
			}
		})
	}
}

// findings runs the check over a testdata workspace.
func findings(t *testing.T, dir string) []checks.Finding {
	t.Helper()
	return checktest.Findings(t, dir, evidence.Analyzer)
}

// TestInvalidCategories: the verification failures are invalid-evidence,
// the fact compared with the tampered report a mismatch.
func TestInvalidCategories(t *testing.T) {
	setFlag(t, "runs-root", citedRoot+"="+runs(t))
	got := map[int]string{}
	for _, f := range findings(t, filepath.Join("testdata", "invalid")) {
		got[f.Line] = f.Category
	}
	want := map[int]string{5: evidence.CategoryInvalid, 8: evidence.CategoryMismatch, 12: evidence.CategoryInvalid}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("categories by line %v, want %v", got, want)
	}
}

// TestNoRunsRoot: without the mapping the cited runs are not on this
// machine, and nothing is reported by default.
func TestNoRunsRoot(t *testing.T) {
	runs(t)
	setFlag(t, "runs-root", "")
	for _, d := range []string{"agree", "disagree", "binding", "invalid", "missing"} {
		for _, f := range findings(t, filepath.Join("testdata", d)) {
			t.Errorf("%s: %s:%d: %s", d, f.File, f.Line, f.Message)
		}
	}
}

// TestRealPaths: a document citing runs by their real paths, and the
// run's report.json and the directory agree with verify.
func TestRealPaths(t *testing.T) {
	dir := runs(t)
	setFlag(t, "runs-root", "")
	ws := t.TempDir()
	pass := filepath.Join(dir, "20260601T000000Z-pass")
	doc := fmt.Sprintf("# Runs\n\n## Pass\n\n- Run: `%s`\n- Report status: `fail`.\n\n## Again\n\n- Report: `%s`\n- Tests passed: `true`.\n- Backend: `codex`.\n",
		pass, filepath.Join(pass, "report.json"))
	checktest.WriteFiles(t, ws, map[string]string{"RUNS.md": doc})
	fs := findings(t, ws)
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%d:%d %s", f.Line, f.Col, f.Category))
	}
	if want := "[6:18 mismatch 12:12 mismatch]"; fmt.Sprint(got) != want {
		t.Errorf("findings %v, want %s", got, want)
	}
	if vs, _, err := verify.Dir(pass, verify.Options{}); err != nil || len(vs) != 0 {
		t.Errorf("the pass run does not verify: %v %v", err, vs)
	}
}

func TestRootsFlag(t *testing.T) {
	var r evidence.Roots
	if err := r.Set("/a=/x, /a/b/=/y"); err != nil {
		t.Fatal(err)
	}
	if err := r.Set("~/runs=/z"); err != nil {
		t.Fatal(err)
	}
	if got := r.String(); got != "/a=/x,/a/b=/y,~/runs=/z" {
		t.Errorf("String() = %q", got)
	}
	if m := r.Mappings(); m[0].Old != "~/runs" || m[2].Old != "/a" {
		t.Errorf("longest prefix not first: %v", m)
	}
	c := r.Clone()
	if err := c.Set(""); err != nil || c.String() != "" || r.String() == "" {
		t.Errorf("Clone is not independent: %q %q", c.String(), r.String())
	}
	for _, bad := range []string{"/a", "=x", "/a=", "relative=/x"} {
		if err := (&evidence.Roots{}).Set(bad); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
	var rel evidence.Roots
	if err := rel.Set("/a=rel"); err != nil || !filepath.IsAbs(rel.Mappings()[0].New) {
		t.Errorf("a relative new side is not made absolute: %v %s", err, rel.String())
	}
}

func TestDoc(t *testing.T) {
	a := evidence.Analyzer
	checktest.Doc(t, a, "evidence: check documents' claims about harness runs against the runs' evidence")
	for _, f := range []string{"runs-root", "report-missing"} {
		if a.Flags.Lookup(f) == nil {
			t.Errorf("no -%s flag", f)
		}
	}
	if a.URL != "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#evidence" {
		t.Errorf("URL %s", a.URL)
	}
}

// TestCorpus: the user's corpus cites runs that live on another machine.
// With the default flags the check says nothing about it; with
// -report-missing it lists them as missing and nothing else.
func TestCorpus(t *testing.T) {
	dir := checktest.CorpusDir(t)
	setFlag(t, "runs-root", "")
	for _, f := range findings(t, dir) {
		t.Errorf("default flags: %s:%d:%d: [%s] %s", f.File, f.Line, f.Col, f.Category, f.Message)
	}
	setFlag(t, "report-missing", "true")
	n := 0
	for _, f := range findings(t, dir) {
		if f.Category != evidence.CategoryMissing {
			t.Errorf("%s:%d:%d: [%s] %s", f.File, f.Line, f.Col, f.Category, f.Message)
		}
		n++
	}
	t.Logf("-report-missing: %d cited runs missing", n)
}
