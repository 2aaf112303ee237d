package prose

import (
	"math"
	"math/bits"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/svrnty/sotvet/internal/lazyre"
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
	return literalsOf(re.Simplify())
}

// literalsOf is requiredLiterals of a parsed, simplified expression.
func literalsOf(re *syntax.Regexp) []string {
	lits := required(re)
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
		// Adjacent parts that match few strings are one set of strings
		// (`a(?:m|re)` needs "am" or "are", not "m" or "re"); of the parts
		// that must match, the one whose shortest literal is longest
		// filters best.
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
		run := []string{""}
		flush := func() {
			if !(len(run) == 1 && run[0] == "") {
				consider(run)
			}
			run = []string{""}
		}
		for _, s := range re.Sub {
			if s.Op == syntax.OpLiteral {
				run = cross(run, []string{lower(string(s.Rune))})
				continue
			}
			if full, ok := wholeStrings(s, false); ok && !slices.Contains(full, "") && len(run)*len(full) <= maxStarts {
				run = cross(run, full)
				continue
			}
			if full, ok := wholeStrings(s, false); ok && len(full) == 1 && full[0] == "" {
				// A zero-width assertion: the strings around it are adjacent.
				continue
			}
			flush()
			consider(required(s))
		}
		flush()
		return best
	}
	return nil
}

// lower lowers s for the filter's literals and the texts they are looked
// for in. Under (?i) a long s (ſ) matches s and S, but has no lower case of
// its own: it is taken as s on both sides. (The Kelvin sign's lower case
// is k already.)
func lower(s string) string {
	return strings.Map(func(r rune) rune {
		if r == 'ſ' {
			return 's'
		}
		return unicode.ToLower(r)
	}, s)
}

var lookaround = lazyre.New(`\(\?<?[=!]`)

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

// lookaheadAsText turns a positive lookahead that ends the expression
// (`(?:^|\s)I(?=\s)`) into a group that consumes its text. Every match of
// the expression is followed by what the lookahead asserts, so the result
// matches wherever the expression does: what it requires, the expression
// requires too, and it requires more than the expression without its
// lookarounds (" I " rather than " I"). Only a lookahead that nothing
// follows but the closing of groups is taken: a quantifier on a group
// around it (`(?:a(?=b))+`) would repeat the consumed text.
func lookaheadAsText(expr string) (string, bool) {
	type group struct {
		at         int
		lookaround bool
	}
	var stack []group
	last := -1 // the opening of the last positive lookahead closed
	closedAt := -1
	for i := 0; i < len(expr); i++ {
		switch expr[i] {
		case '\\':
			if i+1 < len(expr) && (expr[i+1] == 'Q' || expr[i+1] == 'E') {
				return "", false
			}
			i++
		case '[':
			// A class: its brackets and parentheses are characters.
			j := i + 1
			if j < len(expr) && expr[j] == '^' {
				j++
			}
			if j < len(expr) && expr[j] == ']' {
				j++
			}
			for ; j < len(expr) && expr[j] != ']'; j++ {
				switch expr[j] {
				case '\\':
					j++
				case '[':
					return "", false // .NET class subtraction, or a POSIX class
				}
			}
			if j >= len(expr) {
				return "", false
			}
			i = j
		case '(':
			rest := expr[i:]
			stack = append(stack, group{at: i, lookaround: strings.HasPrefix(rest, "(?=") || strings.HasPrefix(rest, "(?!") ||
				strings.HasPrefix(rest, "(?<=") || strings.HasPrefix(rest, "(?<!")})
		case ')':
			if len(stack) == 0 {
				return "", false
			}
			g := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if strings.HasPrefix(expr[g.at:], "(?=") {
				last, closedAt = g.at, i
				// Every group still open around it must not be a lookaround.
				for _, o := range stack {
					if o.lookaround {
						last = -1
					}
				}
			}
		}
	}
	if last < 0 || len(stack) != 0 || strings.Trim(expr[closedAt+1:], ")") != "" {
		return "", false
	}
	return expr[:last] + "(?:" + expr[last+3:], true
}

// matcher is an Aho-Corasick automaton over bytes, made a table: which of a
// set of literals occur in a text, in one pass of one lookup a byte. The
// bytes no literal has share one column, and ASCII capitals share their
// lower-case letter's, so that ASCII text needs no lowering.
type matcher struct {
	class [256]uint16
	width int // columns: byte classes
	// state*width + class -> state: delta16 when the states fit in it,
	// else delta.
	delta16 []uint16
	delta   []int32
	// The literal ids ending at each state, fail links included: state s's
	// are ids[out[s].lo:out[s].hi], all in one array rather than a list a
	// state (a style set's literals make thousands of states).
	out   []span32
	ids   []int32
	count int
}

type span32 struct{ lo, hi int32 }

func newMatcher(lits []string) *matcher {
	m := &matcher{count: len(lits)}
	for _, l := range lits {
		for i := 0; i < len(l); i++ {
			if c := l[i]; m.class[c] == 0 {
				m.width++
				m.class[c] = uint16(m.width)
			}
		}
	}
	m.width++
	for c := 'A'; c <= 'Z'; c++ {
		m.class[c] = m.class[c+'a'-'A']
	}
	// The trie, then each state's moves completed through its fail link,
	// breadth first so that a fail link's row is complete before it is read.
	// The table is allocated once: a style set's literals make thousands of
	// states, and a table grown row by row is copied over and over. Its
	// cells are 16 bits wide when the states fit: a style set's table is
	// megabytes, and every page of it is faulted in as it is built.
	states := trieStates(lits)
	if states <= maxStates16 {
		m.delta16 = buildDelta[uint16](m, lits, states)
		flagMoves(m, m.delta16, flag16)
	} else {
		m.delta = buildDelta[int32](m, lits, states)
		flagMoves(m, m.delta, flag32)
	}
	return m
}

// A move to a state at which literals end carries a flag beside the
// state: the scan reads a state's literals only there, not a span every
// byte (most states end none).
const (
	flag16 uint16 = 1 << 15
	flag32 int32  = 1 << 30
)

// maxStates16 is the most states a 16-bit table holds, its flag aside (a
// test lowers it).
var maxStates16 = int(flag16)

func flagMoves[T uint16 | int32](m *matcher, delta []T, flag T) {
	for i, t := range delta {
		if o := m.out[t]; o.lo < o.hi {
			delta[i] = t | flag
		}
	}
}

// buildDelta builds m's table of moves, of states cells a class, and the
// literals each state ends.
func buildDelta[T uint16 | int32](m *matcher, lits []string, states int) []T {
	delta := make([]T, states*m.width)
	// ends[s] is the last literal that ends at state s, and next[id] the
	// literal before id that ends where it does (-1: none): each state's own
	// literals, newest first.
	ends := make([]int32, 1, states)
	ends[0] = -1
	next := make([]int32, len(lits))
	for id, l := range lits {
		s := T(0)
		for i := 0; i < len(l); i++ {
			cell := int(s)*m.width + int(m.class[l[i]])
			if delta[cell] == 0 {
				delta[cell] = T(len(ends))
				ends = append(ends, -1)
			}
			s = delta[cell]
		}
		next[id], ends[s] = ends[s], int32(id)
	}
	n := len(ends)
	delta = delta[:n*m.width]
	m.out = make([]span32, n)
	// A state's literals are its own, in the order they were added, then
	// its fail link's: set in the breadth-first order, a fail link's first.
	own := func(s int32) {
		lo := len(m.ids)
		for id := ends[s]; id >= 0; id = next[id] {
			m.ids = append(m.ids, id)
		}
		slices.Reverse(m.ids[lo:])
	}
	own(0)
	m.out[0] = span32{0, int32(len(m.ids))}
	fail := make([]T, n)
	queue := make([]T, 0, n)
	for c := 0; c < m.width; c++ {
		if s := delta[c]; s != 0 {
			queue = append(queue, s)
		}
	}
	// A row not yet reached holds its trie moves only: it is completed when
	// its state leaves the queue, after the rows of every shallower state.
	for k := 0; k < len(queue); k++ {
		s := queue[k]
		lo := int32(len(m.ids))
		own(int32(s))
		f := m.out[fail[s]]
		m.ids = append(m.ids, m.ids[f.lo:f.hi]...)
		m.out[s] = span32{lo, int32(len(m.ids))}
		row := int(s) * m.width
		frow := int(fail[s]) * m.width
		for c := 0; c < m.width; c++ {
			if t := delta[row+c]; t != 0 {
				fail[t] = delta[frow+c]
				queue = append(queue, t)
			} else {
				delta[row+c] = delta[frow+c]
			}
		}
	}
	return delta
}

// trieStates returns how many states a trie of the literals has: the root,
// and for each literal in sorted order the bytes it does not share with
// the one before.
func trieStates(lits []string) int {
	sorted := slices.Clone(lits)
	slices.Sort(sorted)
	n := 1
	for i, l := range sorted {
		common := 0
		if i > 0 {
			prev := sorted[i-1]
			for common < len(l) && common < len(prev) && l[common] == prev[common] {
				common++
			}
		}
		n += len(l) - common
	}
	return n
}

// found marks in seen every literal that occurs in text and was not marked
// yet, and appends it to hits.
func (m *matcher) found(text string, seen []bool, hits []int32) []int32 {
	if !isASCII(text) {
		text = lower(text)
	}
	if m.delta16 != nil {
		return scanDelta(m, m.delta16, flag16, text, seen, hits)
	}
	return scanDelta(m, m.delta, flag32, text, seen, hits)
}

func scanDelta[T uint16 | int32](m *matcher, delta []T, flag T, text string, seen []bool, hits []int32) []int32 {
	s := T(0)
	for i := 0; i < len(text); i++ {
		s = delta[int(s&^flag)*m.width+int(m.class[text[i]])]
		if s&flag == 0 {
			continue
		}
		o := m.out[s&^flag]
		for _, id := range m.ids[o.lo:o.hi] {
			if !seen[id] {
				seen[id] = true
				hits = append(hits, id)
			}
		}
	}
	return hits
}

// Expressions without a literal (`[a-z][.?!][A-Z]`, `\d{1,2} ?[ap]m`) run
// on every block, and a regular expression is dear on text it does not
// match. Such an expression still requires some bytes in a row: sets of
// bytes, one per position ("a lower-case letter, then one of .?!, then a
// capital"). Checking that a block has them is a loop over its bytes, many
// times cheaper than the expression, and rules out most blocks.

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(c byte)      { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }
func (s *byteSet) union(o *byteSet) {
	s[0], s[1], s[2], s[3] = s[0]|o[0], s[1]|o[1], s[2]|o[2], s[3]|o[3]
}
func (s *byteSet) full() bool { return s[0]&s[1]&s[2]&s[3] == ^uint64(0) }
func (s *byteSet) count() int {
	return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) + bits.OnesCount64(s[2]) + bits.OnesCount64(s[3])
}

// first returns the least byte of a set that is not empty.
func (s *byteSet) first() byte {
	for w, x := range s {
		if x != 0 {
			return byte(w<<6 + bits.TrailingZeros64(x))
		}
	}
	return 0
}
func (s *byteSet) addRange(lo, hi int) {
	for c := lo; c <= hi && c < 256; c++ {
		s.add(byte(c))
	}
}

// factor is a run of byte sets that every match contains contiguously.
type factor []byteSet

// byteWeight is a rough share of each byte in English markdown prose: what
// makes a factor rare, and so worth checking.
var byteWeight = func() (w [256]float64) {
	for c := range w {
		switch {
		case c >= 'a' && c <= 'z':
			w[c] = 0.028
		case c == ' ':
			w[c] = 0.15
		case c >= 'A' && c <= 'Z':
			w[c] = 0.003
		case c >= '0' && c <= '9':
			w[c] = 0.003
		case c == '.' || c == ',' || c == '\n' || c == '-':
			w[c] = 0.01
		case c < 0x80:
			w[c] = 0.001
		default:
			w[c] = 0.0005
		}
	}
	return w
}()

// bits is how unlikely the factor is at a given place of a text, in bits.
func (f factor) bits() float64 {
	b := 0.0
	for i := range f {
		p := 0.0
		for w, word := range f[i] {
			for word != 0 {
				k := bits.TrailingZeros64(word)
				p += byteWeight[w*64+k]
				word &= word - 1
			}
		}
		if p >= 1 {
			continue
		}
		b += -math.Log2(p)
	}
	return b
}

// in reports whether text contains the factor.
func (f factor) in(text string) bool {
	last := len(text) - len(f) // the last start
	if last < 0 || len(f) == 0 {
		return last >= 0
	}
	// The scan is anchored on the position that takes the fewest bytes;
	// one byte alone is found with IndexByte.
	a, fewest := 0, 257
	for k := range f {
		if n := f[k].count(); n < fewest {
			a, fewest = k, n
		}
	}
	if fewest == 1 {
		b := f[a].first()
		for i := a; i <= last+a; {
			j := strings.IndexByte(text[i:last+a+1], b)
			if j < 0 {
				return false
			}
			if f.at(text, i+j-a, a) {
				return true
			}
			i += j + 1
		}
		return false
	}
	anchor := &f[a]
	for start := 0; start <= last; start++ {
		if anchor.has(text[start+a]) && f.at(text, start, a) {
			return true
		}
	}
	return false
}

// at reports whether f's sets hold text from start on, but the one at
// skip, which the caller checked.
func (f factor) at(text string, start, skip int) bool {
	for k := range f {
		if k != skip && !f[k].has(text[start+k]) {
			return false
		}
	}
	return true
}

// requirement is a few factors every match of an expression contains.
// Checked only on ASCII text when ascii is set: the factors leave out the
// non-ASCII bytes a match may have (`(?i)k` also matches the Kelvin sign).
type requirement struct {
	factors []factor
	ascii   bool
}

// minFactorBits is the rarity below which a factor rules out too few blocks
// to pay for its check.
const minFactorBits = 7

// maxFactors is how many factors a requirement checks.
const maxFactors = 3

// requiredFactors returns factors every match of expr contains, the rarest
// first, or nil when none is rare enough to check.
func requiredFactors(expr string) *requirement {
	re, err := syntax.Parse(withoutLookarounds(expr), syntax.Perl)
	if err != nil {
		return nil
	}
	return factorsRequired(re.Simplify())
}

// factorsRequired is requiredFactors of a parsed, simplified expression.
func factorsRequired(re *syntax.Regexp) *requirement {
	var d deriver
	type rated struct {
		f    factor
		bits float64
	}
	var rs []rated
	for _, f := range d.factorsOf(re) {
		if len(f) == 0 {
			continue
		}
		if b := f.bits(); b >= minFactorBits {
			rs = append(rs, rated{f, b})
		}
	}
	if len(rs) == 0 {
		return nil
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].bits > rs[j].bits })
	var fs []factor
	for _, r := range rs[:min(len(rs), maxFactors)] {
		fs = append(fs, r.f)
	}
	return &requirement{factors: fs, ascii: d.lossy}
}

// in reports whether text may hold a match: it has every factor.
func (r *requirement) in(text string) bool {
	if r.ascii && !isASCII(text) {
		return true
	}
	for _, f := range r.factors {
		if !f.in(text) {
			return false
		}
	}
	return true
}

// inBlock is in for a text whose bytes are known: a factor with a place
// that none of them fills is absent without a search.
func (r *requirement) inBlock(text string, present *byteSet, ascii bool) bool {
	if r.ascii && !ascii {
		return true
	}
	for _, f := range r.factors {
		for k := range f {
			if f[k][0]&present[0]|f[k][1]&present[1]|f[k][2]&present[2]|f[k][3]&present[3] == 0 {
				return false
			}
		}
	}
	for _, f := range r.factors {
		if !f.in(text) {
			return false
		}
	}
	return true
}

// bytesOf returns the set of bytes of text, and whether they are all ASCII.
func bytesOf(text string) (s byteSet, ascii bool) {
	for i := 0; i < len(text); i++ {
		s.add(text[i])
	}
	return s, s[2]|s[3] == 0
}

// deriver reads factors out of a parsed expression; lossy records that a
// set left out non-ASCII runes.
type deriver struct {
	lossy bool
	memo  map[*syntax.Regexp]exactResult // exact is asked of a part again and again
}

type exactResult struct {
	f  factor
	ok bool
}

// exact returns the byte sets of an expression that always matches a run of
// single bytes of fixed length (zero-width assertions count as nothing), or
// ok false.
func (d *deriver) exact(re *syntax.Regexp) (factor, bool) {
	if r, ok := d.memo[re]; ok {
		return r.f, r.ok
	}
	f, ok := d.exact1(re)
	if d.memo == nil {
		d.memo = map[*syntax.Regexp]exactResult{}
	}
	d.memo[re] = exactResult{f, ok}
	return f, ok
}

func (d *deriver) exact1(re *syntax.Regexp) (f factor, ok bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return factor{}, true
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r >= utf8.RuneSelf {
				if re.Flags&syntax.FoldCase != 0 {
					return nil, false
				}
				var buf [utf8.UTFMax]byte
				n := utf8.EncodeRune(buf[:], r)
				for _, c := range buf[:n] {
					var s byteSet
					s.add(c)
					f = append(f, s)
				}
				continue
			}
			var s byteSet
			s.add(byte(r))
			if re.Flags&syntax.FoldCase != 0 {
				for o := unicode.SimpleFold(r); o != r; o = unicode.SimpleFold(o) {
					if o >= utf8.RuneSelf {
						d.lossy = true
						continue
					}
					s.add(byte(o))
				}
			}
			f = append(f, s)
		}
		return f, true
	case syntax.OpCharClass:
		var s byteSet
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi >= utf8.RuneSelf {
				d.lossy = true
				hi = utf8.RuneSelf - 1
			}
			if lo <= hi {
				s.addRange(int(lo), int(hi))
			}
		}
		return factor{s}, true
	case syntax.OpAnyCharNotNL:
		var s byteSet
		s.addRange(0, 0x7f)
		s[0] &^= 1 << '\n'
		d.lossy = true
		return factor{s}, true
	case syntax.OpCapture:
		return d.exact(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min != re.Max || re.Min > 8 {
			return nil, false
		}
		sub, ok := d.exact(re.Sub[0])
		if !ok {
			return nil, false
		}
		for range re.Min {
			f = append(f, sub...)
		}
		return f, true
	case syntax.OpConcat:
		for _, s := range re.Sub {
			sf, ok := d.exact(s)
			if !ok {
				return nil, false
			}
			f = append(f, sf...)
		}
		return f, true
	case syntax.OpAlternate:
		// Alternatives of one length: the sets of each place joined.
		for i, s := range re.Sub {
			sf, ok := d.exact(s)
			if !ok || i > 0 && len(sf) != len(f) {
				return nil, false
			}
			if i == 0 {
				f = append(factor(nil), sf...)
				continue
			}
			for k := range f {
				f[k].union(&sf[k])
			}
		}
		return f, true
	}
	return nil, false
}

// edge returns the set of the first (or last) bytes of every match of re,
// when every match is non-empty and the set is known.
func (d *deriver) edge(re *syntax.Regexp, first bool) (byteSet, bool) {
	if f, ok := d.exact(re); ok {
		if len(f) == 0 {
			return byteSet{}, false
		}
		if first {
			return f[0], true
		}
		return f[len(f)-1], true
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return d.edge(re.Sub[0], first)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return d.edge(re.Sub[0], first)
		}
	case syntax.OpAlternate:
		var u byteSet
		for _, s := range re.Sub {
			e, ok := d.edge(s, first)
			if !ok {
				return byteSet{}, false
			}
			u.union(&e)
		}
		return u, true
	case syntax.OpConcat:
		// The first part that consumes a byte, past zero-width ones.
		subs := re.Sub
		for k := range subs {
			i := k
			if !first {
				i = len(subs) - 1 - k
			}
			if f, ok := d.exact(subs[i]); ok && len(f) == 0 {
				continue
			}
			return d.edge(subs[i], first)
		}
	}
	return byteSet{}, false
}

// factorsOf returns factors every match of re contains.
func (d *deriver) factorsOf(re *syntax.Regexp) []factor {
	if f, ok := d.exact(re); ok {
		return []factor{f}
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return d.factorsOf(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return d.factorsOf(re.Sub[0])
		}
	case syntax.OpConcat:
		// Adjacent exact parts make one run, nested concatenations
		// included. A part that repeats an exact one at least once ends a
		// run with its first copy and starts the next with its last; other
		// parts end the run and give what they require themselves.
		var out []factor
		var run factor
		flush := func() {
			if len(run) > 0 {
				out = append(out, run)
			}
			run = nil
		}
		var walk func(subs []*syntax.Regexp)
		walk = func(subs []*syntax.Regexp) {
			for _, s := range subs {
				if f, ok := d.exact(s); ok {
					run = append(run, f...)
					continue
				}
				if s.Op == syntax.OpConcat {
					walk(s.Sub)
					continue
				}
				if s.Op == syntax.OpPlus || s.Op == syntax.OpRepeat && s.Min >= 1 {
					if f, ok := d.exact(s.Sub[0]); ok {
						n := 1
						if s.Op == syntax.OpRepeat {
							n = min(s.Min, 8)
						}
						for range n {
							run = append(run, f...)
						}
						flush()
						run = append(run, f...)
						continue
					}
				}
				// Its first and last bytes still join the runs around it.
				if first, ok := d.edge(s, true); ok {
					run = append(run, first)
				}
				flush()
				out = append(out, d.factorsOf(s)...)
				if last, ok := d.edge(s, false); ok {
					run = append(run, last)
				}
			}
		}
		walk(re.Sub)
		flush()
		return out
	}
	return nil
}

// A pattern that has literals but is no plain word list (`fresh(?:m[ae]n|
// wom[ae]n)`, `\b(am|are|is|be)\b\s*\b\w+ed\b`) would run its expression
// from every byte of a block. When every match starts with one of a few
// strings, the expression need only be tried where one of them starts.

// maxStarts bounds the strings a pattern is searched by.
const maxStarts = 64

// starts is how a pattern is searched by the strings its matches start
// with: their places are found with a string search, and the expression,
// anchored, is tried at each.
type starts struct {
	strs      []string // lower-cased ASCII, at least 2 bytes each unless word is set
	first     *byteSet // or else the first bytes of every match: a rare set
	word      bool     // the expression begins with \b, and every string with a word byte
	line      bool     // the expression begins with ^ (multi-line)
	text      bool     // the expression begins with \A
	anchorSrc string
	// The anchored expression, compiled the first time a block is
	// searched this way: beside a word sequence, rarely.
	anchorOnce sync.Once
	anchored   *regexp.Regexp
}

// anchoredRe returns the anchored expression, or nil if it does not
// compile.
func (st *starts) anchoredRe() *regexp.Regexp {
	st.anchorOnce.Do(func() { st.anchored, _ = regexp.Compile(st.anchorSrc) })
	return st.anchored
}

// startsOf returns the strings every match of the parsed, simplified re
// starts with, or nil.
func startsOf(re *syntax.Regexp, src string) *starts {
	st := &starts{}
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	// Leading assertions are checked by the search itself: the anchored
	// expression, run on the text from the candidate on, cannot see the
	// byte before it.
	for len(subs) > 0 {
		switch subs[0].Op {
		case syntax.OpWordBoundary:
			st.word = true
		case syntax.OpBeginLine:
			st.line = true
		case syntax.OpBeginText:
			st.text = true
		case syntax.OpEmptyMatch:
		default:
			goto body
		}
		subs = subs[1:]
	}
body:
	strs, ok := prefixes(subs, true)
	if !ok {
		return firstBytesOf(st, subs, src)
	}
	for _, s := range strs {
		if s == "" || !st.word && len(s) < minLiteral {
			return nil
		}
		if st.word && !isWordByte(s[0]) {
			return nil
		}
	}
	st.strs = strs
	st.anchorSrc = `\A(?:` + src + `)`
	return st
}

// firstBytesOf returns st searched by the first bytes of every match of
// subs, when they are rare in prose (`\d{1,2} ?[ap]m`, `[0-9]+ ?x ?[0-9]+`:
// no lower-case letter, no white space), or nil.
func firstBytesOf(st *starts, subs []*syntax.Regexp, src string) *starts {
	if len(subs) == 0 {
		return nil
	}
	var d deriver
	first, ok := d.edge(&syntax.Regexp{Op: syntax.OpConcat, Sub: subs}, true)
	if !ok {
		return nil
	}
	for _, c := range []byte("abcdefghijklmnopqrstuvwxyz \t\n\r") {
		if first.has(c) {
			return nil
		}
	}
	if st.word {
		for c := range 256 {
			if first.has(byte(c)) && !isWordByte(byte(c)) {
				return nil
			}
		}
	}
	st.first = &first
	st.anchorSrc = `\A(?:` + src + `)`
	return st
}

// prefixes returns strings (lower-cased) one of which starts every match of
// the sequence subs. atStart says whether subs begin where the match does:
// an assertion there would see the byte before the candidate, which the
// anchored expression cannot.
func prefixes(subs []*syntax.Regexp, atStart bool) ([]string, bool) {
	set := []string{""}
	for _, s := range subs {
		start := atStart && slices.Contains(set, "")
		if full, ok := wholeStrings(s, start); ok && len(set)*len(full) <= maxStarts {
			set = cross(set, full)
			continue
		}
		p, ok := leadStrings(s, start)
		if !ok && start {
			return nil, false
		}
		if ok && len(set)*len(p) <= maxStarts {
			set = cross(set, p)
		}
		break
	}
	if len(set) == 1 && set[0] == "" {
		return nil, false
	}
	return set, true
}

// leadStrings returns strings one of which starts every match of re.
func leadStrings(re *syntax.Regexp, atStart bool) ([]string, bool) {
	switch re.Op {
	case syntax.OpConcat:
		return prefixes(re.Sub, atStart)
	case syntax.OpCapture, syntax.OpPlus:
		return leadStrings(re.Sub[0], atStart)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return leadStrings(re.Sub[0], atStart)
		}
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			p, ok := leadStrings(s, atStart)
			if !ok {
				return nil, false
			}
			out = append(out, p...)
			if len(out) > maxStarts {
				return nil, false
			}
		}
		return dedupe(out), true
	}
	if full, ok := wholeStrings(re, atStart); ok {
		return full, true
	}
	return nil, false
}

// wholeStrings returns every string re matches (lower-cased ASCII), when
// they are few. A zero-width assertion inside is left to the expression.
func wholeStrings(re *syntax.Regexp, atStart bool) ([]string, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		// ASCII, and runes without case (dashes, quotes, symbols): texts
		// with the non-ASCII runes that fold to ASCII letters
		// (foldsToASCII) are searched with the whole expression, and a
		// lettered rune's other cases are not worth listing.
		b := make([]byte, 0, len(re.Rune))
		for _, r := range re.Rune {
			if r >= utf8.RuneSelf {
				if !caseless(r) {
					return nil, false
				}
				b = utf8.AppendRune(b, r)
				continue
			}
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b = append(b, byte(r))
		}
		return []string{string(b)}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi-lo > 8 {
				return nil, false
			}
			for r := lo; r <= hi; r++ {
				if r >= utf8.RuneSelf && !caseless(r) {
					return nil, false
				}
				c := r
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				out = append(out, string(rune(c)))
			}
		}
		out = dedupe(out)
		return out, len(out) > 0 && len(out) <= 8
	case syntax.OpCapture:
		return wholeStrings(re.Sub[0], atStart)
	case syntax.OpQuest:
		s, ok := wholeStrings(re.Sub[0], atStart)
		if !ok {
			return nil, false
		}
		return dedupe(append(s, "")), true
	case syntax.OpConcat:
		set := []string{""}
		for _, s := range re.Sub {
			full, ok := wholeStrings(s, atStart && slices.Contains(set, ""))
			if !ok || len(set)*len(full) > maxStarts {
				return nil, false
			}
			set = cross(set, full)
		}
		return set, true
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			full, ok := wholeStrings(s, atStart)
			if !ok {
				return nil, false
			}
			out = append(out, full...)
			if len(out) > maxStarts {
				return nil, false
			}
		}
		return dedupe(out), true
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText:
		// Zero-width: past the start the anchored expression sees the
		// bytes around it.
		if atStart {
			return nil, false
		}
		return []string{""}, true
	}
	return nil, false
}

// caseless reports whether r has no other case, under simple folding.
func caseless(r rune) bool { return unicode.SimpleFold(r) == r }

func cross(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return dedupe(out)
}

func dedupe(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// findAll returns the matches of the anchored expression re at the places
// one of the strings starts, leftmost first and without overlap, as the
// unanchored expression's FindAllStringSubmatchIndex would.
func (st *starts) findAll(s, lowered string, re *regexp.Regexp) [][]int {
	var at []int
	if st.first != nil {
		for i := 0; i < len(s); i++ {
			if st.first.has(s[i]) {
				at = append(at, i)
			}
		}
	}
	for _, str := range st.strs {
		for i := 0; ; {
			j := strings.Index(lowered[i:], str)
			if j < 0 {
				break
			}
			at = append(at, i+j)
			i += j + 1
			if i >= len(lowered) {
				break
			}
		}
	}
	if len(at) == 0 {
		return nil
	}
	sort.Ints(at)
	var out [][]int
	pos := 0
	for k, i := range at {
		if i < pos || k > 0 && at[k-1] == i {
			continue
		}
		if st.word && i > 0 && isWordByte(s[i-1]) || st.line && i > 0 && s[i-1] != '\n' || st.text && i > 0 {
			continue
		}
		loc := re.FindStringSubmatchIndex(s[i:])
		if loc == nil {
			continue
		}
		for g := range loc {
			if loc[g] >= 0 {
				loc[g] += i
			}
		}
		out = append(out, loc)
		pos = loc[1]
		if loc[1] == loc[0] {
			pos++
		}
	}
	return out
}
