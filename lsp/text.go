package lsp

import (
	"errors"
	"unicode/utf8"
)

// encoding is the unit LSP positions count characters in: UTF-16 code units
// unless the client offers UTF-8 (LSP 3.17 positionEncoding).
type encoding int

const (
	utf16 encoding = iota
	utf8enc
)

func (e encoding) String() string {
	if e == utf8enc {
		return "utf-8"
	}
	return "utf-16"
}

// lineStart returns the byte offset where 0-based line n starts, or -1.
func lineStart(text []byte, n int) int {
	if n < 0 {
		return -1
	}
	off := 0
	for i := 0; i < n; i++ {
		j := indexByte(text[off:], '\n')
		if j < 0 {
			return -1
		}
		off += j + 1
	}
	return off
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// offsetOf converts an LSP position into a byte offset of text; positions
// past a line's end clamp to it, past the text's end to its length.
func offsetOf(text []byte, p Position, enc encoding) int {
	start := lineStart(text, p.Line)
	if start < 0 {
		return len(text)
	}
	end := start + max(0, indexByte(text[start:], '\n'))
	if indexByte(text[start:], '\n') < 0 {
		end = len(text)
	}
	units := 0
	off := start
	for off < end && units < p.Character {
		r, size := utf8.DecodeRune(text[off:end])
		if enc == utf16 && r >= 0x10000 {
			units += 2
		} else if enc == utf16 {
			units++
		} else {
			units += size
		}
		off += size
	}
	return off
}

// positionOf converts a byte offset of text into an LSP position.
func positionOf(text []byte, off int, enc encoding) Position {
	return newLineIndex(text, enc).pos(off)
}

// units counts b in the encoding's code units.
func units(b []byte, enc encoding) int {
	if enc == utf8enc {
		return len(b)
	}
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		b = b[size:]
	}
	return n
}

var errBadRange = errors.New("change range out of order")

// applyChange applies one content change of textDocument/didChange.
func applyChange(text []byte, ch TextDocumentContentChangeEvent, enc encoding) ([]byte, error) {
	if ch.Range == nil {
		return []byte(ch.Text), nil
	}
	start, end := offsetOf(text, ch.Range.Start, enc), offsetOf(text, ch.Range.End, enc)
	if end < start {
		return nil, errBadRange
	}
	out := make([]byte, 0, len(text)-(end-start)+len(ch.Text))
	out = append(out, text[:start]...)
	out = append(out, ch.Text...)
	return append(out, text[end:]...), nil
}

// lineIndex converts offsets of one text into positions without rescanning.
type lineIndex struct {
	text   []byte
	starts []int
	enc    encoding
}

func newLineIndex(text []byte, enc encoding) *lineIndex {
	starts := []int{0}
	for i, c := range text {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{text: text, starts: starts, enc: enc}
}

// pos converts a byte offset into a position.
func (x *lineIndex) pos(off int) Position {
	off = min(max(off, 0), len(x.text))
	lo, hi := 0, len(x.starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if x.starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return Position{Line: lo, Character: units(x.text[x.starts[lo]:off], x.enc)}
}

// lineCol converts go/token's 1-based line and byte column into a position.
func (x *lineIndex) lineCol(line, col int) Position {
	if line < 1 {
		return Position{}
	}
	if line > len(x.starts) {
		return x.pos(len(x.text))
	}
	return x.pos(x.starts[line-1] + max(col-1, 0))
}
