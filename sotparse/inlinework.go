package sotparse

import (
	"fmt"

	"github.com/svrnty/sotvet/internal/mdtext"
	"github.com/svrnty/sotvet/sotparse/internal/gfm"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// goldmark's link and code span parsers cost more than linear time on
// some shapes (cmark's pathological tests, pathologicalInlines): the
// first reads a destination to the end of the line at every "](" whose
// link does not close, and copies a label's text at every "]" that closes
// it, however far its "[" (an 80 KB line of "[a](b" took 4 s); the second
// reads to the block's end for every run of backticks nothing closes.
// Both are charged to a document's inlineWork with what goldmark reads;
// once the document's allowance is spent, links and code spans after it
// are read as text, as nesting past MaxNesting is, and the document gets
// a syntax finding. The 2,685 markdown documents of Go's module cache and
// this machine's packages use at most 4 % of theirs.
//
// Emphasis is not charged: sotparse matches delimiters itself in linear
// time (delimiters.go).
const (
	inlineWorkFloor   = 1 << 20
	inlineWorkPerByte = 16
)

// Emphasis and strikethrough markers cost memory instead: goldmark keeps
// each run of them as a node of ~200 bytes, and the text after it as
// another, until the paragraph closes, since any of them may still open
// an emphasis a later run closes. A paragraph of "*a **a " held 137 bytes
// of heap per byte (548 MB for 4 MB). A document may hold delimiterFloor
// runs, and one more for every delimiterBytes bytes of its body; runs past
// them are read as text, and the document gets a syntax finding. Of the
// 1,330 markdown documents of 1 KB or more on this machine (Go's module
// cache, node's, the packages'), none has more than one run of "*", "_"
// or "~" in 27 bytes; the most in one is 16,644 (a changelog of 956 KB).
// The allowance lets a paragraph of 4 MB hold at most a third of the
// runs "*a **a " packs in it.
const (
	delimiterFloor = 1 << 16
	delimiterBytes = 16
)

// inlineWork is one document's allowance of inline parsing work, and of
// the delimiter runs it holds.
type inlineWork struct {
	limit, done int64
	over        bool
	at          int // the body offset of the markup read as text first

	delimiters, delimiterLimit int64
	delimitersOver             bool
	delimitersAt               int // the body offset of the run read as text first
}

var inlineWorkKey = parser.NewContextKey()

func newInlineWork(bodyLen int) *inlineWork {
	return &inlineWork{
		limit:          inlineWorkFloor + inlineWorkPerByte*int64(bodyLen),
		delimiterLimit: delimiterFloor + int64(bodyLen/delimiterBytes),
	}
}

// delimitersSpent reports whether the document holds all the delimiter
// runs its allowance lets it: a run at body offset at, and every one
// after it, is then read as text. delimiterParser counts the runs it
// made.
func (w *inlineWork) delimitersSpent(at int) bool {
	if !w.delimitersOver && w.delimiters >= w.delimiterLimit {
		w.delimitersOver, w.delimitersAt = true, at
	}
	return w.delimitersOver
}

// setInlineWork puts w in pc, for the inline parsers and the tables
// (gfm.CellBudget).
func setInlineWork(pc parser.Context, w *inlineWork) {
	pc.Set(inlineWorkKey, w)
	pc.Set(gfm.CellBudgetKey, w)
}

// ChargeCells charges a table's cells (gfm.CellBudget); a table past the
// allowance is read as a paragraph.
func (w *inlineWork) ChargeCells(cells int64, at int) bool { return w.charge(cells, at) }

// charge adds n to the work done and reports true, or, where n would take
// the work past the allowance (or it is spent), reports false and adds
// nothing: the markup at at is read as text, and so is all after it.
func (w *inlineWork) charge(n int64, at int) bool {
	if !w.over && w.done+n > w.limit {
		w.over, w.at = true, at
	}
	if w.over {
		return false
	}
	w.done += n
	return true
}

// InlineWorkContext returns a parse context holding the allowance of
// inline work of a document of n bytes, for a parser whose inline parsers
// are ChargedInlineParsers.
func InlineWorkContext(n int) parser.Context {
	pc := parser.NewContext()
	setInlineWork(pc, newInlineWork(n))
	return pc
}

// inlineWorkOf is the context's allowance, nil where the parse was not
// given one (the tests' parsers).
func inlineWorkOf(pc parser.Context) *inlineWork {
	w, _ := pc.Get(inlineWorkKey).(*inlineWork)
	return w
}

// linkWork is the link parser (linkParser), charged, where the context
// holds an allowance, at each "]" for the label it closes, whose text
// goldmark copies, and where a "(" follows for the bytes goldmark reads
// for the destination (destinationWork). It also keeps the labels open
// with the delimiter each opened after (goldmark's "link bottoms"), and
// processes the block's delimiterList where goldmark would: when a link
// closes, and before the link parser closes the block.
type linkWork struct{ inner parser.InlineParser }

func (p linkWork) Trigger() []byte { return p.inner.Trigger() }

func (p linkWork) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	l := delimitersOf(pc)
	line, seg := block.PeekLine()
	if len(line) == 0 {
		return p.inner.Parse(parent, block, pc)
	}
	closing := line[0] == ']'
	if w := inlineWorkOf(pc); w != nil {
		if w.over {
			return nil
		}
		cost := int64(1)
		if closing && len(l.labels) > 0 {
			cost += int64(seg.Start - l.labels[len(l.labels)-1].at)
		}
		if closing && len(line) > 1 && line[1] == '(' {
			cost += destinationWork(line[2:], w.limit-w.done)
		}
		if !w.charge(cost, seg.Start) {
			return nil
		}
	}
	var bottom ast.Node
	if l.last != nil {
		bottom = l.last // goldmark's pushLinkBottom: its context's last delimiter
	}
	n := p.inner.Parse(parent, block, pc)
	switch {
	case closing && len(l.labels) > 0:
		// "]" settles the last label open, as a link or as text, and
		// goldmark pops its bottom
		open := l.labels[len(l.labels)-1]
		l.labels = l.labels[:len(l.labels)-1]
		switch n.(type) {
		case *ast.Link, *ast.Image:
			l.process(open.bottom)
		}
	case !closing && n != nil:
		l.labels = append(l.labels, openLabel{seg.Start, bottom})
	}
	return n
}

func (p linkWork) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	l := delimitersOf(pc)
	l.process(nil) // goldmark's ProcessDelimiters(nil) at the block's end
	l.labels = l.labels[:0]
	p.inner.(parser.CloseBlocker).CloseBlock(parent, block, pc)
	// goldmark leaves a text for every delimiter it did not match and
	// for the text after it: a paragraph of "*a_ " kept two nodes for
	// every four bytes (~60 bytes of heap per byte of the document, all
	// held to the end of its parse). Joined as each block closes, a
	// document holds what its paragraphs say, and the nodes of one
	// paragraph at a time.
	mdtext.Merge(parent, block.Source())
}

// codeSpanWork is goldmark's code span parser, charged, where the context
// holds an allowance, with the bytes it read: to the closing run of
// backticks, or to the block's end where none closes the opening run
// (cmark's pathological "backticks", runs of 1, 2, ... n backticks, cost
// it the square of the paragraph: 1.3 MB took 1.1 s).
type codeSpanWork struct{ inner parser.InlineParser }

func (p codeSpanWork) Trigger() []byte { return p.inner.Trigger() }

func (p codeSpanWork) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	w := inlineWorkOf(pc)
	if w == nil {
		return p.inner.Parse(parent, block, pc)
	}
	if w.over {
		return nil
	}
	_, before := block.PeekLine()
	n := p.inner.Parse(parent, block, pc)
	read := 0
	if _, closed := n.(*ast.CodeSpan); closed {
		_, after := block.PeekLine()
		read = after.Start - before.Start
	} else if lines := parent.Lines(); lines.Len() > 0 {
		// no closing run: goldmark read to the block's end, and the
		// opening run is text
		read = lines.At(lines.Len()-1).Stop - before.Start
	}
	w.charge(int64(max(read, 1)), before.Start)
	return n
}

// destinationWork is how many bytes of line, which follows a "](",
// goldmark reads for the destination (destinationEnd, after the blanks
// it skips), counted up to most (what the allowance has left), so that
// the count is not itself the square of the line.
func destinationWork(line []byte, most int64) int64 {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	rest := line[i:]
	end, _ := destinationEnd(rest, len(rest) > 0 && rest[0] == '<', int(min(most, int64(len(rest)))))
	return int64(i + end + 1)
}

// inlineWorkMessage is the syntax finding for a document whose inline
// markup spent its allowance.
func inlineWorkMessage() string {
	return fmt.Sprintf("links, code spans or table cells too dense to parse in linear time (over %d steps a byte); from here on they are read as text", inlineWorkPerByte)
}

// delimiterMessage is the syntax finding for a document whose emphasis
// and strikethrough markers spent their allowance.
func delimiterMessage() string {
	return fmt.Sprintf("more emphasis or strikethrough markers than a document may hold (%d, and one for every %d bytes); from here on they are read as text", delimiterFloor, delimiterBytes)
}
