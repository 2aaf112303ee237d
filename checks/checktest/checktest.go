// Package checktest runs checks over testdata workspaces and compares their
// findings with the expectations written in the workspace's WANT file.
//
// Each non-blank, non-# line of WANT is
//
//	path:line: check: regexp
//
// Every finding must match one expectation on its file and line, and every
// expectation must be matched by exactly one finding.
//
// It also holds the helpers the checks' tests share: running checks without
// expectations, the reference corpus, analyzer flags, workspaces written
// from a map, and benchmarks over the corpus.
package checktest

import (
	"bufio"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/sotparse"
)

type want struct {
	file  string
	line  int
	check string
	re    *regexp.Regexp
	text  string
	hit   bool
}

// Run runs the analyzers over the workspace in dir and checks the findings
// against dir/WANT. It returns the findings for further assertions.
func Run(t *testing.T, dir string, as ...*analysis.Analyzer) []checks.Finding {
	t.Helper()
	res, _ := Result(t, dir, as...)
	wants := readWant(t, filepath.Join(absDir(t, dir), "WANT"))
	for _, f := range res.Findings {
		matched := false
		for _, w := range wants {
			if !w.hit && w.file == f.File && w.line == f.Line && w.check == f.Check && w.re.MatchString(f.Message) {
				w.hit, matched = true, true
				break
			}
		}
		if !matched {
			t.Errorf("%s: unexpected finding %s:%d:%d: [%s] %s", dir, f.File, f.Line, f.Col, f.Check, f.Message)
		}
	}
	for _, w := range wants {
		if !w.hit {
			t.Errorf("%s: no finding matched WANT %s:%d: %s: %s", dir, w.file, w.line, w.check, w.text)
		}
	}
	return res.Findings
}

func readWant(t *testing.T, name string) []*want {
	t.Helper()
	f, err := os.Open(name)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*want
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, ": ", 3)
		loc := strings.Split(parts[0], ":")
		if len(parts) != 3 || len(loc) != 2 {
			t.Fatalf("%s:%d: want path:line: check: regexp", name, n)
		}
		ln, err := strconv.Atoi(loc[1])
		if err != nil {
			t.Fatalf("%s:%d: bad line number", name, n)
		}
		re, err := regexp.Compile(parts[2])
		if err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
		out = append(out, &want{file: loc[0], line: ln, check: parts[1], re: re, text: parts[2]})
	}
	return out
}

// Result runs the analyzers over the workspace in dir, with no WANT
// comparison, and returns the result and the workspace.
func Result(t testing.TB, dir string, as ...*analysis.Analyzer) (*checks.Result, *sotparse.Workspace) {
	t.Helper()
	abs := absDir(t, dir)
	res, ws, err := checks.Run(checks.Options{Root: abs, FS: os.DirFS(abs), Analyzers: as})
	if err != nil {
		t.Fatalf("checks.Run(%s): %v", dir, err)
	}
	return res, ws
}

// Findings runs the analyzers over the workspace in dir, with no WANT
// comparison, and returns the findings.
func Findings(t testing.TB, dir string, as ...*analysis.Analyzer) []checks.Finding {
	t.Helper()
	res, _ := Result(t, dir, as...)
	return res.Findings
}

// LogFindings logs each finding and their number.
func LogFindings(t testing.TB, fs []checks.Finding) {
	t.Helper()
	for _, f := range fs {
		t.Logf("%s:%d:%d: [%s/%s] %s", f.File, f.Line, f.Col, f.Check, f.Category, f.Message)
	}
	t.Logf("%d findings", len(fs))
}

func absDir(t testing.TB, dir string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// CorpusDir returns the reference corpus, ../shared/corpus/cto-planb from
// the module root, as an absolute path. It skips the test when the corpus
// is not there.
func CorpusDir(t testing.TB) string {
	t.Helper()
	return testcorpus.Require(t)
}

// BenchCorpusDir returns $SOTVET_BENCH_CORPUS when set (a generated
// corpus, say: go run -tags devtools ./scripts/gen-corpus -out DIR), else CorpusDir.
func BenchCorpusDir(t testing.TB) string {
	t.Helper()
	if dir := os.Getenv("SOTVET_BENCH_CORPUS"); dir != "" {
		return dir
	}
	return CorpusDir(t)
}

// SetFlag sets a flag of the analyzer for the duration of the test.
func SetFlag(t testing.TB, a *analysis.Analyzer, name, value string) {
	t.Helper()
	f := lookupFlag(t, a, name)
	old := f.Value.String()
	if err := f.Value.Set(value); err != nil {
		t.Fatalf("-%s=%s: %v", name, value, err)
	}
	t.Cleanup(func() {
		if err := f.Value.Set(old); err != nil {
			t.Errorf("restoring -%s=%s: %v", name, old, err)
		}
	})
}

// SetOnClone checks that the analyzer's flag has a Clone method and that
// setting value on a clone, as config.Parse does to validate a value,
// leaves the flag alone.
func SetOnClone(t testing.TB, a *analysis.Analyzer, name, value string) {
	t.Helper()
	f := lookupFlag(t, a, name)
	before := f.Value.String()
	c, ok := f.Value.(interface{ Clone() flag.Value })
	if !ok {
		t.Fatalf("-%s has no Clone method", name)
	}
	if err := c.Clone().Set(value); err != nil {
		t.Fatal(err)
	}
	if f.Value.String() != before {
		t.Error("setting a clone changed the flag")
	}
}

func lookupFlag(t testing.TB, a *analysis.Analyzer, name string) *flag.Flag {
	t.Helper()
	f := a.Flags.Lookup(name)
	if f == nil {
		t.Fatalf("no flag -%s", name)
	}
	return f
}

// WriteFiles writes the files, by slash-separated path relative to dir,
// creating their directories.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Doc checks that the analyzer is valid, that the first line of its Doc
// is summary, and that each named flag exists and is described as "-name:"
// in the rest of the Doc, which it returns.
func Doc(t *testing.T, a *analysis.Analyzer, summary string, flags ...string) string {
	t.Helper()
	if err := analysis.Validate([]*analysis.Analyzer{a}); err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(a.Doc, "\n")
	if first != summary {
		t.Errorf("Doc summary = %q", first)
	}
	for _, name := range flags {
		if a.Flags.Lookup(name) == nil {
			t.Errorf("no -%s flag", name)
		}
		if !strings.Contains(rest, "-"+name+":") {
			t.Errorf("Doc does not describe -%s", name)
		}
	}
	return rest
}

// BenchRun measures checks.Run of the analyzers over dir, the parse
// included. When cpu is not nil (a clock of the process's CPU time, which
// a loaded machine disturbs less than wall time), it also reports the CPU
// time per run as cpu-ms/op.
func BenchRun(b *testing.B, dir string, cpu func() time.Duration, as ...*analysis.Analyzer) {
	b.Helper()
	fsys := os.DirFS(dir)
	bench(b, cpu, func() error {
		_, _, err := checks.Run(checks.Options{Root: dir, FS: fsys, Analyzers: as})
		return err
	})
}

// BenchPass measures the analyzer alone, on the workspace in dir parsed
// once; cpu is as for BenchRun. The analyzer must require sotparse.Analyzer
// only.
func BenchPass(b *testing.B, dir string, cpu func() time.Duration, a *analysis.Analyzer) {
	b.Helper()
	ws, err := sotparse.Load(dir, sotparse.Options{NoGit: true})
	if err != nil {
		b.Fatal(err)
	}
	pass := &analysis.Pass{
		Analyzer: a,
		Fset:     ws.Fset,
		ResultOf: map[*analysis.Analyzer]any{sotparse.Analyzer: ws},
		Report:   func(analysis.Diagnostic) {},
	}
	bench(b, cpu, func() error {
		_, err := a.Run(pass)
		return err
	})
}

func bench(b *testing.B, cpu func() time.Duration, run func() error) {
	b.Helper()
	var start time.Duration
	if cpu != nil {
		start = cpu()
	}
	for b.Loop() {
		if err := run(); err != nil {
			b.Fatal(err)
		}
	}
	if cpu != nil {
		b.ReportMetric(float64(cpu()-start)/float64(b.N)/1e6, "cpu-ms/op")
	}
}

// CheckFindings fails the test for a finding whose category is not one of
// cats, whose severity is not error, or whose message does not start in
// lower case (the house style of every check's messages).
func CheckFindings(t testing.TB, fs []checks.Finding, cats ...string) {
	t.Helper()
	for _, f := range fs {
		if !slices.Contains(cats, f.Category) {
			t.Errorf("%s:%d: category %q, want one of %v", f.File, f.Line, f.Category, cats)
		}
		if f.Severity != checks.SeverityError {
			t.Errorf("%s:%d: severity %q, want error", f.File, f.Line, f.Severity)
		}
		if f.Message != "" && f.Message != strings.ToLower(f.Message[:1])+f.Message[1:] {
			t.Errorf("%s:%d: message %q does not start lower-case", f.File, f.Line, f.Message)
		}
	}
}
