package secrets

import (
	"bytes"
	"math"
)

// maxText is the longest text the scanner reads in one piece. Its
// candidates hold their offsets in 32 bits (12 bytes a candidate, not
// 24: a line of 380,000 PINs held 9 MB of them and as much again while
// they grew), and decoding's views do too, so a longer text (a file read
// with --max-file-size raised past a gibibyte) is read a piece at a time
// (scanLong, redactLong). A variable, so that a test can make pieces of a
// short text.
var maxText = math.MaxInt32/2 - 1

// textAt is where a piece of a text stands in it: its offset, the lines
// before it, and the column its first byte is in, less one (a piece
// starts a line unless a line is longer than maxText).
type textAt struct{ off, line, col int }

// pos is the position in the text of line and col in the piece.
func (a textAt) pos(line, col int) (int, int) {
	if line == 1 {
		col += a.col
	}
	return line + a.line, col
}

// pieces calls f with each piece of text: at most maxText bytes, ending
// after a newline where one is in reach. A secret across the end of a
// piece cut inside a line (a line longer than maxText) is not found.
func pieces(text []byte, f func(piece []byte, at textAt)) {
	at := textAt{}
	for off := 0; off < len(text); {
		end := min(len(text), off+maxText)
		if end < len(text) {
			if k := bytes.LastIndexByte(text[off:end], '\n'); k >= 0 {
				end = off + k + 1
			}
		}
		piece := text[off:end]
		f(piece, at)
		at.off = end
		if n := bytes.Count(piece, []byte{'\n'}); n > 0 {
			at.line += n
			at.col = len(piece) - 1 - bytes.LastIndexByte(piece, '\n')
		} else {
			at.col += len(piece)
		}
		off = end
	}
}

// scanLong is ScanCapped of a text longer than maxText, a piece at a
// time; the caps hold over the whole text.
func (s *Scanner) scanLong(path string, content []byte, keep int) ([]Finding, map[string]int) {
	var findings []Finding
	caps := findingCaps{keep: keep}
	pieces(content, func(piece []byte, at textAt) {
		fs, more := s.scanText(path, piece, keep, at)
		for rule, n := range more {
			caps.count(rule, n)
		}
		for _, f := range fs {
			if caps.admit(f.RuleID, f.Allowed) {
				findings = append(findings, f)
			}
		}
	})
	return findings, caps.more
}

// redactLong is Redact of a text longer than maxText, a piece at a time.
// A secret masked in one piece is not sought in the others.
func (s *Scanner) redactLong(content []byte) []byte {
	var out []byte
	changed := false
	pieces(content, func(piece []byte, at textAt) {
		red := s.Redact(piece)
		if !changed {
			if len(red) == len(piece) && (len(red) == 0 || &red[0] == &piece[0]) {
				return // content is returned as it is while nothing changed
			}
			changed = true
			out = append(out, content[:at.off]...)
		}
		out = append(out, red...)
	})
	if !changed {
		return content
	}
	return out
}
