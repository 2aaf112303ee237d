package sotparse

import (
	"bytes"
	"slices"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// linkRefs takes link reference definitions out of paragraphs, as
// goldmark's LinkReferenceParagraphTransformer does, in time linear in the
// paragraph. goldmark's (v1.8.7) is quadratic in the definitions of one
// paragraph twice over: after it has read them it removes each one's
// lines by copying every line after it, and it reads a label's bytes by
// searching for its line backwards from the paragraph's last (100,000
// one-line definitions, 1.7 MB, took 23 s). The grammar below is
// goldmark's, quirks included (a definition whose title is followed by
// text keeps its destination's line in the paragraph when its label
// spans lines); TestLinkRefsSameTree holds the trees and the references
// to goldmark's default parser.
//
// It looks only at paragraphs that hold a '[': a definition opens with
// one, and a paragraph whose first line is not a definition is left as
// it is, so a paragraph without one would only cost a reader (a
// twentieth of a large workspace's garbage).
type linkRefs struct{}

func (linkRefs) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	lines, src := node.Lines(), reader.Source()
	hasBracket := false
	for i := 0; i < lines.Len() && !hasBracket; i++ {
		seg := lines.At(i)
		hasBracket = bytes.IndexByte(src[seg.Start:seg.Stop], '[') >= 0
	}
	if !hasBracket {
		return
	}
	lr := linkRefReader{block: blockValues{Reader: text.NewBlockReader(src, lines), lines: lines}}
	var removes [][2]int
	for {
		ref, start, end := lr.definition()
		if start < 0 {
			break
		}
		if start == 0 {
			ref.SetBlankPreviousLines(node.HasBlankPreviousLines())
		}
		node.Parent().InsertBefore(node.Parent(), node, ref)
		for i := start + 1; i < end; i++ {
			ref.Lines().Append(lines.At(i))
		}
		last := ref.Lines().Len() - 1
		seg := ref.Lines().At(last)
		ref.Lines().Set(last, seg.TrimRightSpace(src))
		pc.AddReference(parser.NewReference(ref.Label, ref.Destination, ref.Title))
		if start == end {
			end++
		}
		removes = append(removes, [2]int{start, end})
	}
	if len(removes) == 0 {
		return
	}
	lines = removeLines(lines, removes)
	if lines.Len() == 0 {
		node.Parent().RemoveChild(node.Parent(), node)
		return
	}
	node.SetLines(lines)
}

// removeLines removes the ranges of lines from the paragraph's lines the
// way goldmark's transformer does, which is not always what the ranges
// say: after each range it takes the next one's positions relative to the
// previous range's end in the list it has left, so a range after a gap
// removes lines the gap kept (TestRemoveLinesAsGoldmark). Its steps copy
// the rest of the list after each range; here the list is the lines
// taken out of the paragraph so far (buf[head:]) and the paragraph's
// rest (all[tail:]), and a range removes from the first by moving the
// few before it: linear in the lines. The ranges a paragraph's
// definitions give are in order and do not overlap; others (none seen)
// get goldmark's own steps.
func removeLines(lines *text.Segments, removes [][2]int) *text.Segments {
	n := lines.Len()
	for i, r := range removes {
		if r[0] > r[1] || r[1] > n || r[0] < 0 || i > 0 && r[0] < removes[i-1][1] {
			return removeLinesAsGoldmark(lines, removes)
		}
	}
	all := slices.Clone(lines.Sliced(0, n))
	buf := make([]text.Segment, 0, n)
	head, tail, prevEnd := 0, 0, 0
	for _, r := range removes {
		if len(buf)-head+len(all)-tail == 0 {
			break
		}
		// goldmark's positions, in the list it has at this step (in range:
		// what is left is at least n - prevEnd lines long)
		from, to := r[0]-prevEnd, r[1]-prevEnd
		for len(buf)-head < to && tail < len(all) {
			buf = append(buf, all[tail])
			tail++
		}
		copy(buf[head+to-from:head+to], buf[head:head+from])
		head += to - from
		prevEnd = r[1]
	}
	kept := append(buf[head:], all[tail:]...)
	lines.SetSliced(0, 0)
	lines.AppendAll(kept)
	return lines
}

// removeLinesAsGoldmark is goldmark's own loop.
func removeLinesAsGoldmark(lines *text.Segments, removes [][2]int) *text.Segments {
	offset := 0
	for _, r := range removes {
		if lines.Len() == 0 {
			break
		}
		rest := lines.Sliced(r[1]-offset, lines.Len())
		lines.SetSliced(0, r[0]-offset)
		lines.AppendAll(rest)
		offset = r[1]
	}
	return lines
}

// linkRefReader reads a paragraph's link reference definitions with
// goldmark's reader, whose Value finds a segment's line by binary search
// (blockValues).
type linkRefReader struct {
	block blockValues
}

// definition reads the definition at the reader, and returns it with the
// range of lines it takes out of the paragraph; a negative start where
// there is none. It is goldmark's parseLinkReferenceDefinition.
func (r *linkRefReader) definition() (*ast.LinkReferenceDefinition, int, int) {
	block := r.block
	block.SkipSpaces()
	line, _ := block.PeekLine()
	if line == nil {
		return nil, -1, -1
	}
	startLine, _ := block.Position()
	width, pos := util.IndentWidth(line, 0)
	if width > 3 {
		return nil, -1, -1
	}
	if width != 0 {
		pos++
	}
	if line[pos] != '[' {
		return nil, -1, -1
	}
	_, startPos := block.Position()
	block.Advance(pos + 1)
	segments, found := block.FindClosure('[', ']', linkClosure)
	if !found {
		return nil, -1, -1
	}
	label := r.values(segments)
	if util.IsBlank(label) {
		return nil, -1, -1
	}
	if block.Peek() != ':' {
		return nil, -1, -1
	}
	block.Advance(1)
	block.SkipSpaces()
	destination, ok := linkDestination(block)
	if !ok {
		return nil, -1, -1
	}
	line, _ = block.PeekLine()
	isNewLine := line == nil || util.IsBlank(line)

	endLine, _ := block.Position()
	_, spaces, _ := block.SkipSpaces()
	opener := block.Peek()
	if opener != '"' && opener != '\'' && opener != '(' {
		if !isNewLine {
			return nil, -1, -1
		}
		return newLinkRef(label, destination, nil, startPos), startLine, endLine + 1
	}
	if spaces == 0 {
		return nil, -1, -1
	}
	block.Advance(1)
	closer := opener
	if opener == '(' {
		closer = ')'
	}
	segments, found = block.FindClosure(opener, closer, linkClosure)
	if !found {
		if !isNewLine {
			return nil, -1, -1
		}
		block.AdvanceLine()
		return newLinkRef(label, destination, nil, startPos), startLine, endLine + 1
	}
	title := r.values(segments)
	line, _ = block.PeekLine()
	if line != nil && !util.IsBlank(line) {
		if !isNewLine {
			return nil, -1, -1
		}
		return newLinkRef(label, destination, title, startPos), startLine, endLine
	}
	endLine, _ = block.Position()
	return newLinkRef(label, destination, title, startPos), startLine, endLine + 1
}

// linkClosure is how goldmark finds a label's or a title's closer: on
// any line, without nesting.
var linkClosure = text.FindClosureOptions{Nesting: false, Newline: true, Advance: true}

func newLinkRef(label, destination, title []byte, start text.Segment) *ast.LinkReferenceDefinition {
	ref := ast.NewLinkReferenceDefinition(label, destination, title)
	ref.Lines().Append(start)
	return ref
}

// values is the bytes of the segments FindClosure returned, one after the
// other.
func (r *linkRefReader) values(segments *text.Segments) []byte {
	if segments.Len() == 1 {
		return r.block.Value(segments.At(0))
	}
	var b []byte
	for i := range segments.Len() {
		b = append(b, r.block.Value(segments.At(i))...)
	}
	return b
}

// lineValue is goldmark's block reader's Value: the bytes of seg from the
// line it starts on, each line's padding (a tab's columns in a container)
// before its bytes. The line is found by binary search, where goldmark's
// reader walks back from the block's last line: a paragraph's links cost
// the square of its lines (BenchmarkBracketParagraph).
func lineValue(lines *text.Segments, src []byte, seg text.Segment) []byte {
	n := lines.Len()
	// The last line starting at or before seg.
	lo, hi := 0, n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if lines.At(mid).Start <= seg.Start {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	line := lo - 1
	if line < 0 {
		line = 0 // goldmark's walk ends at the first line too
	}
	ret := make([]byte, 0, seg.Stop-seg.Start+1)
	i := seg.Start
	for ; line < n; line++ {
		s := lines.At(line)
		if i < 0 {
			i = s.Start
		}
		ret = s.ConcatPadding(ret)
		for ; i < seg.Stop && i < s.Stop; i++ {
			ret = append(ret, src[i])
		}
		i = -1
		if s.Stop > seg.Stop {
			break
		}
	}
	return ret
}

// linkParser is goldmark's inline parser of links and images, handed a
// reader whose Value finds a line by binary search (lineValue). goldmark
// parses a block's inlines with a reader of the block's lines.
type linkParser struct{ inner parser.InlineParser }

func (p linkParser) Trigger() []byte { return p.inner.Trigger() }

func (p linkParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	return p.inner.Parse(parent, blockValues{Reader: block, lines: parent.Lines()}, pc)
}

func (p linkParser) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	p.inner.(parser.CloseBlocker).CloseBlock(parent, block, pc)
}

// blockValues is a block's reader, its Value read by lineValue.
type blockValues struct {
	text.Reader
	lines *text.Segments
}

func (r blockValues) Value(seg text.Segment) []byte { return lineValue(r.lines, r.Source(), seg) }

// linkDestination reads a link's destination at the reader: between
// angle brackets on one line, or up to a space or an unbalanced ')'.
// goldmark's parseLinkDestination.
func linkDestination(block text.Reader) ([]byte, bool) {
	block.SkipSpaces()
	line, _ := block.PeekLine()
	angle := block.Peek() == '<'
	end, ok := destinationEnd(line, angle, len(line))
	if angle {
		if !ok {
			return nil, false
		}
		block.Advance(end)
		return line[1 : end-1], true
	}
	block.Advance(end)
	return line[:end], ok
}

// destinationEnd is where goldmark's parseLinkDestination stops reading
// line, a destination at its start, and whether it is one: after the '>'
// that closes an angle destination ('<' first; one line only), else at
// the first blank or ')' that closes no '(', where there is a byte
// before it. A backslash escapes the punctuation after it. It reads at
// most most bytes (linkWork charges what it reads).
func destinationEnd(line []byte, angle bool, most int) (int, bool) {
	n := min(len(line), most)
	if angle {
		for i := 1; i < n; i++ {
			c := line[i]
			if c == '\\' && i < len(line)-1 && util.IsPunct(line[i+1]) {
				i++
				continue
			}
			if c == '>' {
				return i + 1, true
			}
		}
		return n, false
	}
	opened, i := 0, 0
	for i < n {
		c := line[i]
		switch {
		case c == '\\' && i < len(line)-1 && util.IsPunct(line[i+1]):
			i += 2
			continue
		case c == '(':
			opened++
		case c == ')':
			if opened--; opened < 0 {
				return i, i != 0
			}
		case util.IsSpace(c):
			return i, i != 0
		}
		i++
	}
	return i, i != 0
}
