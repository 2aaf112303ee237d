package sotparse

import (
	"bytes"
	"go/token"
	"iter"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/svrnty/sotvet/sotparse/internal/gfm"
)

// The goldmark parser holds no per-document state and is safe for
// concurrent use.
// MarkdownExtensions are the GFM extensions the body is parsed with: task
// boxes, tables and strikethrough. Not linkify: a bare URL reads as its own
// text either way, and finding them was a tenth of a large workspace's
// parse. They are goldmark's, without its extension package (see gfm).
var MarkdownExtensions = gfm.Extensions

// mdParser is built on first use, or in the background as a check process
// starts (see regexps.go), not at every sotvet process's initialization.
// It is goldmark's default parser with the extensions, except that link
// reference definitions are looked for only in paragraphs that may hold
// one (linkRefs).
var mdParser = sync.OnceValue(func() parser.Parser { return newMDParser(gfm.LeanTable) })

// newMDParser returns the parser mdParser is, its tables parsed by table:
// gfm.LeanTable, whose body rows are gfm.LeanRows (the plain cells of a
// row are read from its line, not kept as goldmark's nodes, which cost
// ~80 bytes of heap per byte of table), or, for the tests, gfm.Table.
func newMDParser(table goldmark.Extender) parser.Parser {
	p := parser.NewParser(
		parser.WithBlockParsers(BoundedBlockParsers(parser.DefaultBlockParsers())...),
		parser.WithInlineParsers(inlineParsers()...),
		parser.WithParagraphTransformers(util.Prioritized(linkRefs{}, 100)),
	)
	return goldmark.New(goldmark.WithParser(p), goldmark.WithExtensions(table, gfm.TaskList)).Parser()
}

// inlineParsers is goldmark's default inline parsers and the
// strikethrough parser, its link parser charged to the document's
// allowance (ChargedInlineParsers).
func inlineParsers() []util.PrioritizedValue {
	return ChargedInlineParsers(append(parser.DefaultInlineParsers(), util.Prioritized(gfm.StrikethroughParser, gfm.StrikethroughPriority)))
}

// ChargedInlineParsers returns ps with goldmark's link parser handed a
// reader that finds a line in time logarithmic in the block's lines
// (linkParser), it and the code span parser charged to the document's
// allowance of inline work (inlinework.go) where the parse's context holds
// one (InlineWorkContext), and the delimiter parsers pushing to
// sotparse's list (delimiters.go). For prose's parser too.
func ChargedInlineParsers(ps []util.PrioritizedValue) []util.PrioritizedValue {
	for i, p := range ps {
		ip, ok := p.Value.(parser.InlineParser)
		switch {
		case !ok:
		case slices.Contains(ip.Trigger(), ']'):
			ps[i].Value = linkWork{inner: linkParser{inner: ip}}
		case slices.Contains(ip.Trigger(), '*') || slices.Contains(ip.Trigger(), '~'):
			ps[i].Value = delimiterParser{inner: ip}
		case slices.Contains(ip.Trigger(), '`'):
			ps[i].Value = codeSpanWork{inner: ip}
		}
	}
	return ps
}

// TableOptions are the parser options of goldmark's GFM tables, its table
// charged to the document's allowance of work where the parse's context
// holds one (InlineWorkContext): for prose's parser, whose rows are
// goldmark's (padding cells included).
var TableOptions = gfm.TableOptions

var workIDPattern = lazyRE.New(`\bCTO-WORK-\d+\b`)

// parseDoc extracts the document model from a markdown file, its small
// objects cut from slabs (nil: each on its own).
func parseDoc(f *File, report func(check string, pos, end token.Pos, msg string), slabs *modelSlabs) *Doc {
	return parseDocWith(mdParser(), f, report, slabs)
}

// parseDocWith is parseDoc with the markdown parser p.
func parseDocWith(p parser.Parser, f *File, report func(check string, pos, end token.Pos, msg string), slabs *modelSlabs) *Doc {
	kind, stem := KindOf(f.Path)
	d := &Doc{Path: f.Path, File: f, Kind: kind, Stem: stem}
	content := f.Content
	start := 0
	if bytes.HasPrefix(content, bom) {
		d.BOM = true
		start = len(bom)
	}
	bb := builderPool.Get().(*blockBuilder)
	defer func() {
		bb.reset()
		if bb.pooled() {
			builderPool.Put(bb)
		}
	}()
	s := splitFrontmatter(content[start:], true, bb.flat)
	if s.Flat != nil {
		bb.flat = s.Flat[:0] // kept for the next document
	}
	s.Open += start
	s.YAMLStart += start
	s.YAMLEnd += start
	s.BodyStart += start
	d.FrontmatterState = s.State
	fmReport := func(pos, end token.Pos, msg string) { report("frontmatter", pos, end, msg) }
	switch s.State {
	case FrontmatterAbsent:
		s.BodyStart = start
	case FrontmatterUnclosed:
		p := f.Pos(s.Open)
		report("frontmatter", p, f.Pos(s.Open+3), "frontmatter block opened with --- is never closed")
	case FrontmatterMalformed:
		line, col, msg := yamlErrorPos(s.Err)
		li := newLineIndex(content[s.YAMLStart:s.YAMLEnd], s.YAMLStart)
		off := s.YAMLStart
		if line > 0 {
			off = li.offset(line, col)
		}
		report("frontmatter", f.Pos(off), f.Pos(off), "malformed frontmatter YAML: "+msg)
	case FrontmatterOK:
		d.Frontmatter = typedFrontmatter(f, s, fmReport, slabs)
	}
	d.BodyStart = f.Pos(s.BodyStart)
	refs := slabs.refsBuilder()
	if d.Frontmatter != nil && d.Frontmatter.Source != nil && d.Frontmatter.Source.Scalar {
		src := d.Frontmatter.Source
		target, _, _ := strings.Cut(strings.TrimSpace(src.Value), " ")
		if target != "" {
			// The value is decoded YAML (escapes, aliases): its length in the
			// source may differ, so the span never passes the value's line.
			end := min(src.ValuePos+token.Pos(len(target)), src.ValueEnd)
			refs.add(RefSource, target, src.ValuePos, max(end, src.ValuePos))
		}
	}
	// Work ids anywhere in the file, frontmatter included; .sot/ paths in
	// the body. Both are found with a literal search first: running a
	// regexp over every byte of every document dominated the parse.
	for m := range workIDs(content[start:]) {
		refs.addBytes(RefWorkID, content[start+m[0]:start+m[1]], f.Pos(start+m[0]), f.Pos(start+m[1]))
	}
	body := content[s.BodyStart:]
	for m := range sotPaths(body) {
		p := bytes.TrimRight(body[m[0]:m[1]], ".")
		refs.addBytes(RefSOTPath, p, f.Pos(s.BodyStart+m[0]), f.Pos(s.BodyStart+m[0]+len(p)))
	}
	x := &extractor{d: d, f: f, src: body, base: s.BodyStart, bb: bb, section: -1, slabs: slabs, refs: refs, facts: factsBuilder{texts: refs.texts}}
	pc := parser.NewContext()
	work := newInlineWork(len(body))
	setInlineWork(pc, work)
	deep := &nestingNote{}
	pc.Set(nestingKey, deep)
	root := p.Parse(text.NewReader(body), parser.WithContext(pc))
	if deep.lines > 0 {
		p := f.Pos(s.BodyStart + deep.at)
		report("syntax", p, p, nestingMessage(deep.lines))
	}
	if work.over {
		p := f.Pos(s.BodyStart + work.at)
		report("syntax", p, p, inlineWorkMessage())
	}
	if work.delimitersOver {
		p := f.Pos(s.BodyStart + work.delimitersAt)
		report("syntax", p, p, delimiterMessage())
	}
	x.walk(root, 0)
	x.flushBlockers()
	d.Facts = x.facts.facts(slabs)
	d.Refs = refs.refs(slabs)
	slabs.keepRefsBuilder(refs)
	d.blockEnc = bb.finish()
	d.tree, d.treeBase = root, s.BodyStart
	return d
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// workIDs yields the [start, end) offsets of every CTO-WORK-<digits> id
// that stands as a word of its own. It yields rather than returns them: a
// document may name hundreds, each added to its references at once.
func workIDs(b []byte) iter.Seq[[2]int] {
	return func(yield func([2]int) bool) {
		const prefix = "CTO-WORK-"
		for i := 0; ; {
			j := bytes.Index(b[i:], []byte(prefix))
			if j < 0 {
				return
			}
			start := i + j
			end := start + len(prefix)
			for end < len(b) && b[end] >= '0' && b[end] <= '9' {
				end++
			}
			i = start + len(prefix)
			if end == start+len(prefix) || (start > 0 && isWordByte(b[start-1])) || (end < len(b) && isWordByte(b[end])) {
				continue
			}
			if !yield([2]int{start, end}) {
				return
			}
		}
	}
}

// sotPaths yields the [start, end) offsets of every .sot/ path that
// starts a word (after white space, a quote, a backtick or an opening
// bracket).
func sotPaths(b []byte) iter.Seq[[2]int] {
	return func(yield func([2]int) bool) {
		const prefix = ".sot/"
		for i := 0; ; {
			j := bytes.Index(b[i:], []byte(prefix))
			if j < 0 {
				return
			}
			start := i + j
			i = start + len(prefix)
			if start > 0 && !bytes.ContainsRune([]byte(" \t\r\n`'\"([<"), rune(b[start-1])) {
				continue
			}
			end := i
			for end < len(b) && isPathByte(b[end]) {
				end++
			}
			// A path ends on a name character or a slash, not on punctuation.
			for end > i && !isWordByte(b[end-1]) && b[end-1] != '/' {
				end--
			}
			if !yield([2]int{start, end}) {
				return
			}
			i = end
		}
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isPathByte(c byte) bool {
	return isWordByte(c) || c == '.' || c == '/' || c == '-' || c == '@' || c == '+'
}

type extractor struct {
	d    *Doc
	f    *File
	src  []byte
	base int

	item         *WorkItem   // the work item whose section we are in
	phrase       *PhraseList // the phrase section we are in
	phraseLevel  int
	inBlockquote int

	bb    *blockBuilder
	refs  *refsBuilder
	facts factsBuilder

	blockersOf *WorkItem   // the item blockers holds the blockers of
	blockers   refsBuilder // its blockers, packed once the parse leaves its section
	section    int         // index in d.Headings of the section we are in, or -1
	end        int         // the furthest body offset a block seen so far reaches

	slabs *modelSlabs // what the model's headings, work items, lines and references are cut from

	plainCell *east.TableCell // the node a lean row's plain cell is read as
	plainText *ast.Text       // its text
	rowBuf    []tableCell     // a row's cells (table)
}

func (x *extractor) pos(off int) token.Pos { return x.f.Pos(x.base + off) }

// walk visits the children of n, at depth depth of the markdown tree.
func (x *extractor) walk(n ast.Node, depth int) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Type() == ast.TypeBlock {
			x.block(c, depth)
			continue
		}
		if cs, ok := c.(*ast.CodeSpan); ok {
			x.codeSpan(cs)
		}
		if c.HasChildren() {
			x.walk(c, depth+1)
		}
	}
}

// block extracts the block node n: its work-item model and its Block.
func (x *extractor) block(n ast.Node, depth int) {
	start := n.Pos()
	if start < 0 {
		start = x.end
	}
	kind, container := blockKindOf(n)
	if h, ok := n.(*ast.Heading); ok {
		hd := x.heading(h)
		end := blockEnd(x.src, n, start)
		if x.inBlockquote == 0 {
			b := blockHeader{kind: BlockHeading, level: uint8(h.Level), depth: int32(depth), section: -1,
				pos: lineStart(x.src, start), end: end}
			if hd != nil {
				x.section = len(x.d.Headings) - 1
				b.section = x.section
				b.pos, b.end = int(hd.Pos-x.pos(0)), int(hd.End-x.pos(0))
			}
			i := x.bb.add(b)
			x.bb.inline(i, x.src, h)
			x.bb.close(i, b.end)
		}
		x.end = max(x.end, end)
		return
	}
	if kind == BlockTableCell {
		if l := n.Lines(); l != nil && l.Len() > 0 {
			start = l.At(0).Start // after the cell's pipe and padding
		}
	}
	i := -1
	if x.inBlockquote == 0 && kind != 0 {
		b := blockHeader{kind: kind, depth: int32(depth), section: x.section, pos: start}
		if h, ok := n.(*ast.HTMLBlock); ok {
			b.comment = h.HTMLBlockType == ast.HTMLBlockType2
		}
		i = x.bb.add(b)
		if kind.Prose() {
			x.bb.inline(i, x.src, n)
		}
	}
	switch c := n.(type) {
	case *ast.Blockquote:
		x.inBlockquote++
	case *ast.Paragraph:
		if _, inList := c.Parent().(*ast.ListItem); !inList {
			x.paragraph(c)
		}
	case *ast.ListItem:
		x.listItem(c)
	case *east.Table:
		if x.inBlockquote == 0 {
			x.table(c)
		}
	}
	end := start
	if container {
		outer := x.end
		x.end = start
		if r, ok := n.(*gfm.LeanRow); ok {
			x.leanRow(r, depth+1)
		} else {
			x.walk(n, depth+1)
		}
		end = x.end
		if kind == BlockTable {
			end = lineEnd(x.src, end) // the last row's closing pipe
		}
		x.end = max(outer, end)
	} else {
		end = blockEnd(x.src, n, start)
		x.end = max(x.end, end)
		if n.HasChildren() {
			x.walk(n, depth+1)
		}
	}
	if _, ok := n.(*ast.Blockquote); ok {
		x.inBlockquote--
	}
	if i >= 0 {
		x.bb.close(i, end)
	}
}

func (x *extractor) lineBounds(n ast.Node) (int, int, bool) {
	lines := n.Lines()
	if lines == nil || lines.Len() == 0 {
		return 0, 0, false
	}
	return lines.At(0).Start, lines.At(lines.Len() - 1).Stop, true
}

// heading extracts a heading and returns its Doc.Headings entry, or nil
// for an empty heading.
func (x *extractor) heading(h *ast.Heading) *Heading {
	start, stop, ok := x.lineBounds(h)
	if !ok {
		return nil
	}
	txt := x.slabs.str(bytes.TrimSpace(x.src[start:stop]))
	hd := x.slabs.heading()
	*hd = Heading{Level: h.Level, Text: txt, Pos: x.pos(lineStart(x.src, start)), End: x.pos(stop)}
	x.d.Headings = append(x.d.Headings, hd)
	if x.item != nil && h.Level <= x.item.Level {
		x.item = nil
	}
	if x.phrase != nil && h.Level <= x.phraseLevel {
		x.phrase = nil
	}
	if at := matchWorkItemHeading(txt); at != nil {
		m := [4]string{txt, "", txt[at[4]:at[5]], txt[at[6]:at[7]]}
		if at[2] >= 0 {
			m[1] = txt[at[2]:at[3]]
		}
		style := "dash"
		if m[1] != "" {
			style = "issue"
		} else if !strings.Contains(txt[len(m[2]):len(txt)-len(m[3])], "-") {
			style = "colon"
		}
		if style == "issue" && !strings.Contains(txt[len(m[1])+1:], " - ") {
			style = "" // "Issue: ID: Title" is none of the three styles
		}
		if style != "" {
			x.item = x.slabs.workItem()
			*x.item = WorkItem{ID: m[2], Title: strings.TrimSpace(m[3]), Style: style, Level: h.Level, Pos: hd.Pos, End: hd.End}
			x.d.WorkItems = append(x.d.WorkItems, x.item)
		}
	}
	for _, sec := range PhraseSections {
		if strings.EqualFold(txt, sec) {
			x.phrase = &PhraseList{Section: sec, Pos: hd.Pos}
			x.phraseLevel = h.Level
			x.d.PhraseLists = append(x.d.PhraseLists, x.phrase)
		}
	}
	return hd
}

// paragraph picks "Key: value" lines out of a top-level (non-list) paragraph.
func (x *extractor) paragraph(p *ast.Paragraph) {
	if x.inBlockquote > 0 {
		return
	}
	lines := p.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		raw := x.src[seg.Start:seg.Stop]
		if len(raw) > 2 && (raw[0] == '*' || raw[0] == '_') {
			x.label(bytes.TrimRight(raw, " \t\r\n"), seg.Start)
			continue
		}
		// Every key starts with T, S, B or V and has a colon: most prose
		// lines are rejected without the pattern.
		if len(raw) == 0 || !strings.ContainsRune("TSBV", rune(raw[0])) || bytes.IndexByte(raw, ':') < 0 {
			continue
		}
		m := matchLineKey(raw)
		if m == nil {
			continue
		}
		key := lineKey(raw[m[2]:m[3]])
		ln := x.slabs.line()
		*ln = Line{Key: key, Value: x.slabs.intern(raw[m[4]:m[5]]), Pos: x.pos(seg.Start), End: x.pos(seg.Start + len(bytes.TrimRight(raw, " \t\r\n"))), ValuePos: x.pos(seg.Start + m[4]), Item: x.item}
		if key == "Status" {
			x.d.StatusLines = append(x.d.StatusLines, ln)
		}
		it := x.item
		if it == nil {
			continue
		}
		switch key {
		case "Type":
			if it.Type == nil {
				it.Type = ln
			}
		case "Status":
			if it.Status == nil {
				it.Status = ln
			}
		case "Validator":
			if it.Validator == nil {
				it.Validator = ln
			}
		case "Blocked by":
			if it.BlockedBy == nil {
				it.BlockedBy = ln
			}
			val := raw[m[4]:m[5]]
			for _, w := range workIDPattern.FindAllIndex(val, -1) {
				o := seg.Start + m[4] + w[0]
				x.blocker(it, val[w[0]:w[1]], x.pos(o), x.pos(o+w[1]-w[0]))
			}
		}
	}
}

// blocker adds a blocker of it, which it packs once the parse has left
// its section (flushBlockers): as a *Ref each (48 bytes and a pointer)
// they were 12 MB of the live heap on a workspace of long dependency
// chains (graph at 10,000 documents, 45,000 items, 0-12 blockers each).
func (x *extractor) blocker(it *WorkItem, id []byte, pos, end token.Pos) {
	if x.blockersOf != it {
		x.flushBlockers()
		x.blockersOf = it
		x.blockers = refsBuilder{texts: x.refs.texts, packed: x.blockers.packed[:0]}
	}
	x.blockers.addBytes(RefWorkID, id, pos, end)
}

// flushBlockers packs the blockers added since the last flush into their
// item's.
func (x *extractor) flushBlockers() {
	if x.blockersOf != nil {
		x.blockersOf.Blockers = x.blockers.refs(x.slabs)
		x.blockersOf = nil
	}
}

// lineKey returns the key of a Line, matched by lineKeyPattern, as a
// string of lineKeys.
func lineKey(b []byte) string {
	for _, k := range lineKeys {
		if string(b) == k {
			return k
		}
	}
	return string(b)
}

func (x *extractor) listItem(li *ast.ListItem) {
	first := li.FirstChild()
	if first == nil {
		return
	}
	start, stop, ok := x.lineBounds(first)
	if !ok {
		return
	}
	firstLineStop := first.Lines().At(0).Stop
	// The model's strings are copies (into slabs) of what it keeps; the
	// item's line is not copied to be looked at.
	line := bytes.TrimRight(x.src[start:firstLineStop], " \t\r\n")
	if cb, ok := first.FirstChild().(*east.TaskCheckBox); ok {
		if x.item != nil {
			x.item.Checkboxes = append(x.item.Checkboxes, &Checkbox{Checked: cb.IsChecked, Pos: x.pos(lineStart(x.src, start)), End: x.pos(firstLineStop)})
		}
		return
	}
	if x.phrase != nil && x.inBlockquote == 0 {
		raw := x.slabs.str(bytes.TrimSpace(x.src[start:stop]))
		x.phrase.Phrases = append(x.phrase.Phrases, &Phrase{Raw: raw, Text: PlainText(raw), Pos: x.pos(start), End: x.pos(stop)})
	}
	if bytes.IndexByte(line, ':') < 0 || x.inBlockquote > 0 {
		return
	}
	if m := matchFact(unsafe.String(unsafe.SliceData(line), len(line))); m != nil {
		x.facts.add(line[m[2]:m[3]], line[m[4]:m[5]], x.pos(start), x.pos(start+len(line)), x.pos(start+m[4]))
	} else if line[0] == '*' || line[0] == '_' {
		x.label(line, start)
	}
}

// label reads a bold label and its value from line, which starts at
// offset start, into KeyValues. The fact starts at its key, as a list
// item's does.
func (x *extractor) label(line []byte, start int) {
	m := matchLabel(unsafe.String(unsafe.SliceData(line), len(line)))
	if m == nil {
		return
	}
	x.d.KeyValues = append(x.d.KeyValues, &Fact{Key: x.slabs.intern(line[m[2]:m[3]]), Value: x.slabs.intern(line[m[4]:m[5]]),
		Pos: x.pos(start + m[2]), End: x.pos(start + m[5]), ValuePos: x.pos(start + m[4]), Form: FactLabel})
}

// leanRow visits the cells of a lean row, at depth depth, as walk visits
// those of a TableRow: a plain cell as a TableCell holding a Text of its
// span, which is what goldmark's would be, but for Text nodes that split
// the span (the blocks' text runs join them again).
func (x *extractor) leanRow(r *gfm.LeanRow, depth int) {
	r.Cells(x.src, func(node *east.TableCell, pos int, seg text.Segment) {
		if node == nil {
			node = x.plainNode(pos, seg)
		}
		x.block(node, depth)
	})
}

// plainNode returns x.plainCell made the TableCell of a plain cell at pos
// spanning seg.
func (x *extractor) plainNode(pos int, seg text.Segment) *east.TableCell {
	if x.plainCell == nil {
		x.plainCell, x.plainText = east.NewTableCell(), ast.NewText()
		x.plainCell.Lines().Append(seg)
	}
	c := x.plainCell
	c.SetPos(pos)
	c.Lines().Set(0, seg)
	x.plainText.Segment = seg
	if seg.Len() == 0 {
		if c.HasChildren() {
			c.RemoveChildren(c)
		}
	} else if !c.HasChildren() {
		c.AppendChild(c, x.plainText)
	}
	return c
}

// tableCell is a cell's text as written, trimmed, and where it starts
// and ends.
type tableCell struct {
	text       string
	start, end int
}

// cells appends the cells of a table row or header to out.
func (x *extractor) cells(out []tableCell, row ast.Node) []tableCell {
	if r, ok := row.(*gfm.LeanRow); ok {
		r.Cells(x.src, func(node *east.TableCell, _ int, seg text.Segment) {
			if node != nil {
				out = append(out, x.cellOf(node))
			} else {
				out = append(out, x.segCell(seg))
			}
		})
		return out
	}
	for c := row.FirstChild(); c != nil; c = c.NextSibling() {
		out = append(out, x.cellOf(c))
	}
	return out
}

// cellOf returns the cell c: its text a view of the source (see table).
func (x *extractor) cellOf(c ast.Node) tableCell {
	if l := c.Lines(); l != nil && l.Len() > 0 {
		return x.segCell(l.At(0))
	}
	return tableCell{start: -1}
}

// segCell returns the cell whose line segment is seg.
func (x *extractor) segCell(seg text.Segment) tableCell {
	raw := x.src[seg.Start:seg.Stop]
	lead := len(raw) - len(bytes.TrimLeft(raw, " \t"))
	raw = bytes.TrimSpace(raw)
	return tableCell{text: unsafe.String(unsafe.SliceData(raw), len(raw)), start: seg.Start + lead, end: seg.Start + lead + len(raw)}
}

// table reads the facts a table states into KeyValues: each row of a
// two-column table is a key and its value, and each cell is the value of
// the key its header names, said of the row's first cell. A table whose
// header names a definition ("| Field | Meaning |") states none.
//
// A cell's text is a view of the source while the table is read: what a
// fact keeps of it is copied.
func (x *extractor) table(t *east.Table) {
	var header []tableCell
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		if _, ok := r.(*east.TableHeader); ok {
			header = x.cells(nil, r)
			for i := range header {
				header[i].text = strings.Clone(header[i].text)
			}
			continue
		}
		if r.Kind() != east.KindTableRow && r.Kind() != gfm.KindLeanRow || len(header) < 2 {
			continue
		}
		row := x.cells(x.rowBuf[:0], r)
		x.rowBuf = row
		if len(row) != len(header) || row[0].text == "" || row[0].start < 0 {
			continue
		}
		subject := "" // row[0].text, copied once for the row's facts
		add := func(key string, v tableCell, pos, end int, form FactForm, subj bool) {
			s := ""
			if subj {
				if subject == "" {
					subject = strings.Clone(row[0].text)
				}
				s = subject
			}
			x.d.KeyValues = append(x.d.KeyValues, &Fact{Key: key, Value: strings.Clone(v.text),
				Pos: x.pos(pos), End: x.pos(end), ValuePos: x.pos(v.start), Form: form, Subject: s})
		}
		if len(header) == 2 && !definitional(header[1].text) {
			if k := factKey(row[0].text); k != "" && row[1].text != "" {
				add(strings.Clone(k), row[1], row[0].start, row[1].end, FactTableRow, false)
			}
		}
		for j := 1; j < len(header); j++ {
			k := factKey(header[j].text)
			if k == "" || definitional(k) || row[j].text == "" || row[j].start < 0 {
				continue
			}
			add(k, row[j], row[j].start, row[j].end, FactHeaderCell, true)
		}
	}
}

func (x *extractor) codeSpan(c *ast.CodeSpan) {
	// A span is read in place when it is one segment, as most are: only
	// a path or a commit becomes a reference (a string for every span
	// was the parse's largest count of allocations after goldmark's).
	var s, joined []byte
	start := -1
	for t := c.FirstChild(); t != nil; t = t.NextSibling() {
		tx, ok := t.(*ast.Text)
		if !ok {
			continue
		}
		v := tx.Segment.Value(x.src)
		switch {
		case start < 0:
			start, s = tx.Segment.Start, v
		case joined == nil:
			joined = append(append(make([]byte, 0, len(s)+len(v)), s...), v...)
			s = joined
		default:
			joined = append(joined, v...)
			s = joined
		}
	}
	if start < 0 {
		return
	}
	switch {
	case bytes.HasPrefix(s, []byte("/")) || bytes.HasPrefix(s, []byte("~/")):
		p, _, _ := bytes.Cut(s, []byte(" "))
		x.refs.addBytes(RefAbsPath, p, x.pos(start), x.pos(start+len(p)))
	case len(s) >= 7 && len(s) <= 40 && isHexLower(s) && bytes.ContainsAny(s, "abcdef") && bytes.ContainsAny(s, "0123456789"):
		x.refs.addBytes(RefCommit, s, x.pos(start), x.pos(start+len(s)))
	}
}

// isHexLower reports whether s is lower-case hex digits only.
func isHexLower(s []byte) bool {
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// markupReplacer drops the code-span and strong-emphasis markers PlainText
// removes first.
var markupReplacer = strings.NewReplacer("`", "", "**", "", "__", "")

// PlainText removes code-span backticks and emphasis markers and collapses
// runs of white space: the form phrases are compared in.
func PlainText(s string) string {
	if !utf8.ValidString(s) {
		// Dropping markers may make it valid: they go first.
		if s = markupReplacer.Replace(s); !utf8.ValidString(s) {
			return plainRunes(s)
		}
	}
	// Every byte PlainText drops or changes is ASCII, and no byte of a
	// multi-byte rune is: valid text is done a byte at a time, the
	// markers (markupReplacer's, whose "**" the single markers' rule
	// covers) dropped in the same pass.
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', '\r':
			space = b.Len() > 0
		case '`', '*': // code-span backticks, emphasis markers
		case '_': // a pair is emphasis; a single one stays (snake_case)
			if i+1 < len(s) && s[i+1] == '_' {
				i++
				continue
			}
			fallthrough
		default:
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

// plainRunes is PlainText for text that is not valid UTF-8: a rune at a
// time, each invalid byte becoming U+FFFD.
func plainRunes(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			space = b.Len() > 0
			continue
		case r == '*':
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
