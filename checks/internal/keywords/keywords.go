// Package keywords finds, in one pass over a text, which words of a fixed
// set it holds in any ASCII letter case: the key words a line-reading rule
// tests before its regular expressions. A rule that searched the line once
// per key word read each line some sixty times; an Aho-Corasick automaton
// reads it once.
//
// The project has three other automata, each shaped by its own output:
// secrets/keywords.go (kwMatcher) reports where each of thousands of
// keywords ends, checks/authority/prefilter.go (matcher) maps normalised
// literals to the clauses they satisfy, and prose/prefilter.go (matcher)
// lists which of a style set's thousands of literals occur. This one is
// separate because its answer is one uint64, a bit for each of at most 63
// words, which a per-line pre-test reads with an AND; the others need
// thousands of literals or the positions of matches, which no mask holds.
package keywords

import (
	"fmt"
)

// NonASCII is the bit Mask sets when the text holds a byte >= 0x80, for a
// rule whose plain search must give way to a Unicode-aware one there.
const NonASCII = uint64(1) << 63

// MaxWords is how many words a Set holds: one bit each, NonASCII aside.
const MaxWords = 63

// Set is a compiled word set. It is read-only once built and safe for
// concurrent use.
type Set struct {
	words []string
	class [256]uint8 // byte -> column; letters fold to one column
	// next is the automaton's table, a row of width columns per state,
	// and a state is its row's offset: a step is one load, with no
	// multiplication, and rows as wide as the columns the words use (not
	// rounded up to a power of two) keep the table small enough for the
	// first-level cache. The states where a word ends come last, from
	// row outFrom: a step tests the state, and reads out only there.
	next    []uint16
	width   int
	outFrom int
	out     []uint64 // (state-outFrom)/width -> the words that end there
	longest int      // the longest word's length
}

// New compiles words (compared in ASCII lower case; other bytes as they
// are). It panics on an empty, duplicate or upper-case word, or more than
// MaxWords: the sets are package variables, and this is a programming error.
func New(words ...string) *Set {
	if len(words) > MaxWords {
		panic(fmt.Sprintf("keywords: %d words, at most %d", len(words), MaxWords))
	}
	s := &Set{words: words}
	for _, w := range words {
		s.longest = max(s.longest, len(w))
	}
	// Columns: 0 for every byte no word holds, then one per distinct byte
	// (an ASCII letter and its upper case share one).
	ncls := 1
	for i, w := range words {
		if w == "" {
			panic("keywords: empty word")
		}
		for j := range words[:i] {
			if words[j] == w {
				panic("keywords: duplicate word " + w)
			}
		}
		for k := 0; k < len(w); k++ {
			c := w[k]
			if 'A' <= c && c <= 'Z' {
				panic("keywords: upper-case word " + w)
			}
			if s.class[c] == 0 {
				s.class[c] = uint8(ncls)
				if 'a' <= c && c <= 'z' {
					s.class[c-'a'+'A'] = uint8(ncls)
				}
				ncls++
			}
		}
	}
	width := ncls
	s.width = width

	// The trie: goto[state][class], 0 meaning none (the root is never a
	// target).
	type node struct {
		child []uint16
		out   uint64
		fail  uint16
	}
	nodes := []node{{child: make([]uint16, width)}}
	for i, w := range words {
		st := uint16(0)
		for k := 0; k < len(w); k++ {
			c := s.class[w[k]]
			if nodes[st].child[c] == 0 {
				if len(nodes) >= 1<<16 {
					panic("keywords: too many states")
				}
				nodes = append(nodes, node{child: make([]uint16, width)})
				nodes[st].child[c] = uint16(len(nodes) - 1)
			}
			st = nodes[st].child[c]
		}
		nodes[st].out |= 1 << i
	}
	// Breadth first: each state's failure is the longest proper suffix that
	// is a trie state; missing edges become the failure's edges, so the
	// automaton is a DFA.
	queue := make([]uint16, 0, len(nodes))
	for c := range width {
		if t := nodes[0].child[c]; t != 0 {
			queue = append(queue, t)
		}
	}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		f := nodes[st].fail
		nodes[st].out |= nodes[f].out
		for c := range width {
			t := nodes[st].child[c]
			if t == 0 {
				nodes[st].child[c] = nodes[f].child[c]
				continue
			}
			nodes[t].fail = nodes[f].child[c]
			queue = append(queue, t)
		}
	}
	// Numbered anew: the states where no word ends first (the root, which
	// is one, stays 0), then the others; each as its row's offset.
	if len(nodes)*width > 1<<16 {
		panic("keywords: too many states")
	}
	order := make([]int, 0, len(nodes))
	for pass := range 2 {
		for i, n := range nodes {
			if (n.out != 0) == (pass == 1) {
				order = append(order, i)
			}
		}
	}
	row := make([]int, len(nodes))
	for k, i := range order {
		row[i] = k * width
		if nodes[i].out != 0 && s.outFrom == 0 {
			s.outFrom = k * width
		}
	}
	if s.outFrom == 0 { // no output state: a set always has one
		panic("keywords: no word ends")
	}
	s.next = make([]uint16, len(nodes)*width)
	for k, i := range order {
		for c, t := range nodes[i].child {
			s.next[k*width+c] = uint16(row[t])
		}
		if nodes[i].out != 0 {
			s.out = append(s.out, nodes[i].out)
		}
	}
	return s
}

// outOf returns the words that end at st, an offset of row outFrom or
// after.
func (s *Set) outOf(st int) uint64 {
	return s.out[uint32(st-s.outFrom)/uint32(s.width)]
}

// Bits returns the bits of words in the set's masks. It panics on a word
// the set does not hold.
func (s *Set) Bits(words ...string) uint64 {
	var m uint64
	for _, w := range words {
		i := 0
		for i < len(s.words) && s.words[i] != w {
			i++
		}
		if i == len(s.words) {
			panic("keywords: no word " + w)
		}
		m |= 1 << i
	}
	return m
}

// Mask returns the bits of the words text holds, and NonASCII when it
// holds a byte >= 0x80.
func (s *Set) Mask(text string) uint64 {
	// Each byte's step waits for the one before (the next state is an
	// index of the table): two halves read side by side, each its own
	// chain of steps, take little longer than one. The first half reaches
	// past the middle by a word's length less one, so that a word that
	// starts in it ends in it.
	if over := max(s.longest-1, 0); len(text) >= 2*over+minSplit {
		mid := len(text) / 2
		return s.mask2(text[:mid+over], text[mid:])
	}
	return s.mask1(text)
}

// minSplit is the length from which Mask reads a text in two halves:
// below it the halves' overlap and the second loop cost more than they
// save.
const minSplit = 64

// mask2 is Mask of a and of b, ORed, reading both at once.
func (s *Set) mask2(a, b string) uint64 {
	var m uint64
	var hi byte
	next, class, outFrom := s.next, &s.class, s.outFrom
	sa, sb := 0, 0
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		ca, cb := a[i], b[i]
		hi |= ca | cb
		sa = int(next[sa+int(class[ca])])
		sb = int(next[sb+int(class[cb])])
		if sa >= outFrom {
			m |= s.outOf(sa)
		}
		if sb >= outFrom {
			m |= s.outOf(sb)
		}
	}
	// The longer half's tail, from its state.
	if len(b) > n {
		return m | s.maskFrom(sb, b[n:], hi)
	}
	return m | s.maskFrom(sa, a[n:], hi)
}

// mask1 is Mask reading text from start to end.
func (s *Set) mask1(text string) uint64 { return s.maskFrom(0, text, 0) }

// maskFrom is the mask of text read from state st, with NonASCII when a
// byte of text, or hi (what was read before), is one.
func (s *Set) maskFrom(st int, text string, hi byte) uint64 {
	var m uint64
	next, class, outFrom := s.next, &s.class, s.outFrom
	for i := 0; i < len(text); i++ {
		c := text[i]
		hi |= c
		st = int(next[st+int(class[c])])
		if st >= outFrom {
			m |= s.outOf(st)
		}
	}
	if hi >= 0x80 {
		m |= NonASCII
	}
	return m
}
