package secrets

import (
	"math"
	"math/bits"
	"regexp/syntax"
	"slices"
	"unicode"
)

// A rule anchored at its keywords (compiledRule.anchoredAfterExpr) runs its
// expression at every keyword hit, and most hits in prose are words that
// merely contain a keyword: "s." ends every sentence whose last word ends
// in s, "auth" starts "authority". The bytes right after the keyword rule
// most of them out: a follow automaton reads the bytes after a hit as the
// expression would, past the keyword, and a hit after which no match can
// go on is not tried.

// followDepth bounds how many bytes past its keyword the automaton reads:
// a hit it has not ruled out by then is tried.
const followDepth = 24

// maxFollowWords bounds the size of a program the automaton runs (in
// 64-instruction words of its state sets), so that the sets live on the
// stack.
const maxFollowWords = 16

// A followNFA runs a rule's program from the state after one of its
// keywords, on sets of instructions. The sets over-approximate the
// expression's threads: zero-width assertions are taken to hold, a
// non-ASCII byte or the end of the text may go on to a match, and so may a
// set that holds the match instruction or lies followDepth bytes deep. A
// hit is ruled out only when the set runs empty: then no match of the
// expression starts at the keyword.
type followNFA struct{ progTable }

// progTable is a program's table over ASCII bytes, which the follow
// automata and the DFA filters both step through.
type progTable struct {
	words int
	// by instruction: the index in masks of the ASCII bytes it takes (0,
	// the empty mask, for one that reads no byte). A program has few
	// distinct masks, a literal or a class copied by every repetition
	// of it: a mask an instruction took 16 bytes, ~2.5 MB on a tree that
	// wakes every rule.
	maskAt []uint16
	masks  []asciiMask
	// by consuming instruction: the closure after it, as its words from
	// word outLo[pc] on, back[outAt[pc]:outAt[pc+1]] (the first to the
	// last that is not zero). A closure lies near its instruction: whole
	// sets (16 words each in a program of 1,000 instructions), each with
	// its slice header, made the tables of a tree that wakes every rule
	// ~10 MB.
	outLo []uint16
	outAt []uint32
	back  []uint64
	match pcSet
	reads pcSet // the instructions that read a byte
}

// advance adds to next what the instructions of cur lead to on the ASCII
// byte b, and reports whether any of them took it.
func (t *progTable) advance(cur, next pcSet, b byte) (took bool) {
	for w, word := range cur {
		for word != 0 {
			pc := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			if t.masks[t.maskAt[pc]].has(b) {
				ws := t.back[t.outAt[pc]:t.outAt[pc+1]]
				dst := next[t.outLo[pc]:]
				for k, w := range ws {
					dst[k] |= w
				}
				took = true
			}
		}
	}
	return took
}

// newProgTable builds prog's table; atEnd is closure's. ok is false
// when prog has more distinct masks than maskAt can tell apart.
func newProgTable(prog *syntax.Prog, atEnd bool) (_ progTable, ok bool) {
	t := progTable{words: (len(prog.Inst) + 63) / 64}
	t.maskAt = make([]uint16, len(prog.Inst))
	t.masks = []asciiMask{{}}
	maskIndex := map[asciiMask]uint16{{}: 0}
	t.outLo = make([]uint16, len(prog.Inst))
	t.outAt = make([]uint32, len(prog.Inst)+1)
	t.match = make(pcSet, t.words)
	t.reads = make(pcSet, t.words)
	var spans []uint64 // the closures' spans, copied to back once all are known
	set := make(pcSet, t.words)
	for pc := range prog.Inst {
		in := &prog.Inst[pc]
		switch in.Op {
		case syntax.InstMatch:
			t.match.add(uint32(pc))
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			t.reads.add(uint32(pc))
			m := maskOf(in)
			k, seen := maskIndex[m]
			if !seen {
				if len(t.masks) > math.MaxUint16 {
					return progTable{}, false
				}
				k = uint16(len(t.masks))
				maskIndex[m] = k
				t.masks = append(t.masks, m)
			}
			t.maskAt[pc] = k
			clear(set)
			closure(prog, set, in.Out, atEnd)
			lo, hi := 0, len(set)
			for lo < hi && set[lo] == 0 {
				lo++
			}
			for hi > lo && set[hi-1] == 0 {
				hi--
			}
			t.outLo[pc] = uint16(lo)
			spans = append(spans, set[lo:hi]...)
		}
		t.outAt[pc+1] = uint32(len(spans))
	}
	t.back = make([]uint64, len(spans))
	copy(t.back, spans)
	t.masks = slices.Clip(t.masks)
	return t, true
}

// mayMatch reports whether a match may start at a hit whose keyword ends
// just before data[next], start being the set after the keyword.
func (a *followNFA) mayMatch(start pcSet, data []byte, next int) bool {
	var buf [2][maxFollowWords]uint64
	cur, nxt := buf[0][:a.words], buf[1][:a.words]
	copy(cur, start)
	end := min(len(data), next+followDepth)
	for i := next; i < end; i++ {
		c := data[i]
		if c >= 0x80 {
			return true
		}
		clear(nxt)
		alive := a.advance(cur, nxt, c)
		if !alive {
			return false
		}
		for k, m := range a.match {
			if nxt[k]&m != 0 {
				return true
			}
		}
		cur, nxt = nxt, cur
	}
	return true
}

// newFollowNFA returns the automaton of expr and, for each of keywords
// (ASCII, lower case, matched in any ASCII case as the scanner does), the
// set after it, nil where it would rule nothing out: a match may end with
// the keyword, no match starts with it, or it is not ASCII. It returns a
// nil automaton when expr does not compile or its program is too large.
func newFollowNFA(expr string, keywords []string) (*followNFA, []pcSet) {
	starts := make([]pcSet, len(keywords))
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, starts
	}
	// the automaton reads the keyword and followDepth bytes after it
	most := followDepth
	for _, kw := range keywords {
		most = max(most, followDepth+len(kw))
	}
	prog, err := syntax.Compile(followLoosen(re, most+1).Simplify())
	if err != nil {
		return nil, starts
	}
	if (len(prog.Inst)+63)/64 > maxFollowWords {
		return nil, starts
	}
	// Every assertion taken to hold: a superset of the matches.
	table, ok := newProgTable(prog, true)
	if !ok {
		return nil, starts
	}
	a := &followNFA{table}
	for ki, kw := range keywords {
		set := closure(prog, make(pcSet, a.words), uint32(prog.Start), true)
		for i := 0; i < len(kw) && !set.empty(); i++ {
			if kw[i] >= 0x80 || i > 0 && set.meets(a.match) {
				// a match may end inside the keyword (xoxe. and a body
				// "xoxb" inside the keyword xoxe.xoxb-): what follows
				// the keyword says nothing of it
				set = nil
				break
			}
			set = a.step(set, kw[i], upperASCII(kw[i]))
		}
		if set.empty() || set.meets(a.match) {
			continue
		}
		starts[ki] = set
	}
	return a, starts
}

// followLoosen rewrites re in place into an expression whose language
// holds re's and that reads as re does on texts shorter than most: a
// counted repetition whose bounds lie past most repetitions (a gap of
// .{0,40}, a value of [a-z0-9]{32,}) as at least most of them,
// unbounded. The automaton reads no further than a keyword and
// followDepth bytes, and each repetition of the bounds is a copy of x in
// the program: the automata of a tree that wakes every rule held
// ~122,000 instructions, ~92,000 loosened.
func followLoosen(re *syntax.Regexp, most int) *syntax.Regexp {
	for i, s := range re.Sub {
		re.Sub[i] = followLoosen(s, most)
	}
	if re.Op == syntax.OpRepeat && (re.Max == -1 || re.Max > most) && (re.Min > most || re.Max != -1) {
		return &syntax.Regexp{Op: syntax.OpRepeat, Flags: re.Flags, Min: min(re.Min, most), Max: -1, Sub: re.Sub[:1]}
	}
	return re
}

// step returns the set after consuming c or its other case c2 from set.
func (a *followNFA) step(set pcSet, c, c2 byte) pcSet {
	next := make(pcSet, a.words)
	a.advance(set, next, c)
	a.advance(set, next, c2)
	return next
}

// maskOf returns the ASCII bytes the rune instruction in consumes, as
// in.MatchRune does, read off its ranges: asking MatchRune for each of the
// 128 bytes was half the cost of building a filter.
func maskOf(in *syntax.Inst) asciiMask {
	var m asciiMask
	rs := in.Rune
	if len(rs) == 1 {
		// a literal, its fold orbit too when folded (MatchRunePos)
		m.add(rs[0])
		if syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
			for r := unicode.SimpleFold(rs[0]); r != rs[0]; r = unicode.SimpleFold(r) {
				m.add(r)
			}
		}
		return m
	}
	for i := 0; i+1 < len(rs); i += 2 {
		for c := max(rs[i], 0); c <= min(rs[i+1], 127); c++ {
			m.add(c)
		}
	}
	return m
}

// A pcSet is a set of instructions of a program, as a bit set.
type pcSet []uint64

func (s pcSet) empty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

func (s pcSet) meets(t pcSet) bool {
	for k, w := range s {
		if w&t[k] != 0 {
			return true
		}
	}
	return false
}

func (s pcSet) has(pc uint32) bool { return s[pc/64]&(1<<(pc%64)) != 0 }
func (s pcSet) add(pc uint32)      { s[pc/64] |= 1 << (pc % 64) }

// asciiMask is the set of ASCII bytes an instruction consumes.
type asciiMask [2]uint64

func (m *asciiMask) add(r rune) {
	if 0 <= r && r < 128 {
		m[r/64] |= 1 << (r % 64)
	}
}

func (m asciiMask) has(c byte) bool { return c < 128 && m[c/64]&(1<<(c%64)) != 0 }

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// useFollow turns the follow automata on; the tests turn them off to
// compare.
var useFollow = true

// mayFollow reports whether a match may start at the hit of the rule's
// ki-th keyword that ends just before data[next].
//
// The automaton is built once the rule has had followAfter hits in the
// process: building it costs about what compiling the expression does,
// and on a tree of tiny files most rules see a few hits, each cheaper to
// try than the automaton is to build.
func (cr *compiledRule) mayFollow(ki int, data []byte, next int) bool {
	if !useFollow || cr.followHits.Add(1) <= followAfter {
		return true
	}
	cr.buildFollow()
	st := cr.followStart[ki]
	return st == nil || cr.follow.mayMatch(st, data, next)
}

func (cr *compiledRule) buildFollow() {
	cr.followOnce.Do(func() { cr.follow, cr.followStart = newFollowNFA(cr.anchoredSrc, cr.lowerKeywords) })
}

// followAfter is how many hits a rule takes before its follow automaton
// is built.
const followAfter = 64
