package prose

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/internal/cputime"
)

// BenchmarkLintTree lints the markdown under PROSE_BENCH_TREE (a directory
// with a .vale.ini) once per iteration, and reports the process's CPU
// per iteration (cpu-ms/op): the machine may be shared.
func BenchmarkLintTree(b *testing.B) {
	root := os.Getenv("PROSE_BENCH_TREE")
	if root == "" {
		b.Skip("PROSE_BENCH_TREE not set")
	}
	ini, err := os.ReadFile(filepath.Join(root, ".vale.ini"))
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := ParseConfig(filepath.Join(root, ".vale.ini"), ini)
	if err != nil {
		b.Fatal(err)
	}
	l := NewLinter(cfg)
	type doc struct {
		rel string
		src []byte
	}
	var docs []doc
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			src, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			docs = append(docs, doc{filepath.ToSlash(rel), src})
		}
		return nil
	})
	b.ResetTimer()
	cpu := cputime.Process()
	for range b.N {
		for _, d := range docs {
			if _, err := l.Lint(d.rel, d.src); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
}
