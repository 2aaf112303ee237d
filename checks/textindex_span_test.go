package checks

import (
	"go/token"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestDocSpan checks docSpan against span on random positions of a file
// set of files of random lines, empty files included: in the document's
// file, at its ends, in other files, and with no end or an end before the
// start.
func TestDocSpan(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	fset, files := randomFileSet(rng, 12)
	pos := func() token.Pos {
		f := files[rng.IntN(len(files))]
		if rng.IntN(10) == 0 {
			return token.NoPos
		}
		return token.Pos(f.Base() + rng.IntN(f.Size()+1))
	}
	for range 100000 {
		tf := files[rng.IntN(len(files))]
		p := token.Pos(tf.Base() + rng.IntN(tf.Size()+1))
		if rng.IntN(5) == 0 {
			p = pos()
			if p == token.NoPos {
				continue
			}
		}
		end := pos()
		if rng.IntN(3) == 0 {
			end = token.Pos(tf.Base() + rng.IntN(tf.Size()+1))
		}
		_, _, _, wo, wl, wc := span(fset, p, end)
		o, l, c := docSpan(tf, fset, p, end)
		if o != wo || l != wl || c != wc {
			t.Fatalf("docSpan(%d, %d) in file at %d+%d = %d %d:%d, span gives %d %d:%d", p, end, tf.Base(), tf.Size(), o, l, c, wo, wl, wc)
		}
	}
}

// randomFileSet returns a file set of n files of random lines, empty files
// and files without a line table among them, and the files in order.
func randomFileSet(rng *rand.Rand, n int) (*token.FileSet, []*token.File) {
	fset := token.NewFileSet()
	var files []*token.File
	for range n {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(strings.Repeat("x", rng.IntN(30)))
			if rng.IntN(4) > 0 {
				b.WriteByte('\n')
			}
		}
		content := []byte(b.String())
		tf := fset.AddFile("f"+string(rune('a'+len(files)))+".md", -1, len(content))
		if rng.IntN(5) > 0 {
			tf.SetLinesForContent(content)
		}
		files = append(files, tf)
	}
	return fset, files
}
