package sotparse

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// TestLinkRefsInChunksSame: a paragraph's link reference definitions
// taken a chunk at a time render as goldmark takes them whole, on drawn
// paragraphs of definitions (titles and destinations on the next line,
// labels over two lines, indented, invalid ones, lines that open with "["
// and define nothing) with text before, between and after, and links
// that use them.
func TestLinkRefsInChunksSame(t *testing.T) {
	reference := goldmark.New() // goldmark's own transformer, whole
	ours := goldmark.New(goldmark.WithParser(parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(util.Prioritized(linkRefs{}, 100)),
	)))
	defer func(n int) { linkRefChunk = n }(linkRefChunk)
	linkRefChunk = 3
	rng := rand.New(rand.NewPCG(5, 9))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	for round := range 2000 {
		var b strings.Builder
		if rng.IntN(3) == 0 {
			b.WriteString("Some text first.\n")
		}
		n := rng.IntN(12)
		for i := range n {
			l := fmt.Sprintf("l%d", rng.IntN(8))
			b.WriteString(strings.Repeat(" ", rng.IntN(5)))
			switch rng.IntN(10) {
			case 0:
				fmt.Fprintf(&b, "[%s]: /u%d \"title %d\"\n", l, i, i)
			case 1:
				fmt.Fprintf(&b, "[%s]:\n  /u%d\n", l, i)
			case 2:
				fmt.Fprintf(&b, "[%s]: /u%d\n  'title\n  on two'\n", l, i)
			case 3:
				fmt.Fprintf(&b, "[%s\n%d]: /u%d\n", l, i, i)
			case 4:
				fmt.Fprintf(&b, "[%s]:\n", l) // no destination, or one on the next line
			case 8:
				fmt.Fprintf(&b, "[%s]: /u%d %s\n", l, i, pick("'title", "\"a", "(t")) // a title on to the next line
			case 5:
				b.WriteString(pick("[not a definition] at all\n", "[x] y\n", "plain words\n", "[a]: <b c>\n"))
			default:
				fmt.Fprintf(&b, "[%s]: %s\n", l, pick("/a", "<b>", "http://x.example/p?q=1", "/c (paren title)"))
			}
		}
		if rng.IntN(3) == 0 {
			b.WriteString("Text after.\n")
		}
		b.WriteString("\nUse [l0], [l1][], [x][l2], [l3] and [l7].\n")
		src := []byte(b.String())
		var want, got bytes.Buffer
		if err := reference.Convert(src, &want); err != nil {
			t.Fatal(err)
		}
		if err := ours.Convert(src, &got); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("round %d: in chunks of %d lines\n%s\nrenders\n%s\nwhole\n%s", round, linkRefChunk, src, got.String(), want.String())
		}
	}
}

// BenchmarkLinkRefsParagraph parses a paragraph of n link reference
// definitions: linear in n (goldmark's transformer alone took 23 s on
// 100,000 of them, 1.7 MB).
func BenchmarkLinkRefsParagraph(b *testing.B) {
	for _, n := range []int{10000, 100000} {
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
