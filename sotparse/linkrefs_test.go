package sotparse

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/svrnty/sotvet/sotparse/internal/gfm"
)

// sameAsDefaultParser checks that mdParser builds the tree, and collects
// the link references, that goldmark's default parser with the same
// extensions does: mdParser with goldmark's table rows (gfm.Table), whose
// lean ones TestLeanTables and TestLeanRowCells compare with goldmark's.
func sameAsDefaultParser(t *testing.T, reference parser.Parser, name string, src []byte) {
	t.Helper()
	gotCtx, wantCtx := parser.NewContext(), parser.NewContext()
	got := dumpMarkdown(fullTableParser().Parse(text.NewReader(src), parser.WithContext(gotCtx)), src, gotCtx)
	want := dumpMarkdown(reference.Parse(text.NewReader(src), parser.WithContext(wantCtx)), src, wantCtx)
	if got != want {
		t.Fatalf("%s: %q\nmdParser:\n%s\ngoldmark's default parser:\n%s", name, src, got, want)
	}
}

// fullTableParser is mdParser with goldmark's table rows.
var fullTableParser = sync.OnceValue(func() parser.Parser { return newMDParser(gfm.Table) })

// dumpMarkdown writes the tree as one line per node, its kind, position,
// lines or segment and the fields links and the extensions set, and then
// the context's link references.
func dumpMarkdown(doc ast.Node, src []byte, pc parser.Context) string {
	var b strings.Builder
	depth := 0
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			depth--
			return ast.WalkContinue, nil
		}
		fmt.Fprintf(&b, "%s%s pos=%d blank=%v", strings.Repeat("  ", depth), n.Kind(), n.Pos(), n.Type() == ast.TypeBlock && n.HasBlankPreviousLines())
		depth++
		if n.Type() == ast.TypeBlock {
			for i := 0; i < n.Lines().Len(); i++ {
				s := n.Lines().At(i)
				fmt.Fprintf(&b, " [%d:%d pad %d]", s.Start, s.Stop, s.Padding)
			}
		}
		switch n := n.(type) {
		case *ast.Text:
			fmt.Fprintf(&b, " %q soft=%v hard=%v raw=%v", n.Segment.Value(src), n.SoftLineBreak(), n.HardLineBreak(), n.IsRaw())
		case *ast.Link:
			fmt.Fprintf(&b, " dest=%q title=%q ref=%v", n.Destination, n.Title, n.Reference != nil)
		case *ast.Image:
			fmt.Fprintf(&b, " dest=%q title=%q", n.Destination, n.Title)
		case *ast.LinkReferenceDefinition:
			fmt.Fprintf(&b, " label=%q dest=%q title=%q", n.Label, n.Destination, n.Title)
		case *east.Table:
			fmt.Fprintf(&b, " %v", n.Alignments)
		case *east.TaskCheckBox:
			fmt.Fprintf(&b, " checked=%v", n.IsChecked)
		}
		b.WriteByte('\n')
		return ast.WalkContinue, nil
	})
	refs := pc.References()
	lines := make([]string, 0, len(refs))
	for _, r := range refs {
		lines = append(lines, fmt.Sprintf("ref %q -> %q %q", r.Label(), r.Destination(), r.Title()))
	}
	slices.Sort(lines)
	b.WriteString(strings.Join(lines, "\n"))
	return b.String()
}

// TestLinkRefsSameTree holds mdParser, which looks for link reference
// definitions only in paragraphs with a '[', to goldmark's default parser
// on the test workspaces and on random documents of link references,
// links, tables, lists, quotes and their near misses.
func TestLinkRefsSameTree(t *testing.T) {
	reference := goldmark.New(goldmark.WithExtensions(MarkdownExtensions...)).Parser()
	n := 0
	for name, files := range testWorkspaces(t, isMarkdown) {
		for path, content := range files {
			sameAsDefaultParser(t, reference, name+" "+path, content)
			n++
		}
	}
	if n < 500 {
		t.Fatalf("only %d documents", n)
	}
	pieces := []string{
		"[foo]: /url", "[foo]: /url \"title\"", "[Foo]:\n/url\n'title'", "   [bar]: <x y>", "    [code]: /x", "[a]:", "[]: /x",
		"[foo]", "[foo][]", "[text][foo]", "[bar]", "![img][foo]", "[link](/u)", "\\[x]: /y", "[x\\]]: /y",
		"text", "more text [", "]", "[", "x: y", "| a | b |", "|---|---|", "| [foo]: /u | c |",
		"- item", "- [ ] box", "- [x] [foo]: /u", "1. [foo]: /v", "> [q]: /q", "> text", "# [foo]: /h", "```", "    indented",
		"", "  ", "\t[t]: /t", "[é]: /é", "[foo]: /dup",
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range sampled(20000) {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			b.WriteString([]string{"\n", "\n", "\n\n", " ", "\r\n"}[rng.IntN(5)])
		}
		sameAsDefaultParser(t, reference, "random", []byte(b.String()))
	}
}

// BenchmarkLinkRefsParagraph parses a paragraph of n link reference
// definitions. It is quadratic in n: goldmark's transformer copies the
// paragraph's remaining lines after each definition it takes (100,000 of
// them, 1.7 MB, took 23 s; see docs/security.md for why it is left).
func BenchmarkLinkRefsParagraph(b *testing.B) {
	for _, n := range []int{2000, 20000} {
		var sb strings.Builder
		sb.WriteString("# L\n\n")
		for i := range n {
			fmt.Fprintf(&sb, "[l%d]: x%d\n", i, i)
		}
		src := []byte(sb.String())
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				mdParser().Parse(text.NewReader(src), parser.WithContext(parser.NewContext()))
			}
		})
	}
}
