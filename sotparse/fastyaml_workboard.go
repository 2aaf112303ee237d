package sotparse

import (
	"bytes"
	"strings"
	"unsafe"

	yaml "go.yaml.in/yaml/v4"
)

// A large WORKBOARD.yaml is one long list of small flat mappings, and
// yaml.Load spends most of a run on it composing the tree. loadWorkboardYAML
// builds the node yaml.Load would build for the files of a subset of YAML
// and declines every other file, which then goes to yaml.Load. An item of
// the top-level list outside the subset does not decline the file: it is
// read by yaml.Load with the items after it, a run of about aloneRun bytes
// (readItemsAlone), so that one comment after a value or one block scalar
// does not send a whole 50,000-item file to yaml.Load (72 MB of nodes held
// at once). The differential tests and FuzzWorkboardFastPath hold it to
// yaml.Load's result, node for node.
//
// The subset extends scanFlatYAML's (its lines, keys, scalars, resolver and
// refusals; whitespace-only lines decline):
//
//   - the file may open with a run of comment lines (`#` at column 1, no
//     trailing space, no CRLF, as for every comment line), followed by
//     zero or more empty lines: the comment belongs to the first key, or
//     to the document when an empty line separates them;
//   - a run of comment lines at the column of a block sequence of
//     mappings, with no empty line inside or after it, right before an
//     entry's `- `: the comment belongs to the entry's mapping. Every other
//     `#` that could start a comment declines;
//   - a top-level key at column 1 takes a flat scalar, a flow sequence, or,
//     when nothing follows its colon, a block sequence of flat mappings on
//     the next lines: `- key: value` at one indentation s for every entry,
//     the entry's other keys at s+2;
//   - a key of such a mapping takes a flat scalar, a flow sequence, or,
//     when nothing follows its colon, a block sequence of scalars at one
//     indentation not left of the key (`- value`);
//   - a flow sequence is `[` elements `]` on one line, each element a plain
//     scalar of letters, digits and `_./-` that starts with a letter, digit
//     or `_`, separated by commas, with spaces around them allowed and
//     nothing but spaces after the `]`.

// A flow sequence of any length is read: its elements cost a node each
// here as in yaml.Load, which a declined file went to whole (a roll-up
// item blocked by 50,000 others sent a 9 MB workboard to yaml.Load: 72 MB
// of nodes at the run's peak, 176 MB of RSS).

// workboardLoader holds the state of one loadWorkboardYAML call.
type workboardLoader struct {
	data []byte
	text string
	// The current line is data[ls:le] (a \r before its \n cut), number num;
	// the next starts at next. eof once past the last line.
	ls, le, num, next int
	eof               bool
	// Nodes and Content slices are cut from slabs, so that a file of a
	// hundred thousand nodes costs a few hundred allocations.
	nodes []yaml.Node
	ptrs  []*yaml.Node
	// Scratch children of the open collections, by depth.
	top, items, item, elems []*yaml.Node
	run                     []*yaml.Node // the items handed on together (one, or readItemsAlone's)
	// onItem, when set, is handed each item of the top-level `items`
	// block sequence of mappings as soon as it is read; that item's nodes
	// are then reused for the next, and the sequence is left empty. It
	// returns false to have the file declined. A second `items` key
	// declines the file too: the last one is the list.
	onItem func(item *yaml.Node) bool
	items1 bool // an `items` key was read
}

// loadWorkboardYAML stores in out the document node yaml.Load(data, out)
// would store and reports true, or reports false, leaving out alone, when
// data is outside the subset above. The strings of out are cut from data
// itself, not from a copy: a workboard is kept with its file's content,
// which nothing writes, and a copy would double what a large one keeps.
// data must not change while out or a string from it is in use.
func loadWorkboardYAML(data []byte, out *yaml.Node) bool {
	return loadWorkboardItems(data, out, nil)
}

// loadWorkboardItems is loadWorkboardYAML handing each item of the
// top-level `items` list to onItem as it is read, when onItem is set (see
// workboardLoader.onItem): the items need not all be in memory at once.
// out then holds the file's tree with that list empty.
func loadWorkboardItems(data []byte, out *yaml.Node, onItem func(item *yaml.Node) bool) bool {
	l := &workboardLoader{data: data, text: unsafe.String(unsafe.SliceData(data), len(data)), onItem: onItem}
	l.advance()
	var comments []string
	lastComment := 0
	for !l.eof && l.data[l.ls] == '#' {
		// One run from the first line: an empty line would split it.
		if l.num != lastComment+1 || !l.commentLine(0) {
			return false
		}
		comments = append(comments, l.text[l.ls:l.le])
		lastComment = l.num
		l.advance()
	}
	for !l.eof {
		if l.indent() != 0 {
			return false
		}
		k, v, ok := l.entry(0, false)
		if !ok {
			return false
		}
		l.top = append(l.top, k, v)
	}
	if len(l.top) == 0 {
		return false
	}
	first := l.top[0]
	mapping := l.node()
	mapping.Kind, mapping.Tag, mapping.Line, mapping.Column, mapping.Content = yaml.MappingNode, mapTag, first.Line, 1, l.content(l.top)
	*out = yaml.Node{Kind: yaml.DocumentNode, Line: first.Line, Column: 1, Content: l.content([]*yaml.Node{mapping})}
	if len(comments) > 0 {
		if head := strings.Join(comments, "\n"); first.Line == lastComment+1 {
			first.HeadComment = head
		} else {
			out.HeadComment = head
		}
	}
	return true
}

// advance moves to the next non-empty line.
func (l *workboardLoader) advance() {
	for {
		if l.next >= len(l.data) {
			l.eof = true
			return
		}
		l.ls = l.next
		l.le = l.ls
		for l.le < len(l.data) && l.data[l.le] != '\n' {
			l.le++
		}
		l.next = l.le + 1
		l.num++
		if l.le > l.ls && l.data[l.le-1] == '\r' {
			l.le-- // CRLF: yaml reads \r\n as one break
		}
		if l.le > l.ls {
			return
		}
	}
}

// commentLine reports whether the current line is a comment the subset
// takes at column col+1: `#` there, no trailing space, no CRLF.
func (l *workboardLoader) commentLine(col int) bool {
	return l.indent() == col && l.data[l.ls+col] == '#' && l.data[l.le-1] != ' ' &&
		(l.le == len(l.data) || l.data[l.le] != '\r') && printableRun(l.data[l.ls:l.le])
}

// itemComment reads the run of comment lines at column col+1 that may
// precede an entry of a block sequence there: yaml makes it the entry's
// head comment when the run has no empty line inside and the entry
// follows it at once. ok is false when the run is not followed so.
func (l *workboardLoader) itemComment(col int) (head string, ok bool) {
	if l.eof || l.indent() != col || l.data[l.ls+col] != '#' {
		return "", true
	}
	var lines []string
	last := l.num - 1
	for !l.eof && l.indent() == col && l.data[l.ls+col] == '#' {
		if l.num != last+1 || !l.commentLine(col) {
			return "", false
		}
		lines = append(lines, l.text[l.ls+col:l.le])
		last = l.num
		l.advance()
	}
	if l.eof || l.num != last+1 || !l.dash(col) {
		return "", false
	}
	return strings.Join(lines, "\n"), true
}

// indent returns the current line's leading spaces, or -1 when it holds
// nothing else.
func (l *workboardLoader) indent() int {
	for i := l.ls; i < l.le; i++ {
		if l.data[i] != ' ' {
			return i - l.ls
		}
	}
	return -1
}

// dash reports whether the current line is `- ` and more at column col+1.
func (l *workboardLoader) dash(col int) bool {
	i := l.ls + col
	return l.indent() == col && i+2 < l.le && l.data[i] == '-' && l.data[i+1] == ' ' && l.data[i+2] != ' '
}

func (l *workboardLoader) node() *yaml.Node {
	if len(l.nodes) == cap(l.nodes) {
		l.nodes = make([]yaml.Node, 0, 256)
	}
	l.nodes = l.nodes[:len(l.nodes)+1]
	return &l.nodes[len(l.nodes)-1]
}

// content returns a copy of kids cut from the pointer slab.
func (l *workboardLoader) content(kids []*yaml.Node) []*yaml.Node {
	if len(kids) > cap(l.ptrs)-len(l.ptrs) {
		l.ptrs = make([]*yaml.Node, 0, max(1024, len(kids)))
	}
	n := len(l.ptrs)
	l.ptrs = append(l.ptrs, kids...)
	return l.ptrs[n : n+len(kids) : n+len(kids)]
}

// scalar returns the node of the scalar e describes.
func (l *workboardLoader) scalar(e *flatEntry, col int) (*yaml.Node, bool) {
	tag := strTag
	switch {
	case e.null:
		tag = nullTag
	case e.style == 0:
		if tag = resolvePlainTag(l.text[e.valStart:e.valEnd]); tag == mergeTag {
			return nil, false
		}
	}
	v := l.node()
	v.Kind, v.Style, v.Tag, v.Value, v.Line, v.Column = yaml.ScalarNode, e.style, tag, l.text[e.valStart:e.valEnd], l.num, col
	return v, true
}

// entry reads the `key: value` whose key starts the current line at column
// col+1, and the lines of its value, leaving the line after them current.
// A key of the top-level mapping (nested false) may hold a block sequence
// of mappings, a key of one of those mappings one of scalars.
func (l *workboardLoader) entry(col int, nested bool) (k, v *yaml.Node, ok bool) {
	e, i, ok := flatKey(l.data, l.ls+col, l.le)
	if !ok {
		return nil, nil, false
	}
	k = l.node()
	key := l.text[e.keyStart:e.keyEnd]
	k.Kind, k.Tag, k.Value, k.Line, k.Column = yaml.ScalarNode, resolvePlainTag(key), key, l.num, col+1
	stream := !nested && l.onItem != nil && key == "items"
	if stream {
		if l.items1 {
			return nil, nil, false // its items were handed over, and it is not the list
		}
		l.items1 = true
	}
	switch {
	case !e.null && l.data[i] == '[':
		v, ok = l.flowSequence(i)
		l.advance()
	case !e.null:
		if !flatValue(l.data, &e, l.ls, i, l.le) {
			return nil, nil, false
		}
		v, ok = l.scalar(&e, e.valCol)
		l.advance()
	default:
		v, ok = l.scalar(&e, col+e.valCol)
		l.advance()
		if !ok || l.eof {
			break
		}
		if p := l.indent(); !nested && p >= 0 && (l.dash(p) || l.data[l.ls+p] == '#') {
			v, ok = l.mappings(p, stream)
		} else if nested && p >= col && l.dash(p) {
			v, ok = l.scalars(p)
		}
	}
	return k, v, ok
}

// flowSequence reads the flow sequence that starts at data[i], the rest of
// the current line.
func (l *workboardLoader) flowSequence(i int) (*yaml.Node, bool) {
	seq := l.node()
	seq.Kind, seq.Style, seq.Tag, seq.Line, seq.Column = yaml.SequenceNode, yaml.FlowStyle, seqTag, l.num, i-l.ls+1
	d := l.data
	skip := func() {
		for i < l.le && d[i] == ' ' {
			i++
		}
	}
	i++
	skip()
	l.elems = l.elems[:0]
	if i < l.le && d[i] == ']' {
		i++
	} else {
		for {
			if i == l.le || !isFlatKeyFirst(d[i]) {
				return nil, false
			}
			start := i
			for i < l.le && (isFlatKeyByte(d[i]) || d[i] == '/') {
				i++
			}
			el := l.node()
			el.Kind, el.Tag, el.Value, el.Line, el.Column = yaml.ScalarNode, resolvePlainTag(l.text[start:i]), l.text[start:i], l.num, start-l.ls+1
			l.elems = append(l.elems, el)
			skip()
			if i == l.le {
				return nil, false
			}
			if d[i] == ']' {
				i++
				break
			}
			if d[i] != ',' {
				return nil, false
			}
			i++
			skip()
		}
	}
	skip()
	if i != l.le {
		return nil, false
	}
	if len(l.elems) > 0 {
		seq.Content = l.content(l.elems)
	}
	return seq, true
}

// scalars reads the block sequence of scalars whose first `- ` is at
// column col+1 of the current line.
func (l *workboardLoader) scalars(col int) (*yaml.Node, bool) {
	seq := l.node()
	seq.Kind, seq.Tag, seq.Line, seq.Column = yaml.SequenceNode, seqTag, l.num, col+1
	l.elems = l.elems[:0]
	for !l.eof && l.dash(col) {
		var e flatEntry
		if !flatValue(l.data, &e, l.ls, l.ls+col+2, l.le) {
			return nil, false
		}
		v, ok := l.scalar(&e, e.valCol)
		if !ok {
			return nil, false
		}
		l.elems = append(l.elems, v)
		l.advance()
	}
	seq.Content = l.content(l.elems)
	return seq, true
}

// mappings reads the block sequence of flat mappings whose first `- ` is
// at column col+1 of the current line, handing each to onItem when stream
// is set.
func (l *workboardLoader) mappings(col int, stream bool) (*yaml.Node, bool) {
	seq := l.node()
	seq.Kind, seq.Tag, seq.Column = yaml.SequenceNode, seqTag, col+1
	l.items = l.items[:0]
	keys := col + 2
	for !l.eof {
		head, ok := l.itemComment(col)
		if !ok {
			return nil, false
		}
		if !l.dash(col) {
			break
		}
		if seq.Line == 0 {
			seq.Line = l.num // the first `- `, after any comment
		}
		nodes, ptrs := len(l.nodes), len(l.ptrs)
		nodeSlab, ptrSlab := unsafe.SliceData(l.nodes), unsafe.SliceData(l.ptrs)
		itemStart, itemLine := l.ls, l.num
		m := l.node()
		m.Kind, m.Tag, m.Line, m.Column, m.HeadComment = yaml.MappingNode, mapTag, l.num, keys+1, head
		l.item = l.item[:0]
		var run []*yaml.Node
		for first := true; first || !l.eof && l.indent() == keys; first = false {
			if !first && l.data[l.ls+keys] == '-' {
				ok = false
			} else {
				var k, v *yaml.Node
				if k, v, ok = l.entry(keys, true); ok {
					l.item = append(l.item, k, v)
				}
			}
			if !ok {
				// An item outside the subset (a comment after a value, a
				// block scalar, a quoted value over lines) is read by
				// yaml.Load, with the items after it up to aloneRun bytes;
				// the items after those are tried on the fast path again.
				if !itemsAlone {
					return nil, false
				}
				if run = l.readItemsAlone(col, itemStart, itemLine); run == nil {
					return nil, false
				}
				if head != "" {
					if run[0].HeadComment != "" {
						return nil, false // two head comments, which the whole file would join
					}
					run[0].HeadComment = head
				}
				break
			}
		}
		if ok {
			m.Content = l.content(l.item)
			run = append(l.run[:0], m)
			l.run = run
		}
		for _, m := range run {
			if !stream {
				l.items = append(l.items, m)
			} else if !l.onItem(m) {
				return nil, false
			}
		}
		if !stream {
			continue
		}
		// The item's nodes are free for the next one, unless a slab
		// filled up under it: then the next takes the new slab's rest.
		if unsafe.SliceData(l.nodes) == nodeSlab {
			clear(l.nodes[nodes:])
			l.nodes = l.nodes[:nodes]
		}
		if unsafe.SliceData(l.ptrs) == ptrSlab {
			clear(l.ptrs[ptrs:])
			l.ptrs = l.ptrs[:ptrs]
		}
	}
	seq.Content = l.content(l.items)
	return seq, true
}

// itemsAlone lets an item outside the subset be read by yaml.Load
// (readItemsAlone) rather than decline the file. A variable: the subset's
// own table of cases turns it off.
var itemsAlone = true

// aloneRun is about how many bytes of items readItemsAlone hands yaml.Load
// at once: one call an item cost a third more CPU than yaml.Load of the
// whole file (a 50,000-item workboard with a comment on every item), and
// the nodes of a run are what is held at once.
const aloneRun = 16 << 10

// readItemsAlone reads with yaml.Load the items of the block sequence at
// column col+1 from the one whose `- ` line starts at data[start] and is
// line number line, adding the items after it while the run is under
// aloneRun bytes, and moves past them. The run ends before the first line
// that is not indented past col, other than the `- ` of a next item or a
// comment at col before one; its trailing comment lines, and the empty
// lines after them, are left out. No line of an item's mapping, whose
// keys are further right, can be indented less, and a comment after a
// run's last value may belong to what follows it in the whole file (the
// loader reads it, or declines).
// Read so, the items' nodes are those yaml.Load makes of them in the whole
// file, lines shifted; the differential tests hold that. nil (decline the
// file) when yaml.Load rejects the run (an alias of an anchor outside it,
// or YAML it rejects in the file too) or reads other than one mapping an
// item.
func (l *workboardLoader) readItemsAlone(col, start, line int) []*yaml.Node {
	d := l.data
	end, lines, i, dashes, runDashes := start, 0, start, 0, 0
	comment := false // a comment line since the last line of a value
	for n := 0; i < len(d); n++ {
		j := i
		for j < len(d) && d[j] == ' ' {
			j++
		}
		eol := j
		for eol < len(d) && d[eol] != '\n' {
			eol++
		}
		blank := j == eol || j+1 == eol && d[j] == '\r'
		if !blank && j-i <= col {
			dash := j-i == col && j+1 < eol && d[j] == '-' && d[j+1] == ' '
			switch {
			case n == 0:
			case j-i < col || !dash && d[j] != '#':
				eol = -1 // past the sequence
			case dash && end-start >= aloneRun:
				eol = -1 // the run is long enough
			}
			if eol < 0 {
				break
			}
			if dash {
				dashes++
			}
		}
		next := min(eol+1, len(d))
		switch {
		case blank && !comment, !blank && d[j] != '#':
			// empty lines after a value stay with it: a block scalar
			// kept with "|+" holds them
			end, lines = next, n+1
			if !blank {
				runDashes, comment = dashes, false
			}
		case !blank:
			comment = true
		}
		i = next
	}
	run := d[start:end]
	for k := bytes.IndexByte(run, '\r'); k >= 0; k = bytes.IndexByte(run, '\r') {
		if k+1 == len(run) || run[k+1] != '\n' {
			return nil // a lone \r breaks a line for yaml, not for the count above
		}
		run = run[k+1:]
	}
	var doc yaml.Node
	if err := yaml.Load(d[start:end], &doc); err != nil || len(doc.Content) != 1 {
		return nil
	}
	seq := doc.Content[0]
	if seq.Kind != yaml.SequenceNode || len(seq.Content) != runDashes {
		return nil
	}
	if doc.HeadComment+doc.LineComment+doc.FootComment+seq.HeadComment+seq.LineComment+seq.FootComment != "" {
		return nil // a comment the run's items do not hold: in the whole file it may go elsewhere
	}
	for _, m := range seq.Content {
		if m.Kind != yaml.MappingNode {
			return nil
		}
		shiftLines(m, line-1)
	}
	// Past the run: advance reads the line after its last.
	l.next, l.num, l.eof = end, line+lines-1, false
	l.advance()
	return seq.Content
}

// shiftLines adds by to the line of n and of every node under it.
func shiftLines(n *yaml.Node, by int) {
	n.Line += by
	for _, c := range n.Content {
		shiftLines(c, by)
	}
}
