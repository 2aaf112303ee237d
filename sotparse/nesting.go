package sotparse

import (
	"fmt"
	"reflect"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// MaxNesting bounds how deeply lists and blockquotes may nest. The
// markdown parser walks every open container on every line and each reads
// the line's indentation again, so a line of a hundred thousand "- " made
// a 4 MB file take hours, and lists nested by indentation, line after
// line, cost the cube of their depth (a megabyte of them took 3 s). Real
// documents nest a handful of levels. Bounded, both shapes parse about as
// fast as a flat list of the same size (BenchmarkDeepNesting).
const MaxNesting = 16

// BoundedBlockParsers returns ps with the list and blockquote parsers
// opening no container deeper than MaxNesting: the marker that would
// open one is read as text, as a paragraph's. The bound is on the tree
// the parser builds, so it holds across lines (a list nested by
// indentation) as on one line, and the source is read unchanged. Where
// the parse's context holds a nesting note (sotparse's own parse), the
// first such marker is noted for the syntax finding. For prose's parser
// too.
func BoundedBlockParsers(ps []util.PrioritizedValue) []util.PrioritizedValue {
	for i, p := range ps {
		switch reflect.TypeOf(p.Value) {
		case listParserType, blockquoteParserType:
			ps[i].Value = boundedContainer{p.Value.(parser.BlockParser)}
		}
	}
	return ps
}

var (
	listParserType       = reflect.TypeOf(parser.NewListParser())
	blockquoteParserType = reflect.TypeOf(parser.NewBlockquoteParser())
)

// boundedContainer is a list or blockquote parser that opens no container
// past MaxNesting.
type boundedContainer struct{ parser.BlockParser }

func (b boundedContainer) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	// Under a list only its items open (a list's parser is asked too, and
	// declines): that is no deeper container.
	if _, inList := parent.(*ast.List); inList || containerDepth(parent) < MaxNesting {
		return b.BlockParser.Open(parent, reader, pc)
	}
	// Past the limit, a marker the parser would not take anyway (a "2."
	// after a paragraph, an empty item) is no finding: ask it, then undo
	// what it read.
	line, pos := reader.Position()
	n, state := b.BlockParser.Open(parent, reader, pc)
	if n == nil {
		return n, state
	}
	reader.SetPosition(line, pos)
	if note, _ := pc.Get(nestingKey).(*nestingNote); note != nil {
		note.add(reader)
	}
	return nil, parser.NoChildren
}

// containerDepth counts the lists and blockquotes n is in, n included. It
// walks at most about 2×MaxNesting parents: deeper ones are never opened.
func containerDepth(n ast.Node) int {
	d := 0
	for ; n != nil; n = n.Parent() {
		switch n.(type) {
		case *ast.List, *ast.Blockquote:
			d++
		}
	}
	return d
}

var nestingKey = parser.NewContextKey()

// nestingNote records where markers past MaxNesting were read as text:
// the first one's offset in the body and the lines that held one.
type nestingNote struct {
	at, lines, lastLine int
}

func (n *nestingNote) add(reader text.Reader) {
	line, seg := reader.Position()
	if n.lines > 0 && line == n.lastLine {
		return
	}
	if n.lines == 0 {
		n.at = seg.Start
		if b, s := reader.PeekLine(); b != nil {
			n.at = s.Start + leadingBlanks(b)
		}
	}
	n.lines++
	n.lastLine = line
}

func leadingBlanks(b []byte) int {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return i
}

// nestingMessage is the syntax finding for a document whose lines passed
// MaxNesting.
func nestingMessage(lines int) string {
	msg := fmt.Sprintf("lists and blockquotes nested deeper than %d levels; the markers past the limit are read as text", MaxNesting)
	if lines > 1 {
		msg += fmt.Sprintf(" (on %d lines)", lines)
	}
	return msg
}
