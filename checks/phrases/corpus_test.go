package phrases_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/phrases"
)

// corpusDir returns the reference corpus, or $SOTVET_BENCH_CORPUS when set
// (a generated one, say: go run ./scripts/gen-corpus -out DIR).
func corpusDir(t testing.TB) string {
	if dir := os.Getenv("SOTVET_BENCH_CORPUS"); dir != "" {
		return dir
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpus", "cto-planb"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	return dir
}

// TestCorpus runs the check over the real corpus and logs the findings.
func TestCorpus(t *testing.T) {
	dir := corpusDir(t)
	res, _, err := checks.Run(checks.Options{Root: dir, FS: os.DirFS(dir), Analyzers: []*analysis.Analyzer{phrases.Analyzer}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		t.Logf("%s:%d:%d: [%s/%s] %s", f.File, f.Line, f.Col, f.Check, f.Category, f.Message)
	}
	t.Logf("%d findings", len(res.Findings))
}

func BenchmarkCorpus(b *testing.B) {
	dir := corpusDir(b)
	start := cpuTime()
	for b.Loop() {
		if _, _, err := checks.Run(checks.Options{Root: dir, FS: os.DirFS(dir), Analyzers: []*analysis.Analyzer{phrases.Analyzer}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
}
