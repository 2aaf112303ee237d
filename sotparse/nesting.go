package sotparse

import (
	"bytes"
	"fmt"
)

// MaxNesting bounds how deeply the container markers at the start of one
// line (list items and blockquotes) may nest. The markdown parser's cost
// grows with the depth of open containers on every line, so a line of a
// hundred thousand "- " made a 4 MB file take hours; real documents nest a
// handful of levels. Bounded, a file of 16-deep lines parses about as fast
// as a flat list of the same size (BenchmarkDeepNesting).
const MaxNesting = 16

// boundNesting returns body with the container markers past MaxNesting on
// each line turned into text (the first such marker's byte becomes a
// backslash, so offsets do not move), and the offsets in body where a line
// passed the limit. body itself is returned when no line does.
func boundNesting(body []byte) ([]byte, []int) {
	var out []byte // a copy, made at the first change
	var at []int
	for ls := 0; ls < len(body); {
		le := bytes.IndexByte(body[ls:], '\n')
		if le < 0 {
			le = len(body)
		} else {
			le += ls
		}
		depth := 0
		for i := ls; i < le; {
			for i < le && (body[i] == ' ' || body[i] == '\t') {
				i++
			}
			n := markerLen(body[i:le])
			if n == 0 {
				break
			}
			if depth++; depth > MaxNesting {
				if out == nil {
					out = bytes.Clone(body)
				}
				out[i] = '\\'
				at = append(at, i)
				break
			}
			i += n
		}
		ls = le + 1
	}
	if out == nil {
		return body, nil
	}
	return out, at
}

// markerLen returns the length of the container marker b starts with: a
// blockquote's ">", a bullet "-", "*" or "+", or an ordered "1." or "1)",
// each followed by a space, a tab or the end of the line; 0 for none.
func markerLen(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	spaced := func(k int) bool { return k == len(b) || b[k] == ' ' || b[k] == '\t' }
	switch c := b[0]; {
	case c == '>':
		return 1
	case c == '-' || c == '*' || c == '+':
		if spaced(1) {
			return 1
		}
		return 0
	}
	k := 0
	for k < len(b) && k < 9 && b[k] >= '0' && b[k] <= '9' {
		k++
	}
	if k > 0 && k < len(b) && (b[k] == '.' || b[k] == ')') && spaced(k+1) {
		return k + 1
	}
	return 0
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
