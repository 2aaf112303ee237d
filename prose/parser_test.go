package prose

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/svrnty/sotvet/internal/mddump"
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
		got := mddump.Tree(markdown().Parse(text.NewReader(src), parser.WithContext(sotparse.InlineWorkContext(len(src)))), src)
		want := mddump.Tree(reference.Parse(text.NewReader(src)), src)
		if got != want {
			t.Fatalf("%q:\nmarkdown:\n%s\ngoldmark:\n%s", src, got, want)
		}
	}
}

// TestPaddedTableCharged: a table whose one-cell rows are padded to a
// header of 2,000 columns (4 million padding cells, a block each) is
// charged to the document's allowance and stays a paragraph: a few
// blocks, not millions.
func TestPaddedTableCharged(t *testing.T) {
	n := 2000
	src := "# T\n\n|" + strings.Repeat("a|", n) + "\n|" + strings.Repeat("-|", n) + "\n" + strings.Repeat("x\n", n)
	if blocks := Blocks([]byte(src)); len(blocks) > 10 {
		t.Errorf("%d blocks", len(blocks))
	}
}
