package authority

import (
	"regexp/syntax"
	"strings"
)

// Prefiltering. Most sentences cannot match a rule: they lack the words its
// expression spells out. Each alternative of a rule gets a prefilter, a
// conjunction of disjunctions of lower-cased literals that every match
// contains; one scan of a text with an Aho-Corasick automaton over the
// literals of the whole rule set tells which literals occur, and an
// alternative whose prefilter fails is not run.

// clausesOf derives the prefilter clauses of the case-insensitive
// expression expr: every match contains, for each clause, one of its
// strings. Nil means no known requirement.
func clausesOf(expr string) [][]string {
	re, err := syntax.Parse(expr, syntax.Perl|syntax.FoldCase)
	if err != nil {
		return nil
	}
	return clauses(re)
}

const minLiteral = 3

func clauses(re *syntax.Regexp) [][]string {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) < minLiteral {
			return nil
		}
		return [][]string{{strings.ToLower(string(re.Rune))}}
	case syntax.OpCapture, syntax.OpPlus:
		return clauses(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return clauses(re.Sub[0])
		}
	case syntax.OpConcat:
		var out [][]string
		for _, sub := range re.Sub {
			out = append(out, clauses(sub)...)
		}
		return out
	case syntax.OpAlternate:
		// One clause: each branch's strongest clause, any of them.
		var any []string
		for _, sub := range re.Sub {
			best := strongest(clauses(sub))
			if best == nil {
				return nil
			}
			any = append(any, best...)
		}
		return [][]string{any}
	}
	return nil
}

// strongest returns the clause whose shortest string is the longest.
func strongest(cs [][]string) []string {
	var best []string
	score := 0
	for _, c := range cs {
		s := len(c[0])
		for _, x := range c {
			s = min(s, len(x))
		}
		if s > score {
			best, score = c, s
		}
	}
	return best
}

// prefilter is a compiled prefilter: each clause is a bit set of literals
// of which one must occur.
type prefilter []uint64

// admits reports whether a text in which the literals of found occur
// passes.
func (p prefilter) admits(found uint64) bool {
	for _, clause := range p {
		if clause&found == 0 {
			return false
		}
	}
	return true
}

// maxLiterals bounds the literals of a rule set: a clause naming a literal
// beyond it is dropped (it no longer filters).
const maxLiterals = 64

// literalSet numbers the literals of a rule set.
type literalSet struct {
	index map[string]int
	list  []string
}

// compile turns clauses into a prefilter, numbering new literals.
func (ls *literalSet) compile(cs [][]string) prefilter {
	var p prefilter
clause:
	for _, c := range cs {
		var bits uint64
		for _, s := range c {
			i, ok := ls.index[s]
			if !ok {
				if len(ls.list) == maxLiterals {
					continue clause
				}
				i = len(ls.list)
				ls.index[s] = i
				ls.list = append(ls.list, s)
			}
			bits |= 1 << i
		}
		p = append(p, bits)
	}
	return p
}

// matcher is an Aho-Corasick automaton over up to 64 literals, as a dense
// state-transition table.
type matcher struct {
	next [][256]int32
	out  []uint64
}

func newMatcher(lits []string) *matcher {
	m := &matcher{next: make([][256]int32, 1), out: make([]uint64, 1)}
	goTo := []map[byte]int32{{}}
	for i, l := range lits {
		st := int32(0)
		for j := 0; j < len(l); j++ {
			c := lowerASCII(l[j])
			nx, ok := goTo[st][c]
			if !ok {
				nx = int32(len(goTo))
				goTo = append(goTo, map[byte]int32{})
				m.next = append(m.next, [256]int32{})
				m.out = append(m.out, 0)
				goTo[st][c] = nx
			}
			st = nx
		}
		m.out[st] |= 1 << i
	}
	// Breadth first: failure links, then complete transitions.
	fail := make([]int32, len(goTo))
	queue := []int32{}
	for c := 0; c < 256; c++ {
		if nx, ok := goTo[0][byte(c)]; ok {
			m.next[0][c] = nx
			queue = append(queue, nx)
		}
	}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		m.out[st] |= m.out[fail[st]]
		for c := 0; c < 256; c++ {
			if nx, ok := goTo[st][byte(c)]; ok {
				fail[nx] = m.next[fail[st]][c]
				m.next[st][c] = nx
				queue = append(queue, nx)
			} else {
				m.next[st][c] = m.next[fail[st]][c]
			}
		}
	}
	// ASCII upper case reads as lower case.
	for st := range m.next {
		for c := 'A'; c <= 'Z'; c++ {
			m.next[st][c] = m.next[st][c+'a'-'A']
		}
	}
	return m
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// scan returns the set of literals that occur in s, ASCII letters compared
// without regard to case.
func (m *matcher) scan(s string) uint64 {
	if m == nil {
		return 0
	}
	var found uint64
	st := int32(0)
	for i := 0; i < len(s); i++ {
		st = m.next[st][s[i]]
		found |= m.out[st]
	}
	return found
}
