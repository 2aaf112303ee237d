package prose

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/svrnty/sotvet/sotparse"
)

// TestMarkdownAsGoldmark holds markdown, built from goldmark's parsers
// with its inline parsers charged (sotparse.ChargedInlineParsers), to
// goldmark.New with the GFM and footnote extensions, on random documents
// of the markup each extension reads and their near misses.
func TestMarkdownAsGoldmark(t *testing.T) {
	reference := goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote)).Parser()
	pieces := []string{
		"text", "*a*", "**b**", "_c_", "*a_ ", "a**b", "c* ", "~~s~~", "~t~", "[l](/u)", "[l](/u \"t\")", "[r]", "[r]: /r",
		"![i](/p)", "<http://a.example>", "www.example.com", "https://x.example/p?q=1", "a@b.example", "note[^1]", "[^1]: foot",
		"| a | b |", "|---|---|", "| c | d |", "- [ ] box", "- [x] done", "1. item", "> quote", "# H", "```", "code", "`span`",
		"[a](<b", "[a](b", "\\*", "&amp;", "<b>raw</b>", "", "  ",
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 3000 {
		var b strings.Builder
		for range 1 + rng.IntN(10) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			b.WriteString([]string{"\n", " ", "\n\n", ""}[rng.IntN(4)])
		}
		src := []byte(b.String())
		got := dumpTree(markdown().Parse(text.NewReader(src), parser.WithContext(sotparse.InlineWorkContext(len(src)))), src)
		want := dumpTree(reference.Parse(text.NewReader(src)), src)
		if got != want {
			t.Fatalf("%q:\nmarkdown:\n%s\ngoldmark:\n%s", src, got, want)
		}
	}
}

// dumpTree writes a tree as one line per node: its kind, its lines or its
// text, and the fields links and the extensions set.
func dumpTree(doc ast.Node, src []byte) string {
	var b strings.Builder
	depth := 0
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			depth--
			return ast.WalkContinue, nil
		}
		fmt.Fprintf(&b, "%s%s", strings.Repeat("  ", depth), n.Kind())
		depth++
		if n.Type() == ast.TypeBlock {
			for i := 0; i < n.Lines().Len(); i++ {
				s := n.Lines().At(i)
				fmt.Fprintf(&b, " [%d:%d]", s.Start, s.Stop)
			}
		}
		switch n := n.(type) {
		case *ast.Text:
			fmt.Fprintf(&b, " %q soft=%v", n.Segment.Value(src), n.SoftLineBreak())
		case *ast.Link:
			fmt.Fprintf(&b, " %q %q", n.Destination, n.Title)
		case *ast.AutoLink:
			fmt.Fprintf(&b, " %q", n.URL(src))
		case *east.TaskCheckBox:
			fmt.Fprintf(&b, " %v", n.IsChecked)
		case *east.FootnoteLink:
			fmt.Fprintf(&b, " %d", n.Index)
		}
		b.WriteByte('\n')
		return ast.WalkContinue, nil
	})
	return b.String()
}
