// Package bodylines splits a document's text into lines outside fenced code
// blocks, the unit line-oriented rules (paste errors, statements about work
// items) read.
package bodylines

import (
	"bytes"
	"encoding/binary"
	"go/token"
	"math/bits"
	"sort"
	"strings"
	"unsafe"
)

// Line is one source line outside fenced code.
type Line struct {
	Off    int    // file offset of the line's first byte
	Text   string // without the line break
	Quoted bool   // a blockquote line (starts with ">")
}

// Lines returns the lines of content[start:end] outside fenced code blocks
// (the fence lines included), each with its file offset; blank lines are
// kept. start is moved to the next line boundary if it is inside a line.
// The lines' Text shares content's memory: content must not change.
func Lines(content []byte, start, end int) []Line {
	off, end := bounds(content, start, end)
	if off >= end {
		return nil
	}
	return AppendLines(make([]Line, 0, bytes.Count(content[off:end], []byte{'\n'})+1), content, start, end)
}

// AppendLines appends to dst the lines Lines returns: a caller that reads
// the lines of document after document reuses one slice.
func AppendLines(dst []Line, content []byte, start, end int) []Line {
	Each(content, start, end, func(l Line) { dst = append(dst, l) })
	return dst
}

// bounds moves start to a line boundary and clamps end, as Lines does.
func bounds(content []byte, start, end int) (int, int) {
	off := start
	for off > 0 && off < len(content) && content[off-1] != '\n' {
		off++
	}
	return off, min(end, len(content))
}

// Each calls fn with each line Lines would return, in order, without
// building the slice: for a rule that reads every line once.
func Each(content []byte, start, end int, fn func(Line)) {
	EachIn(content, nil, start, end, fn)
}

// EachIn is Each with the text's line table, the offsets where its lines
// start (Starts), which spares looking for every line's end; without one
// (nil) it is Each.
func EachIn(content []byte, starts []int, start, end int, fn func(Line)) {
	fence := ""
	off, end := bounds(content, start, end)
	i := -1 // the line's index in starts
	if starts != nil && off < end {
		i = sort.SearchInts(starts, off)
		if i == len(starts) || starts[i] != off {
			i = -1 // not a line start: no table to trust
		}
	}
	for off < end {
		e := end
		switch {
		case i >= 0 && i+1 < len(starts):
			e = min(starts[i+1]-1, end)
			i++
		case i >= 0:
			// The last line: up to the text's final line break, if any.
			if end == len(content) && end > off && content[end-1] == '\n' {
				e = end - 1
			}
		default:
			if k := bytes.IndexByte(content[off:end], '\n'); k >= 0 {
				e = off + k
			}
		}
		text := strings.TrimSuffix(view(content[off:e]), "\r")
		if fence == "" && (text == "" || !lineMark[text[0]]) {
			// Most lines: not indented, no fence, no quote.
			fn(Line{Off: off, Text: text})
			off = e + 1
			continue
		}
		trimmed := strings.TrimLeft(text, " ")
		indent := len(text) - len(trimmed)
		switch {
		case fence != "":
			if indent < 4 && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "" {
				fence = ""
			}
		case indent < 4 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			n := 0
			for n < len(trimmed) && trimmed[n] == trimmed[0] {
				n++
			}
			fence = trimmed[:n]
		default:
			fn(Line{Off: off, Text: text, Quoted: indent < 4 && strings.HasPrefix(trimmed, ">")})
		}
		off = e + 1
	}
}

// lineMark holds the first bytes of the lines EachIn looks into: indented
// ones, fences and quotes.
var lineMark = [256]bool{' ': true, '`': true, '~': true, '>': true}

// Starts returns the line table of tf, a parsed document's file, for
// content, its text: the offsets where its lines start, which the parse
// has found (a token.File's lines), or nil when content is not the text
// the parse read (a text read back may have changed since). The table must
// not be modified.
func Starts(tf *token.File, content, parsed []byte) []int {
	if len(content) == 0 || len(parsed) != len(content) || &content[0] != &parsed[0] || tf.Size() != len(content) {
		return nil
	}
	starts := tf.Lines()
	if len(starts) == 0 || starts[0] != 0 {
		return nil
	}
	return starts
}

// view returns b as a string without copying it. A workspace file's content
// is never modified once read (fixes build new buffers), and this runs on
// every line of every document.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// ContainsFold reports whether s holds word (in lower case) in any ASCII
// letter case, without allocating: the cheap test before a
// case-insensitive regular expression. Bytes other than ASCII letters
// compare as they are.
func ContainsFold(s, word string) bool {
	n := len(word)
	if n == 0 {
		return true
	}
	if n > len(s) {
		return false
	}
	// Look for the word's rarest byte, in both cases, with IndexByte, and
	// compare around each: comparing at every offset cost a rule's line
	// test more than the rest of its reading of the line.
	k := 0
	for i := 1; i < n; i++ {
		if rarity[word[i]] < rarity[word[k]] {
			k = i
		}
	}
	lo := word[k]
	up := lo
	if 'a' <= lo && lo <= 'z' {
		up = lo - ('a' - 'A')
	}
	// seg[i] is the anchor of a word starting at s[i].
	seg := s[k : len(s)-n+k+1]
	nl, nu := strings.IndexByte(seg, lo), -1
	if up != lo {
		nu = strings.IndexByte(seg, up)
	}
	for nl >= 0 || nu >= 0 {
		i := nl
		if i < 0 || nu >= 0 && nu < i {
			i = nu
		}
		if equalFold(s[i:i+n], word) {
			return true
		}
		// Move on the cursor that was used; the other is still ahead.
		if i == nl {
			nl = nextByte(seg, lo, i)
		} else {
			nu = nextByte(seg, up, i)
		}
	}
	return false
}

// nextByte returns the index of the first c in s after i, or -1.
func nextByte(s string, c byte, i int) int {
	if j := strings.IndexByte(s[i+1:], c); j >= 0 {
		return i + 1 + j
	}
	return -1
}

// equalFold reports whether s, of word's length, is word (lower-case
// ASCII) in some ASCII case.
func equalFold(s, word string) bool {
	for j := 0; j < len(word); j++ {
		if lowerByte(s[j]) != word[j] {
			return false
		}
	}
	return true
}

// rarity is letterRank as a table, for ContainsFold's choice of anchor.
var rarity = func() (r [256]uint8) {
	for c := range 256 {
		r[c] = uint8(letterRank(byte(c)))
	}
	return r
}()

// TextContainsFold is ContainsFold over a whole text, at the speed of a
// byte search: it looks for the word's rarest letter (in English text), in
// either case, and compares around each one it finds.
func TextContainsFold(text []byte, word string) bool {
	if word == "" {
		return true
	}
	k := 0
	for i := range len(word) {
		if letterRank(word[i]) < letterRank(word[k]) {
			k = i
		}
	}
	c := word[k]
	anchors := []byte{c}
	if 'a' <= c && c <= 'z' {
		anchors = append(anchors, c-('a'-'A'))
	}
	for _, a := range anchors {
		for off := k; off < len(text); {
			i := bytes.IndexByte(text[off:], a)
			if i < 0 {
				break
			}
			start := off + i - k
			if start+len(word) <= len(text) && ContainsFold(unsafe.String(&text[start], len(word)), word) {
				return true
			}
			off += i + 1
		}
	}
	return false
}

// TextIndex returns the index of the first occurrence of word in text, or
// -1, as bytes.Index does, but looks for the word's rarest letter (in
// English text) and compares around each one: bytes.Index starts from the
// first byte, often a common letter, and pays a call per occurrence of it.
// When the rare letter turns out common in text, it hands over to
// bytes.Index, which bounds the work on any text.
func TextIndex(text []byte, word string) int {
	if len(word) < 2 {
		return bytes.Index(text, []byte(word))
	}
	k := 0
	for i := range len(word) {
		if letterRank(lowerByte(word[i])) < letterRank(lowerByte(word[k])) {
			k = i
		}
	}
	c := word[k]
	fails := 0
	for off := k; off < len(text); {
		i := bytes.IndexByte(text[off:], c)
		if i < 0 {
			return -1
		}
		start := off + i - k
		if start+len(word) > len(text) {
			return -1
		}
		if string(text[start:start+len(word)]) == word {
			return start
		}
		off += i + 1
		if fails++; fails > 4+off>>4 {
			if j := bytes.Index(text[start+1:], []byte(word)); j >= 0 {
				return start + 1 + j
			}
			return -1
		}
	}
	return -1
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// letterRank orders letters by how often English text uses them, rarest
// first; other bytes rank last.
func letterRank(c byte) int {
	const byRarity = "zqxjkvbpygfwmucldrhsnioate"
	if i := strings.IndexByte(byRarity, c); i >= 0 {
		return i
	}
	return len(byRarity)
}

// An Anchor is a string of two or three bytes looked for in texts, where
// a longer word holds it: Index finds it eight bytes at a time, so that
// its cost does not grow with how often its bytes occur alone. A letter of
// a word is common in prose, two or three letters in a row much less so,
// and bytes.IndexByte pays a call per occurrence of a letter.
type Anchor struct {
	s    string
	fold bool
	// The anchor's bytes, each in every byte of a word; c matches any
	// byte (cm is 0) when the anchor has two.
	a, b, c, cm uint64
	mask        uint64 // or-ed into the text's bytes: 0x20 in each when folding
}

// NewAnchor returns the Anchor for s, of two or three bytes; with fold,
// ASCII letters match in either case.
func NewAnchor(s string, fold bool) *Anchor {
	if len(s) != 2 && len(s) != 3 {
		panic("bodylines.NewAnchor: an anchor has two or three bytes: " + s)
	}
	p := &Anchor{s: s, fold: fold}
	if fold {
		p.s, p.mask = strings.ToLower(s), 0x2020202020202020
	}
	// Folding or-s 0x20 into every byte of the text, and so of the
	// anchor: a byte other than a letter may then match another one ("\n"
	// matches "*"), which At rules out.
	m := byte(p.mask)
	p.a, p.b = lsb*uint64(p.s[0]|m), lsb*uint64(p.s[1]|m)
	if len(s) == 3 {
		p.c, p.cm = lsb*uint64(p.s[2]|m), ^uint64(0)
	}
	return p
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// Index returns the index of the first occurrence of the anchor in text,
// or -1.
func (p *Anchor) Index(text []byte) int {
	a, b, c, cm, mask := p.a, p.b, p.c, p.cm, p.mask
	t := text
	for ; len(t) >= 10; t = t[8:] {
		x := binary.LittleEndian.Uint64(t) | mask
		y := binary.LittleEndian.Uint64(t[1:]) | mask
		z := binary.LittleEndian.Uint64(t[2:]) | mask
		// A byte of v is zero where the anchor starts. The high bit of the
		// lowest zero byte is set in m, and of no byte below it; a byte
		// above may be flagged by the borrow of the subtraction, or by the
		// folding: At tells.
		v := x ^ a | y ^ b | (z^c)&cm
		if m := (v - lsb) &^ v & msb; m != 0 {
			i := len(text) - len(t)
			for ; m != 0; m &= m - 1 {
				if j := i + bits.TrailingZeros64(m)/8; p.At(text, j) {
					return j
				}
			}
		}
	}
	for i := len(text) - len(t); i < len(text); i++ {
		if p.At(text, i) {
			return i
		}
	}
	return -1
}

// At reports whether the anchor starts at text[i].
func (p *Anchor) At(text []byte, i int) bool {
	if i < 0 || i+len(p.s) > len(text) {
		return false
	}
	t := unsafe.String(&text[i], len(p.s))
	if p.fold {
		return ContainsFold(t, p.s)
	}
	return t == p.s
}

// A Word is a word of ASCII letters looked for in texts in any ASCII case,
// as TextContainsFold does, through the Anchor of its rarest three letters
// in a row (in English text).
type Word struct {
	word   string // in lower case
	back   int    // the anchor's offset in word
	anchor *Anchor
}

// NewWord returns the Word for word, of three bytes or more.
func NewWord(word string) *Word {
	if len(word) < 3 {
		panic("bodylines.NewWord: a word has three bytes or more: " + word)
	}
	word = strings.ToLower(word)
	best, score := 0, 3*(len("zqxjkvbpygfwmucldrhsnioate")+1)
	for i := 0; i+3 <= len(word); i++ {
		if s := letterRank(word[i]) + letterRank(word[i+1]) + letterRank(word[i+2]); s < score {
			best, score = i, s
		}
	}
	return &Word{word: word, back: best, anchor: NewAnchor(word[best:best+3], true)}
}

// In reports whether text holds the word in any ASCII case.
func (w *Word) In(text []byte) bool {
	for off := w.back; off < len(text); {
		k := w.anchor.Index(text[off:])
		if k < 0 {
			return false
		}
		at := off + k - w.back
		off += k + 1
		if at+len(w.word) <= len(text) && ContainsFold(unsafe.String(&text[at], len(w.word)), w.word) {
			return true
		}
	}
	return false
}
