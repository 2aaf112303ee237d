// Package gfm holds the parsers of the three GitHub Flavored Markdown
// extensions sotparse reads documents with: tables, strikethrough and task
// list boxes. They build the nodes of goldmark's extension/ast package, as
// goldmark's extension package does, without its renderers and without
// that package: its initialization compiles linkify's URL expressions
// (~2,000 allocations, ~1 ms), which every sotvet process paid before main
// and none uses.
//
// The parsers are goldmark v1.8.7's (extension/table.go, strikethrough.go,
// tasklist.go; MIT License, Copyright (c) 2019 Yusuke Inuzuka: see
// LICENSE), with their regular expressions written out as byte tests.
// TestSameAST compares the trees they build with goldmark's extension
// package.
package gfm

import (
	"bytes"

	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Extensions are the table, strikethrough and task list parsers, each at
// the priority goldmark's extension package gives it.
var Extensions = []goldmark.Extender{Table, Strikethrough, TaskList}

// Table parses GFM tables.
var Table goldmark.Extender = extender(TableOptions)

// TableOptions are Table's parser options, for a parser built of options
// (prose's).
var TableOptions = []parser.Option{
	parser.WithParagraphTransformers(util.Prioritized(tableParagraphTransformer{}, 200)),
	parser.WithASTTransformers(util.Prioritized(tableASTTransformer{}, 0)),
}

// LeanTable parses GFM tables as Table does, except that every body row
// is a LeanRow: a plain cell (see Plain) has no node, and a row costs what
// its cells with markup do. goldmark's table costs ~80 bytes of heap per
// byte of source (a TableCell and Text nodes, with their segments, for a
// cell of a few bytes). The header row is goldmark's TableHeader.
var LeanTable goldmark.Extender = extender{
	parser.WithParagraphTransformers(util.Prioritized(tableParagraphTransformer{lean: true}, 200)),
	parser.WithASTTransformers(util.Prioritized(tableASTTransformer{}, 0)),
}

// Strikethrough parses ~~text~~.
var Strikethrough goldmark.Extender = extender{
	parser.WithInlineParsers(util.Prioritized(StrikethroughParser, StrikethroughPriority)),
}

// StrikethroughParser is Strikethrough's inline parser, added at
// StrikethroughPriority, for a parser that wraps it.
var StrikethroughParser parser.InlineParser = strikethroughParser{}

// StrikethroughPriority is goldmark's for its strikethrough parser.
const StrikethroughPriority = 500

// TaskList parses the [ ] and [x] boxes that open list items.
var TaskList goldmark.Extender = extender{
	parser.WithInlineParsers(util.Prioritized(taskCheckBoxParser{}, 0)),
}

// extender adds parser options to a goldmark.Markdown; it renders nothing.
type extender []parser.Option

func (e extender) Extend(m goldmark.Markdown) { m.Parser().AddOptions(e...) }

// Tables.

var escapedPipeCellListKey = parser.NewContextKey()

type escapedPipeCell struct {
	Cell        *ast.TableCell
	Pos         []int
	Transformed bool
}

func isTableDelim(bs []byte) bool {
	if w, _ := util.IndentWidth(bs, 0); w > 3 {
		return false
	}
	allSep := true
	for _, b := range bs {
		if b != '-' {
			allSep = false
		}
		if !(util.IsSpace(b) || b == '-' || b == '|' || b == ':') {
			return false
		}
	}
	return !allSep
}

// isRESpace reports whether b is in RE2's \s: [\t\n\f\r ].
func isRESpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}

// delimAlignment returns the alignment of a delimiter row's cell: what
// goldmark matches with `^\s*:-+\s*$` (left), `^\s*-+:\s*$` (right),
// `^\s*:-+:\s*$` (center) and `^\s*-+\s*$` (none), in that order; ok is
// false when none matches.
func delimAlignment(col []byte) (a ast.Alignment, ok bool) {
	i, j := 0, len(col)
	for i < j && isRESpace(col[i]) {
		i++
	}
	for j > i && isRESpace(col[j-1]) {
		j--
	}
	core := col[i:j]
	left := len(core) > 0 && core[0] == ':'
	if left {
		core = core[1:]
	}
	right := len(core) > 0 && core[len(core)-1] == ':'
	if right {
		core = core[:len(core)-1]
	}
	if len(core) == 0 {
		return ast.AlignNone, false
	}
	for _, b := range core {
		if b != '-' {
			return ast.AlignNone, false
		}
	}
	switch {
	case left && right:
		return ast.AlignCenter, true
	case left:
		return ast.AlignLeft, true
	case right:
		return ast.AlignRight, true
	}
	return ast.AlignNone, true
}

type tableParagraphTransformer struct {
	lean bool // body rows are LeanRows
}

// CellBudgetKey holds, in a parse's context, the CellBudget the
// document's tables are charged to.
var CellBudgetKey = parser.NewContextKey()

// A CellBudget is charged with the cells a table will hold, the cells a
// short row is padded with to its header's columns weighing
// paddingWeight: every reader of the table's rows walks them, and they
// are not in the source. A header of 8,000 columns over 8,000 one-cell
// rows is 48 KB of source and 64 million cells (32 s and 1.5 GB of
// check). Where ChargeCells refuses, the lines stay a paragraph.
type CellBudget interface {
	ChargeCells(cells int64, at int) bool
}

// paddingWeight is what a padding cell costs against a cell of the source
// (some 500 ns to the readers of the rows against a parse's step of ~10).
const paddingWeight = 16

// tableCells is what the table whose delimiter row is lines' i-th, of
// ncols columns, is charged: a cell for each pipe of its rows, and
// paddingWeight for each cell its rows are padded with.
func tableCells(lines *text.Segments, i, ncols int, source []byte) int64 {
	n := int64(2 * ncols) // the header and delimiter rows
	for j := i + 1; j < lines.Len(); j++ {
		seg := lines.At(j)
		pipes := bytes.Count(source[seg.Start:seg.Stop], []byte{'|'})
		n += int64(pipes)
		if pad := ncols - (pipes + 1); pad > 0 {
			n += paddingWeight * int64(pad)
		}
	}
	return n
}

func (b tableParagraphTransformer) Transform(node *gast.Paragraph, reader text.Reader, pc parser.Context) {
	ppos := node.Pos()
	lines := node.Lines()
	if lines.Len() < 2 {
		return
	}
	for i := 1; i < lines.Len(); i++ {
		alignments := b.parseDelimiter(lines.At(i), reader)
		if alignments == nil {
			continue
		}
		header := b.parseRow(lines.At(i-1), alignments, true, reader, pc)
		if header == nil || len(alignments) != header.ChildCount() {
			return
		}
		if cb, ok := pc.Get(CellBudgetKey).(CellBudget); ok && !cb.ChargeCells(tableCells(lines, i, len(alignments), reader.Source()), lines.At(i-1).Start) {
			return
		}
		table := ast.NewTable()
		table.Alignments = alignments
		table.SetPos(ppos)
		table.AppendChild(table, ast.NewTableHeader(header))
		for j := i + 1; j < lines.Len(); j++ {
			if b.lean {
				table.AppendChild(table, b.parseLeanRow(lines.At(j), alignments, reader, pc))
				continue
			}
			table.AppendChild(table, b.parseRow(lines.At(j), alignments, false, reader, pc))
		}
		node.Lines().SetSliced(0, i-1)
		node.Parent().InsertAfter(node.Parent(), node, table)
		if node.Lines().Len() == 0 {
			node.Parent().RemoveChild(node.Parent(), node)
		} else {
			last := node.Lines().At(i - 2)
			last.Stop = last.Stop - 1 // trim last newline(\n)
			node.Lines().Set(i-2, last)
		}
	}
}

func (b tableParagraphTransformer) parseRow(segment text.Segment,
	alignments []ast.Alignment, isHeader bool, reader text.Reader, pc parser.Context) *ast.TableRow {
	npos := segment
	source := reader.Source()
	segment = segment.TrimLeftSpace(source)
	segment = segment.TrimRightSpace(source)
	line := segment.Value(source)
	pos := 0
	limit := len(line)
	row := ast.NewTableRow(alignments)
	row.SetPos(npos.Start)
	if len(line) > 0 && line[pos] == '|' {
		pos++
	}
	if len(line) > 0 && line[limit-1] == '|' {
		limit--
	}
	i := 0
	for ; pos < limit; i++ {
		alignment := ast.AlignNone
		if i >= len(alignments) {
			if !isHeader {
				return row
			}
		} else {
			alignment = alignments[i]
		}

		var escapedCell *escapedPipeCell
		node := ast.NewTableCell()
		node.SetPos(npos.Start + pos - npos.Padding)
		node.Alignment = alignment
		hasBacktick := false
		closure := pos
		for ; closure < limit; closure++ {
			if line[closure] == '`' {
				hasBacktick = true
			}
			if line[closure] == '|' {
				if closure == 0 || line[closure-1] != '\\' {
					break
				} else if hasBacktick {
					if escapedCell == nil {
						escapedCell = &escapedPipeCell{node, []int{}, false}
						escapedList := pc.ComputeIfAbsent(escapedPipeCellListKey,
							func() any {
								return []*escapedPipeCell{}
							}).([]*escapedPipeCell)
						escapedList = append(escapedList, escapedCell)
						pc.Set(escapedPipeCellListKey, escapedList)
					}
					escapedCell.Pos = append(escapedCell.Pos, segment.Start+closure-1)
				}
			}
		}
		seg := text.NewSegment(segment.Start+pos, segment.Start+closure)
		seg = seg.TrimLeftSpace(source)
		seg = seg.TrimRightSpace(source)
		node.Lines().Append(seg)
		row.AppendChild(row, node)
		pos = closure + 1
	}
	for ; i < len(alignments); i++ {
		row.AppendChild(row, ast.NewTableCell())
	}
	return row
}

// KindLeanRow is the kind of a LeanRow.
var KindLeanRow = gast.NewNodeKind("LeanRow")

// A LeanRow is a table's body row (an ast.TableRow in goldmark's tree)
// whose plain cells have no node: its children are the TableCells of its
// other cells, in order. The empty cells a row shorter than the header is
// padded with have no node either: a one-cell row under a header of
// thousands of columns would otherwise hold thousands of nodes. Cells
// gives all of them.
type LeanRow struct {
	gast.BaseBlock
	seg   text.Segment // the row's line, as the paragraph held it
	ncols int          // the header's width
	npad  int          // the empty cells after the line's
}

// Kind implements gast.Node.
func (r *LeanRow) Kind() gast.NodeKind { return KindLeanRow }

// IsRaw implements gast.Node: the row has no text of its own to parse
// (its cells do).
func (r *LeanRow) IsRaw() bool { return true }

// Dump implements gast.Node.
func (r *LeanRow) Dump(source []byte, level int) { gast.DumpHelper(r, source, level, nil, nil) }

// Plain reports whether a cell's text makes nothing but text in goldmark's
// inline parse: it holds none of the bytes an inline parser of the
// document's (code spans, links and images, autolinks and raw HTML,
// emphasis, strikethrough, task boxes) or an escape or entity starts at.
// Its TableCell would hold Text nodes covering the text, one after the
// other, and nothing else.
func Plain(b []byte) bool {
	for _, c := range b {
		switch c {
		case '\\', '`', '*', '_', '[', ']', '!', '<', '&', '~', '\n', '\r':
			return false
		}
	}
	return true
}

// rowCells calls cell with each cell of the row line segment (as a
// paragraph holds it) that parseRow makes a node of, in order: its
// position (TableCell.Pos), its text's segment, trimmed, and where the
// escaped pipes after a backtick in it are (escapedPipeCell.Pos; nil for
// none). It returns how many. A row of ncols cells or more has ncols.
func rowCells(segment text.Segment, ncols int, source []byte, cell func(pos int, seg text.Segment, escaped []int)) int {
	npos := segment
	segment = segment.TrimLeftSpace(source)
	segment = segment.TrimRightSpace(source)
	line := segment.Value(source)
	pos := 0
	limit := len(line)
	if len(line) > 0 && line[pos] == '|' {
		pos++
	}
	if len(line) > 0 && line[limit-1] == '|' {
		limit--
	}
	i := 0
	for ; pos < limit && i < ncols; i++ {
		hasBacktick := false
		var escaped []int
		closure := pos
		for ; closure < limit; closure++ {
			if line[closure] == '`' {
				hasBacktick = true
			}
			if line[closure] == '|' {
				if closure == 0 || line[closure-1] != '\\' {
					break
				} else if hasBacktick {
					escaped = append(escaped, segment.Start+closure-1)
				}
			}
		}
		seg := text.NewSegment(segment.Start+pos, segment.Start+closure)
		seg = seg.TrimLeftSpace(source)
		seg = seg.TrimRightSpace(source)
		cell(npos.Start+pos-npos.Padding, seg, escaped)
		pos = closure + 1
	}
	return i
}

// parseLeanRow is parseRow for a body row, made a LeanRow.
func (b tableParagraphTransformer) parseLeanRow(segment text.Segment,
	alignments []ast.Alignment, reader text.Reader, pc parser.Context) *LeanRow {
	source := reader.Source()
	row := &LeanRow{seg: segment, ncols: len(alignments)}
	row.SetPos(segment.Start)
	i := 0
	n := rowCells(segment, len(alignments), source, func(pos int, seg text.Segment, escaped []int) {
		defer func() { i++ }()
		if escaped == nil && Plain(seg.Value(source)) {
			return
		}
		node := ast.NewTableCell()
		node.SetPos(pos)
		node.Alignment = alignments[i]
		node.Lines().Append(seg)
		if escaped != nil {
			// parseRow's record of the cell's escaped pipes, for
			// tableASTTransformer.
			escapedList := pc.ComputeIfAbsent(escapedPipeCellListKey,
				func() any {
					return []*escapedPipeCell{}
				}).([]*escapedPipeCell)
			pc.Set(escapedPipeCellListKey, append(escapedList, &escapedPipeCell{node, escaped, false}))
		}
		row.AppendChild(row, node)
	})
	row.npad = len(alignments) - n
	return row
}

// Cells calls cell with each of the row's cells, in order, as goldmark's
// TableRow holds them: node is the cell's TableCell, or nil for a plain
// cell, whose TableCell would be at pos, span seg, and hold Text nodes
// covering seg. A padding cell is handed as a new empty TableCell, as
// goldmark's row holds it, made for the call and not kept in the tree.
func (r *LeanRow) Cells(source []byte, cell func(node *ast.TableCell, pos int, seg text.Segment)) {
	c := r.FirstChild()
	rowCells(r.seg, r.ncols, source, func(pos int, seg text.Segment, escaped []int) {
		if escaped == nil && Plain(seg.Value(source)) {
			cell(nil, pos, seg)
			return
		}
		node := c.(*ast.TableCell)
		c = c.NextSibling()
		cell(node, node.Pos(), seg)
	})
	for i := 0; i < r.npad; i++ {
		pad := ast.NewTableCell()
		cell(pad, pad.Pos(), text.Segment{})
	}
}

func (b tableParagraphTransformer) parseDelimiter(segment text.Segment, reader text.Reader) []ast.Alignment {
	line := segment.Value(reader.Source())
	if !isTableDelim(line) {
		return nil
	}
	cols := bytes.Split(line, []byte{'|'})
	if util.IsBlank(cols[0]) {
		cols = cols[1:]
	}
	if len(cols) > 0 && util.IsBlank(cols[len(cols)-1]) {
		cols = cols[:len(cols)-1]
	}

	var alignments []ast.Alignment
	for _, col := range cols {
		a, ok := delimAlignment(col)
		if !ok {
			return nil
		}
		alignments = append(alignments, a)
	}
	return alignments
}

type tableASTTransformer struct{}

func (a tableASTTransformer) Transform(node *gast.Document, reader text.Reader, pc parser.Context) {
	lst := pc.Get(escapedPipeCellListKey)
	if lst == nil {
		return
	}
	pc.Set(escapedPipeCellListKey, nil)
	for _, v := range lst.([]*escapedPipeCell) {
		if v.Transformed {
			continue
		}
		_ = gast.Walk(v.Cell, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
			if !entering || n.Kind() != gast.KindCodeSpan {
				return gast.WalkContinue, nil
			}
			for c := n.FirstChild(); c != nil; {
				next := c.NextSibling()
				if c.Kind() != gast.KindText {
					c = next
					continue
				}
				parent := c.Parent()
				ts := &c.(*gast.Text).Segment
				n := c
				for _, v := range lst.([]*escapedPipeCell) {
					for _, pos := range v.Pos {
						if ts.Start <= pos && pos < ts.Stop {
							segment := n.(*gast.Text).Segment
							n1 := gast.NewRawTextSegment(segment.WithStop(pos))
							n2 := gast.NewRawTextSegment(segment.WithStart(pos + 1))
							parent.InsertAfter(parent, n, n1)
							parent.InsertAfter(parent, n1, n2)
							parent.RemoveChild(parent, n)
							n = n2
							v.Transformed = true
						}
					}
				}
				c = next
			}
			return gast.WalkContinue, nil
		})
	}
}

// Strikethrough.

type strikethroughDelimiterProcessor struct{}

func (p strikethroughDelimiterProcessor) IsDelimiter(b byte) bool { return b == '~' }

func (p strikethroughDelimiterProcessor) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char
}

func (p strikethroughDelimiterProcessor) OnMatch(consumes int) gast.Node {
	return ast.NewStrikethrough()
}

type strikethroughParser struct{}

var strikethroughTrigger = []byte{'~'}

func (s strikethroughParser) Trigger() []byte { return strikethroughTrigger }

func (s strikethroughParser) Parse(parent gast.Node, block text.Reader, pc parser.Context) gast.Node {
	before := block.PrecendingCharacter()
	line, segment := block.PeekLine()
	node := parser.ScanDelimiter(line, before, 1, strikethroughDelimiterProcessor{})
	if node == nil || node.OriginalLength > 2 || before == '~' {
		return nil
	}

	node.Segment = segment.WithStop(segment.Start + node.OriginalLength)
	block.Advance(node.OriginalLength)
	pc.PushDelimiter(node)
	return node
}

// Task list boxes.

type taskCheckBoxParser struct{}

var taskCheckBoxTrigger = []byte{'['}

func (s taskCheckBoxParser) Trigger() []byte { return taskCheckBoxTrigger }

// taskBox matches goldmark's `^\[([\sxX])\]\s*` at the start of line: it
// returns the box's mark and the length of the match.
func taskBox(line []byte) (mark byte, n int, ok bool) {
	if len(line) < 3 || line[0] != '[' || line[2] != ']' {
		return 0, 0, false
	}
	mark = line[1]
	if mark != 'x' && mark != 'X' && !isRESpace(mark) {
		return 0, 0, false
	}
	n = 3
	for n < len(line) && isRESpace(line[n]) {
		n++
	}
	return mark, n, true
}

func (s taskCheckBoxParser) Parse(parent gast.Node, block text.Reader, pc parser.Context) gast.Node {
	// Given AST structure must be like
	// - List
	//   - ListItem         : parent.Parent
	//     - TextBlock      : parent
	//       (current line)
	if parent.Parent() == nil || parent.Parent().FirstChild() != parent {
		return nil
	}

	if parent.HasChildren() {
		return nil
	}
	if _, ok := parent.Parent().(*gast.ListItem); !ok {
		return nil
	}
	line, _ := block.PeekLine()
	value, n, ok := taskBox(line)
	if !ok {
		return nil
	}
	block.Advance(n)
	checked := value == 'x' || value == 'X'
	return ast.NewTaskCheckBox(checked)
}
