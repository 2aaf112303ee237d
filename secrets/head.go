package secrets

import (
	"io"
	"regexp"
	"unicode/utf8"
)

// headCopyMax is the longest text findAfterNewline copies behind a
// newline; a longer one is read through newlineThen instead. A start
// table's attempt at a text's start ran on a copy of the text to its end
// (searchAtStarts bounds only a far table's attempts), which on a 4 MB
// line of candidates was the whole line, kept in the scanner's pooled
// scratch: 4 MB of a scan's 38 MB live. (A keyword hit's attempt reads
// its rule's window, which its rule bounds.)
const headCopyMax = 4 << 10

// findAfterNewline is re.FindSubmatchIndex on a newline followed by text:
// at a text's start a newline stands for the start (\b, \B and (?m:^)
// judge both alike), so that the expression compiled for every other
// attempt serves. Offsets are in the newline's text, as a copy's would
// be. head is scratch for the copy.
func findAfterNewline(re *regexp.Regexp, text []byte, head *[]byte) []int {
	if len(text) <= headCopyMax {
		*head = append(append((*head)[:0], '\n'), text...)
		return re.FindSubmatchIndex(*head)
	}
	return re.FindReaderSubmatchIndex(&newlineThen{text: text, at: -1})
}

// newlineThen reads a newline, then text, a rune at a time, as the
// regexp package decodes a []byte (an invalid byte is utf8.RuneError of
// width 1).
type newlineThen struct {
	text []byte
	at   int // -1 before the newline
}

func (r *newlineThen) ReadRune() (rune, int, error) {
	if r.at < 0 {
		r.at = 0
		return '\n', 1, nil
	}
	if r.at >= len(r.text) {
		return 0, 0, io.EOF
	}
	c := r.text[r.at]
	if c < utf8.RuneSelf {
		r.at++
		return rune(c), 1, nil
	}
	ru, n := utf8.DecodeRune(r.text[r.at:])
	r.at += n
	return ru, n, nil
}
