package sotparse

import (
	"testing"
	"unicode/utf8"
)

// TestLineIndexOffset: the offset of a YAML mark, on ASCII lines (a
// column is a byte) and on lines with wider characters (a column is a
// code point), in order along a line, out of order, past a line's end,
// against counting from the line's start each time.
func TestLineIndexOffset(t *testing.T) {
	text := []byte("items:\n  - id: [A-1, B-2, C-3]\n  - title: \"Ünïcødé — 日本\", x: [é, ü]\nlast")
	naive := func(line, col int) int {
		starts := []int{0}
		for i, c := range text {
			if c == '\n' {
				starts = append(starts, i+1)
			}
		}
		if line < 1 {
			return 0
		}
		if line > len(starts) {
			return len(text)
		}
		off := starts[line-1]
		for c := 1; c < col && off < len(text) && text[off] != '\n'; c++ {
			_, size := utf8.DecodeRune(text[off:])
			off += size
		}
		return off
	}
	const base = 100
	li := newLineIndex(text, base)
	marks := [][2]int{{1, 1}, {2, 9}, {2, 10}, {2, 15}, {2, 20}, {2, 99}, {3, 1}, {3, 12}, {3, 20}, {3, 14}, {3, 30}, {3, 3}, {3, 35}, {3, 200}, {3, 5}, {3, 36}, {4, 3}, {4, 9}, {0, 4}, {9, 1}}
	for _, m := range marks {
		if got, want := li.offset(m[0], m[1]), base+naive(m[0], m[1]); got != want {
			t.Errorf("offset(%d, %d) = %d, want %d", m[0], m[1], got, want)
		}
	}
}
