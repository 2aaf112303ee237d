package secrets

import (
	"regexp"
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// A rule whose matches do not all begin at a keyword (prose-pin: "door
// code", "disarm", "passcode" begin before "code" or "arm") was searched
// by Go's regexp in one unanchored pass over each window, which starts a
// thread at every byte and runs the expression's whole first alternation
// there: ~6 µs a finding on a 4 MB line of "PIN 48213, ". Its start
// table, the bytes a match may begin with and whether a word boundary
// must come before them, gives the few places a match may begin; a
// long window is then searched by one anchored attempt at each of them
// (searchAtStarts), which on a line dense with matches reads each match
// once.

// startTable tells where a match of a rule's expression may begin.
type startTable struct {
	first [256]bool // the bytes a match may begin with
	// atWord: every match begins at \b, so a start is also a word
	// boundary (ASCII word bytes, as the expression's \b judges).
	atWord bool
}

// at reports whether a match may begin at text[s].
func (t *startTable) at(text []byte, s int) bool {
	return t.first[text[s]] && (!t.atWord || wordBoundaryAt(text, s))
}

// newStartTable returns the start table of re, nil when it would not
// spare the attempts much or would not bound them: a match may be empty
// or begin anywhere (no \b before every alternative), or a repetition
// with no upper bound runs over a byte a match may begin with (an
// attempt at each start in such a run would read the rest of it:
// quadratic on a long one). A repetition over blanks only ([ \t]*)
// holds no start, so each attempt reads past it to the next word at
// most.
func newStartTable(re *syntax.Regexp) *startTable {
	t := &startTable{}
	if nullable := firstBytes(re, &t.first); nullable || !beginsAtWordBoundary(re) {
		return nil
	}
	t.atWord = true
	if !unboundedAvoids(re, &t.first) {
		return nil
	}
	return t
}

// firstBytes adds to set every byte a non-empty match of re may begin
// with, and reports whether re matches the empty string (then what
// follows re may begin the match too).
func firstBytes(re *syntax.Regexp, set *[256]bool) (nullable bool) {
	switch re.Op {
	case syntax.OpNoMatch:
		return false
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return true
		}
		r := re.Rune[0]
		addRuneFirst(set, r)
		if re.Flags&syntax.FoldCase != 0 {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				addRuneFirst(set, f)
			}
		}
		return false
	case syntax.OpCharClass:
		// (the parser has added a class's case folds to its ranges)
		for i := 0; i+1 < len(re.Rune); i += 2 {
			addRangeFirst(set, re.Rune[i], re.Rune[i+1])
		}
		return false
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		for b := range set {
			set[b] = true
		}
		return false
	case syntax.OpCapture, syntax.OpPlus:
		return firstBytes(re.Sub[0], set)
	case syntax.OpStar, syntax.OpQuest:
		firstBytes(re.Sub[0], set)
		return true
	case syntax.OpRepeat:
		n := firstBytes(re.Sub[0], set)
		return n || re.Min == 0
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if !firstBytes(s, set) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		nullable := false
		for _, s := range re.Sub {
			if firstBytes(s, set) {
				nullable = true
			}
		}
		return nullable
	}
	for b := range set { // an operator this does not know: anywhere
		set[b] = true
	}
	return true
}

// addRuneFirst adds the first byte of r's UTF-8 form. Go's regexp reads
// an invalid byte as U+FFFD, so that rune may begin at any byte from 0x80.
func addRuneFirst(set *[256]bool, r rune) {
	if r == utf8.RuneError {
		addInvalidFirst(set)
	}
	var buf [utf8.UTFMax]byte
	utf8.EncodeRune(buf[:], r)
	set[buf[0]] = true
}

// addInvalidFirst adds the bytes Go's regexp reads as U+FFFD when they
// begin no valid UTF-8 sequence: every byte from 0x80 (a superset).
func addInvalidFirst(set *[256]bool) {
	for c := 0x80; c < 256; c++ {
		set[c] = true
	}
}

// addRangeFirst adds the first bytes of the UTF-8 forms of lo..hi: each
// byte from lo's first to hi's (the first byte grows with the rune).
func addRangeFirst(set *[256]bool, lo, hi rune) {
	if lo <= utf8.RuneError && utf8.RuneError <= hi {
		addInvalidFirst(set)
	}
	var a, b [utf8.UTFMax]byte
	utf8.EncodeRune(a[:], lo)
	utf8.EncodeRune(b[:], min(hi, unicode.MaxRune))
	for c := int(a[0]); c <= int(b[0]); c++ {
		set[c] = true
	}
}

// beginsAtWordBoundary reports whether every match of re begins with \b.
func beginsAtWordBoundary(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpWordBoundary:
		return true
	case syntax.OpCapture:
		return beginsAtWordBoundary(re.Sub[0])
	case syntax.OpConcat:
		return len(re.Sub) > 0 && beginsAtWordBoundary(re.Sub[0])
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if !beginsAtWordBoundary(s) {
				return false
			}
		}
		return len(re.Sub) > 0
	}
	return false
}

// unboundedAvoids reports whether every repetition in re with no upper
// bound repeats one character class (or literal) that holds no byte of
// starts.
func unboundedAvoids(re *syntax.Regexp, starts *[256]bool) bool {
	switch re.Op {
	case syntax.OpStar, syntax.OpPlus:
		return oneCharAvoids(re.Sub[0], starts)
	case syntax.OpRepeat:
		if re.Max < 0 {
			return oneCharAvoids(re.Sub[0], starts)
		}
	}
	for _, s := range re.Sub {
		if !unboundedAvoids(s, starts) {
			return false
		}
	}
	return true
}

// oneCharAvoids: re is one character none of whose first bytes is in
// starts.
func oneCharAvoids(re *syntax.Regexp, starts *[256]bool) bool {
	switch re.Op {
	case syntax.OpCharClass:
	case syntax.OpLiteral:
		if len(re.Rune) != 1 {
			return false
		}
	default:
		return false
	}
	var set [256]bool
	firstBytes(re, &set)
	for b, in := range set {
		if in && starts[b] {
			return false
		}
	}
	return true
}

// searchAtStarts calls f with every match of the rule's expression that
// starts in one of parts of ctx, in order, as searchParts would (no match
// crosses a part), by one anchored attempt at each start of the rule's
// start table at or after the end of the last match: a search's
// leftmost-first match is the anchored one at the first start that has
// one. The attempts run the expression as written, its counted
// repetitions not loosened (compileExact): loosened, a bounded run (the
// PIN question's 96 characters) read on to the end of a long line from
// each start, where as written it stops at its bound. head is scratch
// for an attempt at the start of ctx.
func (cr *compiledRule) searchAtStarts(ctx []byte, parts []span, head *[]byte, f func(m []int)) {
	after := cr.startsAfter()
	for _, p := range parts {
		for s := p.start; s < p.end; s++ {
			if !cr.starts.at(ctx, s) {
				continue
			}
			var m []int
			switch {
			case s > 0:
				if m = after.FindSubmatchIndex(ctx[s-1:]); m != nil {
					for k := range m {
						if m[k] >= 0 {
							m[k] += s - 1
						}
					}
				}
			case cr.readsTextStart():
				m = compileExact(`^(?:` + cr.searchSrc + `)`).FindSubmatchIndex(ctx)
			default:
				// a newline stands for the start (\b, \B and (?m:^)
				// judge both alike), as on a keyword hit at offset 0
				*head = append(append((*head)[:0], '\n'), ctx...)
				if m = after.FindSubmatchIndex(*head); m != nil {
					for k := range m {
						if m[k] >= 0 {
							m[k]--
						}
					}
				}
			}
			if m == nil {
				cr.read(1)
				continue
			}
			m[0] = s
			cr.read(m[1] - s)
			f(m)
			if m[1] > s {
				s = m[1] - 1 // the next attempt at the match's end
			}
		}
	}
}

// startsAfter returns the rule's expression anchored at its start after
// one byte, as written (see searchAtStarts).
func (cr *compiledRule) startsAfter() *regexp.Regexp {
	if re := cr.startsAfterRE.Load(); re != nil {
		return re
	}
	re := compileExact(`^(?s:.)(?:` + cr.searchSrc + `)`)
	cr.startsAfterRE.Store(re)
	cr.compiledNow()
	return re
}
