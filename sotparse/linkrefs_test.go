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
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/svrnty/sotvet/internal/mddump"
	"github.com/svrnty/sotvet/sotparse/internal/gfm"
)

// sameAsDefaultParser checks that mdParser builds the tree, and collects
// the link references, that goldmark's default parser with the same
// extensions does: mdParser with goldmark's table rows (gfm.Table), whose
// lean ones TestLeanTables and TestLeanRowCells compare with goldmark's.
func sameAsDefaultParser(t *testing.T, reference parser.Parser, name string, src []byte) {
	t.Helper()
	gotCtx, wantCtx := parser.NewContext(), parser.NewContext()
	// with a document's allowance of inline work, which the parsers
	// charge and stay transparent under (inlinework.go)
	work := newInlineWork(len(src))
	setInlineWork(gotCtx, work)
	defer func() {
		if work.over {
			t.Fatalf("%s: %q spent its inline work allowance", name, src)
		}
	}()
	deep := &nestingNote{}
	gotCtx.Set(nestingKey, deep)
	got := dumpMarkdown(fullTableParser().Parse(text.NewReader(src), parser.WithContext(gotCtx)), src, gotCtx)
	if deep.lines > 0 {
		return // past MaxNesting the trees differ by design (TestNestingAsGoldmark)
	}
	want := dumpMarkdown(reference.Parse(text.NewReader(src), parser.WithContext(wantCtx)), src, wantCtx)
	if got != want {
		t.Fatalf("%s: %q\nmdParser:\n%s\ngoldmark's default parser:\n%s", name, src, got, want)
	}
}

// fullTableParser is mdParser with goldmark's table rows.
var fullTableParser = sync.OnceValue(func() parser.Parser { return newMDParser(gfm.Table) })

// dumpMarkdown writes the tree (mddump.Tree) and then the context's link
// references.
func dumpMarkdown(doc ast.Node, src []byte, pc parser.Context) string {
	var b strings.Builder
	b.WriteString(mddump.Tree(doc, src))
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
// definitions, one a line ("lines"), or each a label over two lines whose
// title line opens the next ("gaps": goldmark's removal then takes the
// ranges after a gap). goldmark's transformer was quadratic in n on both
// (100,000 one-line definitions, 1.7 MB, took 23 s); linkRefs is linear.
func BenchmarkLinkRefsParagraph(b *testing.B) {
	for _, shape := range []string{"lines", "gaps"} {
		for _, n := range []int{2000, 20000} {
			var sb strings.Builder
			sb.WriteString("# L\n\n")
			for i := range n {
				if shape == "lines" {
					fmt.Fprintf(&sb, "[l%d]: x%d\n", i, i)
				} else {
					fmt.Fprintf(&sb, "[l%d\nm]: x%d\n\"t\" ", i, i)
				}
			}
			sb.WriteString("end\n")
			src := []byte(sb.String())
			b.Run(fmt.Sprint(shape, "/", n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					mdParser().Parse(text.NewReader(src), parser.WithContext(parser.NewContext()))
				}
			})
		}
	}
}

// BenchmarkBracketParagraph parses a paragraph of n lines, each with a
// bracketed word. goldmark's link parser read each label's bytes from a
// line it searched for backwards from the paragraph's last: quadratic in
// the lines (6 ms for 2,000, 300 ms for 20,000); linkParser's reader
// finds the line by binary search.
func BenchmarkBracketParagraph(b *testing.B) {
	for _, n := range []int{2000, 20000} {
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, "see [x%d] and [y%d](/u) here\n", i, i)
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

// TestLinkRefsQuirks holds the reader to goldmark's on the forms where
// goldmark's grammar or its removal of lines is not what CommonMark says:
// a title followed by text after a label over two lines (its destination's
// line stays in the paragraph), such definitions one after another (the
// removal then takes lines the ranges do not name), titles over lines,
// labels of escaped brackets, angle destinations and tabs in containers.
func TestLinkRefsQuirks(t *testing.T) {
	reference := goldmark.New(goldmark.WithExtensions(MarkdownExtensions...)).Parser()
	docs := []string{
		"[Foo]:\n/url\n'title'     [code]: /x\n    [code]: /x\n[foo]\n",
		"[a\nb]: /u\n\"t\" [c]: /v\n[d]: /w\ntext [a\nb]\n",
		"[a\nb]: /u\n\"t\" x\n[c\nd]: /v\n'u' [e]: /w\n[f]: /g\nrest\n",
		"[a]: /u 'x\n[b]: /v\n[c]: /w'\n[a] [b] [c]\n",
		"[a]: /u\n(x\n(y\n[b]: /v\n[b]\n",
		"[a]: </u v> \"t\"\n[b]: /p(q(r)s)t\n[c]: /\\(x \"y\\\"\"\n[a][] [b] [c]\n",
		"- \t[a]: /u\n  \t[b]: /v\n\n  [a] [b]\n",
		"> [a]:\n> /u\n> 't\n> 2' z\n> [b]: /v\n",
		"[\\[x\\]]: /y\n[x\\]: /z\n[\\[x\\]]\n",
		"[a]: /u \"t\"\n[b]: /v \"t\" [c]: /w\nx\n",
		"- \tsee [a\n  \tb] and [c][a\n  \tb] ![i](/p\n  \t\"t\")\n\n[a b]: /u\n",
		"> x [a]\n> [b\n> c] [d](</e f>\n> 'g\n> h')\n\n[a]: /1\n[b c]: /2\n",
	}
	for _, doc := range docs {
		sameAsDefaultParser(t, reference, "quirk", []byte(doc))
	}
}

// TestRemoveLinesAsGoldmark holds removeLines to goldmark's loop on random
// ordered ranges, with and without gaps between them.
func TestRemoveLinesAsGoldmark(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range sampled(20000) {
		n := rng.IntN(12)
		var removes [][2]int
		at := 0
		for at < n && rng.IntN(4) > 0 {
			start := at + rng.IntN(3)*rng.IntN(2)
			end := start + rng.IntN(3)
			if end > n {
				break
			}
			removes = append(removes, [2]int{start, end})
			at = end
		}
		if len(removes) == 0 {
			continue
		}
		segs := func() *text.Segments {
			s := text.NewSegments()
			for i := range n {
				s.Append(text.NewSegment(10*i, 10*i+5))
			}
			return s
		}
		gotLines := removeLines(segs(), removes)
		wantLines := removeLinesAsGoldmark(segs(), removes)
		got, want := gotLines.Sliced(0, gotLines.Len()), wantLines.Sliced(0, wantLines.Len())
		if !slices.Equal(got, want) {
			t.Fatalf("%d lines, ranges %v: %v, goldmark %v", n, removes, got, want)
		}
	}
}

// FuzzLinkRefs holds the reader to goldmark's default parser on any text.
func FuzzLinkRefs(f *testing.F) {
	for _, s := range []string{"[a]: /u\n[b]: /v 't'\nx\n", "[a\nb]: /u\n\"t\" [c]: /v\n[d]: /w\n", "- [a]:\n  /u\n  (t)\n"} {
		f.Add([]byte(s))
	}
	reference := goldmark.New(goldmark.WithExtensions(MarkdownExtensions...)).Parser()
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		sameAsDefaultParser(t, reference, "fuzz", src)
	})
}
