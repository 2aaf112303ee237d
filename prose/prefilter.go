package prose

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
)

// A style has a hundred rules and most of them are word lists: run on every
// block, their expressions cost more than everything else. Each expression
// is reduced to literals one of which any match must contain (lower-cased);
// one pass of an Aho-Corasick automaton over a block's lower-cased text
// then says which rules can match there at all.

// minLiteral is the shortest literal worth filtering on.
const minLiteral = 2

// requiredLiterals returns lower-cased strings one of which every match of
// expr contains, or nil when no such set is known.
func requiredLiterals(expr string) []string {
	re, err := syntax.Parse(withoutLookarounds(expr), syntax.Perl)
	if err != nil {
		return nil
	}
	lits := required(re.Simplify())
	for _, l := range lits {
		if len(l) < minLiteral {
			return nil
		}
	}
	return lits
}

func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{lower(string(re.Rune))}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			r := required(s)
			if r == nil {
				return nil
			}
			out = append(out, r...)
		}
		return out
	case syntax.OpConcat:
		// Adjacent literals are one literal; of the parts that must match,
		// the one whose shortest literal is longest filters best.
		var best []string
		bestLen := 0
		consider := func(set []string) {
			if set == nil {
				return
			}
			shortest := len(set[0])
			for _, s := range set {
				shortest = min(shortest, len(s))
			}
			if shortest > bestLen {
				best, bestLen = set, shortest
			}
		}
		run := ""
		for _, s := range re.Sub {
			if s.Op == syntax.OpLiteral {
				run += lower(string(s.Rune))
				continue
			}
			if run != "" {
				consider([]string{run})
				run = ""
			}
			consider(required(s))
		}
		if run != "" {
			consider([]string{run})
		}
		return best
	}
	return nil
}

func lower(s string) string {
	return strings.Map(unicode.ToLower, s)
}

var lookaround = regexp.MustCompile(`\(\?<?[=!]`)

// withoutLookarounds removes lookaround groups: what the rest requires, the
// whole expression requires too.
func withoutLookarounds(expr string) string {
	var b strings.Builder
	for {
		loc := lookaround.FindStringIndex(expr)
		if loc == nil {
			b.WriteString(expr)
			return b.String()
		}
		b.WriteString(expr[:loc[0]])
		depth, i := 0, loc[0]
		for ; i < len(expr); i++ {
			switch expr[i] {
			case '\\':
				i++
				continue
			case '(':
				depth++
			case ')':
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if i >= len(expr) {
			return b.String()
		}
		expr = expr[i+1:]
	}
}

// matcher is an Aho-Corasick automaton over bytes: which of a set of
// literals occur in a text, in one pass.
type matcher struct {
	next  []map[byte]int32
	fail  []int32
	out   [][]int32 // literal ids ending at each state, fail links included
	count int
}

func newMatcher(lits []string) *matcher {
	m := &matcher{next: []map[byte]int32{{}}, fail: []int32{0}, out: [][]int32{nil}, count: len(lits)}
	for id, l := range lits {
		s := int32(0)
		for i := 0; i < len(l); i++ {
			n, ok := m.next[s][l[i]]
			if !ok {
				n = int32(len(m.next))
				m.next = append(m.next, map[byte]int32{})
				m.fail = append(m.fail, 0)
				m.out = append(m.out, nil)
				m.next[s][l[i]] = n
			}
			s = n
		}
		m.out[s] = append(m.out[s], int32(id))
	}
	queue := []int32{}
	for _, n := range m.next[0] {
		queue = append(queue, n)
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for c, n := range m.next[s] {
			queue = append(queue, n)
			f := m.fail[s]
			for {
				if t, ok := m.next[f][c]; ok && t != n {
					m.fail[n] = t
					break
				}
				if f == 0 {
					break
				}
				f = m.fail[f]
			}
			m.out[n] = append(m.out[n], m.out[m.fail[n]]...)
		}
	}
	return m
}

// found marks in seen every literal that occurs in text.
func (m *matcher) found(text string, seen []bool) {
	s := int32(0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		for {
			if n, ok := m.next[s][c]; ok {
				s = n
				break
			}
			if s == 0 {
				break
			}
			s = m.fail[s]
		}
		for _, id := range m.out[s] {
			seen[id] = true
		}
	}
}
