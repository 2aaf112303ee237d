package prose

import (
	"bytes"
	"slices"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/svrnty/sotvet/sotparse"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"go.yaml.in/yaml/v4"
)

// Block is one unit of prose a rule reads: the text of a heading, a
// paragraph, a list item, a table cell or a quoted paragraph, with markup,
// code spans, URLs and raw HTML left out. Off maps each byte of Text to its
// offset in the file, so an alert lands on the source that holds it.
type Block struct {
	Scope string // heading.h2, paragraph, list, table.header, table.cell, blockquote
	Text  string
	Off   Offsets
}

// blockScopes are the scope names a block can carry, for validating rules.
var blockScopes = map[string]bool{
	"heading": true, "paragraph": true, "list": true, "table": true, "blockquote": true,
	"text": true, "sentence": true, "raw": true, "summary": true, "title": true,
	"code": true, "comment": true, "alt": true, "link": true, "strong": true, "emphasis": true,
}

// markdown is the parser of a document prose cannot take sotparse's tree
// of, built on first use: not by every sotvet process as it starts. It is
// goldmark's parser with its GFM and footnote extensions, as
// goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote))
// builds it (TestMarkdownAsGoldmark), its parsers at the extensions'
// priorities, and its inline parsers and tables charged to the document's
// allowance of work as sotparse's are (sotparse.ChargedInlineParsers,
// sotparse.TableOptions): goldmark's link parser is quadratic on some
// shapes (an 80 KB line of "[a](b" took 4 s), and a table's padding
// cells are the columns of its header times its rows.
var markdown = sync.OnceValue(func() parser.Parser {
	inline := append(parser.DefaultInlineParsers(),
		util.Prioritized(extension.NewStrikethroughParser(), 500),
		util.Prioritized(extension.NewLinkifyParser(), 999),
		util.Prioritized(extension.NewTaskCheckBoxParser(), 0),
		util.Prioritized(extension.NewFootnoteParser(), 101))
	return parser.NewParser(append([]parser.Option{
		parser.WithBlockParsers(sotparse.BoundedBlockParsers(append(parser.DefaultBlockParsers(), util.Prioritized(extension.NewFootnoteBlockParser(), 999)))...),
		parser.WithInlineParsers(sotparse.ChargedInlineParsers(inline)...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
		parser.WithASTTransformers(util.Prioritized(extension.NewFootnoteASTTransformer(), 999)),
	}, sotparse.TableOptions...)...)
})

// Blocks splits a markdown file into the blocks of prose Vale scopes. Front
// matter, fenced and indented code, HTML blocks and comments are not prose.
func Blocks(src []byte) []Block { return appendBlocks(nil, src, nil, 0) }

// blankPool holds the buffers a file's front matter is blanked in: the
// parse's tree points into one only until its blocks are copied out.
var blankPool = sync.Pool{New: func() any { return new([]byte) }}

// appendBlocks appends src's blocks to out. tree, when not nil, is a
// goldmark tree of src[base:] that a parser without linkify and footnotes
// built (sotparse's): it stands for the tree of the blanked src where
// neither could have made a node (reusable), and is walked instead of
// parsing src again.
func appendBlocks(out []Block, src []byte, tree ast.Node, base int) []Block {
	bufp := blankPool.Get().(*[]byte)
	defer blankPool.Put(bufp)
	body := blankFrontMatter(src, (*bufp)[:0])
	if len(body) > 0 && &body[0] != &src[0] {
		*bufp = body[:0]
	}
	out = frontMatterBlocks(out, src, body)
	var doc ast.Node
	var bt blockText
	if tree != nil && reusable(src, body, base, tree) {
		doc, body, bt.base = tree, src[base:], base
	} else {
		doc = markdown().Parse(text.NewReader(body), parser.WithContext(sotparse.InlineWorkContext(len(body))))
	}
	var walk func(n ast.Node, scope string)
	walk = func(n ast.Node, scope string) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Heading:
				out = appendBlock(out, &bt, "heading.h"+strconv.Itoa(c.Level), c, body)
			case *ast.Paragraph, *ast.TextBlock:
				s := scope
				if s == "" {
					s = "paragraph"
				}
				out = appendBlock(out, &bt, s, c, body)
			case *ast.List:
				walk(c, "list")
			case *ast.ListItem:
				walk(c, "list")
			case *ast.Blockquote:
				walk(c, "blockquote")
			case *east.Table:
				for row := c.FirstChild(); row != nil; row = row.NextSibling() {
					cell := "table.cell"
					if _, ok := row.(*east.TableHeader); ok {
						cell = "table.header"
					}
					if sotparse.LeanRowCells(row, body, func(td ast.Node, seg text.Segment) {
						if td != nil {
							out = appendBlock(out, &bt, cell, td, body)
						} else {
							out = appendPlainBlock(out, &bt, cell, seg, body)
						}
					}) {
						continue
					}
					for td := row.FirstChild(); td != nil; td = td.NextSibling() {
						out = appendBlock(out, &bt, cell, td, body)
					}
				}
			case *east.FootnoteList, *east.Footnote:
				walk(c, scope)
			case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock, *ast.ThematicBreak:
			default:
				walk(c, scope)
			}
		}
	}
	walk(doc, "")
	return out
}

// linkifyAt are the byte strings without which linkify, one of the two
// extensions sotparse's parser leaves out, makes no node: it starts a link
// at "http:", "https:", "ftp:" or "www." and an e-mail address at an '@'.
// The other, footnotes, makes none without "[^" (a footnote, its
// reference and its definition start with it).
var linkifyAt = [][]byte{[]byte("@"), []byte("http:"), []byte("https:"), []byte("ftp:"), []byte("www.")}

// reusable reports whether tree, sotparse's tree of src[base:] (without
// linkify and footnotes), is the tree of blanked (src with its front
// matter blanked) with them: blanked is blank before base and src from
// base on, the body holds no "[^", and linkify finds nothing.
func reusable(src, blanked []byte, base int, tree ast.Node) bool {
	if base < 0 || base > len(src) || len(blanked) != len(src) {
		return false
	}
	for _, c := range blanked[:base] {
		if c != ' ' && c != '\n' {
			return false
		}
	}
	body := src[base:]
	if !bytes.Equal(blanked[base:], body) || bytes.Contains(body, []byte("[^")) {
		return false
	}
	for _, s := range linkifyAt {
		if bytes.Contains(body, s) {
			return !textHolds(tree, body)
		}
	}
	return true
}

// textHolds reports whether a text node of tree (of body) holds one of
// linkifyAt. Linkify is tried only where the inline parse reads plain text; as
// long as it finds nothing the parse is that of a parser without it, and
// it starts a link only at one of them, none of whose bytes another inline
// parser takes: a link's first bytes, and an address's '@', would be
// plain text (a text node, a code span's among them) in that parse's
// tree. Links in destinations, autolinks, raw HTML and code blocks are
// not text nodes, and stay reusable.
//
// A table row's plain cells, which have no node (sotparse.LeanRowCells),
// are plain text too: their text is looked at as a text node's.
func textHolds(tree ast.Node, body []byte) bool {
	found := false
	holds := func(seg text.Segment) bool {
		if seg.Start < 0 || seg.Stop > len(body) || seg.Start > seg.Stop {
			return true // not of body: do not take the tree
		}
		for _, s := range linkifyAt {
			if bytes.Contains(body[seg.Start:seg.Stop], s) {
				return true
			}
		}
		return false
	}
	_ = ast.Walk(tree, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if t, ok := n.(*ast.Text); ok {
			found = holds(t.Segment)
		} else {
			sotparse.LeanRowCells(n, body, func(td ast.Node, seg text.Segment) {
				if td == nil && !found {
					found = holds(seg)
				}
			})
		}
		if found {
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return found
}

// frontMatterBlocks appends the top-level string values of a YAML front
// matter, which Vale reads as prose scoped `frontmatter.KEY` (within
// `text`). A value that spans lines is read from its first line only.
func frontMatterBlocks(out []Block, src, blanked []byte) []Block {
	if len(blanked) == 0 || &blanked[0] == &src[0] {
		return out
	}
	// The front matter is the text after the first line, up to the closing
	// line that blankFrontMatter left blank.
	first := bytes.IndexByte(src, '\n') + 1
	data := src[first:frontMatterEnd(src, blanked)]
	// Most front matter is a flat mapping of one-line scalars, which
	// sotparse reads without a YAML parser, as yaml would.
	var buf [16]sotparse.FlatScalar
	if flat, ok := sotparse.ScanFlatYAML(data, buf[:0]); ok && !duplicateKeys(data, flat) {
		for _, e := range flat {
			if e.Tag != "!!str" || e.ValueEnd == e.ValueStart {
				continue
			}
			out = append(out, Block{Scope: "frontmatter." + string(data[e.KeyStart:e.KeyEnd]),
				Text: string(data[e.ValueStart:e.ValueEnd]), Off: identity(first+e.ValueStart, e.ValueEnd-e.ValueStart)})
		}
		return out
	}
	return frontMatterYAML(out, src, first, data)
}

// frontMatterYAML is frontMatterBlocks for any front matter data, which
// starts at src[first:], read with the YAML parser.
func frontMatterYAML(out []Block, src []byte, first int, data []byte) []Block {
	var root yaml.Node
	if yaml.Unmarshal(data, &root) != nil {
		return out
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return out
	}
	lines := lineStarts(src)
	m := root.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" || v.Value == "" {
			continue
		}
		line := v.Line + bytes.Count(src[:first], []byte("\n")) - 1
		if line >= len(lines) {
			continue
		}
		start := lines[line] + columnOffset(src[lines[line]:], v.Column)
		if v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			start++
		}
		lineEnd := lineEnd(src, start)
		if v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || start+len(v.Value) > lineEnd ||
			string(src[start:start+len(v.Value)]) != v.Value {
			continue
		}
		out = append(out, Block{Scope: "frontmatter." + k.Value, Text: v.Value, Off: identity(start, len(v.Value))})
	}
	return out
}

// duplicateKeys reports whether two entries of a flat mapping share a
// key: such a block is left to the YAML parser.
func duplicateKeys(data []byte, flat []sotparse.FlatScalar) bool {
	for i := range flat {
		for j := range i {
			if bytes.Equal(data[flat[i].KeyStart:flat[i].KeyEnd], data[flat[j].KeyStart:flat[j].KeyEnd]) {
				return true
			}
		}
	}
	return false
}

// frontMatterEnd is the offset of the closing line of the front matter.
func frontMatterEnd(src, blanked []byte) int {
	end := 0
	for i := range src {
		if blanked[i] != src[i] {
			end = i + 1
		}
	}
	return bytes.LastIndexByte(src[:end], '\n') + 1
}

func lineStarts(src []byte) []int {
	out := []int{0}
	for i, c := range src {
		if c == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// columnOffset converts a YAML column (code points, 1-based) to a byte
// offset in line.
func columnOffset(line []byte, col int) int {
	off := 0
	for n := 1; n < col && off < len(line); n++ {
		_, w := utf8.DecodeRune(line[off:])
		off += w
	}
	return off
}

// blockText is where a block's text and offsets are gathered before they
// are copied out at their size: one for a file's blocks.
type blockText struct {
	buf  []byte
	off  offsetsBuilder
	base int // the offset in the file of the text the tree's segments index
}

func (bt *blockText) add(s []byte, at int) {
	bt.buf = append(bt.buf, s...)
	bt.off.add(at, len(s))
}

func (bt *blockText) inline(n ast.Node, src []byte) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			seg := c.Segment
			bt.add(seg.Value(src), bt.base+seg.Start)
			if c.SoftLineBreak() || c.HardLineBreak() {
				bt.add(newline, bt.base+lineEnd(src, seg.Stop))
			}
		case *ast.String:
			// Text goldmark made up (an entity's replacement): no source
			// of its own, so it is placed at the previous byte.
			at := 0
			if bt.off.n > 0 {
				at = bt.off.last
			}
			for range c.Value {
				bt.buf = append(bt.buf, ' ')
			}
			bt.off.addFixed(at, len(c.Value))
		case *ast.CodeSpan, *ast.RawHTML, *ast.AutoLink, *east.TaskCheckBox, *ast.Image, *east.FootnoteLink:
			// Code, markup and URLs are not prose.
		default:
			bt.inline(c, src)
		}
	}
}

var newline = []byte{'\n'}

// appendPlainBlock is appendBlock for a node of plain text covering seg:
// a table's plain cell, which sotparse's tree holds no node of.
func appendPlainBlock(out []Block, bt *blockText, scope string, seg text.Segment, src []byte) []Block {
	bt.buf, bt.off = bt.buf[:0], offsetsBuilder{runs: bt.off.runs[:0]}
	if seg.Len() > 0 {
		bt.add(seg.Value(src), bt.base+seg.Start)
	}
	return finishBlock(out, bt, scope)
}

func appendBlock(out []Block, bt *blockText, scope string, n ast.Node, src []byte) []Block {
	bt.buf, bt.off = bt.buf[:0], offsetsBuilder{runs: bt.off.runs[:0]}
	bt.inline(n, src)
	return finishBlock(out, bt, scope)
}

// finishBlock appends the block of bt's text, trimmed, to out.
func finishBlock(out []Block, bt *blockText, scope string) []Block {
	buf := bt.buf
	// Trim the block as an HTML renderer's text would be trimmed.
	start, end := 0, len(buf)
	for start < end && isSpace(buf[start]) {
		start++
	}
	for end > start && isSpace(buf[end-1]) {
		end--
	}
	if start == end {
		return out
	}
	off := bt.off.offsets()
	off.runs = slices.Clone(off.runs)
	return append(out, Block{Scope: scope, Text: string(buf[start:end]), Off: off.Slice(start, end)})
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// lineEnd is the offset of the newline at or after i.
func lineEnd(src []byte, i int) int {
	if j := bytes.IndexByte(src[min(i, len(src)):], '\n'); j >= 0 {
		return i + j
	}
	return len(src)
}

// blankFrontMatter returns src with a leading YAML front matter block
// replaced by blank lines, so offsets and lines stay those of the file: a
// copy, in buf's array when it has room, or src itself when it has none.
func blankFrontMatter(src, buf []byte) []byte {
	if !bytes.HasPrefix(src, []byte("---\n")) && !bytes.HasPrefix(src, []byte("---\r\n")) {
		return src
	}
	i := bytes.IndexByte(src, '\n') + 1
	for i < len(src) {
		j := bytes.IndexByte(src[i:], '\n')
		line := src[i:]
		if j >= 0 {
			line = src[i : i+j]
		}
		if t := bytes.TrimRight(line, " \t\r"); bytes.Equal(t, []byte("---")) || bytes.Equal(t, []byte("...")) {
			end := len(src)
			if j >= 0 {
				end = i + j
			}
			out := append(buf[:0], src...)
			for k := 0; k < end; k++ {
				if out[k] != '\n' {
					out[k] = ' '
				}
			}
			return out
		}
		if j < 0 {
			break
		}
		i += j + 1
	}
	return src
}

// sentences splits a block's text into sentences: after `.`, `!` or `?`
// (and any closing quote or bracket) followed by space and a capital, a
// digit or an opening quote. Returns byte spans.
func sentences(s string, out [][2]int) [][2]int {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		for j < len(s) && (s[j] == '"' || s[j] == '\'' || s[j] == ')' || s[j] == ']') {
			j++
		}
		if j >= len(s) {
			break
		}
		if !isSpace(s[j]) {
			continue
		}
		k := j
		for k < len(s) && isSpace(s[k]) {
			k++
		}
		if k >= len(s) {
			break
		}
		r, _ := utf8.DecodeRuneInString(s[k:])
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) && r != '"' && r != '\'' && r != '(' && r != '*' {
			continue
		}
		// An abbreviation such as "e.g." or a single capital ("J.") ends
		// no sentence.
		if c == '.' && abbreviation(s[start:i]) {
			continue
		}
		out = append(out, [2]int{start, j})
		start = k
		i = k - 1
	}
	if start < len(s) {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

func abbreviation(before string) bool {
	w := before
	if i := lastSpace(before); i >= 0 {
		w = before[i+1:]
	}
	switch w {
	case "e.g", "i.e", "etc", "vs", "Mr", "Mrs", "Dr", "St", "cf", "approx", "No", "Fig":
		return true
	}
	return len(w) == 1 && w[0] >= 'A' && w[0] <= 'Z'
}

func lastSpace(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if isSpace(s[i]) {
			return i
		}
	}
	return -1
}
