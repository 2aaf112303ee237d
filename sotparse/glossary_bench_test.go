package sotparse

import (
	"fmt"
	"go/token"
	"strings"
	"testing"
)

// glossaryText is a CONTEXT.md of n terms, each followed by a fence that
// holds a bold line that is not a term.
func glossaryText(n int) []byte {
	var b strings.Builder
	b.WriteString("# Context\n\n")
	for i := range n {
		fmt.Fprintf(&b, "**Term%d**: definition %d.\n\n```\n**Fenced%d**: not a term\n```\n\n", i, i, i)
	}
	return []byte(b.String())
}

// TestGlossaryFences: bold lines inside fences define nothing, whatever
// the number of fences before them.
func TestGlossaryFences(t *testing.T) {
	file, _ := fuzzFile(GlossaryPath, glossaryText(300))
	g := parseGlossary(parseDoc(file, func(string, token.Pos, token.Pos, string) {}, new(modelSlabs)))
	if len(g.Terms) != 300 || g.Terms[299].Name != "Term299" {
		t.Fatalf("%d terms, last %+v", len(g.Terms), g.Terms[len(g.Terms)-1])
	}
	if g.Lookup("term17") == nil || g.Lookup("Fenced17") != nil {
		t.Error("lookup")
	}
}

// BenchmarkGlossaryFences parses glossaries of growing size: the time per
// term stays flat (it grew with the number of fences: each term was
// checked against every fence, 47 s for a 4 MB CONTEXT.md).
func BenchmarkGlossaryFences(b *testing.B) {
	for _, n := range []int{1000, 10000, 50000} {
		content := glossaryText(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(content)))
			for range b.N {
				file, _ := fuzzFile(GlossaryPath, content)
				d := parseDoc(file, func(string, token.Pos, token.Pos, string) {}, new(modelSlabs))
				if g := parseGlossary(d); len(g.Terms) != n {
					b.Fatalf("%d terms", len(g.Terms))
				}
			}
		})
	}
}
