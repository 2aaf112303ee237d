package sotparse_test

import (
	"os"
	"testing"

	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
	"github.com/svrnty/sotvet/sotparse"
)

func benchLoad(b *testing.B, dir string) {
	fsys := os.DirFS(dir)
	ws, err := sotparse.LoadFS(fsys, sotparse.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, f := range ws.Files {
		size += int64(len(f.Content))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sotparse.LoadFS(fsys, sotparse.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(ws.Docs)), "docs")
}

// BenchmarkLoadRealCorpus loads the real cto-planb corpus (about 100
// documents).
func BenchmarkLoadRealCorpus(b *testing.B) {
	benchLoad(b, testcorpus.Require(b))
}

// BenchmarkLoadSynthetic loads a 1,000-document workspace written by the
// gen-corpus generator.
func BenchmarkLoadSynthetic(b *testing.B) {
	dir := b.TempDir()
	if err := gencorpus.Write(dir, 1000, 1); err != nil {
		b.Fatal(err)
	}
	benchLoad(b, dir)
}
