package sotparse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// pathologicalInlines are the inline shapes of cmark's pathological tests
// (test/pathological_tests.py in commonmark/cmark, a list nobody here
// wrote) that goldmark v1.8.7 parses in time growing faster than the
// input, each of n units in one paragraph, and two more of emphasis.
// Measured on goldmark's parser (one run each, 4,000 then 16,000 units):
// mismatched emphasis 75 ms -> 2.3 s, openers and closers multiple of 3
// 77 ms -> 1.6 s, unclosed links 146-263 ms -> 1.9-4.2 s, nested brackets
// 47 -> 396 ms. Since round 46 sotparse matches emphasis itself in linear
// time (delimiters.go), and links past a document's allowance of inline
// work are read as text (inlinework.go; bounded).
var pathologicalInlines = []struct {
	name    string
	unit    func(n int) string
	bounded bool // spends the allowance of inline work (inlinework.go)
}{
	{"mismatched-emphasis", func(n int) string { return strings.Repeat("*a_ ", n) }, false},
	{"openers-closers-multiple-of-3", func(n int) string { return "a**b" + strings.Repeat("c* ", n) }, false},
	{"unclosed-links-angle", func(n int) string { return strings.Repeat("[a](<b", n) }, true},
	{"unclosed-links", func(n int) string { return strings.Repeat("[a](b", n) }, true},
	{"nested-brackets", func(n int) string { return strings.Repeat("[", n) + "a" + strings.Repeat("]", n) }, true},
	{"nested-strong-emphasis", func(n int) string { return strings.Repeat("*a **a ", n) + "b" + strings.Repeat(" a** a*", n) }, false},
	{"link-openers-emphasis-closers", func(n int) string { return strings.Repeat("[ a_", n) }, false},
	{"backticks", func(n int) string {
		var b strings.Builder
		for i := 1; b.Len() < 4*n; i++ {
			b.WriteString("e" + strings.Repeat("`", i))
		}
		return b.String()
	}, true},
	// a helper's: a table's short rows are padded to its header's columns
	{"padded-table", func(n int) string {
		return "|" + strings.Repeat("a|", n) + "\n|" + strings.Repeat("-|", n) + "\n" + strings.Repeat("x\n", n)
	}, true},
	// not cmark's: openers taken before the closers that skip past them
	{"consumed-openers", func(n int) string { return "*x " + strings.Repeat("_a ", n) + strings.Repeat("*a* * ", n) }, false},
	{"emphasis-in-links", func(n int) string { return strings.Repeat("[*a_ ", n) + strings.Repeat("](/u) ", n) }, false},
}

// BenchmarkPathologicalInline parses each of pathologicalInlines at 1,000
// and 4,000 units with a document's allowance of inline work, as check
// does: a linear parse takes four times as long at the larger.
func BenchmarkPathologicalInline(b *testing.B) {
	for _, c := range pathologicalInlines {
		for _, n := range []int{1000, 4000} {
			src := []byte("# T\n\n" + c.unit(n) + "\n")
			b.Run(fmt.Sprint(c.name, "/", n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					mdParser().Parse(text.NewReader(src), parser.WithContext(InlineWorkContext(len(src))))
				}
			})
		}
	}
}

// TestInlineWorkBounded: each pathological shape of links and code spans, at a size goldmark
// would take minutes on, spends the document's allowance: a syntax finding
// where it ran out, the work done within the allowance and one charge
// more, the markup after it read as text, and the document parsed to its
// end. The same shapes at 100 units, and a long paragraph
// of ordinary links and emphasis, are no finding.
func TestInlineWorkBounded(t *testing.T) {
	if raceEnabled {
		t.Skip("parses megabytes on one goroutine: nothing for the race detector, at ten times the cost; the plain run holds it")
	}
	for _, c := range pathologicalInlines {
		if !c.bounded {
			continue
		}
		body := "# P\n\n" + c.unit(50000) + "\n\n## After\n"
		ws := load(t, map[string]string{".sot/P-PRD.md": body})
		var msgs []string
		for _, p := range ws.ProblemsFor("syntax") {
			if pos := ws.Fset.Position(p.Pos); pos.Line != 3 {
				t.Errorf("%s: finding at line %d, want 3", c.name, pos.Line)
			}
			msgs = append(msgs, p.Message)
		}
		if len(msgs) != 1 || !strings.Contains(msgs[0], "too dense to parse in linear time") {
			t.Errorf("%s: syntax findings %q, want one about inline work", c.name, msgs)
		}
		if d := ws.Doc(".sot/P-PRD.md"); d == nil || len(d.Headings) != 2 {
			t.Errorf("%s: the document was not parsed to its end", c.name)
		}
		pc := InlineWorkContext(len(body))
		mdParser().Parse(text.NewReader([]byte(body)), parser.WithContext(pc))
		if w := inlineWorkOf(pc); !w.over || w.done > w.limit+int64(len(body)) {
			t.Errorf("%s: over %v, %d done of %d", c.name, w.over, w.done, w.limit)
		}
	}
	var ordinary strings.Builder
	ordinary.WriteString("# O\n\n")
	for i := range 20000 {
		fmt.Fprintf(&ordinary, "See **item %d** in [the list](/l#%d) and _its_ [notes][n] ~~old~~. ", i, i)
	}
	ordinary.WriteString("\n\n[n]: /notes\n")
	small := map[string]string{".sot/O-PRD.md": ordinary.String()}
	for i, c := range pathologicalInlines {
		if c.bounded {
			small[fmt.Sprintf(".sot/S%d-PRD.md", i)] = "# S\n\n" + c.unit(100) + "\n"
		}
	}
	if ps := load(t, small).ProblemsFor("syntax"); len(ps) != 0 {
		t.Errorf("ordinary markup and small pathological paragraphs: %v", ps)
	}
}

// TestDelimitersBounded: a paragraph of more emphasis markers than a
// document may hold (inlinework.go) holds the allowance's worth, reads
// the markers past it as text, and the document gets one syntax finding
// there and is parsed to its end. (TestInlineWorkBounded's paragraph of
// ordinary emphasis, twice as long, gets none.)
func TestDelimitersBounded(t *testing.T) {
	const units = 100000 // "*a **a ": two runs a unit, 700 KB
	body := "# P\n\n" + strings.Repeat("*a **a ", units) + "\n\n## After\n"
	ws := load(t, map[string]string{".sot/P-PRD.md": body})
	ps := ws.ProblemsFor("syntax")
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "more emphasis or strikethrough markers than a document may hold") {
		t.Fatalf("syntax findings %v, want one about emphasis markers", ps)
	}
	pc := InlineWorkContext(len(body))
	mdParser().Parse(text.NewReader([]byte(body)), parser.WithContext(pc))
	w := inlineWorkOf(pc)
	if !w.delimitersOver || w.delimiters != w.delimiterLimit || w.delimiterLimit >= 2*units {
		t.Errorf("over %v, %d runs held of %d allowed (%d in the paragraph)", w.delimitersOver, w.delimiters, w.delimiterLimit, 2*units)
	}
	// where the finding is: the first run not held, "*" or "**" of its unit
	k := int(w.delimiterLimit)
	col := 1 + 7*(k/2) + 3*(k%2)
	if pos := ws.Fset.Position(ps[0].Pos); pos.Line != 3 || pos.Column != col {
		t.Errorf("finding at %d:%d, want 3:%d", pos.Line, pos.Column, col)
	}
	if d := ws.Doc(".sot/P-PRD.md"); d == nil || len(d.Headings) != 2 {
		t.Error("the document was not parsed to its end")
	}
}
