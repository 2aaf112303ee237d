package sotparse

import (
	"encoding/binary"
	"go/token"
	"iter"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	"github.com/svrnty/sotvet/sotparse/internal/gfm"
)

// CodePlaceholder stands for a code span in the Text of a block: what a
// code span says is quoted, not asserted, and the placeholder matches no
// word pattern.
const CodePlaceholder = "‹code›"

// BlockKind is the markdown structure a Block comes from.
type BlockKind uint8

const (
	BlockParagraph     BlockKind = iota + 1 // a paragraph outside a list item
	BlockListItem                           // a paragraph or text block of a list item
	BlockTableCell                          // a table cell (header cells included)
	BlockHeading                            // an ATX or setext heading
	BlockCode                               // a fenced or indented code block
	BlockQuote                              // a blockquote; nothing inside it is a block of its own
	BlockHTML                               // an HTML block
	BlockThematicBreak                      // a thematic break
	BlockList                               // a list; its items' paragraphs follow it
	BlockTable                              // a table; its cells follow it
	BlockLinkDef                            // a link reference definition
	BlockOther                              // a block of a kind not named above
)

var blockKindNames = [...]string{
	BlockParagraph:     "paragraph",
	BlockListItem:      "list item",
	BlockTableCell:     "table cell",
	BlockHeading:       "heading",
	BlockCode:          "code block",
	BlockQuote:         "blockquote",
	BlockHTML:          "HTML block",
	BlockThematicBreak: "thematic break",
	BlockList:          "list",
	BlockTable:         "table",
	BlockLinkDef:       "link reference definition",
	BlockOther:         "block",
}

func (k BlockKind) String() string {
	if int(k) < len(blockKindNames) && blockKindNames[k] != "" {
		return blockKindNames[k]
	}
	return "unknown"
}

// Prose reports whether blocks of kind k carry Text: paragraphs, list
// items, table cells and headings.
func (k BlockKind) Prose() bool {
	switch k {
	case BlockParagraph, BlockListItem, BlockTableCell, BlockHeading:
		return true
	}
	return false
}

// Block is one unit of the structure of a document's body (see
// Doc.Blocks). Blockquotes are opaque: the BlockQuote block stands for the
// whole quote, and nothing inside it is a block of its own.
type Block struct {
	Kind    BlockKind
	Comment bool // BlockHTML: an HTML comment (<!-- ... -->)
	// plain: Text is the source from Pos on, byte for byte, and runs is
	// empty (most table cells: a block costs no run for them)
	plain bool
	Level int // BlockHeading: the heading level, 1 to 6
	// Depth is the nesting depth in the markdown tree: 0 for a direct
	// child of the document, 1 for the items of a top-level list or the
	// rows of a top-level table, 2 for an item's paragraph or a cell, ...
	Depth int
	// Section is the index in Doc.Headings of the innermost enclosing
	// heading: the last heading before the block outside any blockquote,
	// -1 before the first. A BlockHeading's Section is its own index; an
	// empty heading, which Doc.Headings leaves out, has Section -1 and
	// leaves the Section of the blocks after it unchanged.
	Section int
	// Pos and End span the block's source: from the first byte of its
	// marker or content to the end of its last line (line ending
	// excluded). A heading's span is its Doc.Headings entry's.
	Pos, End token.Pos
	// Text is the inline text of a prose block (see BlockKind.Prose),
	// empty for other kinds: code spans are replaced by CodePlaceholder;
	// struck-through text, raw HTML, images and task-list checkboxes are
	// left out; links read as their text; a line break reads as one
	// space.
	Text string
	runs []posRun // where each stretch of Text comes from
}

// TopLevel reports whether the block is a direct child of the document.
func (b *Block) TopLevel() bool { return b.Depth == 0 }

// posRun maps a stretch of Text, from offset at on, to the source: byte
// for byte from pos on when step is set, else all of it to pos (a code
// placeholder, or the space of a line break).
type posRun struct {
	at   int
	pos  token.Pos
	step bool
}

// TextPos returns the source position of Text[i]: a code placeholder is at
// its code span's text, the space of a line break at the line ending. Past
// the end of Text it continues the last stretch.
func (b *Block) TextPos(i int) token.Pos {
	if b.plain {
		return b.Pos + token.Pos(i)
	}
	k := sort.Search(len(b.runs), func(k int) bool { return b.runs[k].at > i }) - 1
	if k < 0 {
		return b.Pos
	}
	r := b.runs[k]
	if r.step {
		return r.pos + token.Pos(i-r.at)
	}
	return r.pos
}

// Span returns the source span of Text[i:j]: from the position of its
// first byte to just after the position of its last.
func (b *Block) Span(i, j int) (token.Pos, token.Pos) {
	if j <= i {
		p := b.TextPos(i)
		return p, p
	}
	return b.TextPos(i), b.TextPos(j-1) + 1
}

// Blocks returns the structure of the body, in document order, a
// container (list, table, blockquote) before what it holds.
//
// The parse keeps the blocks of a document in a compact encoding (a
// workspace has hundreds of thousands of them, text included), and Blocks
// decodes it, texts and all, on each call: a pass calls it once per
// document and lets the result go. A pass that walks many documents can
// decode into reused memory with a BlockDecoder.
func (d *Doc) Blocks() []*Block {
	var bd BlockDecoder // never reused: what it returns stays valid
	return bd.Blocks(d)
}

// BlocksIn returns d's blocks as Blocks does, their text taken from
// content, d's text as Workspace.Content or a DocPass gives it.
func (d *Doc) BlocksIn(content []byte) []*Block {
	var bd BlockDecoder
	return bd.BlocksIn(d, content)
}

// A BlockDecoder decodes documents' blocks into memory it reuses: the
// blocks a call returns, their Text included, are valid until its next
// call. Keep what must outlive that by copying it (strings.Clone). The zero
// value is ready; a BlockDecoder is not safe for concurrent use.
type BlockDecoder struct {
	blocks []Block
	ptrs   []*Block
	spans  []int
	text   []byte
	runs   []posRun
	// outline is the block Outline yields.
	outline Block
}

// Blocks returns d's blocks, as Doc.Blocks does, in bd's memory. d's text
// must be in memory: not released (Doc.Released), else use BlocksIn.
func (bd *BlockDecoder) Blocks(d *Doc) []*Block {
	if d.released {
		panic("sotparse: Blocks of " + d.Path + ", whose text was released: use BlocksIn")
	}
	return bd.BlocksIn(d, d.File.Content)
}

// BlocksIn returns d's blocks, as Doc.BlocksIn does, in bd's memory.
func (bd *BlockDecoder) BlocksIn(d *Doc, content []byte) []*Block {
	enc := d.blockEncIn(content)
	if len(enc) == 0 {
		return nil
	}
	base := d.BodyStart
	off := d.File.Tok.Offset(base)
	src := content[off:]
	// The counts up front size every buffer once: the blocks, the texts
	// not viewed in the source in one buffer, all their runs in one slice.
	n, k := binary.Uvarint(enc)
	enc = enc[k:]
	textLen, k := binary.Uvarint(enc)
	enc = enc[k:]
	runCount, k := binary.Uvarint(enc)
	enc = enc[k:]
	blocks := resize(&bd.blocks, int(n)) // each written whole below
	ptrs := resize(&bd.ptrs, int(n))
	spans := resize(&bd.spans, int(n)+1) // where each block's text starts
	text := resize(&bd.text, int(textLen))[:0]
	runs := resize(&bd.runs, int(runCount))[:0]
	prev := 0
	for i := range blocks {
		b := &blocks[i]
		var h blockHeader
		h, enc, prev = decodeHeader(enc, prev)
		*b = Block{Kind: h.kind, Level: int(h.level), Comment: h.comment, Depth: int(h.depth), Section: h.section,
			Pos: base + token.Pos(h.pos), End: base + token.Pos(h.end)}
		r0 := len(runs)
		spans[i] = len(text)
		cursor := h.pos
		for at := 0; at < h.textLen; {
			var r textRun
			r, enc = decodeRun(enc, cursor)
			cursor = r.off
			pr := posRun{at: at, pos: base + token.Pos(r.off)}
			switch r.kind {
			case runCopy:
				if r.n == h.textLen {
					// The text is this one stretch of the source (a
					// heading, a one-line paragraph or item): a view of
					// it, not a copy, which would fill a large
					// document's buffer page by page.
					b.Text = unsafe.String(&src[r.off], r.n)
					if r.off == h.pos {
						// And from the block's start on (a table
						// cell): TextPos needs no run.
						b.plain = true
						at += r.n
						continue
					}
				} else {
					text = append(text, src[r.off:r.off+r.n]...)
				}
				cursor += r.n
				pr.step = true
			case runSpace:
				text = append(text, ' ')
				r.n = 1
			case runCode:
				text = append(text, CodePlaceholder...)
				r.n = len(CodePlaceholder)
			case runLit:
				text = append(text, r.lit...)
				r.n = len(r.lit)
			}
			runs = append(runs, pr)
			at += r.n
		}
		if len(runs) > r0 {
			b.runs = runs[r0:len(runs):len(runs)]
		}
		ptrs[i] = b
	}
	spans[n] = len(text)
	// The other texts are views of the buffer, which no one writes to
	// until the next call.
	all := unsafe.String(unsafe.SliceData(text), len(text))
	for i := range blocks {
		if blocks[i].Text == "" {
			blocks[i].Text = all[spans[i]:spans[i+1]]
		}
	}
	bd.text, bd.runs = text, runs
	return ptrs
}

// blockEncIn returns the encoding of d's blocks, d's text being content.
func (d *Doc) blockEncIn(content []byte) []byte {
	if len(content) != d.File.Tok.Size() {
		return nil
	}
	if d.released && !d.summary {
		// The encoding went with the text: parse the text again, into
		// the same token file (the same positions).
		f := &File{Path: d.Path, Role: d.File.Role, Tok: d.File.Tok, Content: content}
		return parseDoc(f, func(string, token.Pos, token.Pos, string) {}, nil).blockEnc
	}
	return d.blockEnc
}

// Outline returns an iterator over d's blocks, as BlocksIn returns them
// but without their text (Text is empty, and TextPos gives the block's
// start): a pass that reads only the kinds and spans of the first few
// blocks decodes no more than it reads. The block yielded is valid until
// the next; the iterator uses bd's memory, as BlocksIn does.
func (bd *BlockDecoder) Outline(d *Doc, content []byte) iter.Seq[*Block] {
	return func(yield func(*Block) bool) {
		enc := d.blockEncIn(content)
		if len(enc) == 0 {
			return
		}
		base := d.BodyStart
		n, k := binary.Uvarint(enc)
		enc = enc[k:]
		for range 2 { // the length of the texts, the number of runs
			_, k = binary.Uvarint(enc)
			enc = enc[k:]
		}
		b := &bd.outline
		prev := 0
		for range n {
			var h blockHeader
			h, enc, prev = decodeHeader(enc, prev)
			*b = Block{Kind: h.kind, Level: int(h.level), Comment: h.comment, Depth: int(h.depth), Section: h.section,
				Pos: base + token.Pos(h.pos), End: base + token.Pos(h.end)}
			cursor := h.pos
			for at := 0; at < h.textLen; {
				var r textRun
				r, enc = decodeRun(enc, cursor)
				cursor = r.end()
				at += r.textLen()
			}
			if !yield(b) {
				return
			}
		}
	}
}

// resize returns (*buf)[:n], growing *buf when it is shorter.
func resize[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

// The encoding of the blocks of a document: the number of blocks, the
// length of the texts that are not one stretch of the source (those
// BlocksIn copies into its buffer), the number of runs, then each block's
// header and, for a block with text, its runs.
//
// A header is a byte holding the kind and flags, then as varints the
// heading level (headings only), the depth, Section+1, the start's
// distance from the previous block's start, the end's from the start and
// the length of the text (prose blocks only), offsets counted in bytes of
// the body.
//
// A run is a stretch of the text: a kind byte, the offset's distance from
// where the previous run's source ends (the block's start for the first)
// as a signed varint, then for runCopy and runLit the length, then for
// runLit the bytes. runCopy copies the body from the offset on; runSpace
// (a line break), runCode (a code span's CodePlaceholder) and runLit
// (other bytes) stand for the body at the offset.

type blockHeader struct {
	kind    BlockKind
	level   uint8 // 1 to 6
	comment bool
	// view: the text is one stretch of the source, which BlocksIn
	// returns as a view of it (the builder's only)
	view    bool
	depth   int32 // bounded by MaxNesting (BoundedBlockParsers)
	section int
	// body offsets; the length of the text
	pos, end, textLen int
}

const commentFlag = 0x80

func appendHeader(enc []byte, h blockHeader, prev int) []byte {
	c := byte(h.kind)
	if h.comment {
		c |= commentFlag
	}
	enc = append(enc, c)
	if h.kind == BlockHeading {
		enc = binary.AppendUvarint(enc, uint64(h.level))
	}
	enc = binary.AppendUvarint(enc, uint64(h.depth))
	enc = binary.AppendUvarint(enc, uint64(h.section+1))
	enc = binary.AppendVarint(enc, int64(h.pos-prev))
	enc = binary.AppendVarint(enc, int64(h.end-h.pos))
	if h.kind.Prose() {
		enc = binary.AppendUvarint(enc, uint64(h.textLen))
	}
	return enc
}

func decodeHeader(enc []byte, prev int) (blockHeader, []byte, int) {
	var h blockHeader
	h.kind = BlockKind(enc[0] &^ commentFlag)
	h.comment = enc[0]&commentFlag != 0
	enc = enc[1:]
	uv := func() int {
		v, k := binary.Uvarint(enc)
		enc = enc[k:]
		return int(v)
	}
	sv := func() int {
		v, k := binary.Varint(enc)
		enc = enc[k:]
		return int(v)
	}
	if h.kind == BlockHeading {
		h.level = uint8(uv())
	}
	h.depth = int32(uv())
	h.section = uv() - 1
	h.pos = prev + sv()
	h.end = h.pos + sv()
	if h.kind.Prose() {
		h.textLen = uv()
	}
	return h, enc, h.pos
}

// A textRun is a stretch of a block's text, as the encoding has it.
type textRun struct {
	kind   byte
	n, off int // the length (runCopy), the body offset
	lit    []byte
}

const (
	runCopy byte = iota
	runSpace
	runCode
	runLit
)

func appendRun(enc []byte, r textRun, cursor int) []byte {
	enc = append(enc, r.kind)
	enc = binary.AppendVarint(enc, int64(r.off-cursor))
	switch r.kind {
	case runCopy:
		enc = binary.AppendUvarint(enc, uint64(r.n))
	case runLit:
		enc = binary.AppendUvarint(enc, uint64(len(r.lit)))
		enc = append(enc, r.lit...)
	}
	return enc
}

// textLen returns the length of the text r stands for.
func (r textRun) textLen() int {
	switch r.kind {
	case runCopy:
		return r.n
	case runSpace:
		return 1
	case runCode:
		return len(CodePlaceholder)
	}
	return len(r.lit)
}

// end returns the body offset where r's source ends, where the next
// run's offset is counted from.
func (r textRun) end() int {
	if r.kind == runCopy {
		return r.off + r.n
	}
	return r.off
}

func decodeRun(enc []byte, cursor int) (textRun, []byte) {
	r := textRun{kind: enc[0]}
	d, k := binary.Varint(enc[1:])
	enc = enc[1+k:]
	r.off = cursor + int(d)
	switch r.kind {
	case runCopy:
		n, k := binary.Uvarint(enc)
		enc = enc[k:]
		r.n = int(n)
	case runLit:
		n, k := binary.Uvarint(enc)
		r.lit, enc = enc[k:k+int(n)], enc[k+int(n):]
	}
	return r, enc
}

// blockBuilder collects the blocks of one document during the extractor's
// walk, encoding each as it closes: a leaf block's header and runs go to
// the end of enc, where the next block starts; a container's header,
// which waits for its end after the blocks it holds are encoded, goes to
// headers, and finish splices it in where the container began. A block
// costs what its encoding does (a table cell a few bytes): a large
// table's hundreds of thousands of cells hold no header in memory each.
// Its buffers are reused from document to document.
type blockBuilder struct {
	enc     []byte      // the closed blocks, but for containers' headers
	open    []openBlock // the blocks added and not closed, outermost first
	runs    []byte      // the runs of the prose block being read, encoded
	headers []byte      // the closed containers' headers, encoded
	spliced []splice    // where each of them goes in enc
	n       int         // the number of blocks
	nruns   int
	textLen int         // the length of the texts BlocksIn copies
	prev    int         // the start of the last block added
	flat    []flatEntry // scratch for the frontmatter's entries
}

// openBlock is a block added and not closed.
type openBlock struct {
	h    blockHeader
	i    int // its index
	at   int // len(enc) when it was added: where its encoding goes
	prev int // the start of the block before it, which its own is counted from
}

// splice is a container's header: headers[start:end], to go at enc[at]
// (after the headers spliced there before it, which are of the blocks
// that hold it).
type splice struct {
	i, at, start, end int
}

// maxPooledBuilder is the most a builder's buffers may hold, in bytes,
// to go back to the pool: a huge document's are let go with it.
const maxPooledBuilder = 4 << 20

var builderPool = sync.Pool{New: func() any { return new(blockBuilder) }}

func (bb *blockBuilder) reset() {
	bb.enc, bb.open, bb.runs, bb.headers, bb.spliced = bb.enc[:0], bb.open[:0], bb.runs[:0], bb.headers[:0], bb.spliced[:0]
	bb.n, bb.nruns, bb.textLen, bb.prev = 0, 0, 0, 0
}

// pooled reports whether bb is small enough to go back to the pool.
func (bb *blockBuilder) pooled() bool {
	n := cap(bb.enc) + cap(bb.runs) + cap(bb.headers) +
		cap(bb.open)*int(unsafe.Sizeof(openBlock{})) + cap(bb.spliced)*int(unsafe.Sizeof(splice{}))
	return n <= maxPooledBuilder
}

// add opens a block and returns its index. Blocks close (close) in the
// reverse of the order they open: a block added while another is open is
// inside it.
func (bb *blockBuilder) add(h blockHeader) int {
	bb.open = append(bb.open, openBlock{h: h, i: bb.n, at: len(bb.enc), prev: bb.prev})
	bb.prev = h.pos
	bb.runs = bb.runs[:0]
	bb.n++
	return bb.n - 1
}

// top returns block i, which must be the innermost open one.
func (bb *blockBuilder) top(i int) *openBlock {
	o := &bb.open[len(bb.open)-1]
	if o.i != i {
		panic("sotparse: block closed out of order")
	}
	return o
}

// close closes block i, the innermost open one, which ends at end, and
// encodes it.
func (bb *blockBuilder) close(i, end int) {
	o := bb.top(i)
	bb.open = bb.open[:len(bb.open)-1]
	o.h.end = end
	if !o.h.view {
		bb.textLen += o.h.textLen
	}
	if o.i == bb.n-1 {
		// No block was added after it: its encoding is the last.
		bb.enc = appendHeader(bb.enc, o.h, o.prev)
		if o.h.kind.Prose() {
			bb.enc = append(bb.enc, bb.runs...)
		}
		bb.runs = bb.runs[:0]
		return
	}
	// A container (its kind has no text, so no runs): its header goes
	// before the blocks it holds.
	start := len(bb.headers)
	bb.headers = appendHeader(bb.headers, o.h, o.prev)
	bb.spliced = append(bb.spliced, splice{i: o.i, at: o.at, start: start, end: len(bb.headers)})
}

// finish returns the encoding of the blocks, every one closed.
func (bb *blockBuilder) finish() []byte {
	if bb.n == 0 {
		return nil
	}
	if len(bb.open) > 0 {
		panic("sotparse: blocks left open")
	}
	var scratch [3 * binary.MaxVarintLen64]byte
	counts := binary.AppendUvarint(scratch[:0], uint64(bb.n))
	counts = binary.AppendUvarint(counts, uint64(bb.textLen))
	counts = binary.AppendUvarint(counts, uint64(bb.nruns))
	enc := make([]byte, 0, len(counts)+len(bb.enc)+len(bb.headers))
	enc = append(enc, counts...)
	// Containers close inner first; in block order, the headers spliced
	// at one offset go outer first.
	slices.SortFunc(bb.spliced, func(a, b splice) int { return a.i - b.i })
	at := 0
	for _, s := range bb.spliced {
		enc = append(enc, bb.enc[at:s.at]...)
		enc = append(enc, bb.headers[s.start:s.end]...)
		at = s.at
	}
	return append(enc, bb.enc[at:]...)
}

// inline reads the inline text of n as the text of block i (the last one
// added, open): code spans replaced by CodePlaceholder, struck-through
// text, raw HTML, images and checkboxes left out, line breaks as spaces.
// src is the body.
func (bb *blockBuilder) inline(i int, src []byte, n ast.Node) {
	o := bb.top(i)
	at, last := 0, 0
	cursor := o.h.pos   // where the previous run's source ends
	var pending textRun // the last run, not yet encoded
	have := false
	runs := 0
	flush := func() {
		if have {
			bb.runs = appendRun(bb.runs, pending, cursor)
			bb.nruns++
			runs++
			cursor = pending.end()
		}
	}
	add := func(r textRun, n int) {
		at += n
		last = r.off
		// A copy that continues the previous one in the source adds no
		// run: goldmark splits a line's text at some punctuation.
		if have && r.kind == runCopy && pending.kind == runCopy && pending.off+pending.n == r.off {
			pending.n += r.n
			return
		}
		flush()
		pending, have = r, true
	}
	var rec func(n ast.Node)
	rec = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				seg := c.Segment
				if seg.Len() > 0 {
					if seg.Padding == 0 {
						add(textRun{kind: runCopy, off: seg.Start, n: seg.Len()}, seg.Len())
					} else {
						v := seg.Value(src)
						add(textRun{kind: runLit, off: seg.Start, lit: v}, len(v))
					}
				}
				if c.SoftLineBreak() || c.HardLineBreak() {
					add(textRun{kind: runSpace, off: seg.Stop}, 1)
				}
			case *ast.String:
				if len(c.Value) > 0 {
					add(textRun{kind: runLit, off: last, lit: c.Value}, len(c.Value))
				}
			case *ast.CodeSpan:
				start := last
				if t, ok := c.FirstChild().(*ast.Text); ok {
					start = t.Segment.Start
				}
				add(textRun{kind: runCode, off: start}, len(CodePlaceholder))
			case *ast.AutoLink:
				if l := c.Label(src); len(l) > 0 {
					// The label is a slice of the source when it has no
					// padding: map it byte for byte.
					if off := cap(src) - cap(l); off >= 0 && off+len(l) <= len(src) && &src[off] == &l[0] {
						add(textRun{kind: runCopy, off: off, n: len(l)}, len(l))
					} else {
						add(textRun{kind: runLit, off: last, lit: l}, len(l))
					}
				}
			case *ast.RawHTML, *ast.Image, *east.Strikethrough, *east.TaskCheckBox:
			default:
				rec(c)
			}
		}
	}
	rec(n)
	flush()
	o.h.textLen = at
	o.h.view = runs == 1 && pending.kind == runCopy
}

// blockKindOf returns the kind of the block node n, and whether it is a
// container whose children are walked for blocks.
func blockKindOf(n ast.Node) (BlockKind, bool) {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		if _, ok := n.Parent().(*ast.ListItem); ok {
			return BlockListItem, false
		}
		return BlockParagraph, false
	case *east.TableCell:
		return BlockTableCell, false
	case *ast.Heading:
		return BlockHeading, false
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		return BlockCode, false
	case *ast.Blockquote:
		return BlockQuote, true
	case *ast.HTMLBlock:
		return BlockHTML, false
	case *ast.ThematicBreak:
		return BlockThematicBreak, false
	case *ast.List:
		return BlockList, true
	case *east.Table:
		return BlockTable, true
	case *ast.LinkReferenceDefinition:
		return BlockLinkDef, false
	case *ast.ListItem, *east.TableHeader, *east.TableRow, *gfm.LeanRow:
		return 0, true // structure only
	}
	return BlockOther, true
}

// lineEnd returns the offset of the end of the line holding off, line
// ending excluded.
func lineEnd(src []byte, off int) int {
	start := off
	for off < len(src) && src[off] != '\n' {
		off++
	}
	if off > start && src[off-1] == '\r' {
		off--
	}
	return off
}

// blockEnd returns the body offset where the leaf block n ends, given its
// start.
func blockEnd(src []byte, n ast.Node, start int) int {
	end := start
	if lines := n.Lines(); lines != nil && lines.Len() > 0 {
		seg := lines.At(lines.Len() - 1)
		end = max(end, trimEOL(src, seg.Stop))
	}
	switch n := n.(type) {
	case *ast.HTMLBlock:
		if n.HasClosure() {
			end = max(end, trimEOL(src, n.ClosureLine.Stop))
		}
	case *ast.FencedCodeBlock:
		// The closing fence, when there is one, is the line after the
		// content (or after the opening fence).
		if start < len(src) {
			end = max(end, lineEnd(src, start))
			fence := src[start]
			width := 0
			for start+width < len(src) && src[start+width] == fence {
				width++
			}
			next := end
			for next < len(src) && src[next] != '\n' {
				next++
			}
			if next < len(src) {
				next++
				le := lineEnd(src, next)
				line := strings.TrimLeft(string(src[next:le]), " \t>")
				if w := len(line) - len(strings.TrimLeft(line, string(fence))); w >= width && w >= 3 && strings.TrimSpace(line[w:]) == "" {
					end = le
				}
			}
		}
	case *ast.ThematicBreak, *ast.Heading:
		end = max(end, lineEnd(src, start))
	}
	return end
}
