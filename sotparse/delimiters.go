package sotparse

import (
	"sort"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// goldmark matches emphasis and strikethrough delimiters in
// ProcessDelimiters, which looks for each closer's opener back through
// every delimiter of the paragraph still open: a paragraph of "*a_ " is
// quadratic (256 KB took 56 s of check), and so is any shape whose
// closers find no opener (cmark's pathological tests,
// pathologicalInlines). sotparse keeps a paragraph's delimiters itself
// (delimiterList): the delimiter parsers push to it through a context
// that wraps goldmark's (delimiterParser), so goldmark's
// ProcessDelimiters finds none, and the list is processed where goldmark
// would process it: when a link closes (linkWork, after the link parser
// returns the link: the delimiters of its text are its children then, as
// they are siblings before, and the result is the same) and when the
// block closes (linkWork.CloseBlock, before the link parser's, as
// goldmark's runs before it). The processing is goldmark's, rule for
// rule, except that the search for an opener stops where a search of the
// same closer class failed before in the same call (cmark's "openers
// bottom"), and whether any opener of the closer's character is open is
// read from a chain of them instead of the search: linear in the
// delimiters (TestDelimiterWorkLinear). The trees are goldmark's
// (TestLinkRefsSameTree, TestDelimitersAsGoldmark, FuzzLinkRefs).
//
// Both processors goldmark's parsers use (emphasis, strikethrough) let an
// opener close a closer of its own character only, which the chains and
// the classes take for granted.

// delimiterList is a block's open delimiters, in goldmark's order, linked
// by their PreviousDelimiter and NextDelimiter as goldmark's context links
// them.
type delimiterList struct {
	first, last *parser.Delimiter
	// per delimiter pushed in the block, numbered in order (which is the
	// order of their starts in the source: index): whether it is still
	// in the list, and the last opener of its character pushed before it
	// (-1: none), a chain read with path halving.
	nodes    []*parser.Delimiter
	live     []bool
	prevSame []int
	lastOpen map[byte]int
	// the block's link labels open (see linkWork)
	labels []openLabel
	// ctx is the parse's context with its delimiters pushed here, made
	// once: not a value boxed at every delimiter
	ctx parser.Context
}

// openLabel is a link label open: where its "[" is, and the delimiter
// last in the list when it opened (nil: none), goldmark's bottom for the
// delimiters of its text.
type openLabel struct {
	at     int
	bottom ast.Node
}

var delimiterListKey = parser.NewContextKey()

// delimitersOf returns the context's list, made on first use.
func delimitersOf(pc parser.Context) *delimiterList {
	if l, ok := pc.Get(delimiterListKey).(*delimiterList); ok {
		return l
	}
	l := &delimiterList{lastOpen: map[byte]int{}}
	l.ctx = delimiterContext{pc, l}
	pc.Set(delimiterListKey, l)
	return l
}

// push is goldmark's PushDelimiter.
func (l *delimiterList) push(d *parser.Delimiter) {
	if l.first == nil {
		l.first, l.last = d, d
	} else {
		prev := l.last
		l.last = d
		prev.NextDelimiter = d
		d.PreviousDelimiter = prev
	}
	i := len(l.nodes)
	l.nodes = append(l.nodes, d)
	l.live = append(l.live, true)
	prev, ok := l.lastOpen[d.Char]
	if !ok {
		prev = -1
	}
	l.prevSame = append(l.prevSame, prev)
	if d.CanOpen {
		l.lastOpen[d.Char] = i
	}
}

// remove is goldmark's RemoveDelimiter.
func (l *delimiterList) remove(d *parser.Delimiter) {
	if d.PreviousDelimiter == nil {
		l.first = d.NextDelimiter
	} else {
		d.PreviousDelimiter.NextDelimiter = d.NextDelimiter
		if d.NextDelimiter != nil {
			d.NextDelimiter.PreviousDelimiter = d.PreviousDelimiter
		}
	}
	if d.NextDelimiter == nil {
		l.last = d.PreviousDelimiter
	}
	if l.first != nil {
		l.first.PreviousDelimiter = nil
	}
	if l.last != nil {
		l.last.NextDelimiter = nil
	}
	d.NextDelimiter = nil
	d.PreviousDelimiter = nil
	if i := l.index(d); i >= 0 {
		l.live[i] = false
	}
	if d.Length != 0 {
		ast.MergeOrReplaceTextSegment(d.Parent(), d, d.Segment)
	} else {
		d.Parent().RemoveChild(d.Parent(), d)
	}
}

// clear is goldmark's ClearDelimiters: the delimiters among the siblings
// from the last one back to bottom are read as text. An empty list
// forgets the block's numbering.
func (l *delimiterList) clear(bottom ast.Node) {
	if l.last != nil {
		for c := ast.Node(l.last); c != nil && c != bottom; {
			prev := c.PreviousSibling()
			if d, ok := c.(*parser.Delimiter); ok {
				l.remove(d)
			}
			c = prev
		}
	}
	if l.first == nil && len(l.nodes) > 0 {
		clear(l.lastOpen)
		l.nodes, l.live, l.prevSame = l.nodes[:0], l.live[:0], l.prevSame[:0]
	}
}

// index returns d's number in the block, -1 if it was not pushed in it:
// delimiters are pushed in the order of their starts, which consuming
// characters does not move.
func (l *delimiterList) index(d *parser.Delimiter) int {
	i := sort.Search(len(l.nodes), func(i int) bool { return l.nodes[i].Segment.Start >= d.Segment.Start })
	if i < len(l.nodes) && l.nodes[i] == d {
		return i
	}
	return -1
}

// openBefore returns the number of the last opener of character c still
// in the list before delimiter i, -1 if none.
func (l *delimiterList) openBefore(i int) int {
	j := l.prevSame[i]
	for j >= 0 && !l.live[j] {
		next := l.prevSame[j]
		if next >= 0 {
			l.prevSame[j] = l.prevSame[next] // halve the path
		}
		j = next
	}
	return j
}

// closerClass is what decides which openers a closer may take: its
// character, whether it can open, its length modulo 3.
type closerClass struct {
	char    byte
	canOpen bool
	mod     int
}

// delimiterSteps, set by tests only, counts the delimiters the searches
// for openers look at (TestDelimiterWorkLinear).
var delimiterSteps *int64

// classStops holds, per closer class, where its search stops: a few
// classes (three characters, can open or not, three lengths modulo 3).
type classStops []struct {
	class closerClass
	stop  int
}

func (cs classStops) get(c closerClass, otherwise int) int {
	for _, s := range cs {
		if s.class == c {
			return s.stop
		}
	}
	return otherwise
}

func (cs *classStops) set(c closerClass, stop int) {
	for i := range *cs {
		if (*cs)[i].class == c {
			(*cs)[i].stop = stop
			return
		}
	}
	*cs = append(*cs, struct {
		class closerClass
		stop  int
	}{c, stop})
}

// process is goldmark's ProcessDelimiters(bottom).
func (l *delimiterList) process(bottom ast.Node) {
	if l.last == nil {
		return
	}
	var closer *parser.Delimiter
	if bottom != nil {
		if bottom != ast.Node(l.last) {
			for c := l.last.PreviousSibling(); c != nil && c != bottom; {
				if d, ok := c.(*parser.Delimiter); ok {
					closer = d
				}
				c = c.PreviousSibling()
			}
		}
	} else {
		closer = l.first
	}
	if closer == nil {
		l.clear(bottom)
		return
	}
	// floor: goldmark's search back stops at bottom, or, where bottom is
	// no longer in the list, at the list's start
	floor, floorStart := -1, -1
	if d, ok := bottom.(*parser.Delimiter); ok {
		if i := l.index(d); i >= 0 && l.live[i] {
			floor, floorStart = i, d.Segment.Start
		}
	}
	// where a search of a class failed, as a start in the source: no
	// opener for it above floor and before it, for the rest of this call
	var failed classStops
	for closer != nil {
		if !closer.CanClose {
			closer = closer.NextDelimiter
			continue
		}
		class := closerClass{closer.Char, closer.CanOpen, closer.OriginalLength % 3}
		stop := failed.get(class, floorStart)
		consume := 0
		var opener *parser.Delimiter
		for o := closer.PreviousDelimiter; o != nil && o.Segment.Start > stop && ast.Node(o) != bottom; o = o.PreviousDelimiter {
			if delimiterSteps != nil {
				*delimiterSteps++
			}
			if o.CanOpen && o.Processor.CanOpenCloser(o, closer) {
				if consume = o.CalcComsumption(closer); consume > 0 {
					opener = o
					break
				}
			}
		}
		if opener == nil {
			failed.set(class, closer.Segment.Start-1)
			next := closer.NextDelimiter
			// goldmark drops a closer that cannot open when no opener of
			// its character is open above bottom
			if !closer.CanOpen {
				if o := l.openBefore(l.index(closer)); o < 0 || o <= floor {
					l.remove(closer)
				}
			}
			closer = next
			continue
		}
		opener.ConsumeCharacters(consume)
		closer.ConsumeCharacters(consume)
		node := opener.Processor.OnMatch(consume)
		node.(interface{ SetPos(int) }).SetPos(opener.Segment.Start)
		parent := opener.Parent()
		for child := opener.NextSibling(); child != nil && ast.Node(child) != ast.Node(closer); {
			next := child.NextSibling()
			node.AppendChild(node, child)
			child = next
		}
		parent.InsertAfter(parent, opener, node)
		for c := opener.NextDelimiter; c != nil && c != closer; {
			next := c.NextDelimiter
			l.remove(c)
			c = next
		}
		if opener.Length == 0 {
			l.remove(opener)
		}
		if closer.Length == 0 {
			next := closer.NextDelimiter
			l.remove(closer)
			closer = next
		}
	}
	l.clear(bottom)
}

// delimiterParser is an inline parser of delimiters (goldmark's emphasis,
// strikethrough) pushing to the block's delimiterList instead of
// goldmark's context.
type delimiterParser struct{ inner parser.InlineParser }

func (p delimiterParser) Trigger() []byte { return p.inner.Trigger() }

func (p delimiterParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	w := inlineWorkOf(pc)
	if w != nil {
		if _, seg := block.PeekLine(); w.delimitersSpent(seg.Start) {
			return nil
		}
	}
	n := p.inner.Parse(parent, block, delimitersOf(pc).ctx)
	if w != nil && n != nil {
		w.delimiters++ // a run made, not a "~" too short for one
	}
	return n
}

// delimiterContext is a parse context whose delimiters are pushed to a
// delimiterList.
type delimiterContext struct {
	parser.Context
	list *delimiterList
}

func (c delimiterContext) PushDelimiter(d *parser.Delimiter) { c.list.push(d) }
