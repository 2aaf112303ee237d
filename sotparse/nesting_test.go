package sotparse

import (
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// deepDoc is a document whose line i opens depth nested containers, each
// written as marker.
func deepDoc(marker string, depth, lines int) string {
	var b strings.Builder
	b.WriteString("# Deep\n\n")
	for range lines {
		b.WriteString(strings.Repeat(marker, depth))
		b.WriteString("x\n")
	}
	return b.String()
}

// TestNestingBounded: nesting past MaxNesting is a syntax finding at the
// marker where the limit is passed, and the document is still parsed.
func TestNestingBounded(t *testing.T) {
	for _, marker := range []string{"- ", "> ", "1. ", "* > "} {
		ws := load(t, map[string]string{".sot/D-PRD.md": deepDoc(marker, MaxNesting+5, 3) + "\n## After\n"})
		var msgs []string
		for _, p := range ws.ProblemsFor("syntax") {
			pos := ws.Fset.Position(p.Pos)
			msgs = append(msgs, p.Message)
			if pos.Line != 3 {
				t.Errorf("%q: finding at line %d, want 3", marker, pos.Line)
			}
			perLevel := len(marker)
			if strings.Contains(marker, ">") && len(marker) > 2 {
				perLevel = 2 // "* > " is two levels of two bytes
			}
			if want := 1 + MaxNesting*perLevel; pos.Column != want {
				t.Errorf("%q: finding at column %d, want %d", marker, pos.Column, want)
			}
		}
		if len(msgs) != 1 || !strings.Contains(msgs[0], "nested deeper than") {
			t.Errorf("%q: syntax findings %q, want one about nesting", marker, msgs)
		}
		d := ws.Doc(".sot/D-PRD.md")
		if d == nil || len(d.Headings) != 2 {
			t.Errorf("%q: the document was not parsed to its end", marker)
		}
	}
	// Nesting up to the limit is no finding.
	ws := load(t, map[string]string{".sot/D-PRD.md": deepDoc("- ", MaxNesting, 3)})
	if ps := ws.ProblemsFor("syntax"); len(ps) != 0 {
		t.Errorf("nesting at the limit: %v", ps)
	}
}

// BenchmarkDeepNesting parses 1 MB documents of nested lists and
// blockquotes, one deep line repeated: the cost must stay linear.
func BenchmarkDeepNesting(b *testing.B) {
	for _, tc := range []struct{ name, marker string }{{"list", "- "}, {"quote", "> "}, {"ordered", "1. "}} {
		for _, depth := range []int{1, MaxNesting, 1000, 100000} {
			lines := max(1, (1<<20)/(depth*len(tc.marker)+2))
			content := []byte(deepDoc(tc.marker, depth, lines))
			b.Run(tc.name+"/depth="+strconv.Itoa(depth), func(b *testing.B) {
				b.SetBytes(int64(len(content)))
				for b.Loop() {
					f := &File{Path: ".sot/D-PRD.md", Role: RoleDoc, Content: content}
					f.Tok = token.NewFileSet().AddFile(f.Path, -1, len(content))
					setLines(f.Tok, content)
					parseDoc(f, func(string, token.Pos, token.Pos, string) {}, nil)
				}
			})
		}
	}
}
