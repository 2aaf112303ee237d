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
	// far: a run with no upper bound may cover a start, or a match need
	// not begin at a word boundary, so that a failing attempt may read
	// far (the rest of a long line): each attempt is then cut where the
	// filter's threads die (reach) and a part's attempts read a bounded
	// multiple of it, past which the part is searched whole.
	far bool
	// skip, of a far table, holds bit prev of word cur when a match at
	// a start s with text[s-1] == prev and text[s] == cur implies one at
	// s-1 (see leadsOf): where none begins at s-1, none begins at s, so
	// that a word's letters do not each cost an attempt. nil when the
	// expression's ways in were too many to list.
	skip *[256][4]uint64
	// next, when not nil, narrows the starts by the byte after them
	// (nextOf): a match may begin at s only where next.free holds
	// (text[s], text[s+1]), or next.line does and s begins a line.
	next *startNext
}

// startNext holds, for each byte a match may begin with, the bytes that
// may follow it: free by the ways in that may begin anywhere, line by
// those that begin with ^ (a line's start). A way in whose first
// character is not ASCII, or is not one character, lets any byte follow.
type startNext struct {
	free, line [256][4]uint64
}

// skips reports whether no match begins at text[s] given that none
// begins at text[s-1].
func (t *startTable) skips(text []byte, s int) bool {
	prev, cur := text[s-1], text[s]
	return t.skip != nil && t.skip[cur][prev>>6]&(1<<(prev&63)) != 0
}

// at reports whether a match may begin at text[s].
func (t *startTable) at(text []byte, s int) bool {
	if !t.first[text[s]] || t.atWord && !wordBoundaryAt(text, s) {
		return false
	}
	if t.next == nil || s+1 >= len(text) {
		return true
	}
	c, n := text[s], text[s+1]
	bit := uint64(1) << (n & 63)
	return t.next.free[c][n>>6]&bit != 0 || (s == 0 || text[s-1] == '\n') && t.next.line[c][n>>6]&bit != 0
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
	if nullable := firstBytes(re, &t.first); nullable {
		return nil
	}
	t.atWord = beginsAtWordBoundary(re)
	leads, ok := leadsOf([]*syntax.Regexp{re}, nil)
	if ok {
		t.next = nextOf(leads)
	}
	if t.atWord && unboundedAvoids(re, &t.first) {
		return t
	}
	// A far table: the attempts are bounded by reach and a budget. It
	// spares nothing where a match may begin at nearly every byte.
	n := 0
	for _, in := range t.first {
		if in {
			n++
		}
	}
	if n > farMaxStarts {
		return nil
	}
	t.far = true
	if ok {
		t.skip = skipTable(leads)
	}
	return t
}

// nextOf builds a table's next from its ways in, nil when it would rule
// out no start (a byte a match may begin with and any byte after it).
func nextOf(leads []lead) *startNext {
	var nx startNext
	for i := range leads {
		l := &leads[i]
		to := &nx.free
		if l.line {
			to = &nx.line
		}
		for c, in := range l.first {
			if !in {
				continue
			}
			for n := range 256 {
				if l.nextAll || l.next[n] {
					to[c][n>>6] |= 1 << (n & 63)
				}
			}
		}
	}
	for c := range 256 {
		for w := range 4 {
			if nx.free[c][w] != ^uint64(0) {
				for i := range leads {
					if leads[i].first[c] {
						return &nx
					}
				}
				break
			}
		}
	}
	return nil
}

// farMaxStarts is the most bytes a far table's matches may begin with:
// past it (a match may begin at any letter or mark of any script) the
// attempts would be tried nearly everywhere.
const farMaxStarts = 160

// A lead is one way a match begins, as leadsOf lists them.
type lead struct {
	first [256]bool // the bytes it begins with
	// atWord: it begins with \b
	atWord bool
	// absorb: the ASCII bytes c such that a match by this way at s with
	// text[s-1] == c is, read from s-1, a match by it too: the way
	// begins with a run (x*, x+) of a class that holds c.
	absorb [128]bool
	// line: it begins with ^, at a line's start (or \A)
	line bool
	// next: the bytes that may follow its first byte, any of them when
	// nextAll (its first character is not one ASCII byte)
	next    [256]bool
	nextAll bool
}

// leadsMax bounds the ways leadsOf lists.
const leadsMax = 512

// leadsOf lists the ways a match of the concatenation seq begins, each
// with the rest of the expression after it (so that absorb holds of the
// whole match, not of a part of it), appending to leads; ok is false
// when there are more than leadsMax or one may match the empty string.
func leadsOf(seq []*syntax.Regexp, leads []lead) (_ []lead, ok bool) {
	if len(leads) > leadsMax || len(seq) == 0 {
		return leads, false
	}
	head, rest := seq[0], seq[1:]
	with := func(subs ...*syntax.Regexp) []*syntax.Regexp {
		return append(append([]*syntax.Regexp(nil), subs...), rest...)
	}
	switch head.Op {
	case syntax.OpCapture:
		return leadsOf(with(head.Sub[0]), leads)
	case syntax.OpConcat:
		return leadsOf(with(head.Sub...), leads)
	case syntax.OpEmptyMatch:
		return leadsOf(rest, leads)
	case syntax.OpAlternate:
		for _, a := range head.Sub {
			if leads, ok = leadsOf(with(a), leads); !ok {
				return leads, false
			}
		}
		return leads, true
	case syntax.OpQuest:
		// taken (its own way in) or passed over (the rest's)
		if leads, ok = leadsOf(with(head.Sub[0]), leads); !ok {
			return leads, false
		}
		return leadsOf(rest, leads)
	}
	var l lead
	if firstBytes(&syntax.Regexp{Op: syntax.OpConcat, Sub: seq}, &l.first) {
		return leads, false
	}
	l.line = head.Op == syntax.OpBeginLine || head.Op == syntax.OpBeginText
	l.nextAll = !nextAfterFirst(head, rest, &l.next)
	switch head.Op {
	case syntax.OpWordBoundary:
		l.atWord = true
	case syntax.OpStar, syntax.OpPlus:
		// x* or x+ over one character: read from s-1 it takes text[s-1]
		// too, and the rest of the match is the same
		if sub := head.Sub[0]; sub.Op == syntax.OpCharClass || sub.Op == syntax.OpLiteral && len(sub.Rune) == 1 {
			re, err := syntax.Compile(&syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{sub, {Op: syntax.OpEndText}}, Flags: sub.Flags})
			if err == nil {
				for c := range l.absorb {
					l.absorb[c] = matchesByte(re, byte(c))
				}
			}
		}
	}
	return append(leads, l), true
}

// nextAfterFirst adds to next the bytes that may follow the first byte of
// a match of head then rest, when head is one character every form of
// which is one ASCII byte (a class of ASCII, a literal whose first rune
// and its folds are ASCII), and reports whether it could: the byte after
// it begins what follows that character (any byte, where that may be
// empty).
func nextAfterFirst(head *syntax.Regexp, rest []*syntax.Regexp, next *[256]bool) bool {
	var after []*syntax.Regexp
	switch head.Op {
	case syntax.OpCharClass:
		if len(head.Rune) == 0 || head.Rune[len(head.Rune)-1] >= utf8.RuneSelf {
			return false
		}
		after = rest
	case syntax.OpLiteral:
		if len(head.Rune) == 0 {
			return false
		}
		r := head.Rune[0]
		if r >= utf8.RuneSelf {
			return false
		}
		if head.Flags&syntax.FoldCase != 0 {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				if f >= utf8.RuneSelf {
					return false
				}
			}
		}
		if len(head.Rune) > 1 {
			after = append(after, &syntax.Regexp{Op: syntax.OpLiteral, Flags: head.Flags, Rune: head.Rune[1:]})
		}
		after = append(after, rest...)
	default:
		return false
	}
	if firstBytes(&syntax.Regexp{Op: syntax.OpConcat, Sub: after}, next) {
		return false // what follows may be empty: any byte, or none
	}
	return true
}

// matchesByte reports whether the one-character program prog takes c.
func matchesByte(prog *syntax.Prog, c byte) bool {
	for pc := uint32(prog.Start); ; {
		in := &prog.Inst[pc]
		switch in.Op {
		case syntax.InstNop, syntax.InstCapture:
			pc = in.Out
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			return in.MatchRune(rune(c))
		default:
			return false
		}
	}
}

// skipTable builds a far table's skip from its leads: a match at s
// implies one at s-1 when every way that may begin at s cannot (a way
// after \b where both bytes are alike word or not word) or takes
// text[s-1] into its run.
func skipTable(leads []lead) *[256][4]uint64 {
	skip := new([256][4]uint64)
	for cur := range 256 {
		for prev := range 256 {
			ok := true
			for i := range leads {
				l := &leads[i]
				if !l.first[cur] {
					continue
				}
				if l.atWord && isWordByte(byte(prev)) == isWordByte(byte(cur)) || prev < 128 && l.absorb[prev] {
					continue
				}
				ok = false
				break
			}
			if ok {
				skip[cur][prev>>6] |= 1 << (prev & 63)
			}
		}
	}
	return skip
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
//
// With a far table, d (the filter) cuts each attempt's text where its
// threads die, a start that a failed one before it rules out (skips) is
// not tried, and a part whose attempts read more than attemptsRead times
// its length, or one of them past farReach, is searched whole by
// searchParts instead. The part's search finds the same matches, in the
// same order, as its attempts: those the attempts gave before they
// stopped are passed over. (They were once held until the part's
// attempts were done, each with its submatches: ~300 bytes a match of a
// rule of many groups, 33 MB of a 4 MB line's 92.)
func (cr *compiledRule) searchAtStarts(d *prefilterDFA, ctx []byte, parts []span, head *[]byte, f func(m []int)) {
	t := cr.starts
	if t.far && d == nil {
		cr.searchParts(ctx, parts, f)
		return
	}
	after := cr.startsAfter()
	for i, p := range parts {
		budget := 0
		if t.far {
			budget = attemptsRead * (p.end - p.start + farSlack)
		}
		given := 0    // the part's matches given to f
		none := false // no match begins at s-1
		s := p.start
		for ; s < p.end; s++ {
			if !t.at(ctx, s) || t.far && none && s > 0 && t.skips(ctx, s) {
				none = true
				continue
			}
			end := len(ctx)
			if t.far {
				// read no further than farReach: threads alive there
				// (a loosened run of words to the end of the line) say
				// the attempts would read far, and the part's search
				// costs less
				cut := min(len(ctx), s+farReach)
				may, n, ok := cr.reach(d, ctx[s:cut])
				budget -= n
				if ok && n == cut-s && cut < len(ctx) && cr.reachDFA.Load() == nil && cr.boundReach() {
					// the loose filter's threads ran on: the bounded
					// one's may die sooner
					may, n, ok = cr.reach(d, ctx[s:cut])
					budget -= n
				}
				if !ok || n == cut-s && cut < len(ctx) {
					break
				}
				end = min(end, s+n+1)
				if budget -= end - s; budget < 0 {
					break
				}
				if !may {
					none = true
					continue
				}
			}
			m := cr.attemptAt(after, ctx, s, end, head)
			if m == nil {
				cr.read(1)
				none = true
				continue
			}
			cr.read(m[1] - s)
			f(m)
			given++
			none = false
			if m[1] > s {
				s = m[1] - 1 // the next attempt at the match's end
			}
		}
		if s < p.end { // the budget spent: the part's search gives the rest
			skip := given
			cr.searchParts(ctx, parts[i:i+1], func(m []int) {
				if skip > 0 {
					skip--
					return
				}
				f(m)
			})
		}
	}
}

// attemptAt returns the match of the anchored attempt at s in ctx[:end],
// its offsets in ctx and its start s, or nil (see searchAtStarts).
func (cr *compiledRule) attemptAt(after *regexp.Regexp, ctx []byte, s, end int, head *[]byte) []int {
	var m []int
	switch {
	case s > 0:
		re, text := cr.startsAttempt(after, ctx[s-1:end])
		if m = re.FindSubmatchIndex(text); m != nil {
			for k := range m {
				if m[k] >= 0 {
					m[k] += s - 1
				}
			}
		}
	case cr.readsTextStart():
		m = compileExact(`^(?:` + cr.searchSrc + `)`).FindSubmatchIndex(ctx[:end])
	default:
		// a newline stands for the start (\b, \B and (?m:^) judge both
		// alike), as on a keyword hit at offset 0
		if m = findAfterNewline(after, ctx[:end], head); m != nil {
			for k := range m {
				if m[k] >= 0 {
					m[k]--
				}
			}
		}
	}
	if m != nil {
		m[0] = s
	}
	return m
}

// farReach is the furthest a far table's attempt may read: past it the
// part is searched whole.
const farReach = 4096

// farSlack is added to a part's length in a far table's budget: a short
// part's few attempts may each read a line's worth past it.
const farSlack = 256

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

// startsAttempt returns the expression an attempt at a start runs and
// the text it runs it on: after and text, or, once the rule has made
// narrowAfter attempts, after narrowed to the bytes of text a match may
// read, and those (see narrow.go).
func (cr *compiledRule) startsAttempt(after *regexp.Regexp, text []byte) (*regexp.Regexp, []byte) {
	if cr.startsAttempts.Add(1) <= cr.tuned().narrowAfter {
		return after, text
	}
	cr.startsNarrowOnce.Do(func() {
		cr.startsNarrow = newByteNarrowingMin(`^(?s:.)(?:`+cr.searchSrc+`)`, after, cr.tuned().narrowMinInsts)
	})
	if cr.startsNarrow == nil {
		return after, text
	}
	return cr.startsNarrow.forText(text)
}
