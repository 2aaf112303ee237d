package sotparse

import (
	"bytes"
	"fmt"
	"go/token"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/svrnty/sotvet/sotparse/internal/gfm"
)

// leanCells are cell texts for the generated tables: plain ones, and each
// inline markup and escape, pipes escaped in and out of code spans, white
// space of each kind, non-ASCII, and what a task box or a fact key is.
var leanCells = []string{
	"", " ", "x", " x ", "\tx\t", "plain words", "Status", "Owner", "Meaning", "`code`", "`a \\| b`", "a \\| b",
	"\\|", "`x|y`", "[l](u)", "[ref]", "![i](u)", "**b**", "*e*", "a_b", "__u__", "~~s~~", "~t~", "<b>x</b>",
	"<https://x.y/z>", "&amp;", "&#42;", "a\\*b", "\\", "é ü 表", "\u00a0x\u00a0", "x\f", "[x]", "[ ] y", "!",
	"CTO-WORK-12", "`CTO-WORK-7`", "`/abs/path`", "`deadbeef1`", ".sot/00-INTENT/X.md", "a:b", "--", ":-:",
	"`` ` ``", "`unclosed", "a  b", "x ", "a [b", "b] c", "\\`x", "x!", "a&b",
}

// leanTable returns a random table: a header, a delimiter row, rows of
// random widths, with and without outer pipes, in a list or a quote or
// not, with LF or CRLF line endings, and what follows it.
func leanTable(rng *rand.Rand) string {
	ncol := 1 + rng.IntN(5)
	eol := "\n"
	if rng.IntN(5) == 0 {
		eol = "\r\n"
	}
	prefix := ""
	switch rng.IntN(6) {
	case 0:
		prefix = "> "
	case 1:
		prefix = "  "
	}
	row := func(cells []string) string {
		var b strings.Builder
		b.WriteString(prefix)
		outer := rng.IntN(4) != 0
		if outer {
			b.WriteString("|")
		}
		for i, c := range cells {
			if i > 0 {
				b.WriteString("|")
			}
			b.WriteString(strings.Repeat(" ", rng.IntN(3)) + c + strings.Repeat(" ", rng.IntN(3)))
		}
		if outer && rng.IntN(5) != 0 {
			b.WriteString("|")
		}
		b.WriteString(strings.Repeat(" ", rng.IntN(2)))
		return b.String() + eol
	}
	cells := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = leanCells[rng.IntN(len(leanCells))]
		}
		return out
	}
	var b strings.Builder
	if rng.IntN(3) == 0 {
		b.WriteString("- item" + eol + eol)
	}
	if rng.IntN(4) == 0 {
		b.WriteString(prefix + "a paragraph before" + eol)
	}
	header := cells(ncol)
	header[0] = []string{"Key", "Item", "Field", "x"}[rng.IntN(4)]
	b.WriteString(row(header))
	delim := make([]string, ncol)
	for i := range delim {
		delim[i] = []string{"---", ":--", "--:", ":-:", "-"}[rng.IntN(5)]
	}
	b.WriteString(row(delim))
	for range rng.IntN(40) {
		w := ncol
		switch rng.IntN(6) {
		case 0:
			w = max(1, ncol-1-rng.IntN(ncol))
		case 1:
			w = ncol + 1 + rng.IntN(3)
		}
		b.WriteString(row(cells(w)))
	}
	switch rng.IntN(4) {
	case 0:
		b.WriteString(eol + "after" + eol)
	case 1:
		b.WriteString(prefix + "a line without a pipe" + eol)
	case 2:
		b.WriteString("# Heading" + eol)
	}
	return b.String()
}

// TestLeanTables compares the model of documents parsed with every table
// lean (gfm.LeanRow, read by the extractor) with the one goldmark's table
// nodes give: blocks (their encoding, text runs included), facts, key
// values, references, headings, work items, problems. On the sample and
// the corpus, generated tables of every cell and row form, and the
// adversarial ones of gfm's tests.
func TestLeanTables(t *testing.T) {
	full, lean := newMDParser(gfm.Table), newMDParser(gfm.LeanTable)
	type input struct {
		path    string
		content []byte
	}
	var inputs []input
	for _, d := range sampleAndCorpusDocs(t) {
		inputs = append(inputs, input{d.Path, d.File.Content})
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 400 {
		var b strings.Builder
		b.WriteString("# Doc\n\n## Work\n\n")
		for range 1 + rng.IntN(3) {
			b.WriteString(leanTable(rng))
			b.WriteString("\n")
		}
		inputs = append(inputs, input{fmt.Sprintf(".sot/03-PROTOCOLS/T-%d-MATRIX.md", i), []byte(b.String())})
	}
	for i, s := range []string{
		"| a | b |\n|---|---|\n| 1 | 2 |\n",
		"a | b | c\n:-- | --: | :-:\n1 | 2 | 3\n4\n",
		"| a |\n| - |\n| 1 | 2 | 3 |\n",
		"| a | b |\n|:--|--:|\n|`x \\| y` | z \\| w|\n|`p\\|q\\|r`|s|\n",
		"text before\n| a | b |\n| --- | --- |\n| 1 | 2 |\ntext after\n",
		"| a | b |\n| -: | :- |\n| c |\n",
		"| ~~a~~ | [x] |\n| --- | --- |\n| `|` | ~b~ |\n",
		"> | a |\n> | - |\n> | 1 |\n",
		"- | a | b |\n  | - | - |\n  | 1 | 2 |\n  | 3 |\n",
		"Ünïcödé | 表\n--- | ---\né | 字\n",
		"| Key | Value |\n|---|---|\n| Owner | rl |\n| Status | `done` |\n|  | x |\n| Meaning | y |\n",
		"| Item | Owner | Notes |\n|---|---|---|\n| `CTO-WORK-1` | rl | a |\n| [CTO-WORK-2](#x) | | b |\n",
		"| a | b |\n|---|---|\n|\t1\t|\t2\t|\n|   |   |\n||\n|\n",
		"   | a |\n   | - |\n   | 1 |\n",
		"| a |\n| - |\n| `x\\|y` and `z\\|w` \\| v |\n",
	} {
		inputs = append(inputs, input{fmt.Sprintf(".sot/03-PROTOCOLS/A-%d-MATRIX.md", i), []byte("# A\n\n" + s)})
	}
	leanRows := 0
	for _, in := range inputs {
		var got, want *Doc
		var gotProblems, wantProblems []string
		for _, side := range []struct {
			lean bool
			doc  **Doc
			pr   *[]string
		}{{false, &want, &wantProblems}, {true, &got, &gotProblems}} {
			file, _ := fuzzFile(in.path, bytes.Clone(in.content))
			report := func(check string, pos, end token.Pos, msg string) {
				*side.pr = append(*side.pr, fmt.Sprintf("%s %d %d %s", check, pos, end, msg))
			}
			p := full
			if side.lean {
				p = lean
			}
			*side.doc = parseDocWith(p, file, report, nil)
		}
		if (got.tree == nil) != (want.tree == nil) {
			t.Errorf("%s: lean tables leave the tree %v, goldmark's %v", in.path, got.tree != nil, want.tree != nil)
		}
		if got.tree != nil {
			leanRows += countLean(got.tree)
		}
		for _, c := range []struct {
			what      string
			got, want any
		}{
			{"blocks", got.blockEnc, want.blockEnc},
			{"key values", got.KeyValues, want.KeyValues},
			{"facts", allFacts(got.Facts), allFacts(want.Facts)},
			{"references", allRefs(got.Refs), allRefs(want.Refs)},
			{"headings", got.Headings, want.Headings},
			{"work items", itemsView(got.WorkItems), itemsView(want.WorkItems)},
			{"status lines", linesView(got.StatusLines), linesView(want.StatusLines)},
			{"phrase lists", got.PhraseLists, want.PhraseLists},
			{"problems", gotProblems, wantProblems},
		} {
			if !reflect.DeepEqual(c.got, c.want) {
				t.Errorf("%s: lean tables give other %s:\n%s", in.path, c.what, in.content)
			}
		}
		if !reflect.DeepEqual(got.Blocks(), want.Blocks()) {
			t.Errorf("%s: lean tables give other blocks:\n%s", in.path, in.content)
		}
	}
	if leanRows < 1000 {
		t.Fatalf("only %d lean rows: the test does not exercise them", leanRows)
	}
}

func allRefs(rs Refs) []Ref {
	var out []Ref
	for _, r := range rs.All() {
		out = append(out, r)
	}
	return out
}

// linesView is lines as DeepEqual can compare them: each line's item by
// its position (items hold packed blockers).
func linesView(lines []*Line) []any {
	var out []any
	for _, l := range lines {
		lc := *l
		lc.Item = nil
		var at token.Pos
		if l.Item != nil {
			at = l.Item.Pos
		}
		out = append(out, lc, at)
	}
	return out
}

// itemsView is items as DeepEqual can compare them: their packed
// blockers unpacked (each document has its table of texts).
func itemsView(items []*WorkItem) []any {
	var out []any
	for _, it := range items {
		cp := *it
		cp.Blockers = Refs{}
		// A line points back at its item: compared without.
		for _, l := range []**Line{&cp.Type, &cp.Status, &cp.BlockedBy, &cp.Validator} {
			if *l != nil {
				lc := **l
				lc.Item = nil
				*l = &lc
			}
		}
		out = append(out, cp, allRefs(it.Blockers))
	}
	return out
}

func allFacts(fs Facts) []*Fact {
	var out []*Fact
	for _, f := range fs.All() {
		out = append(out, f)
	}
	return out
}

func countLean(n ast.Node) int {
	k := 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Kind() == gfm.KindLeanRow {
			k++
		}
		k += countLean(c)
	}
	return k
}

// TestLeanRowCells checks that a lean row's cells are the cells of
// goldmark's row: a node for each cell with markup, the span of its Lines
// and its position for each plain one.
func TestLeanRowCells(t *testing.T) {
	full, lean := newMDParser(gfm.Table), newMDParser(gfm.LeanTable)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 300 {
		src := []byte(leanTable(rng))
		var fullRows, leanRows []ast.Node
		collect := func(n ast.Node, out *[]ast.Node) {
			_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
				if entering && (n.Kind() == east.KindTableRow || n.Kind() == gfm.KindLeanRow) {
					*out = append(*out, n)
				}
				return ast.WalkContinue, nil
			})
		}
		collect(full.Parse(text.NewReader(src)), &fullRows)
		collect(lean.Parse(text.NewReader(src)), &leanRows)
		if len(fullRows) != len(leanRows) {
			t.Fatalf("%d rows, goldmark %d:\n%s", len(leanRows), len(fullRows), src)
		}
		for i, r := range leanRows {
			var cells []ast.Node
			for c := fullRows[i].FirstChild(); c != nil; c = c.NextSibling() {
				cells = append(cells, c)
			}
			k := 0
			r.(*gfm.LeanRow).Cells(src, func(node *east.TableCell, pos int, seg text.Segment) {
				defer func() { k++ }()
				if k >= len(cells) {
					t.Fatalf("row %d: more cells than goldmark's %d:\n%s", i, len(cells), src)
				}
				want := cells[k]
				if pos != want.Pos() {
					t.Errorf("row %d cell %d at %d, goldmark's at %d:\n%s", i, k, pos, want.Pos(), src)
				}
				if node != nil {
					return
				}
				if l := want.Lines(); l.Len() != 1 || l.At(0) != seg {
					t.Errorf("row %d cell %d spans %v, goldmark's %v:\n%s", i, k, seg, l, src)
				}
				var covered []text.Segment
				for c := want.FirstChild(); c != nil; c = c.NextSibling() {
					tx, ok := c.(*ast.Text)
					if !ok || tx.SoftLineBreak() || tx.HardLineBreak() || tx.Segment.Padding != 0 {
						t.Fatalf("row %d cell %d is plain, goldmark's holds a %s:\n%s", i, k, c.Kind(), src)
					}
					covered = append(covered, tx.Segment)
				}
				at := seg.Start
				for _, s := range covered {
					if s.Start != at {
						t.Fatalf("row %d cell %d: goldmark's texts leave a gap at %d:\n%s", i, k, at, src)
					}
					at = s.Stop
				}
				if at != seg.Stop && len(covered) > 0 || len(covered) == 0 && seg.Len() > 0 {
					t.Fatalf("row %d cell %d: goldmark's texts end at %d, the cell at %d:\n%s", i, k, at, seg.Stop, src)
				}
			})
			if k != len(cells) {
				t.Fatalf("row %d: %d cells, goldmark's %d:\n%s", i, k, len(cells), src)
			}
		}
	}
}

// TestPlainBlockTextPos checks the blocks whose text is the source from
// their start on, which keep no run (most table cells): each byte of the
// text is the source's at TextPos, on generated tables and the sample and
// corpus documents.
func TestPlainBlockTextPos(t *testing.T) {
	var docs []*Doc
	for _, d := range sampleAndCorpusDocs(t) {
		docs = append(docs, d)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for i := range 200 {
		file, _ := fuzzFile(fmt.Sprintf(".sot/03-PROTOCOLS/P-%d-MATRIX.md", i), []byte("# Doc\n\n"+leanTable(rng)+"\npara `c` text\n"))
		docs = append(docs, parseDoc(file, func(string, token.Pos, token.Pos, string) {}, nil))
	}
	plain, cells := 0, 0
	for _, d := range docs {
		for _, b := range d.Blocks() {
			if b.Kind == BlockTableCell && b.Text != "" {
				cells++
			}
			if !b.plain {
				continue
			}
			plain++
			if len(b.runs) != 0 {
				t.Fatalf("%s: a plain block keeps %d runs", d.Path, len(b.runs))
			}
			for i := 0; i < len(b.Text); i++ {
				if off := d.File.Tok.Offset(b.TextPos(i)); d.File.Content[off] != b.Text[i] {
					t.Fatalf("%s: %q[%d] is at %d, which holds %q", d.Path, b.Text, i, off, d.File.Content[off])
				}
			}
		}
	}
	if plain < 1000 || plain < cells/2 {
		t.Fatalf("%d plain blocks of %d table cells with text: the test does not exercise them", plain, cells)
	}
	t.Logf("%d plain blocks, %d table cells with text", plain, cells)
}

// TestLeanRowPadsWithoutNodes checks that a row shorter than its header
// keeps no node for the cells it is padded with: a one-cell row under a
// header of 1,000 columns held 1,000 TableCells, and 2,000 such rows (26 KB
// of source) took ~470 MB. Cells still gives every cell.
func TestLeanRowPadsWithoutNodes(t *testing.T) {
	const cols, rows = 1000, 50
	var b strings.Builder
	b.WriteString("|" + strings.Repeat(" h |", cols) + "\n|" + strings.Repeat("---|", cols) + "\n")
	for range rows {
		b.WriteString("| plain |\n")
	}
	src := []byte(b.String())
	n := 0
	_ = ast.Walk(newMDParser(gfm.LeanTable).Parse(text.NewReader(src)), func(node ast.Node, entering bool) (ast.WalkStatus, error) {
		r, ok := node.(*gfm.LeanRow)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		n++
		if k := r.ChildCount(); k != 0 {
			t.Fatalf("a one-cell plain row under %d columns holds %d nodes", cols, k)
		}
		cells, pads := 0, 0
		r.Cells(src, func(node *east.TableCell, _ int, seg text.Segment) {
			cells++
			if node != nil && seg.Len() == 0 {
				pads++
			}
		})
		if cells != cols || pads != cols-1 {
			t.Fatalf("Cells gave %d cells (%d padding), want %d (%d)", cells, pads, cols, cols-1)
		}
		return ast.WalkSkipChildren, nil
	})
	if n != rows {
		t.Fatalf("%d lean rows, want %d", n, rows)
	}
}
