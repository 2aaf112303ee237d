package sotparse

import (
	"go/token"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
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

// staircaseDoc is a document of lists nested by indentation, line i one
// level deeper than line i-1 (each written as marker after two blanks a
// level), then lazy lines of text.
func staircaseDoc(marker string, depth, lazy int) string {
	var b strings.Builder
	b.WriteString("# Stairs\n\n")
	for d := range depth {
		b.WriteString(strings.Repeat(" ", d*len(marker)))
		b.WriteString(marker + "step " + strconv.Itoa(d) + "\n")
	}
	for i := range lazy {
		b.WriteString("lazy line " + strconv.Itoa(i) + "\n")
	}
	b.WriteString("\n## After\n")
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
	// Lists nested line after line by indentation are bounded the same
	// way: the finding is at the marker of the first line past the limit.
	for _, marker := range []string{"- ", "1. "} {
		ws := load(t, map[string]string{".sot/D-PRD.md": staircaseDoc(marker, MaxNesting+5, 3)})
		ps := ws.ProblemsFor("syntax")
		if len(ps) != 1 || !strings.Contains(ps[0].Message, "nested deeper than") {
			t.Fatalf("%q staircase: syntax findings %v, want one about nesting", marker, ps)
		}
		pos := ws.Fset.Position(ps[0].Pos)
		if wantLine, wantCol := 3+MaxNesting, 1+MaxNesting*len(marker); pos.Line != wantLine || pos.Column != wantCol {
			t.Errorf("%q staircase: finding at %d:%d, want %d:%d", marker, pos.Line, pos.Column, wantLine, wantCol)
		}
		if d := ws.Doc(".sot/D-PRD.md"); d == nil || len(d.Headings) != 2 {
			t.Errorf("%q staircase: the document was not parsed to its end", marker)
		}
	}
	// Nesting up to the limit is no finding.
	for _, doc := range []string{deepDoc("- ", MaxNesting, 3), staircaseDoc("- ", MaxNesting, 3), deepDoc("> ", MaxNesting, 3)} {
		ws := load(t, map[string]string{".sot/D-PRD.md": doc})
		if ps := ws.ProblemsFor("syntax"); len(ps) != 0 {
			t.Errorf("nesting at the limit: %v", ps)
		}
	}
}

// TestNestingAsGoldmark holds the bounded parser to goldmark's default one
// on 3,000 random documents of lists and quotes nested on a line and by
// indentation: where goldmark's tree nests no deeper than MaxNesting, the
// trees are the same; where it does, the bounded tree nests MaxNesting
// deep, says so in the context's note, and keeps every word of the text.
func TestNestingAsGoldmark(t *testing.T) {
	reference := goldmark.New(goldmark.WithExtensions(MarkdownExtensions...)).Parser()
	markers := []string{"- ", "- ", "* ", "1. ", "2) ", "> ", "> ", "", "    ", "\t"}
	rng := rand.New(rand.NewPCG(7, 8))
	var within, past int
	n := 3000
	if raceEnabled {
		n = 600 // the parse is single-threaded: the detector needs no more
	}
	for i := range n {
		var b strings.Builder
		lines := 1 + rng.IntN(40)
		depth := 0
		perLine := 3 + rng.IntN(40) // markers on a line, at most
		for range lines {
			switch rng.IntN(5) {
			case 0:
				depth = max(0, depth-rng.IntN(4))
			case 1, 2, 3:
				depth += rng.IntN(3)
			}
			b.WriteString(strings.Repeat(" ", 2*depth))
			for range rng.IntN(perLine) {
				b.WriteString(markers[rng.IntN(len(markers))])
			}
			b.WriteString("w" + strconv.Itoa(rng.IntN(100)))
			if rng.IntN(6) == 0 {
				b.WriteString("\n")
			}
			b.WriteString("\n")
		}
		src := []byte(b.String())
		want := reference.Parse(text.NewReader(src))
		pc := parser.NewContext()
		note := &nestingNote{}
		pc.Set(nestingKey, note)
		got := mdParser().Parse(text.NewReader(src), parser.WithContext(pc))
		if treeDepth(want) <= MaxNesting {
			within++
			if note.lines > 0 {
				t.Fatalf("doc %d: %q: noted as nested too deep, goldmark nests it %d deep", i, src, treeDepth(want))
			}
			if g, w := dumpMarkdown(got, src, pc), dumpMarkdown(want, src, parser.NewContext()); g != w {
				t.Fatalf("doc %d: %q\nbounded:\n%s\ngoldmark:\n%s", i, src, g, w)
			}
			continue
		}
		past++
		if d := treeDepth(got); d > MaxNesting || note.lines == 0 {
			t.Fatalf("doc %d: %q: bounded tree %d deep, noted on %d lines", i, src, d, note.lines)
		}
		if g, w := words(got, src), words(want, src); g != w {
			t.Fatalf("doc %d: %q: words %q, goldmark's %q", i, src, g, w)
		}
	}
	t.Logf("%d documents within the limit, %d past it", within, past)
	if within < n/30 || past < n/30 {
		t.Fatalf("%d documents within the limit, %d past it: the generator no longer covers both", within, past)
	}
}

// treeDepth is the most lists and blockquotes a node of n's tree is in.
func treeDepth(n ast.Node) int {
	d := 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		d = max(d, treeDepth(c))
	}
	switch n.(type) {
	case *ast.List, *ast.Blockquote:
		d++
	}
	return d
}

// words is the w-numbered words of the text and code in n's tree, in
// order.
func words(n ast.Node, src []byte) string {
	var b strings.Builder
	add := func(s []byte) {
		for _, f := range strings.Fields(string(s)) {
			if strings.HasPrefix(f, "w") {
				b.WriteString(f + " ")
			}
		}
	}
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			add(n.Segment.Value(src))
		case *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock:
			for i := range n.Lines().Len() {
				seg := n.Lines().At(i)
				add(seg.Value(src))
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// BenchmarkDeepNesting parses 1 MB documents of nested lists and
// blockquotes, one deep line repeated, and a staircase of lists nested by
// indentation: the cost must stay linear.
func BenchmarkDeepNesting(b *testing.B) {
	for _, tc := range []struct{ name, marker string }{{"list", "- "}, {"quote", "> "}, {"ordered", "1. "}} {
		for _, depth := range []int{1, MaxNesting, 1000, 100000} {
			lines := max(1, (1<<20)/(depth*len(tc.marker)+2))
			content := []byte(deepDoc(tc.marker, depth, lines))
			b.Run(tc.name+"/depth="+strconv.Itoa(depth), func(b *testing.B) { benchParse(b, content) })
		}
	}
	// depth d: d lines of up to 2d bytes and as many lazy lines
	for _, depth := range []int{MaxNesting, 100, 1000} {
		content := []byte(strings.Repeat(staircaseDoc("- ", depth, depth), max(1, (1<<20)/(depth*depth+20*depth))))
		b.Run("staircase/depth="+strconv.Itoa(depth), func(b *testing.B) { benchParse(b, content) })
	}
}

func benchParse(b *testing.B, content []byte) {
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		f := &File{Path: ".sot/D-PRD.md", Role: RoleDoc, Content: content}
		f.Tok = token.NewFileSet().AddFile(f.Path, -1, len(content))
		setLines(f.Tok, content)
		parseDoc(f, func(string, token.Pos, token.Pos, string) {}, nil)
	}
}
