package authority

import (
	"fmt"
	"maps"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Prefiltering. Most sentences cannot match a rule: they lack the words its
// expression spells out. Each alternative of a rule gets a prefilter, a
// query of literal strings every match contains ("make " or "made ", and
// " default"); one scan of a text with an Aho-Corasick automaton over the
// literals of the whole rule set tells which literals occur, and an
// alternative whose prefilter fails is not run.
//
// The literals live in a normalised text: ASCII letters in lower case and
// every run of white space (\t \n \f \r and space, what \s matches) as one
// space. The scan normalises as it reads, so a literal may span the white
// space between words ("activation is ") even where the expression allows
// any run of it (`activation\s+is\b`), which is what makes the literals
// selective: most words of the rules are common on their own.

// Analysis limits.
const (
	// minLiteral is the shortest literal worth looking for: a set of
	// strings one of which is shorter says nothing.
	minLiteral = 3
	// maxSet bounds the strings an exact, prefix or suffix set holds;
	// beyond it the analysis gives up on the set (keeping what it implies).
	maxSet = 16
	// maxClassRunes bounds the characters of a class spelled out as a set.
	maxClassRunes = 8
)

// fold normalises a byte of a text or literal: ASCII upper case as lower
// case, the white space \s matches as a space.
func fold(c byte) byte {
	switch {
	case 'A' <= c && c <= 'Z':
		return c + 'a' - 'A'
	case c == '\t' || c == '\n' || c == '\f' || c == '\r':
		return ' '
	}
	return c
}

// poisonRunes are the non-ASCII runes that case-fold to ASCII letters
// (KELVIN SIGN to k, LONG S to s): a case-insensitive literal "k" matches
// "K". A text holding one admits every alternative, so literals can stay
// ASCII.
var poisonRunes = []rune{'\u212A', '\u017F'}

// query is what every match of an expression satisfies: a conjunction of
// any-of sets of literals and of disjunctions of further queries. The zero
// query is true.
type query struct {
	any [][]string // each: one of these strings occurs
	or  [][]query  // each: one of these queries holds
}

func (q query) isTrue() bool { return len(q.any) == 0 && len(q.or) == 0 }

// leaf returns the query "one of ss occurs", true when one of ss is too
// short to be worth looking for.
func leaf(ss strSet) query {
	if len(ss) == 0 {
		return query{}
	}
	for _, s := range ss {
		if len(s) < minLiteral {
			return query{}
		}
	}
	// A string that contains another is implied by it.
	var kept []string
	for _, s := range ss {
		if !slices.ContainsFunc(ss, func(t string) bool { return t != s && strings.Contains(s, t) }) {
			kept = append(kept, s)
		}
	}
	return query{any: [][]string{kept}}
}

// and returns the conjunction of qs.
func and(qs ...query) query {
	var out query
	for _, q := range qs {
		for _, a := range q.any {
			out.addAny(a)
		}
		out.or = append(out.or, q.or...)
	}
	return out
}

// addAny adds the clause a unless a clause already there implies it, and
// drops the clauses a implies. Clause c implies a when each string of c
// contains one of a.
func (q *query) addAny(a []string) {
	implies := func(c, a []string) bool {
		for _, s := range c {
			if !slices.ContainsFunc(a, func(t string) bool { return strings.Contains(s, t) }) {
				return false
			}
		}
		return true
	}
	for _, c := range q.any {
		if implies(c, a) {
			return
		}
	}
	q.any = slices.DeleteFunc(q.any, func(c []string) bool { return implies(a, c) })
	q.any = append(q.any, a)
}

// or returns the disjunction of x and y.
func or(x, y query) query {
	if x.isTrue() || y.isTrue() {
		return query{}
	}
	return query{or: [][]query{{x, y}}}
}

// strSet is a sorted set of normalised strings.
type strSet []string

func newSet(ss ...string) strSet {
	slices.Sort(ss)
	return slices.Compact(ss)
}

// cross returns the concatenations of a string of s and one of t, or nil
// when there would be more than maxSet.
func (s strSet) cross(t strSet) strSet {
	if len(s)*len(t) > maxSet*maxSet {
		return nil
	}
	var out []string
	for _, a := range s {
		for _, b := range t {
			out = append(out, join(a, b))
		}
	}
	if out = newSet(out...); len(out) > maxSet {
		return nil
	}
	return out
}

// union returns the strings of s and t, or nil when there are more than
// maxSet.
func (s strSet) union(t strSet) strSet {
	u := newSet(append(slices.Clone(s), t...)...)
	if len(u) > maxSet {
		return nil
	}
	return u
}

// join concatenates two normalised strings, as one: the white space where
// they meet is one run.
func join(a, b string) string {
	if strings.HasSuffix(a, " ") && strings.HasPrefix(b, " ") {
		return a + b[1:]
	}
	return a + b
}

// info is what the analysis knows of the (normalised) matches of an
// expression. When exact is set, it holds every match; otherwise every
// match starts with a string of prefix and ends with one of suffix ("" in
// a set: nothing known). Every match satisfies match.
type info struct {
	exact          strSet
	prefix, suffix strSet
	match          query
}

var unknown = strSet{""}

func anyInfo() info { return info{prefix: unknown, suffix: unknown} }

func exactInfo(ss ...string) info { return info{exact: newSet(ss...)} }

func (x info) prefixes() strSet {
	if x.exact != nil {
		return x.exact
	}
	return x.prefix
}

func (x info) suffixes() strSet {
	if x.exact != nil {
		return x.exact
	}
	return x.suffix
}

// all returns everything x says as a query.
func (x info) all() query {
	if x.exact != nil {
		return and(x.match, leaf(x.exact))
	}
	return and(x.match, leaf(x.prefix), leaf(x.suffix))
}

// isSpace reports whether the matches of x are exactly one run of white
// space.
func (x info) isSpace() bool { return len(x.exact) == 1 && x.exact[0] == " " }

func concat(x, y info) info {
	if x.exact != nil && y.exact != nil {
		if xy := x.exact.cross(y.exact); xy != nil {
			return info{exact: xy, match: and(x.match, y.match)}
		}
	}
	out := info{match: and(x.match, y.match)}
	// What is known of each side is kept in the prefix, the suffix, or
	// the strings where the sides meet; what cannot be kept goes into the
	// query.
	xs, yp := x.suffixes(), y.prefixes()
	if seam := xs.cross(yp); seam != nil {
		out.match = and(out.match, leaf(seam))
	} else {
		out.match = and(out.match, leaf(xs), leaf(yp))
	}
	out.prefix = x.prefixes()
	if x.exact != nil {
		if p := x.exact.cross(yp); p != nil {
			out.prefix = p
		}
	}
	out.suffix = y.suffixes()
	if y.exact != nil {
		if s := xs.cross(y.exact); s != nil {
			out.suffix = s
		}
	}
	return out
}

func alternate(x, y info) info {
	if x.exact != nil && y.exact != nil {
		if u := x.exact.union(y.exact); u != nil {
			return info{exact: u, match: or(x.match, y.match)}
		}
	}
	out := info{match: or(x.all(), y.all())}
	if out.prefix = x.prefixes().union(y.prefixes()); out.prefix == nil {
		out.prefix = unknown
	}
	if out.suffix = x.suffixes().union(y.suffixes()); out.suffix == nil {
		out.suffix = unknown
	}
	return out
}

// plus is x+: every match starts with a match of x, ends with one and
// holds one. A run of runs of white space is one run.
func plus(x info) info {
	if x.isSpace() {
		return x
	}
	return info{prefix: x.prefixes(), suffix: x.suffixes(), match: x.all()}
}

func star(x info) info {
	if x.isSpace() {
		return exactInfo("", " ")
	}
	return anyInfo()
}

func quest(x info) info { return alternate(x, exactInfo("")) }

// runeSet returns the normalised strings the runes rs match, or nil when
// one cannot be spelled out: U+FFFD (an invalid byte of the text matches
// it) or too many runes.
func runeSet(rs []rune) strSet {
	var out []string
	for _, r := range rs {
		switch {
		case r == utf8.RuneError:
			return nil
		case slices.Contains(poisonRunes, r):
			// A text holding it passes every prefilter.
		case r < utf8.RuneSelf:
			out = append(out, string(fold(byte(r))))
		default:
			out = append(out, string(r))
		}
	}
	if out = newSet(out...); len(out) == 0 || len(out) > maxSet {
		return nil
	}
	return out
}

// orbit returns r and the runes it equals without regard to case.
func orbit(r rune) []rune {
	out := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		out = append(out, f)
	}
	return out
}

// asciiLiteral returns the normalised string an ASCII literal matches,
// with or without case folding (each rune then matches one normalised
// byte, and a run of white space is one space, as join makes it): the
// concatenation the general case builds rune by rune, for a fraction of
// the cost. ok is false when a rune is not ASCII.
func asciiLiteral(rs []rune) (string, bool) {
	b := make([]byte, 0, len(rs))
	for _, r := range rs {
		if r >= utf8.RuneSelf {
			return "", false
		}
		c := fold(byte(r))
		if c == ' ' && len(b) > 0 && b[len(b)-1] == ' ' {
			continue
		}
		b = append(b, c)
	}
	return string(b), true
}

// literal is what is known of the matches of the literal rs, rune by rune.
func literal(rs []rune, foldCase bool) info {
	out := exactInfo("")
	for _, r := range rs {
		set := []rune{r}
		if foldCase {
			set = orbit(r)
		}
		ch := anyInfo()
		if s := runeSet(set); s != nil {
			ch = info{exact: s}
		}
		out = concat(out, ch)
	}
	return out
}

func analyze(re *syntax.Regexp) info {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return exactInfo("")
	case syntax.OpLiteral:
		if s, ok := asciiLiteral(re.Rune); ok {
			return exactInfo(s)
		}
		return literal(re.Rune, re.Flags&syntax.FoldCase != 0)
	case syntax.OpCharClass:
		var rs []rune
		for i := 0; i < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi-lo >= maxClassRunes || len(rs) > maxClassRunes {
				return anyInfo()
			}
			for r := lo; r <= hi; r++ {
				rs = append(rs, r)
			}
		}
		if s := runeSet(rs); s != nil {
			return info{exact: s}
		}
		return anyInfo()
	case syntax.OpCapture:
		return analyze(re.Sub[0])
	case syntax.OpStar:
		return star(analyze(re.Sub[0]))
	case syntax.OpPlus:
		return plus(analyze(re.Sub[0]))
	case syntax.OpQuest:
		return quest(analyze(re.Sub[0]))
	case syntax.OpRepeat:
		x := analyze(re.Sub[0])
		switch {
		case re.Max == 0:
			return exactInfo("")
		case re.Min == 0 && re.Max == 1:
			return quest(x)
		case re.Min == 0:
			return quest(plus(x))
		case re.Max == 1:
			return x
		}
		return plus(x)
	case syntax.OpConcat:
		out := exactInfo("")
		for _, sub := range re.Sub {
			out = concat(out, analyze(sub))
		}
		return out
	case syntax.OpAlternate:
		out := analyze(re.Sub[0])
		for _, sub := range re.Sub[1:] {
			out = alternate(out, analyze(sub))
		}
		return out
	}
	// Any character, no match: nothing known.
	return anyInfo()
}

// queryOf derives the prefilter query of the case-insensitive expression
// expr; the zero query (no known requirement) when it does not parse.
func queryOf(expr string) query {
	re, err := syntax.Parse(expr, syntax.Perl|syntax.FoldCase)
	if err != nil {
		return query{}
	}
	return analyze(re).all()
}

// clauseBits is the set of the prefilter clauses a text satisfies, a bit
// per clause: those one of whose literals occurs in it.
type clauseBits = uint64

// prefilter is a compiled query: clauses holds the clauses that must be
// satisfied, each of ors a list of prefilters one of which must admit.
type prefilter struct {
	clauses clauseBits
	ors     [][]prefilter
}

// admits reports whether a text that satisfies the clauses f passes. It
// runs for every rule on every block: the common rejection is inlined.
func (p *prefilter) admits(f clauseBits) bool {
	return p.clauses&^f == 0 && (len(p.ors) == 0 || p.admitsOrs(f))
}

func (p *prefilter) admitsOrs(f clauseBits) bool {
	for _, alts := range p.ors {
		if !slices.ContainsFunc(alts, func(a prefilter) bool { return a.admits(f) }) {
			return false
		}
	}
	return true
}

// maxClauses bounds the clauses of a rule set: one beyond it is dropped
// (it no longer filters). The last bit of a clauseBits is markupClause's,
// the one before it rewriteClause's.
const maxClauses = 62

// markupClause is the bit of a found set that says the text holds a byte
// of markupBytes. No prefilter asks for it: a found set that has it
// admits what it would without it.
const markupClause clauseBits = 1 << 63

// rewriteClause is the bit of a found set that says the text holds a
// literal of a rewrite of canonical: a sentence of it may read otherwise
// in its canonical form. No prefilter asks for it either.
const rewriteClause clauseBits = 1 << 62

// markupBytes are the bytes of the inline markup sotparse reads a
// block's Text through: code spans (whose text a placeholder stands for),
// emphasis, strikethrough, links, images and task boxes, raw HTML and
// autolinks, and backslashes (a hard line break). Entity references and
// escapes stay in the Text as written. In a body without them, each prose
// block's Text is a stretch of the body in which a line break, with the
// white space around it, reads as one space: the literals a block's Text
// holds are literals of the body (TestPlainBody), and what the body's
// scan (scanBody) does not admit, no block's does.
const markupBytes = "`*_~[<\\"

// clauseSet numbers the clauses of the prefilters of a rule set, and
// records which clauses each literal satisfies.
type clauseSet struct {
	index map[string]int        // by the clause's strings, quoted
	lits  map[string]clauseBits // the clauses each literal satisfies
}

func newClauseSet() *clauseSet {
	return &clauseSet{index: map[string]int{}, lits: map[string]clauseBits{}}
}

// maxOrClauses bounds the clauses one disjunction of a query may spend.
const maxOrClauses = 12

// clauseCount counts the clauses of a disjunction's queries, shared ones
// once per use.
func clauseCount(alts []query) int {
	n := 0
	for _, a := range alts {
		n += len(a.any)
		for _, o := range a.or {
			n += clauseCount(o)
		}
	}
	return n
}

// compile turns a query into a prefilter, numbering new clauses.
func (cs *clauseSet) compile(q query) prefilter {
	var p prefilter
	for _, c := range q.any {
		key := fmt.Sprintf("%q", c) // unambiguous, whatever bytes c holds
		i, ok := cs.index[key]
		if !ok {
			if len(cs.index) == maxClauses {
				continue
			}
			i = len(cs.index)
			cs.index[key] = i
			for _, s := range c {
				cs.lits[s] |= 1 << i
			}
		}
		p.clauses |= 1 << i
	}
	for _, alts := range q.or {
		// A disjunction that would spend many clauses (a long list of
		// nouns, each a branch) is dropped: a prefilter without it
		// admits more, never less, and the rule set's other clauses stay.
		if clauseCount(alts) > maxOrClauses {
			continue
		}
		var ps []prefilter
		for _, a := range alts {
			ps = append(ps, cs.compile(a))
		}
		p.ors = append(p.ors, ps)
	}
	return p
}

// matcher is an Aho-Corasick automaton over normalised literals, as a dense
// state-transition table that normalises the text it reads; its output is
// the clauses the literals read satisfy. Bytes that no literal holds share
// a column of the table, which keeps it small enough for the processor's
// caches: the scan reads every prose byte of the workspace.
type matcher struct {
	column [256]int32 // by byte
	next   []int32    // by state + column: the next state; states count in rows
	// outStart is the first state with an output; out holds the clauses
	// the literals ending at each state satisfy, by state - outStart.
	outStart int32
	out      []clauseBits
	reach    int // the length of the longest literal, in normalised bytes
}

func newMatcher(lits map[string]clauseBits) *matcher {
	m := &matcher{}
	// In a fixed order, for a reproducible table; the runes that fold to
	// ASCII letters satisfy every clause.
	keys := slices.Sorted(maps.Keys(lits))
	bits := make([]clauseBits, len(keys))
	for i, l := range keys {
		bits[i] = lits[l]
	}
	for _, r := range poisonRunes {
		keys = append(keys, string(r))
		bits = append(bits, ^markupClause)
	}
	for i := range len(markupBytes) {
		keys = append(keys, markupBytes[i:i+1])
		bits = append(bits, markupClause)
	}
	for _, k := range keys {
		m.reach = max(m.reach, len(k))
	}
	// A column per normalised byte of a literal; column 0 for the rest.
	cols := int32(1)
	var colOf [256]int32
	for _, l := range keys {
		for j := 0; j < len(l); j++ {
			if c := fold(l[j]); colOf[c] == 0 {
				colOf[c] = cols
				cols++
			}
		}
	}
	for c := range 256 {
		m.column[c] = colOf[fold(byte(c))]
	}
	// The trie, sparse: each state's children in a list sorted by column.
	// The only dense table built is the final one: a dense trie table
	// turned into the automaton in place, then renumbered into it, took
	// as much again in fresh pages, each a fault in a cold process.
	states := maxStates(keys)
	t := trie{first: make([]int32, 1, states), sibling: make([]int32, 1, states), col: make([]int32, 1, states)}
	t.first[0], t.sibling[0] = -1, -1
	out := make([]clauseBits, 1, states)
	for i, l := range keys {
		st := int32(0)
		for j := 0; j < len(l); j++ {
			st = t.child(st, colOf[fold(l[j])], true)
			if int(st) == len(out) {
				out = append(out, 0)
			}
		}
		out[st] |= bits[i]
	}
	nst := len(out)
	// Breadth first, children in column order: the failure links and the
	// outputs a state inherits from its failure state (shallower, so done
	// already).
	bfs := make([]int32, 1, nst)
	for qi := 0; qi < len(bfs); qi++ {
		for c := t.first[bfs[qi]]; c >= 0; c = t.sibling[c] {
			bfs = append(bfs, c)
		}
	}
	fail := make([]int32, nst)
	for _, st := range bfs[1:] {
		out[st] |= out[fail[st]]
		for c := t.first[st]; c >= 0; c = t.sibling[c] {
			fail[c] = t.next(fail[st], t.col[c], fail)
		}
	}
	// The states with an output come last, from row outStart on: the
	// scan tests a state number against outStart and reads the outputs
	// only past it, which leaves the table alone in the processor's cache.
	// The start state stays first; were it to have an output (an empty
	// literal), every state is tested.
	order := make([]int32, 0, nst) // new number to old
	for st := range nst {
		if st == 0 || out[st] == 0 {
			order = append(order, int32(st))
		}
	}
	outFrom := len(order)
	if out[0] != 0 {
		outFrom = 0
	}
	for st := 1; st < nst; st++ {
		if out[st] != 0 {
			order = append(order, int32(st))
		}
	}
	renum := make([]int32, nst) // old number to new
	for nw, old := range order {
		renum[old] = int32(nw)
	}
	// The rows, breadth first: a state's row is its failure state's
	// (written already) with its own children in place; a stored state
	// is the start of its row.
	m.next = make([]int32, nst*int(cols))
	for _, st := range bfs {
		row := m.next[renum[st]*cols : (renum[st]+1)*cols]
		if st != 0 {
			f := renum[fail[st]] * cols
			copy(row, m.next[f:f+cols])
		}
		for c := t.first[st]; c >= 0; c = t.sibling[c] {
			row[t.col[c]] = renum[c] * cols
		}
	}
	// A space after a space leaves the normalised text as it is.
	if sp := colOf[' ']; sp != 0 {
		for st := int32(1); st < int32(nst); st++ {
			if t.col[st] == sp {
				m.next[renum[st]*cols+sp] = renum[st] * cols
			}
		}
	}
	m.outStart = int32(outFrom) * cols
	m.out = make([]clauseBits, nst*int(cols)-int(m.outStart))
	for nw := outFrom; nw < nst; nw++ {
		m.out[nw*int(cols)-int(m.outStart)] = out[order[nw]]
	}
	return m
}

// trie is a trie over the matcher's columns: each state's children are a
// list linked by sibling, in increasing column order.
type trie struct {
	first, sibling []int32 // first child, next sibling; -1 for none
	col            []int32 // the column of the edge into the state
}

// child returns the child of st on column c: a new one, numbered next,
// when add is set and there is none, else -1.
func (t *trie) child(st, c int32, add bool) int32 {
	prev := int32(-1)
	x := t.first[st]
	for x >= 0 && t.col[x] < c {
		prev, x = x, t.sibling[x]
	}
	if x >= 0 && t.col[x] == c {
		return x
	}
	if !add {
		return -1
	}
	n := int32(len(t.first))
	t.first = append(t.first, -1)
	t.sibling = append(t.sibling, x)
	t.col = append(t.col, c)
	if prev < 0 {
		t.first[st] = n
	} else {
		t.sibling[prev] = n
	}
	return n
}

// next is the automaton's transition from st on column c: its child,
// else its failure state's transition (fail is set for every state
// shallower than the one being linked); the start state's missing
// children lead back to it.
func (t *trie) next(st, c int32, fail []int32) int32 {
	for {
		if x := t.child(st, c, false); x >= 0 {
			return x
		}
		if st == 0 {
			return 0
		}
		st = fail[st]
	}
}

// maxStates returns a bound on the states of the trie of keys, in
// order: the start state, and a state per folded byte of a key past the
// prefix it shares with the key before it (the trie has one per byte
// past the longest it shares with any key before it).
func maxStates(keys []string) int {
	n, prev := 1, ""
	for _, k := range keys {
		common := 0
		for common < len(k) && common < len(prev) && fold(k[common]) == fold(prev[common]) {
			common++
		}
		n += len(k) - common
		prev = k
	}
	return n
}

// scan returns the clauses satisfied by the literals that occur in the
// normalised concatenation of parts.
func (m *matcher) scan(parts ...string) clauseBits {
	if m == nil {
		return 0
	}
	var f clauseBits
	st := int32(0)
	for _, s := range parts {
		for i := 0; i < len(s); i++ {
			st = m.next[st+m.column[s[i]]]
			if st >= m.outStart {
				f |= m.out[st-m.outStart]
			}
		}
	}
	return f
}

// scan2 returns scan(a) and scan(b). A step of the scan is a load that
// waits on the one before; two independent streams stepped in one loop
// take about the time of one.
func (m *matcher) scan2(a, b string) (fa, fb clauseBits) {
	if m == nil {
		return 0, 0
	}
	n := min(len(a), len(b))
	sa, sb, fa, fb := run2(m, a[:n], b[:n], 0, 0)
	_, fta := run1(m, a[n:], sa)
	_, ftb := run1(m, b[n:], sb)
	return fa | fta, fb | ftb
}

// scanBody returns the clauses satisfied by the literals in the
// normalised body s, markupClause among them when s holds a byte of
// markupBytes; the scan then stops, and the other clauses may be short.
func (m *matcher) scanBody(s []byte) clauseBits {
	if m == nil {
		return 0
	}
	// The two halves at once, as scan2 does. The first reads on into the
	// second until m.reach normalised bytes of it have started: a literal
	// that starts in the first half ends within them.
	mid, end := len(s)/2, len(s)/2
	for k := 0; end < len(s); end++ {
		if fold(s[end]) != ' ' || end == 0 || fold(s[end-1]) != ' ' {
			if k == m.reach {
				break
			}
			k++
		}
	}
	a, b := s[:end], s[mid:]
	var sa, sb int32
	var f clauseBits
	// In chunks, to stop at markup.
	const chunk = 512
	n := min(len(a), len(b))
	for i := 0; i < n; i += chunk {
		j := min(i+chunk, n)
		var fa, fb clauseBits
		sa, sb, fa, fb = run2(m, a[i:j], b[i:j], sa, sb)
		if f |= fa | fb; f&markupClause != 0 {
			return f
		}
	}
	_, fa := run1(m, a[n:], sa)
	_, fb := run1(m, b[n:], sb)
	return f | fa | fb
}

// run1 steps the automaton over a from state st; it returns the state
// reached and the clauses satisfied on the way.
func run1[T string | []byte](m *matcher, a T, st int32) (int32, clauseBits) {
	next, column, out, os := m.next, &m.column, m.out, m.outStart
	var f clauseBits
	for i := 0; i < len(a); i++ {
		st = next[st+column[a[i]]]
		if st >= os {
			f |= out[st-os]
		}
	}
	return st, f
}

// run2 is run1 on two texts of the same length at once.
func run2[T string | []byte](m *matcher, a, b T, sa, sb int32) (int32, int32, clauseBits, clauseBits) {
	next, column, out, os := m.next, &m.column, m.out, m.outStart
	var fa, fb clauseBits
	b = b[:len(a)]
	for i := 0; i < len(a); i++ {
		sa = next[sa+column[a[i]]]
		sb = next[sb+column[b[i]]]
		if sa >= os {
			fa |= out[sa-os]
		}
		if sb >= os {
			fb |= out[sb-os]
		}
	}
	return sa, sb, fa, fb
}
