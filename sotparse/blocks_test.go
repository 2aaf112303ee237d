package sotparse

import (
	"encoding/binary"
	"fmt"
	"go/token"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"unsafe"
)

const blocksDoc = "---\nname: x\n---\n" +
	"# Title `x`\n" +
	"\n" +
	"Local *planning* `SOT` only, **really** [linked](http://x) ~~gone~~ <b>raw</b> ![img](p.png) end.\n" +
	"Second line.\n" +
	"\n" +
	"<!-- a comment -->\n" +
	"\n" +
	"## Non-Goals\n" +
	"\n" +
	"- item `one` here\n" +
	"- [x] done **bold**\n" +
	"  - nested\n" +
	"\n" +
	"> quoted text\n" +
	"> ## Quoted heading\n" +
	"\n" +
	"```go\ncode\n```\n" +
	"\n" +
	"    indented code\n" +
	"\n" +
	"***\n" +
	"\n" +
	"| a | `b` |\n|---|-----|\n| c | d |\n" +
	"\n" +
	"[ref]: http://example.com\n" +
	"\n" +
	"<div>\nhtml\n</div>\n" +
	"\n" +
	"### Deep\n" +
	"Setext\n------\n" +
	"\n" +
	"#\n" +
	"\n" +
	"after the empty heading\n"

// src returns the source a span covers.
func src(d *Doc, pos, end token.Pos) string {
	return string(d.File.Content[d.File.Tok.Offset(pos):d.File.Tok.Offset(end)])
}

func TestBlocks(t *testing.T) {
	ws := load(t, map[string]string{".sot/X-PRD.md": blocksDoc})
	d := ws.Doc(".sot/X-PRD.md")
	if d == nil {
		t.Fatal("no document")
	}
	var heads []string
	for _, h := range d.Headings {
		heads = append(heads, h.Text)
	}
	if got, want := strings.Join(heads, "|"), "Title `x`|Non-Goals|Quoted heading|Deep|Setext"; got != want {
		t.Fatalf("headings %q, want %q", got, want)
	}
	type want struct {
		kind    BlockKind
		depth   int
		section int
		src     string // the source between Pos and End
		text    string
	}
	wants := []want{
		{BlockHeading, 0, 0, "# Title `x`", "Title ‹code›"},
		{BlockParagraph, 0, 0, "Local *planning* `SOT` only, **really** [linked](http://x) ~~gone~~ <b>raw</b> ![img](p.png) end.\nSecond line.",
			"Local planning ‹code› only, really linked  raw  end. Second line."},
		{BlockHTML, 0, 0, "<!-- a comment -->", ""},
		{BlockHeading, 0, 1, "## Non-Goals", "Non-Goals"},
		{BlockList, 0, 1, "- item `one` here\n- [x] done **bold**\n  - nested", ""},
		{BlockListItem, 2, 1, "item `one` here", "item ‹code› here"},
		{BlockListItem, 2, 1, "[x] done **bold**", "done bold"},
		{BlockList, 2, 1, "- nested", ""},
		{BlockListItem, 4, 1, "nested", "nested"},
		// The heading inside the quote is in Doc.Headings but starts no
		// section: the code block after the quote is still in Non-Goals.
		{BlockQuote, 0, 1, "> quoted text\n> ## Quoted heading", ""},
		{BlockCode, 0, 1, "```go\ncode\n```", ""},
		{BlockCode, 0, 1, "indented code", ""},
		{BlockThematicBreak, 0, 1, "***", ""},
		{BlockTable, 0, 1, "| a | `b` |\n|---|-----|\n| c | d |", ""},
		{BlockTableCell, 2, 1, "a", "a"},
		{BlockTableCell, 2, 1, "`b`", "‹code›"},
		{BlockTableCell, 2, 1, "c", "c"},
		{BlockTableCell, 2, 1, "d", "d"},
		{BlockLinkDef, 0, 1, "[ref]: http://example.com", ""},
		{BlockHTML, 0, 1, "<div>\nhtml\n</div>", ""},
		{BlockHeading, 0, 3, "### Deep", "Deep"},
		{BlockHeading, 0, 4, "Setext", "Setext"},
		// An empty heading is not in Doc.Headings: Section -1 for itself,
		// and the section after it is still the one before.
		{BlockHeading, 0, -1, "#", ""},
		{BlockParagraph, 0, 4, "after the empty heading", "after the empty heading"},
	}
	blocks := d.Blocks()
	if len(blocks) != len(wants) {
		for _, b := range blocks {
			t.Logf("%s %d %d %q %q", b.Kind, b.Depth, b.Section, src(d, b.Pos, b.End), b.Text)
		}
		t.Fatalf("%d blocks, want %d", len(blocks), len(wants))
	}
	for i, w := range wants {
		b := blocks[i]
		if b.Kind != w.kind || b.Depth != w.depth || b.Section != w.section || src(d, b.Pos, b.End) != w.src || b.Text != w.text {
			t.Errorf("block %d: %s depth %d section %d %q text %q\nwant %s depth %d section %d %q text %q",
				i, b.Kind, b.Depth, b.Section, src(d, b.Pos, b.End), b.Text, w.kind, w.depth, w.section, w.src, w.text)
		}
		if b.TopLevel() != (w.depth == 0) {
			t.Errorf("block %d: TopLevel %v at depth %d", i, b.TopLevel(), b.Depth)
		}
		if b.Kind == BlockHeading {
			if b.Section >= 0 && (d.Headings[b.Section].Pos != b.Pos || d.Headings[b.Section].End != b.End || d.Headings[b.Section].Level != b.Level) {
				t.Errorf("block %d: heading block and Doc.Headings[%d] differ", i, b.Section)
			}
			if b.Section < 0 && b.Level != 1 {
				t.Errorf("block %d: empty heading level %d, want 1", i, b.Level)
			}
		} else if b.Level != 0 {
			t.Errorf("block %d: %s with level %d", i, b.Kind, b.Level)
		}
		if b.Comment != (i == 2) {
			t.Errorf("block %d: Comment %v", i, b.Comment)
		}
	}
}

// TestBlockSpan checks the mapping of Text back to the source, byte for
// byte, on a line with code spans, emphasis, a link, raw HTML, struck-out
// text and a soft line break.
func TestBlockSpan(t *testing.T) {
	ws := load(t, map[string]string{".sot/X-PRD.md": blocksDoc})
	d := ws.Doc(".sot/X-PRD.md")
	blocks := d.Blocks()
	p := blocks[1]
	if p.Kind != BlockParagraph {
		t.Fatalf("block 1 is a %s", p.Kind)
	}
	text := p.Text
	content := string(d.File.Content)
	code := strings.Index(content, "SOT") // where the code span's text starts
	// Every byte of Text outside a placeholder is the byte it maps to; a
	// placeholder maps to its code span's text, the soft line break to
	// the newline.
	ph := strings.Index(text, CodePlaceholder)
	for i := 0; i < len(text); i++ {
		off := d.File.Tok.Offset(p.TextPos(i))
		switch {
		case i >= ph && i < ph+len(CodePlaceholder):
			if off != code {
				t.Errorf("placeholder byte %d maps to %d, want %d", i, off, code)
			}
		case text[i] == ' ' && content[off] == '\n':
		case content[off] != text[i]:
			t.Errorf("Text[%d] = %q maps to %d = %q", i, text[i], off, content[off])
		}
	}
	for _, tc := range []struct{ text, src string }{
		{"Local", "Local"},
		{"planning ‹code› only", "planning* `SOT` only"},
		{"‹code›", "S"},
		{"really linked", "really** [linked"},
		{"linked  raw", "linked](http://x) ~~gone~~ <b>raw"},
		{"end. Second", "end.\nSecond"},
		{"Second line.", "Second line."},
	} {
		i := strings.Index(text, tc.text)
		if i < 0 {
			t.Fatalf("%q not in %q", tc.text, text)
		}
		pos, end := p.Span(i, i+len(tc.text))
		if got := src(d, pos, end); got != tc.src {
			t.Errorf("Span(%q) = %q, want %q", tc.text, got, tc.src)
		}
	}
	// An empty span is a point.
	if pos, end := p.Span(6, 6); pos != end || pos != p.TextPos(6) {
		t.Errorf("Span(6, 6) = %d, %d; want %d twice", pos, end, p.TextPos(6))
	}
	// A run of several lines and a list item past its marker.
	li := blocks[5]
	i := strings.Index(li.Text, "here")
	if pos, end := li.Span(i, i+4); src(d, pos, end) != "here" {
		t.Errorf("list item Span(here) = %q", src(d, pos, end))
	}
	// A table cell.
	cell := blocks[15]
	if pos, end := cell.Span(0, len(cell.Text)); src(d, pos, end) != "b" {
		t.Errorf("cell Span = %q, want the code span's text", src(d, pos, end))
	}
}

// TestBlockSpanCRLF checks positions in a file with CRLF line endings.
func TestBlockSpanCRLF(t *testing.T) {
	doc := "# T\r\n\r\nOne `two`\r\nthree **four**.\r\n"
	ws := load(t, map[string]string{".sot/X-PRD.md": doc})
	d := ws.Doc(".sot/X-PRD.md")
	blocks := d.Blocks()
	p := blocks[1]
	if p.Text != "One ‹code› three four." {
		t.Fatalf("Text = %q", p.Text)
	}
	if got := src(d, p.Pos, p.End); got != "One `two`\r\nthree **four**." {
		t.Errorf("paragraph source %q", got)
	}
	i := strings.Index(p.Text, "three")
	if pos, end := p.Span(i, len(p.Text)); src(d, pos, end) != "three **four**." {
		t.Errorf("Span = %q", src(d, pos, end))
	}
}

func TestBlockKindString(t *testing.T) {
	for k := BlockParagraph; k <= BlockOther; k++ {
		if s := k.String(); s == "" || s == "unknown" {
			t.Errorf("kind %d has no name", k)
		}
	}
	if BlockKind(0).String() != "unknown" || BlockKind(200).String() != "unknown" {
		t.Error("an invalid kind has a name")
	}
}

func TestPlainText(t *testing.T) {
	for in, want := range map[string]string{
		"Local *planning* `SOT` only.": "Local planning SOT only.",
		"  **a**  __b__\tsnake_case ":  "a b snake_case",
		"":                             "",
	} {
		if got := PlainText(in); got != want {
			t.Errorf("PlainText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBlockDecoderReuse decodes every document of the sample and the real
// corpus with one BlockDecoder, largest and smallest alternating, and holds
// each result to a fresh Doc.Blocks: reused memory must not leak one
// document's blocks into the next.
func TestBlockDecoderReuse(t *testing.T) {
	docs := sampleAndCorpusDocs(t)
	sort.Slice(docs, func(i, j int) bool { return len(docs[i].blockEnc) < len(docs[j].blockEnc) })
	var order []*Doc
	for i, j := 0, len(docs)-1; i <= j; i, j = i+1, j-1 {
		order = append(order, docs[j])
		if i != j {
			order = append(order, docs[i])
		}
	}
	var bd BlockDecoder
	for _, d := range order {
		got, want := bd.Blocks(d), d.Blocks()
		if len(got) != len(want) {
			t.Fatalf("%s: %d blocks, want %d", d.Path, len(got), len(want))
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.Kind != w.Kind || g.Level != w.Level || g.Comment != w.Comment || g.Depth != w.Depth ||
				g.Section != w.Section || g.Pos != w.Pos || g.End != w.End || g.Text != w.Text ||
				fmt.Sprint(g.runs) != fmt.Sprint(w.runs) {
				t.Fatalf("%s: block %d differs from a fresh decode:\n%+v\n%+v", d.Path, i, *g, *w)
			}
		}
	}
}

// TestOutline holds the blocks Outline yields for every document of the
// sample and the real corpus, from a reused BlockDecoder, to a fresh
// decode without their text, and checks that it stops when asked; and
// that a released document's outline is parsed again from its text.
func TestOutline(t *testing.T) {
	var bd BlockDecoder
	n := 0
	for _, dir := range sampleAndCorpus(t) {
		ws, err := Load(dir, Options{NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ws.Docs {
			want := d.Blocks()
			var got []Block
			for b := range bd.Outline(d, d.File.Content) {
				got = append(got, *b)
			}
			if len(got) != len(want) {
				t.Fatalf("%s: %d blocks, want %d", d.Path, len(got), len(want))
			}
			for i, w := range want {
				g := got[i]
				if g.Kind != w.Kind || g.Level != w.Level || g.Comment != w.Comment || g.Depth != w.Depth ||
					g.Section != w.Section || g.Pos != w.Pos || g.End != w.End || g.Text != "" || g.runs != nil {
					t.Fatalf("%s: block %d: %+v, want %+v without its text", d.Path, i, g, *w)
				}
			}
			for stop := range min(len(want), 3) {
				k := 0
				for range bd.Outline(d, d.File.Content) {
					if k == stop {
						break
					}
					k++
				}
				if k != stop {
					t.Fatalf("%s: the outline went on after a stop at %d", d.Path, stop)
				}
			}
			n += len(want)
		}
	}
	if n == 0 {
		t.Fatal("no blocks")
	}
	if got := len(slices.Collect(bd.Outline(&Doc{File: &File{Tok: token.NewFileSet().AddFile("x", -1, 1)}}, []byte("x")))); got != 0 {
		t.Errorf("a document without blocks has %d", got)
	}
}

// copyAllTexts decodes the texts of d's blocks as BlocksIn did before it
// viewed a one-stretch text in the source: every text copied into a
// buffer of its own, run by run. It is the reference for the views.
func copyAllTexts(d *Doc) []string {
	enc := d.blockEncIn(d.File.Content)
	if len(enc) == 0 {
		return nil
	}
	src := d.File.Content[d.File.Tok.Offset(d.BodyStart):]
	n, k := binary.Uvarint(enc)
	enc = enc[k:]
	for range 2 {
		_, k = binary.Uvarint(enc)
		enc = enc[k:]
	}
	var texts []string
	prev := 0
	for range n {
		var h blockHeader
		h, enc, prev = decodeHeader(enc, prev)
		var text []byte
		cursor := h.pos
		for len(text) < h.textLen {
			var r textRun
			r, enc = decodeRun(enc, cursor)
			cursor = r.end()
			switch r.kind {
			case runCopy:
				text = append(text, src[r.off:r.off+r.n]...)
			case runSpace:
				text = append(text, ' ')
			case runCode:
				text = append(text, CodePlaceholder...)
			case runLit:
				text = append(text, r.lit...)
			}
		}
		texts = append(texts, string(text))
	}
	return texts
}

// TestBlockTextViews holds the texts BlocksIn returns, some of them views
// of the source, to copies made run by run, on the sample, the real corpus
// and random documents; and checks that the buffer BlocksIn sizes from
// the encoding holds the texts it copies without growing.
func TestBlockTextViews(t *testing.T) {
	docs := sampleAndCorpusDocs(t)
	pieces := []string{"# Title `x`\n", "para one\n", "line two\n", "\n", "- item **b** `c`\n", "- [x] done\n",
		"  - nested <b>x</b>\n", "> quote\n", "| a | b |\n|---|---|\n| c | `d` |\n", "a&amp;b \\* esc\n",
		"<https://x.y/z>\n", "```\ncode\n```\n", "Setext\n---\n", "x  \ny\n", "\r\n", "~~s~~ t\n", "[l](u) m\n"}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		file, _ := fuzzFile(fmt.Sprintf(".sot/R-%d.md", i), []byte(b.String()))
		docs = append(docs, parseDoc(file, func(string, token.Pos, token.Pos, string) {}, nil))
	}
	var bd BlockDecoder
	views := 0
	for _, d := range docs {
		want := copyAllTexts(d)
		got := bd.Blocks(d)
		if len(got) != len(want) {
			t.Fatalf("%s: %d blocks, want %d", d.Path, len(got), len(want))
		}
		content := d.File.Content
		for i, b := range got {
			if b.Text != want[i] {
				t.Fatalf("%s: block %d text %q, want %q", d.Path, i, b.Text, want[i])
			}
			if b.Text != "" {
				p, c := uintptr(unsafe.Pointer(unsafe.StringData(b.Text))), uintptr(unsafe.Pointer(&content[0]))
				if c <= p && p < c+uintptr(len(content)) {
					views++
				}
			}
		}
		if enc := d.blockEnc; len(enc) > 0 {
			if cap(enc) != len(enc) {
				t.Fatalf("%s: the encoding has %d bytes in a buffer of %d: finish sized it wrong", d.Path, len(enc), cap(enc))
			}
			_, k := binary.Uvarint(enc)
			if copied, _ := binary.Uvarint(enc[k:]); uint64(len(bd.text)) != copied {
				t.Fatalf("%s: %d bytes of text copied, the encoding says %d", d.Path, len(bd.text), copied)
			}
		}
	}
	if views == 0 {
		t.Fatal("no text is a view of the source")
	}
}
