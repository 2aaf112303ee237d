package secrets

import (
	"slices"
	"strings"
)

// stopSet answers whether a text holds one of a list of stop words,
// ignoring ASCII case, as gitleaks' allowlists ask of every candidate
// secret. The generic rule lists some 1,400 words: an automaton over them
// cost each process more to build (a dense table of megabytes) than all
// its lookups, so the words are kept in a set by length, behind a filter
// of the 3-byte heads they start with.
type stopSet struct {
	words map[string]bool // lower case
	lens  []int           // distinct lengths of words of 3 bytes or more, ascending
	heads [1 << 10]uint64 // bit set of hashed 3-byte heads
	short [][]byte        // words under 3 bytes, compared one by one
}

func newStopSet(list []string) *stopSet {
	s := &stopSet{words: map[string]bool{}}
	for _, w := range list {
		w = lowerASCII(w)
		if w == "" {
			continue
		}
		if len(w) < 3 {
			s.short = append(s.short, []byte(w))
			continue
		}
		s.words[w] = true
		if !slices.Contains(s.lens, len(w)) {
			s.lens = append(s.lens, len(w))
		}
		h := headHash(w[0], w[1], w[2])
		s.heads[h>>6] |= 1 << (h & 63)
	}
	slices.Sort(s.lens)
	return s
}

func headHash(a, b, c byte) uint32 {
	return ((uint32(a)<<16 | uint32(b)<<8 | uint32(c)) * 0x9E3779B1) >> 22
}

// any reports whether text holds a stop word, ignoring ASCII case.
func (s *stopSet) any(text []byte) bool {
	if len(s.short) > 0 && holdsLiteral(text, s.short, true) {
		return true
	}
	if len(s.lens) == 0 || len(text) < s.lens[0] {
		return false
	}
	var buf [256]byte
	low := buf[:0]
	if len(text) > len(buf) {
		low = make([]byte, 0, len(text))
	}
	for _, c := range text {
		low = append(low, lower(c))
	}
	for i := 0; i+s.lens[0] <= len(low); i++ {
		h := headHash(low[i], low[i+1], low[i+2])
		if s.heads[h>>6]&(1<<(h&63)) == 0 {
			continue
		}
		for _, n := range s.lens {
			if i+n > len(low) {
				break
			}
			if s.words[string(low[i:i+n])] {
				return true
			}
		}
	}
	return false
}

// lowerASCII lowers the ASCII letters of w, as the keyword matching does.
func lowerASCII(w string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, w)
}
