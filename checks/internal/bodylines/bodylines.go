// Package bodylines splits a document's text into lines outside fenced code
// blocks, the unit line-oriented rules (paste errors, statements about work
// items) read.
package bodylines

import (
	"bytes"
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
	fence := ""
	off, end := bounds(content, start, end)
	for off < end {
		e := end
		if i := bytes.IndexByte(content[off:end], '\n'); i >= 0 {
			e = off + i
		}
		text := strings.TrimSuffix(view(content[off:e]), "\r")
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

// view returns b as a string without copying it. A workspace file's content
// is never modified once read (fixes build new buffers), and this runs on
// every line of every document.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// ContainsFold reports whether s holds word (lower-case ASCII) in any ASCII
// letter case, without allocating: the cheap test before a
// case-insensitive regular expression.
func ContainsFold(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		j := 0
		for ; j < len(word); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != word[j] {
				break
			}
		}
		if j == len(word) {
			return true
		}
	}
	return false
}

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
