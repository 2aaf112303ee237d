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
	fence := ""
	off := start
	for off > 0 && off < len(content) && content[off-1] != '\n' {
		off++
	}
	end = min(end, len(content))
	if off >= end {
		return nil
	}
	out := make([]Line, 0, bytes.Count(content[off:end], []byte{'\n'})+1)
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
			out = append(out, Line{Off: off, Text: text, Quoted: indent < 4 && strings.HasPrefix(trimmed, ">")})
		}
		off = e + 1
	}
	return out
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
