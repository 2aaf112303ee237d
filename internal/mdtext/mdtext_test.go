package mdtext

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// reading writes what a reader of n's tree reads: every node's kind as it
// opens and closes, except texts, which write their bytes and their line
// breaks, so that two texts and the one they merge into read the same.
func reading(n ast.Node, src []byte) string {
	var b strings.Builder
	var rec func(n ast.Node)
	rec = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				fmt.Fprintf(&b, "%s", t.Segment.Value(src))
				if t.IsRaw() {
					b.WriteString("«raw»")
				}
				if t.SoftLineBreak() {
					b.WriteString("«soft»")
				}
				if t.HardLineBreak() {
					b.WriteString("«hard»")
				}
				continue
			}
			fmt.Fprintf(&b, "<%s>", c.Kind())
			rec(c)
			fmt.Fprintf(&b, "</%s>", c.Kind())
		}
	}
	rec(n)
	return b.String()
}

func texts(n ast.Node) (count int) {
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if _, ok := n.(*ast.Text); ok && entering {
			count++
		}
		return ast.WalkContinue, nil
	})
	return count
}

// TestMergeReadsTheSame: on markdown drawn from the characters inline
// parsing turns on, a tree reads the same before and after Merge, and
// Merge leaves no two texts a reader could take for one.
func TestMergeReadsTheSame(t *testing.T) {
	md := goldmark.New(goldmark.WithExtensions(extension.Strikethrough, extension.Table, extension.TaskList))
	alphabet := []string{"*", "_", "~", "a", "b", " ", "\n", "\n\n", "`", "[", "]", "(", ")", "\\", "<", ">", "!", "- ", "| ", "# ", "  \n", "&amp;", "x_y", "**", "http://a.b"}
	r := rand.New(rand.NewPCG(1, 2))
	merged := 0
	for i := range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(60) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		src := []byte(b.String())
		doc := md.Parser().Parse(text.NewReader(src))
		before, n := reading(doc, src), texts(doc)
		Merge(doc, src)
		if after := reading(doc, src); after != before {
			t.Fatalf("case %d %q: reads\n%s\nafter Merge, not\n%s", i, src, after, before)
		}
		merged += n - texts(doc)
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if _, code := n.(*ast.CodeSpan); !entering || code {
				return ast.WalkSkipChildren, nil
			}
			for c := n.FirstChild(); c != nil && c.NextSibling() != nil; c = c.NextSibling() {
				p, ok1 := c.(*ast.Text)
				q, ok2 := c.NextSibling().(*ast.Text)
				if ok1 && ok2 && Continues(p, q, src) {
					t.Fatalf("case %d %q: texts %q and %q left apart", i, src, p.Segment.Value(src), q.Segment.Value(src))
				}
			}
			return ast.WalkContinue, nil
		})
	}
	if merged == 0 {
		t.Fatal("no text merged in any case: the cases do not reach Merge")
	}
}

// TestMergeKeepsApart: what a reader must not take for one text stays
// two: a line break between them, a code span's lines, raw text beside
// text.
func TestMergeKeepsApart(t *testing.T) {
	md := goldmark.New()
	for _, c := range []struct {
		src  string
		want int // texts after Merge
	}{
		{"a *b c_ d", 1},
		{"a *b\nc_ d", 2},   // soft break after "a *b"
		{"a *b  \nc_ d", 2}, // hard break
		{"`a\nb` c", 3},     // the code span's two lines, the text after it
		{"a **b** *c", 3},   // "a ", "b" in the emphasis, " *c"
		{"x\\*y*z", 1},      // an escaped delimiter: one text of the source's bytes
		{"a <b> c", 2},      // raw HTML between
	} {
		src := []byte(c.src)
		doc := md.Parser().Parse(text.NewReader(src))
		before := reading(doc, src)
		Merge(doc, src)
		if got := texts(doc); got != c.want {
			t.Errorf("%q: %d texts after Merge, want %d (%s)", c.src, got, c.want, reading(doc, src))
		}
		if after := reading(doc, src); after != before {
			t.Errorf("%q: reads %s after Merge, not %s", c.src, after, before)
		}
	}
}
