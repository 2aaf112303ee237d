package authority

import (
	"os"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/sotparse"
)

// BenchmarkScan measures the prefilter scan of every prose block of the
// corpus (SOTVET_BENCH_CORPUS names another) with the built-in rules.
func BenchmarkScan(b *testing.B) {
	ws := benchWorkspace(b)
	var texts []string
	n := 0
	for _, d := range ws.Docs {
		for _, bl := range readBody(d.Blocks(), nil, nil).blocks {
			texts = append(texts, bl.Text)
			n += len(bl.Text)
		}
	}
	m := NewClaimSet(DefaultClaims).matcher
	b.SetBytes(int64(n))
	b.ResetTimer()
	for range b.N {
		var f clauseBits
		for _, t := range texts {
			f |= m.scan(t)
		}
		_ = f
	}
}

// BenchmarkCompile measures compiling the built-in rules, prefilters and
// matcher included: every run of sotvet does it once.
func BenchmarkCompile(b *testing.B) {
	for range b.N {
		NewClaimSet(DefaultClaims)
	}
}

// BenchmarkReadBody measures reading the prose blocks of every document of
// the corpus (SOTVET_BENCH_CORPUS names another) with the built-in rules:
// the prefilter scan of each block and what the check keeps.
func BenchmarkReadBody(b *testing.B) {
	ws := benchWorkspace(b)
	var docs [][]*sotparse.Block
	for _, d := range ws.Docs {
		docs = append(docs, d.Blocks())
	}
	set := NewClaimSet(DefaultClaims)
	var found []clauseBits
	set.matcher.scan("") // compiled before the clock starts
	b.ResetTimer()
	for range b.N {
		for _, bs := range docs {
			readBody(bs, set, &found)
		}
	}
}

// benchWorkspace loads the corpus, or the workspace SOTVET_BENCH_CORPUS
// names (checktest.BenchCorpusDir, which this package cannot import).
func benchWorkspace(b *testing.B) *sotparse.Workspace {
	dir := os.Getenv("SOTVET_BENCH_CORPUS")
	if dir == "" {
		dir = testcorpus.Require(b)
	}
	ws, err := sotparse.Load(dir, sotparse.Options{NoGit: true})
	if err != nil {
		b.Fatal(err)
	}
	return ws
}

// BenchmarkDocCheck measures DocCheck, what the check does per document,
// over every document of the corpus (SOTVET_BENCH_CORPUS names another,
// the adoption workspace of scripts/gen-corpus say), parsed once; with
// -cpu 1 the documents are checked one after another.
func BenchmarkDocCheck(b *testing.B) {
	ws := benchWorkspace(b)
	pass := &analysis.Pass{Analyzer: Analyzer, Fset: ws.Fset, ResultOf: map[*analysis.Analyzer]any{sotparse.Analyzer: ws}, Report: func(analysis.Diagnostic) {}}
	claims.load()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		DocCheck.Each(pass, ws)
	}
}
