package secrets

import (
	"math/bits"
	"regexp/syntax"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unicode"
)

// Go's regexp has no DFA: its matcher steps every live thread of the
// expression at every byte, copying captures as it goes, and the generic
// rules (a name, an operator, a value run) keep dozens of threads alive on
// a line dense with their keywords: 2 µs a byte, seconds for 4 MB of
// "password=" that holds no secret at all. A rule's text is therefore
// first read by a lazily built DFA of a looser expression (no captures,
// the upper bound of every counted repetition dropped, zero-width assertions
// other than the end of the text taken to hold), whose language holds the
// rule's: where it finds no match, the rule has none, and the text is not
// handed to the regexp at all. A cached transition costs one table load a
// byte, whatever the expression.

// dfaMaxStates bounds the states one cache builds: past it the filter
// says "may match" and the rule's regexp decides, as without the filter.
const dfaMaxStates = 2048

// dfaBudget is the bytes of states the filters of one scanner may hold
// together (see filterBudget). Past it a filter adds no state: a text that
// needs one goes to the regexp, as it would without the filter, and the
// states built keep serving. Without it a tree that wakes every rule on
// long lines (16 MB of lines of random keywords and values) grew the
// filters to ~90 MB and the process to 200 MB; under 8 MB it peaks at
// 141 MB, and at 149 MB on ten times that tree. Emptying a cache at the
// budget instead, as RE2 resets its DFA, rebuilt states without end there
// (7 GB allocated on the larger tree, 226 MB peak, 50 % more CPU). At 4 MB
// instead of 8 the tree that wakes every rule holds ~5 MB less, for no
// more CPU: the states past the first few thousand serve few bytes each.
// The bytes are those the caches' slices hold by their capacity (see
// dfaCache.state): a count of the states alone, leaving out the room
// their slices had grown into and the index's keys and entries, let the
// filters hold twice the budget.
var dfaBudget int64 = 4 << 20 // a variable: the tests run filters on a small one

// filterBudget is the room a set of filters shares for their states: a
// scanner's rules' filters share the scanner's, so that neither the
// filters of another scanner (the tests', a language server's before a
// reload, a caller's with other settings) nor those it dropped take
// their room; the allowlists' filters, which every scanner of the process
// shares, share allowlistFilters.
type filterBudget struct {
	limit int64        // set before the filters run
	held  atomic.Int64 // bytes the filters' caches hold
}

// newFilterBudget returns a budget of dfaBudget bytes.
func newFilterBudget() *filterBudget { return &filterBudget{limit: dfaBudget} }

// take reserves n bytes, false when they would pass the limit.
func (b *filterBudget) take(n int64) bool {
	if b.held.Add(n) > b.limit {
		b.held.Add(-n)
		return false
	}
	return true
}

// allowlistFilters is the budget of the filters of the gitleaks
// allowlists' expressions, built once per process and shared by every
// scanner. On the tree that wakes every rule (gen-secrets-tree -allkw) they
// hold 24 KB.
var allowlistFilters = &filterBudget{limit: 1 << 20}

// dfaAfter is how many bytes of a rule's searches pass before its filter
// is built: building costs about what compiling the expression does, and
// on a tree of small files most rules read a few lines.
var dfaAfter int64 = 64 << 10 // a variable: the tests build every filter at once

// dfaKeepMin is the largest minimum of a repetition the filter keeps.
const dfaKeepMin = 32

// dfaKeepRunMin is the largest minimum kept for a run of one character
// class, which costs one state per count: a provider's 40-character
// value loosened to x+ let every line of its bare prefix through (a 4 MB
// line of "AKIA " went whole to the expression).
const dfaKeepRunMin = 64

// dfaMinText is the shortest text a filter reads: Go's regexp reads a
// few lines (the files of a tree of small files) with its backtracker
// faster than a filter that is still building its states.
var dfaMinText = 256 // a variable: the tests filter every text

// dfaCaches is how many goroutines may run a rule's filter at once, each
// on its own cache; one more searches without it.
const dfaCaches = 4

// useDFA turns the filters on; the tests turn them off to compare.
var useDFA = true

// prefilterDFA is the looser expression's program as bit-set NFA states,
// and the lazily built DFA over them.
type prefilterDFA struct {
	progTable
	// byte class of each byte: bytes every instruction takes or refuses
	// alike lead every state to the same state, so a state keeps a
	// transition per class (often 10-40) instead of one per byte (256).
	// The bytes outside ASCII are two classes, those that start a rune
	// and those that may go on with one (see step).
	class   [256]uint8
	classes int
	// the instructions that may take a rune outside ASCII (é, ſ for a
	// folded s, U+FFFD for a byte that is not UTF-8)
	wide    pcSet
	endText pcSet // instructions that go on to a match at the end of the text
	start   pcSet // closure of the start
	// the expression reads the start of the text (^, \A) or of a line
	beginText, beginLine bool
	caches               [dfaCaches]dfaCache
	// budget is the room its caches take their bytes from
	budget *filterBudget
	// bytes its caches hold, taken from budget and given back when the
	// filter is collected (an early filter let go, a scanner's filters
	// when the budget outlives them): its own allocation, which the
	// cleanup that gives them back may hold without holding the filter
	held *atomic.Int64
}

// filterHeld is what the cleanup of a collected filter gives back.
type filterHeld struct {
	budget *filterBudget
	held   *atomic.Int64
}

type dfaCache struct {
	mu sync.Mutex
	// by mode (0 anchored, 1 unanchored): the states' sets (words a
	// state, one after the other), an index of them (an open-addressing
	// table of state+1 by the set's hash, 0 empty), transitions (classes
	// a state, -1 unknown), accepting states. The per-state slices have
	// room for the same number of states (see state).
	sets   [2][]uint64
	index  [2][]int32
	trans  [2][]int32
	accept [2][]uint8 // 1: holds a match; 2: holds one at the end of the text
	quiet  [2][]bool  // holds no instruction that reads a byte
	// scratch of state and step
	next, with pcSet
}

// dfaLoosen rewrites re in place into an expression whose language holds
// re's: no captures, x{m,n} as x{m,} (or x+ for a large m): the states of
// an upper bound are what makes a counted repetition costly.
func dfaLoosen(re *syntax.Regexp) *syntax.Regexp {
	for i, s := range re.Sub {
		re.Sub[i] = dfaLoosen(s)
	}
	switch re.Op {
	case syntax.OpCapture:
		return re.Sub[0]
	case syntax.OpRepeat:
		if re.Min <= dfaKeepMin || re.Min <= dfaKeepRunMin && oneChar(re.Sub[0]) {
			// x{m,}: the minimum (a value of at least 3, 10, 20
			// characters) keeps rejecting what the rule rejects, at m
			// states
			return &syntax.Regexp{Op: syntax.OpRepeat, Flags: re.Flags, Min: re.Min, Max: -1, Sub: re.Sub[:1]}
		}
		return &syntax.Regexp{Op: syntax.OpPlus, Flags: re.Flags, Sub: re.Sub[:1]}
	}
	return re
}

// dropCaptures rewrites re in place into the same expression without
// its captures: the language of the reach filter (see reachFilter).
func dropCaptures(re *syntax.Regexp) *syntax.Regexp {
	for i, s := range re.Sub {
		re.Sub[i] = dropCaptures(s)
	}
	if re.Op == syntax.OpCapture {
		return re.Sub[0]
	}
	return re
}

// newPrefilterDFA returns the filter of expr, nil when expr does not
// parse.
// Its states take their bytes from b (nil: a budget of its own).
func newPrefilterDFA(expr string, b *filterBudget) *prefilterDFA {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	return newPrefilterDFAOf(re, b)
}

// newPrefilterDFAOf returns the filter of the expression re is the parse
// of, which it rewrites.
func newPrefilterDFAOf(re *syntax.Regexp, b *filterBudget) *prefilterDFA {
	return newFilterOfLoosened(dfaLoosen(re), b)
}

// newBoundedFilter returns the filter of expr with its counted
// repetitions as written (see reachFilter), nil when expr does not parse.
func newBoundedFilter(expr string, b *filterBudget) *prefilterDFA {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	return newFilterOfLoosened(dropCaptures(re), b)
}

func newFilterOfLoosened(re *syntax.Regexp, b *filterBudget) *prefilterDFA {
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil
	}
	table, ok := newProgTable(prog, false)
	if !ok {
		return nil
	}
	if b == nil {
		b = newFilterBudget()
	}
	d := &prefilterDFA{progTable: table, budget: b, held: new(atomic.Int64)}
	var ascii [128]uint8
	ascii, d.classes = byteClasses(d.masks)
	copy(d.class[:], ascii[:])
	for b := 0x80; b < 0x100; b++ {
		d.class[b] = uint8(d.classes)
		if b >= 0xC0 {
			d.class[b] = uint8(d.classes + 1)
		}
	}
	d.classes += 2
	d.wide = make(pcSet, d.words)
	for pc := range prog.Inst {
		if takesWide(&prog.Inst[pc]) {
			d.wide.add(uint32(pc))
		}
	}
	runtime.AddCleanup(d, func(h filterHeld) { h.budget.held.Add(-h.held.Load()) }, filterHeld{b, d.held})
	for pc := range prog.Inst {
		if in := &prog.Inst[pc]; in.Op == syntax.InstEmptyWidth {
			d.beginText = d.beginText || syntax.EmptyOp(in.Arg)&syntax.EmptyBeginText != 0
			d.beginLine = d.beginLine || syntax.EmptyOp(in.Arg)&syntax.EmptyBeginLine != 0
		}
	}
	d.endText = endTextSet(prog, d.words)
	d.start = closure(prog, make(pcSet, d.words), uint32(prog.Start), false)
	return d
}

// endTextSet returns the instructions from which a match is reachable
// without consuming input once the end of the text holds too (every
// assertion holding), worked out backwards to a fixed point: a closure
// from each instruction cost a set per instruction.
func endTextSet(prog *syntax.Prog, words int) pcSet {
	set := make(pcSet, words)
	for changed := true; changed; {
		changed = false
		for pc := len(prog.Inst) - 1; pc >= 0; pc-- {
			if set.has(uint32(pc)) {
				continue
			}
			in := &prog.Inst[pc]
			var reaches bool
			switch in.Op {
			case syntax.InstMatch:
				reaches = true
			case syntax.InstAlt, syntax.InstAltMatch:
				reaches = set.has(in.Out) || set.has(in.Arg)
			case syntax.InstCapture, syntax.InstNop, syntax.InstEmptyWidth:
				reaches = set.has(in.Out)
			}
			if reaches {
				set.add(uint32(pc))
				changed = true
			}
		}
	}
	return set
}

// closure adds to set the instructions reachable from pc without
// consuming input. Zero-width assertions are taken to hold, but for the
// end of the text, which holds only with atEnd: a value that must end at
// a terminator or at the end of the text ($) is then not found in a run
// that has neither.
func closure(prog *syntax.Prog, set pcSet, pc uint32, atEnd bool) pcSet {
	if set.has(pc) {
		return set
	}
	set.add(pc)
	in := &prog.Inst[pc]
	switch in.Op {
	case syntax.InstAlt, syntax.InstAltMatch:
		closure(prog, set, in.Out, atEnd)
		closure(prog, set, in.Arg, atEnd)
	case syntax.InstCapture, syntax.InstNop:
		closure(prog, set, in.Out, atEnd)
	case syntax.InstEmptyWidth:
		if atEnd || syntax.EmptyOp(in.Arg)&syntax.EmptyEndText == 0 {
			closure(prog, set, in.Out, atEnd)
		}
	}
	return set
}

// mayMatch reports whether the looser expression matches in text: from
// its start only (anchored), or anywhere. With cut (the scanner cut the
// text short of its line's end, and drops a match that ends there) a
// match ending at the end of text does not count. It says true when it
// cannot tell (too many states, every cache in use).
func (d *prefilterDFA) mayMatch(text []byte, anchored, cut bool) bool {
	may, _, _ := d.scan(text, anchored, cut, 0, nil)
	return may
}

// lock returns one of the filter's caches, locked, with its mode's
// empty state made; nil when every cache is busy (another goroutine
// reads one) or the state could not be made.
func (d *prefilterDFA) lock(mode int) *dfaCache {
	for i := range d.caches {
		c := &d.caches[i]
		if !c.mu.TryLock() {
			continue
		}
		if len(c.accept[mode]) == 0 {
			if c.state(d, mode, make(pcSet, d.words)) < 0 { // state 0: the empty set
				c.mu.Unlock()
				return nil
			}
		}
		return c
	}
	return nil
}

// scan is mayMatch which, unanchored and with every > 0, also returns
// split points: offsets q at least every bytes apart where no thread of
// the expression started before q is alive and text[q-1] is a byte that
// is not a word byte (a newline, for an expression that reads the start
// of a line). A search of text[p:q+1] then finds what a search of the
// whole text finds among the matches that start in [p, q), and a search
// of text[q:] the rest (see searchSplit). ok is false when the filter
// could not tell; then may is true and there are no splits.
func (d *prefilterDFA) scan(text []byte, anchored, cut bool, every int, splits []int) (may bool, _ []int, ok bool) {
	mode := 1
	init := pcSet(nil)
	if anchored {
		mode, init = 0, d.start
	}
	c := d.lock(mode)
	if c == nil {
		return true, nil, false
	}
	defer c.mu.Unlock()
	if init == nil {
		// the empty set, in step's scratch: state copies the set it keeps
		init = slices.Grow(c.next[:0], d.words)[:d.words]
		clear(init)
	}
	st := c.state(d, mode, init)
	if st < 0 {
		return true, nil, false
	}
	last := 0
	for i, b := range text {
		if c.accept[mode][st]&1 != 0 {
			may = true
			if every <= 0 {
				return true, nil, true
			}
		}
		next := c.trans[mode][int(st)*d.classes+int(d.class[b])]
		if next < 0 {
			next = c.step(d, mode, st, b)
			if next < 0 {
				return true, nil, false
			}
		}
		if next == 0 && anchored {
			return may, nil, true // no thread left
		}
		if c.quiet[mode][next] {
			// No thread started at or before i reads on after it.
			if q := i + 1; every > 0 && q-last >= every && q < len(text) && d.splitsAfter(b) {
				splits = append(splits, q)
				last = q
			}
		}
		st = next
	}
	return may || !cut && c.accept[mode][st] != 0, splits, true
}

// parts reads text as scan does, unanchored with splits at least every
// bytes apart, and returns the parts between them that may hold the start
// of a match: those in which, or at whose end, the looser expression
// accepts. No thread lives across a split, so a match that starts in a
// part ends in it; a part where no match of the looser expression ends
// holds none of the rule's (see searchParts). It reads every byte, in
// ASCII or not (see step); past its state budget, the rest of the text is
// one part. ok is false when no cache of the filter is free; then the
// caller searches the whole text.
func (d *prefilterDFA) parts(text []byte, cut bool, every int, parts []span) (_ []span, ok bool) {
	const mode = 1
	c := d.lock(mode)
	if c == nil {
		return parts, false
	}
	defer c.mu.Unlock()
	init := slices.Grow(c.next[:0], d.words)[:d.words]
	clear(init)
	st := c.state(d, mode, init)
	if st < 0 {
		return parts, false
	}
	last, may := 0, false
	for i, b := range text {
		if c.accept[mode][st]&1 != 0 {
			may = true
		}
		next := c.trans[mode][int(st)*d.classes+int(d.class[b])]
		if next < 0 {
			if next = c.step(d, mode, st, b); next < 0 {
				// Its state budget spent: the parts found so far stand
				// (no thread lives across their ends), and the rest is
				// one part.
				return append(parts, span{last, len(text)}), true
			}
		}
		if c.quiet[mode][next] {
			if q := i + 1; q-last >= every && q < len(text) && d.splitsAfter(b) {
				// a match ending at q started before it: this part's
				if may || c.accept[mode][next]&1 != 0 {
					parts = append(parts, span{last, q})
				}
				last, may = q, false
			}
		}
		st = next
	}
	if may || c.accept[mode][st]&1 != 0 || !cut && c.accept[mode][st] != 0 {
		parts = append(parts, span{last, len(text)})
	}
	return parts, true
}

// reach is the anchored mayMatch read on past a match: it also returns
// the offset at which no thread of the looser expression started at the
// start of text is alive any more (len(text) when one lives to the end).
// The rule's own threads, fewer, are dead there too: its expression run
// on the text up to that offset (and one byte more, which an assertion
// at the offset reads) finds the match it finds on the whole text, in
// the time of the match, not of the text (an anchored attempt at a hit
// read up to 2 KB of line with Go's backtracker, which also clears a
// bit per instruction and byte of its input first). ok is false when
// the filter could not tell.
func (d *prefilterDFA) reach(text []byte) (may bool, end int, ok bool) {
	const mode = 0
	c := d.lock(mode)
	if c == nil {
		return true, len(text), false
	}
	defer c.mu.Unlock()
	st := c.state(d, mode, d.start)
	if st < 0 {
		return true, len(text), false
	}
	for i, b := range text {
		if c.accept[mode][st]&1 != 0 {
			may = true
		}
		next := c.trans[mode][int(st)*d.classes+int(d.class[b])]
		if next < 0 {
			if next = c.step(d, mode, st, b); next < 0 {
				return true, len(text), false
			}
		}
		if next == 0 {
			// No thread left. A byte outside ASCII where they died
			// starts a rune none of them takes (see step): the text up
			// to it and a byte more, which may cut the rune, ends every
			// thread of the expression there too.
			return may, i + 1, true
		}
		st = next
	}
	return may || c.accept[mode][st] != 0, len(text), true
}

// nfaMayMatch is mayMatch(text, false, cut) read on sets of
// instructions, building no state.
func (d *prefilterDFA) nfaMayMatch(text []byte, cut bool) bool {
	var buf [2][maxFollowWords]uint64
	var cur, next pcSet
	if d.words <= maxFollowWords {
		cur, next = buf[0][:d.words], buf[1][:d.words]
	} else {
		cur, next = make(pcSet, d.words), make(pcSet, d.words)
	}
	for _, b := range text {
		// cur holds the threads started before b; those starting at it
		// join them (as the unanchored states do)
		clear(next)
		if 0x80 <= b && b < 0xC0 {
			copy(next, cur) // see step
		}
		for k := range cur {
			cur[k] |= d.start[k]
		}
		if cur.meets(d.match) {
			return true
		}
		d.advanceAny(cur, next, b)
		cur, next = next, cur
	}
	for k := range cur {
		cur[k] |= d.start[k]
	}
	return !cut && (cur.meets(d.match) || cur.meets(d.endText))
}

// nfaReach is reach read on sets of instructions, building no state.
func (d *prefilterDFA) nfaReach(text []byte) (may bool, end int, ok bool) {
	var buf [2][maxFollowWords]uint64
	var cur, next pcSet
	if d.words <= maxFollowWords {
		cur, next = buf[0][:d.words], buf[1][:d.words]
	} else {
		cur, next = make(pcSet, d.words), make(pcSet, d.words)
	}
	copy(cur, d.start)
	for i, b := range text {
		if cur.meets(d.match) {
			may = true
		}
		clear(next)
		if 0x80 <= b && b < 0xC0 {
			copy(next, cur) // see step
		}
		d.advanceAny(cur, next, b)
		if next.empty() {
			return may, i + 1, true // no thread left
		}
		cur, next = next, cur
	}
	return may || cur.meets(d.match) || cur.meets(d.endText), len(text), true
}

// splitsAfter reports whether a search may start right after the byte b
// and see what it sees in the whole text: b is not a word byte (\b and
// \B judge the start of a text as after one), and the expression does not
// read the start of the text, nor the start of a line unless b ends one.
func (d *prefilterDFA) splitsAfter(b byte) bool {
	// after a byte outside ASCII a search may start inside a rune
	if b >= 0x80 || isWordByte(b) || d.beginText {
		return false
	}
	return !d.beginLine || b == '\n'
}

// state returns the index of set in mode, adding it; -1 past
// dfaMaxStates, or when the bytes the new state needs would pass the
// filter's budget. An unanchored state holds the threads started before
// the current byte; the threads starting at it (start) are added when
// it is stepped and judged.
//
// The bytes counted are those of the cache's slices by capacity: a state
// needs room in each (its transitions, its set, two bytes), and the
// index an entry at most half full. The slices grow by doubling, the
// growth taken from the budget before it is made: a state that needs
// the slices to double where the budget has no room for it is not
// added.
func (c *dfaCache) state(d *prefilterDFA, mode int, set pcSet) int32 {
	h := hashPCSet(set)
	slot, i := c.find(d, mode, set, h)
	if i >= 0 {
		return i
	}
	n := len(c.accept[mode])
	if n >= dfaMaxStates {
		return -1
	}
	room, tab := cap(c.accept[mode]), len(c.index[mode])
	newRoom, newTab := room, tab
	if n == room {
		newRoom = min(max(2*room, 8), dfaMaxStates)
	}
	if 2*(n+1) > tab {
		newTab = max(2*tab, 16)
	}
	perState := int64(d.classes*4 + d.words*8 + 2)
	if cost := int64(newRoom-room)*perState + int64(newTab-tab)*4; cost > 0 {
		if !d.budget.take(cost) {
			return -1
		}
		d.held.Add(cost)
	}
	if newRoom != room {
		c.trans[mode] = withRoom(c.trans[mode], newRoom*d.classes)
		c.sets[mode] = withRoom(c.sets[mode], newRoom*d.words)
		c.accept[mode] = withRoom(c.accept[mode], newRoom)
		c.quiet[mode] = withRoom(c.quiet[mode], newRoom)
	}
	if newTab != tab {
		c.rehash(d, mode, newTab)
		slot, _ = c.find(d, mode, set, h)
	}
	i = int32(n)
	c.index[mode][slot] = i + 1
	c.sets[mode] = append(c.sets[mode], set...) // the caller's may be step's scratch
	for range d.classes {
		c.trans[mode] = append(c.trans[mode], -1)
	}
	live := set
	if mode == 1 {
		live = d.withStart(set)
	}
	var acc uint8
	if live.meets(d.match) {
		acc |= 1
	}
	if live.meets(d.endText) {
		acc |= 2
	}
	c.accept[mode] = append(c.accept[mode], acc)
	c.quiet[mode] = append(c.quiet[mode], !set.meets(d.reads))
	return i
}

// withRoom returns s copied into a slice of capacity n: exactly n, where
// append's growth (and slices.Grow's) would give a large slice up to a
// third more than asked for, which the budget would not see.
func withRoom[E any](s []E, n int) []E {
	t := make([]E, len(s), n)
	copy(t, s)
	return t
}

// setOf returns state st's set in mode.
func (c *dfaCache) setOf(d *prefilterDFA, mode int, st int32) pcSet {
	at := int(st) * d.words
	return c.sets[mode][at : at+d.words : at+d.words]
}

// find returns the slot of set in mode's index (h its hash) and its
// state, or the empty slot where it would go and -1.
func (c *dfaCache) find(d *prefilterDFA, mode int, set pcSet, h uint64) (int, int32) {
	index := c.index[mode]
	if len(index) == 0 {
		return -1, -1
	}
	mask := uint64(len(index) - 1)
	for k := h & mask; ; k = (k + 1) & mask {
		v := index[k]
		if v == 0 {
			return int(k), -1
		}
		if slices.Equal(c.setOf(d, mode, v-1), set) {
			return int(k), v - 1
		}
	}
}

// rehash makes mode's index size slots (a power of two) and enters every
// state in it.
func (c *dfaCache) rehash(d *prefilterDFA, mode, size int) {
	index := make([]int32, size)
	mask := uint64(size - 1)
	for st := range int32(len(c.accept[mode])) {
		k := hashPCSet(c.setOf(d, mode, st)) & mask
		for index[k] != 0 {
			k = (k + 1) & mask
		}
		index[k] = st + 1
	}
	c.index[mode] = index
}

// hashPCSet mixes the words of s into a hash of the set.
func hashPCSet(s pcSet) uint64 {
	h := uint64(len(s)) * 0x9E3779B97F4A7C15
	for _, w := range s {
		h = (h ^ w) * 0xBF58476D1CE4E5B9
		h ^= h >> 31
	}
	return h
}

// byteClasses partitions the ASCII bytes into classes no mask tells
// apart: the class of each byte and how many classes there are. Each
// mask splits the classes it cuts, its bytes going to a new class.
func byteClasses(masks []asciiMask) (class [128]uint8, n int) {
	n = 1
	seen := map[asciiMask]bool{}
	for _, m := range masks {
		if m == (asciiMask{}) || seen[m] {
			continue
		}
		seen[m] = true
		var in, out [128]bool // by class: has bytes in m, out of it
		for b, c := range class {
			if m.has(byte(b)) {
				in[c] = true
			} else {
				out[c] = true
			}
		}
		var to [128]uint8 // by class cut by m: the class its bytes in m go to
		for c := range n {
			if in[c] && out[c] {
				to[c] = uint8(n)
				n++
			}
		}
		for b, c := range class {
			if to[c] != 0 && m.has(byte(b)) {
				class[b] = to[c]
			}
		}
	}
	return class, n
}

func (d *prefilterDFA) withStart(set pcSet) pcSet {
	u := make(pcSet, d.words)
	for k := range u {
		u[k] = set[k] | d.start[k]
	}
	return u
}

// step computes and caches the transition of state st on byte b. Its
// sets are scratch, copied only when they make a new state: past
// dfaBudget a transition is computed again each time it is taken, and
// allocating two sets and a key each time made a tree that wakes every
// rule allocate ~50 MB.
func (c *dfaCache) step(d *prefilterDFA, mode int, st int32, b byte) int32 {
	set := c.setOf(d, mode, st)
	if mode == 1 {
		c.with = slices.Grow(c.with[:0], d.words)[:d.words]
		for k := range c.with {
			c.with[k] = set[k] | d.start[k]
		}
		set = c.with
	}
	c.next = slices.Grow(c.next[:0], d.words)[:d.words]
	next := c.next
	clear(next)
	if 0x80 <= b && b < 0xC0 {
		// A byte that may go on with a rune (10xxxxxx): the threads
		// that took the rune's first byte stay where they are. It may
		// also be a rune of its own, U+FFFD, where UTF-8 does not hold:
		// the threads take it as they take a rune's first byte. Both
		// ways, the set holds every thread of the expression reading
		// runes.
		copy(next, c.setOf(d, mode, st))
	}
	d.advanceAny(set, next, b)
	n := c.state(d, mode, next)
	if n >= 0 {
		c.trans[mode][int(st)*d.classes+int(d.class[b])] = n
	}
	return n
}

// advanceWide adds to next what the instructions of cur lead to on a
// byte that starts a rune outside ASCII, or that is one (U+FFFD): the
// closures after those of them that may take such a rune.
func (d *prefilterDFA) advanceWide(cur, next pcSet) {
	for w, word := range cur {
		word &= d.wide[w]
		for word != 0 {
			pc := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			ws := d.back[d.outAt[pc]:d.outAt[pc+1]]
			dst := next[d.outLo[pc]:]
			for k, w := range ws {
				dst[k] |= w
			}
		}
	}
}

// advanceAny is advance for any byte: one outside ASCII is read as a
// rune's first byte (see step).
func (d *prefilterDFA) advanceAny(cur, next pcSet, b byte) {
	if b < 0x80 {
		d.advance(cur, next, b)
	} else {
		d.advanceWide(cur, next)
	}
}

// takesWide reports whether the instruction may take a rune outside
// ASCII, as in.MatchRune may.
func takesWide(in *syntax.Inst) bool {
	switch in.Op {
	case syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
		return true
	case syntax.InstRune1:
		return in.Rune[0] >= 0x80
	case syntax.InstRune:
		rs := in.Rune
		if len(rs) == 1 {
			// a literal, and its fold orbit when folded: s takes ſ
			// (U+017F), k the Kelvin sign (U+212A)
			if rs[0] >= 0x80 {
				return true
			}
			if syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
				for r := unicode.SimpleFold(rs[0]); r != rs[0]; r = unicode.SimpleFold(r) {
					if r >= 0x80 {
						return true
					}
				}
			}
			return false
		}
		for i := 1; i < len(rs); i += 2 {
			if rs[i] >= 0x80 {
				return true
			}
		}
	}
	return false
}

// filterFor returns the filter the scanner asks before it runs the rule's
// expression on a text of n bytes, nil for none, and whether the text is
// to be read without building states (nfaMayMatch, nfaReach). Until the
// expression is compiled every text is asked, without building states,
// the filter built on the rule's first text from prepare's parse:
// building it costs a third of compiling the expression, and most rules a
// text wakes match nothing in it, so that their expressions are never
// compiled. Once the rule has read dfaAfter bytes, and after it is
// compiled, denseFilter's.
func (cr *compiledRule) filterFor(n int) (*prefilterDFA, bool) {
	if !useDFA {
		return nil, false
	}
	if !cr.compiled.Load() {
		if d := cr.denseFilter(n); d != nil {
			return d, false // a rule that read dfaAfter bytes builds states
		}
		cr.earlyOnce.Do(func() {
			var d *prefilterDFA
			if cr.tree != nil {
				d = newPrefilterDFAOf(cr.tree, cr.budget)
			} else {
				d = newPrefilterDFA(cr.filterSrc(), cr.budget)
			}
			cr.tree = nil
			if d != nil {
				cr.early.Store(d)
				if cr.compiled.Load() {
					cr.early.Store(nil) // compiled meanwhile: its filter serves
				}
			}
		})
		if d := cr.early.Load(); d != nil {
			return d, true
		}
	}
	return cr.denseFilter(n), false
}

// denseFilter returns the rule's filter, its states built as it reads,
// for a text of dfaMinText bytes or more once the rule has searched
// dfaAfter bytes of such texts in the process (nil before, for a shorter
// text, or when off): Go's regexp reads a few lines with its backtracker
// faster than a filter that is still building its states. A dense run of
// hits asks it whether the expression is compiled or not.
func (cr *compiledRule) denseFilter(n int) *prefilterDFA {
	if !useDFA || n < dfaMinText {
		return nil
	}
	if d := cr.dfa.Load(); d != nil {
		return d
	}
	if cr.dfaBytes.Add(int64(n)) < dfaAfter {
		return nil
	}
	cr.dfaOnce.Do(func() {
		if d := newPrefilterDFA(cr.filterSrc(), cr.budget); d != nil {
			cr.dfa.Store(d)
			cr.early.Store(nil) // this one serves now
		}
	})
	return cr.dfa.Load()
}

// compiledNow records that one of the rule's expressions is compiled: its
// early filter is let go (a tree that wakes every rule held one for each,
// ~8 MB), and from now on denseFilter is asked.
func (cr *compiledRule) compiledNow() {
	cr.compiled.Store(true)
	cr.early.Store(nil)
}

// filterSrc is the expression the rule's filter loosens: the one its
// matches are searched with.
func (cr *compiledRule) filterSrc() string {
	if cr.atHits {
		return cr.anchoredSrc
	}
	return cr.searchSrc
}

// dfaState is the part of compiledRule the filter keeps.
type dfaState struct {
	// budget is the room of the filters' states: the scanner's (nil, in
	// a test's rule of its own: each filter has a budget of its own)
	budget   *filterBudget
	dfa      atomic.Pointer[prefilterDFA]
	dfaBytes atomic.Int64
	dfaOnce  sync.Once
	// the filter of a rule whose expression is not compiled yet (see
	// filterFor)
	early     atomic.Pointer[prefilterDFA]
	earlyOnce sync.Once
	// the filter of the expression with its secrets at least MinLen
	// long (withSecretMinLen), nil when there is none
	minDFA  *prefilterDFA
	minOnce sync.Once
	// the filter reach reads a keyword hit's text with, once built, and
	// the bytes the loose one read before (see compiledRule.reach)
	reachDFA  atomic.Pointer[prefilterDFA]
	reachOnce sync.Once
	// the word-set filter a far table's attempt builds (boundReach)
	wordSetOnce sync.Once
	reachRead   atomic.Int64

	textStartOnce sync.Once
	textStart     bool
}

// minLenFilter returns the filter of searchAllSrc with the rule's
// secrets at least MinLen long, or nil; built with the rule's filter.
func (cr *compiledRule) minLenFilter() *prefilterDFA {
	cr.minOnce.Do(func() {
		if src := withSecretMinLen(cr.searchAllSrc(), cr.MinLen); src != "" {
			cr.minDFA = newPrefilterDFA(src, cr.budget)
		}
	})
	return cr.minDFA
}

// reach is d.reach(text) for an anchored attempt at a keyword hit, read
// with the rule's bounded filter once the rule's hits have read
// reachAfter bytes with d: the rule's own expression without captures,
// its counted repetitions kept. Loosened, a gap of .{0,96}? between a
// name and what must follow it is .*, whose thread lives to the end of
// the line, and a value of exactly 40 characters is any word: every hit
// of such a rule on a long line read 2 KB with Go's NFA (its program is
// past the backtracker's 500 instructions) to find nothing. Kept, the
// threads die where the rule's do. From one start a repetition's states
// are few (one thread per counter, not one per start as in an unanchored
// search); past dfaMaxStates the filter says it cannot tell, as the
// loose one would. Its program is kept only up to boundedMaxWords
// words a set: a bound of 1,000 is 1,000 instructions, each with its
// closure, and a tree that wakes every rule built one for each.
func (cr *compiledRule) reach(d *prefilterDFA, text []byte) (may bool, end int, ok bool) {
	if b := cr.reachDFA.Load(); b != nil {
		return b.reach(text)
	}
	may, end, ok = d.reach(text)
	if cr.reachRead.Add(int64(end)) >= cr.tuned().reachAfter {
		cr.reachOnce.Do(cr.buildReach)
	}
	return may, end, ok
}

// buildReach builds the bounded filter reach reads with, where the
// expression as written is small enough for one.
func (cr *compiledRule) buildReach() {
	if b := newBoundedFilter(cr.filterSrc(), cr.budget); b != nil && b.words <= boundedMaxWords {
		cr.reachDFA.Store(b)
	}
}

// boundReach gives the rule a bounded filter now, if it has none, and
// reports whether it has one: a far table's attempt whose loose reach
// ran to farReach asks, before the part is searched whole. Where the
// expression is too large for one, the filter reads its sets of words as
// their letters (reachfilter.go). Only here: as the filter of every
// reach once 256 KB were read, it had prose-password-below's attempts
// run where its part had been searched whole, and lines:chat-login
// allocated 14 times the objects on 4 times the text
// (TestScanCostLinear's whole sweep, under CI).
func (cr *compiledRule) boundReach() bool {
	cr.reachOnce.Do(cr.buildReach)
	if cr.reachDFA.Load() == nil {
		cr.wordSetOnce.Do(func() {
			if b := newWordSetFilter(cr.filterSrc(), cr.budget); b != nil {
				cr.reachDFA.Store(b)
			}
		})
	}
	return cr.reachDFA.Load() != nil
}

// reachAfter is how many bytes a rule's hits read with its loose filter
// before it builds its bounded one: most rules' threads die within a few
// bytes of a hit, where the loose filter tells as much. (A scanner's
// tuning: tests build scanners that build at once.)
const reachAfter int64 = 256 << 10

// boundedMaxWords bounds the program of a bounded filter (64
// instructions a word).
const boundedMaxWords = 16

// searchAllSrc is the expression of a rule whose matches begin at its
// keywords, as searchAll and anchoredAfterExpr run it.
func (cr *compiledRule) searchAllSrc() string { return cr.anchoredSrc }

// readsTextStart reports whether the expression of a rule whose matches
// begin at its keywords may read the start of the text (^ without (?m),
// \A): a newline before the text does not stand for its start then.
func (cr *compiledRule) readsTextStart() bool {
	cr.textStartOnce.Do(func() {
		re, err := syntax.Parse(cr.anchoredSrc, syntax.Perl)
		cr.textStart = err != nil || readsTextStart(re)
	})
	return cr.textStart
}

func readsTextStart(re *syntax.Regexp) bool {
	if re.Op == syntax.OpBeginText {
		return true
	}
	for _, sub := range re.Sub {
		if readsTextStart(sub) {
			return true
		}
	}
	return false
}
