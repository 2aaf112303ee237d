package lsp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/sotparse"
)

func glossaryOf(names ...string) *sotparse.Glossary {
	g := &sotparse.Glossary{}
	for _, n := range names {
		g.Terms = append(g.Terms, &sotparse.Term{Name: n})
	}
	return g
}

// TestTermAt: the longest term around the cursor, as whole words, found
// case-insensitively.
func TestTermAt(t *testing.T) {
	g := glossaryOf("run", "Run Directory", "at")
	line := []byte("each run directory holds data at rest")
	for _, tc := range []struct {
		at   int
		want string
	}{
		{strings.Index(string(line), "run") + 1, "Run Directory"},
		{strings.Index(string(line), "directory") + 3, "Run Directory"},
		{strings.Index(string(line), "data") + 2, ""}, // "at" inside "data" is no term
		{strings.Index(string(line), " at ") + 2, "at"},
		{0, ""},
	} {
		got := termAt(g, line, tc.at)
		name := ""
		if got != nil {
			name = got.text
		}
		if name != tc.want {
			t.Errorf("at %d: got %q, want %q", tc.at, name, tc.want)
		}
	}
}

// BenchmarkTermAtManyTerms: a hover in a long line with a glossary of
// 50,000 terms. The cost is per name length, not per term (it was a
// search of the line for every term: 13.6 s in a 4 MB CONTEXT.md).
func BenchmarkTermAtManyTerms(b *testing.B) {
	var names []string
	for i := range 50000 {
		names = append(names, fmt.Sprintf("Term%d", i))
	}
	g := glossaryOf(names...)
	line := []byte(strings.Repeat("words and more words ", 50000) + "Term49999 here")
	at := len(line) - 8
	b.ResetTimer()
	for range b.N {
		if termAt(g, line, at) == nil {
			b.Fatal("not found")
		}
	}
}
