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
	out := make([]Line, 0, bytes.Count(content[off:end], []byte{'\n'})+1)
	Each(content, start, end, func(l Line) { out = append(out, l) })
	return out
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
