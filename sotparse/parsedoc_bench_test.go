package sotparse

import (
	"go/token"
	"slices"
	"testing"

	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
)

// BenchmarkParseDocAdoption parses the documents of a generated adoption
// workspace one after another on one goroutine, as each of a run's parse
// goroutines does: sotparse's own work around goldmark, and goldmark's.
func BenchmarkParseDocAdoption(b *testing.B) {
	dir := b.TempDir()
	if err := gencorpus.WriteShape(dir, "adoption", 500, 1, gencorpus.Options{}); err != nil {
		b.Fatal(err)
	}
	files := markdownFiles(b, dir)
	paths := slices.Sorted(func(yield func(string) bool) {
		for p := range files {
			if !yield(p) {
				return
			}
		}
	})
	var size int64
	for _, p := range paths {
		size += int64(len(files[p]))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	report := func(string, token.Pos, token.Pos, string) {}
	for b.Loop() {
		fset := token.NewFileSet()
		slabs := new(modelSlabs)
		for _, p := range paths {
			content := files[p]
			tf := fset.AddFile(p, -1, len(content))
			setLines(tf, content)
			parseDoc(&File{Path: p, Role: RoleDoc, Tok: tf, Content: content}, report, slabs)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(paths)), "ns/doc")
}
