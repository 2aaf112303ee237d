package authority

import (
	"bytes"
	"sort"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/svrnty/sotvet/sotparse"
)

// The goldmark parser holds no per-document state and is safe for
// concurrent use.
// GFM without Linkify: a bare URL reads as text either way.
var mdParser = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList)).Parser()

// codePlaceholder stands for a code span in block text: what a code span
// says is quoted, never asserted, and the placeholder matches no pattern.
const codePlaceholder = "‹code›"

// blockKind is the markdown structure a block of text comes from.
type blockKind int

const (
	blockParagraph blockKind = iota + 1
	blockListItem
	blockTableCell
)

// block is the inline text of one paragraph, list-item paragraph or table
// cell, with code spans replaced by codePlaceholder, and the body offset of
// each of its bytes.
type block struct {
	kind  blockKind
	text  string
	found uint64 // the literals of the rule set in text
	sents [][2]int
	runs  []textRun // where each stretch of text comes from
	// mention is set when the block only mentions its text: it lies in a
	// phrase list section or a section whose heading negates its content
	// ("Non-Goals", "Out of Scope", "Blocked Actions", ...).
	mention bool
	section string // the heading of the enclosing section
}

// sentences returns the sentence ranges of the text, computed once.
func (b *block) sentences() [][2]int {
	if b.sents == nil {
		b.sents = sentences(b.text)
	}
	return b.sents
}

// textRun maps a stretch of block text, from text offset at, to the body: from
// body offset src on, byte for byte when step is set, else all of it to src
// (a placeholder or a synthetic space).
type textRun struct {
	at, src int
	step    bool
}

// offset returns the body offset of text[i].
func (b *block) offset(i int) int {
	k := sort.Search(len(b.runs), func(k int) bool { return b.runs[k].at > i }) - 1
	if k < 0 {
		return 0
	}
	r := b.runs[k]
	if r.step {
		return r.src + i - r.at
	}
	return r.src
}

// span returns the body offsets of text[i:j].
func (b *block) span(i, j int) (int, int) {
	if j <= i {
		return b.offset(i), b.offset(i)
	}
	return b.offset(i), b.offset(j-1) + 1
}

// body is the parsed body of one document.
type body struct {
	src    []byte // the body: file content from BodyStart
	base   int    // file offset of src[0]
	root   ast.Node
	blocks []*block
	// sections marks where each section starts (body offset of its
	// heading) and whether its content is only mentioned.
	sections []sectionMark
}

type sectionMark struct {
	off     int
	mention bool
}

// mentionAt reports whether body offset off lies in a section whose content
// is only mentioned.
func (b *body) mentionAt(off int) bool {
	m := false
	for _, s := range b.sections {
		if s.off > off {
			break
		}
		m = s.mention
	}
	return m
}

// parseBody parses the body of d once.
func parseBody(d *sotparse.Doc) *body {
	base := d.File.Tok.Offset(d.BodyStart)
	if base < 0 || base > len(d.File.Content) {
		base = len(d.File.Content)
	}
	b := &body{src: d.File.Content[base:], base: base}
	b.root = mdParser.Parse(text.NewReader(b.src), parser.WithContext(parser.NewContext()))
	w := &blockWalker{b: b}
	w.walk(b.root)
	return b
}

// negatingWords are the words and phrases of section headings under which
// statements are listed as things not to do or not to claim.
var negatingWords = []string{
	"non goal", "non goals", "nongoal", "nongoals", "out of scope", "forbidden", "prohibited",
	"blocked action", "blocked actions", "disallowed", "not allowed", "anti goal", "anti goals",
	"antigoal", "antigoals", "rejected", "must not", "do not", "dont", "don t", "donts",
	"don ts", "risk", "risks", "non admission", "failure mode", "failure modes",
	"negative gate", "negative gates",
}

// negating reports whether a section heading names things not to do or
// claim: one of negatingWords as whole words, in any case.
func negating(heading string) bool {
	var b strings.Builder
	b.WriteByte(' ')
	for _, r := range strings.ToLower(heading) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteByte(' ')
	h := strings.Join(strings.Fields(b.String()), " ")
	h = " " + h + " "
	for _, w := range negatingWords {
		if strings.Contains(h, " "+w+" ") {
			return true
		}
	}
	return false
}

type blockWalker struct {
	b *body

	phraseLevel int // level of the enclosing phrase-list heading, or 0
	negateLevel int // level of the enclosing negating heading, or 0
	section     string
}

func (w *blockWalker) walk(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Heading:
			w.heading(c)
		case *ast.Blockquote, *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock, *ast.ThematicBreak:
			// Quoted or literal text: never a statement of the document.
		case *ast.Paragraph, *ast.TextBlock:
			kind := blockParagraph
			if _, ok := c.Parent().(*ast.ListItem); ok {
				kind = blockListItem
			}
			w.add(kind, c)
		case *east.TableCell:
			w.add(blockTableCell, c)
		default:
			w.walk(c)
		}
	}
}

func (w *blockWalker) heading(h *ast.Heading) {
	var sb strings.Builder
	inlineText(w.b.src, h, &sb, nil)
	txt := strings.TrimSpace(sb.String())
	if w.phraseLevel > 0 && h.Level <= w.phraseLevel {
		w.phraseLevel = 0
	}
	if w.negateLevel > 0 && h.Level <= w.negateLevel {
		w.negateLevel = 0
	}
	for _, sec := range sotparse.PhraseSections {
		if strings.EqualFold(txt, sec) {
			w.phraseLevel = h.Level
		}
	}
	if w.negateLevel == 0 && negating(txt) {
		w.negateLevel = h.Level
	}
	w.section = txt
	off := 0
	if l := h.Lines(); l != nil && l.Len() > 0 {
		off = lineStart(w.b.src, l.At(0).Start)
	}
	w.b.sections = append(w.b.sections, sectionMark{off: off, mention: w.phraseLevel > 0 || w.negateLevel > 0})
}

func (w *blockWalker) add(kind blockKind, n ast.Node) {
	var sb strings.Builder
	var runs []textRun
	inlineText(w.b.src, n, &sb, &runs)
	if sb.Len() == 0 {
		return
	}
	w.b.blocks = append(w.b.blocks, &block{
		kind:    kind,
		text:    sb.String(),
		runs:    runs,
		mention: w.phraseLevel > 0 || w.negateLevel > 0,
		section: w.section,
	})
}

// inlineText appends the inline text of n to sb, code spans replaced by
// codePlaceholder, struck-through text, raw HTML and images left out, line
// breaks as spaces. When runs is not nil it receives where each appended
// stretch comes from.
func inlineText(src []byte, n ast.Node, sb *strings.Builder, runs *[]textRun) {
	last := 0
	mark := func(off int, step bool) {
		if runs != nil {
			*runs = append(*runs, textRun{at: sb.Len(), src: off, step: step})
		}
		last = off
	}
	var rec func(n ast.Node)
	rec = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				seg := c.Segment
				if seg.Len() > 0 {
					mark(seg.Start, true)
					sb.Write(seg.Value(src))
				}
				if c.SoftLineBreak() || c.HardLineBreak() {
					mark(seg.Stop, false)
					sb.WriteByte(' ')
				}
			case *ast.String:
				if len(c.Value) > 0 {
					mark(last, false)
					sb.Write(c.Value)
				}
			case *ast.CodeSpan:
				start := last
				if t, ok := c.FirstChild().(*ast.Text); ok {
					start = t.Segment.Start
				}
				mark(start, false)
				sb.WriteString(codePlaceholder)
			case *ast.AutoLink:
				if l := c.Label(src); len(l) > 0 {
					mark(last, false)
					sb.Write(l)
				}
			case *ast.RawHTML, *ast.Image, *east.Strikethrough, *east.TaskCheckBox:
			default:
				rec(c)
			}
		}
	}
	rec(n)
}

// firstLine returns the first source line of a block node, trimmed.
func firstLine(src []byte, n ast.Node) (string, int, bool) {
	lines := n.Lines()
	if lines == nil || lines.Len() == 0 {
		return "", 0, false
	}
	seg := lines.At(0)
	return string(bytes.TrimSpace(seg.Value(src))), seg.Start, true
}
