package prose

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/dlclark/regexp2"
)

// pattern is a rule's expression. Most compile as RE2 and run in linear
// time; those that need what RE2 lacks (lookarounds, back-references, as
// Vale's regexp2 takes them) run on a backtracking engine with a deadline
// per block, so a hostile style cannot hang a run.
//
// A style set has thousands of expressions and a file wakes few of them:
// an RE2 expression is only parsed when its style is read (which reports a
// bad one at its rule) and compiled the first time it runs.
type pattern struct {
	src  string
	lit  *literal // the same search, done without an expression
	back *regexp2.Regexp

	// What every match needs, read from the expression when it is parsed:
	// one of these literals (lower-cased; nil when unknown), and these
	// factors (nil when none is worth checking).
	lits []string
	req  *requirement
	st   *starts   // how to search it by where its matches start, or nil
	run  *classRun // the runs of one class, searched without an expression
	// exact is the one ASCII string the expression matches (`;`), found
	// with a string search.
	exact string
	// tail is what every match ends with, searched first (tailOf).
	tail *regexp.Regexp
	seq  *wordSeq // words and the space between them, matched on a block's tokens

	// A pattern made from what the style cache kept of it (derived.pattern)
	// knows only its literals and factors, what the filter reads: the rest
	// is worked out the first time it runs (prepare). isBack says whether
	// it takes the backtracking engine, known either way.
	isBack   bool
	lazy     bool
	prepOnce sync.Once
	parsed   *syntax.Regexp // prepare's parse, until compiled takes it
	// What compiled sets req to when lits is set, known from the cache.
	litReq    *requirement
	litReqSet bool

	once sync.Once
	// std is the whole expression, compiled only when a block needs it:
	// most blocks a pattern runs on are settled by req, seq, st or tail.
	stdOnce sync.Once
	std     *regexp.Regexp // nil for a backtracking pattern, or if it failed to compile
}

// whole returns the whole RE2 expression compiled, or nil for a
// backtracking pattern (or one that failed to compile).
func (p *pattern) whole() *regexp.Regexp {
	p.stdOnce.Do(func() {
		if !p.isBack {
			p.std, _ = regexp.Compile(p.src)
		}
	})
	return p.std
}

// compiled compiles an RE2 pattern, once, with the shortcuts that are only
// worth working out for a pattern that runs.
func (p *pattern) compiled() *pattern {
	p.prepare()
	p.once.Do(func() {
		if p.back != nil || p.lit != nil || p.run != nil {
			return
		}
		re := p.parsed
		if re == nil {
			parsed, err := syntax.Parse(p.src, syntax.Perl)
			if err != nil {
				return
			}
			re = parsed.Simplify()
		}
		p.parsed = nil
		// The starts search stays beside a word sequence, for the blocks
		// with a rune that folds to ASCII.
		p.seq = wordSeqOf(re)
		if p.lits != nil {
			// A pattern with literals is only searched where the filter
			// found them; what else a text needs is worked out when it
			// first runs (or kept in the style cache).
			if p.litReqSet {
				p.req = p.litReq
			} else {
				p.req = factorsRequired(re)
			}
		}
		p.st = startsOf(re, p.src)
		if p.seq == nil && p.st == nil {
			if t := tailOf(re); t != "" {
				p.tail, _ = regexp.Compile(t)
			}
		}
	})
	return p
}

// prepare works out, once, what compilePattern sets beyond the literals
// and factors, for a pattern the style cache made. The expression compiled
// when the set was cached, by this build (the cache's key): one that does
// not now is left to find nothing, as an RE2 pattern that fails to compile.
func (p *pattern) prepare() {
	if !p.lazy {
		return
	}
	p.prepOnce.Do(func() {
		if p.isBack {
			if re, err := regexp2.Compile(p.src, regexp2.RE2); err == nil {
				re.MatchTimeout = backtrackTimeout
				p.back = re
			}
			return
		}
		if re, err := syntax.Parse(p.src, syntax.Perl); err == nil {
			re = re.Simplify()
			p.run, p.exact = classRunOf(re), exactOf(re)
			p.parsed = re // for compiled, which most patterns that run reach
		}
	})
}

// needs fills what every match of the parsed expression re needs: its
// literals, or else the factors the filter checks.
func (p *pattern) needs(re *syntax.Regexp) {
	if p.lits = literalsOf(re); p.lits == nil {
		p.req = factorsRequired(re)
	}
}

// literal is a token that is plain words: found with a string search and
// the \b checks its expression would make, which for a word list is many
// times cheaper than running its expression over every block.
type literal struct {
	words  []string // lower-cased when fold
	fold   bool
	bounds bool // \b around the whole
	group  bool // the match is also group 1
}

// plainWords returns the words of a token that is only letters, digits,
// apostrophes, hyphens and single spaces.
func plainWords(tok string) []string {
	if tok == "" || strings.HasPrefix(tok, " ") || strings.HasSuffix(tok, " ") || strings.Contains(tok, "  ") {
		return nil
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '\'' || c == '-' || c == ' ') {
			return nil
		}
	}
	return strings.Split(tok, " ")
}

// literalPattern compiles a token as template would, with the literal
// search beside it.
func literalPattern(expr string, words []string, fold, bounds, group bool) (*pattern, error) {
	return (*compiler)(nil).literalPattern(expr, words, fold, bounds, group)
}

// literalPattern is literalPattern with pc's patterns.
func (pc *compiler) literalPattern(expr string, words []string, fold, bounds, group bool) (*pattern, error) {
	if lit := longestWord(words); len(lit) >= minLiteral {
		// Plain words always make a valid RE2 expression: nothing to parse
		// now, and a match contains each word, so the longest filters.
		p := &pattern{src: expr, lits: []string{lit}}
		p.lit = newLiteral(words, fold, bounds, group)
		return p, nil
	}
	p, err := pc.pattern(expr)
	if err != nil || words == nil {
		return p, err
	}
	p.lit = newLiteral(words, fold, bounds, group)
	return p, nil
}

// longestWord returns the longest of words, lower-cased.
func longestWord(words []string) string {
	best := ""
	for _, w := range words {
		if len(w) > len(best) {
			best = w
		}
	}
	return lower(best)
}

func newLiteral(words []string, fold, bounds, group bool) *literal {
	if fold {
		lw := make([]string, len(words))
		for i, w := range words {
			lw[i] = strings.ToLower(w)
		}
		words = lw
	}
	return &literal{words: words, fold: fold, bounds: bounds, group: group}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// boundary reports whether \b holds at i of s.
func boundary(s string, i int) bool {
	before := i > 0 && isWordByte(s[i-1])
	after := i < len(s) && isWordByte(s[i])
	return before != after
}

// findAll finds the words in s; lowered is s with ASCII letters lowered,
// or "" to lower it here.
func (l *literal) findAll(s, lowered string) [][]int {
	text := s
	if l.fold {
		text = lowerOnce(s, lowered)
	}
	var out [][]int
	first := l.words[0]
	for i := 0; i <= len(text)-len(first); {
		j := strings.Index(text[i:], first)
		if j < 0 {
			break
		}
		start := i + j
		end, ok := l.matchAt(text, start)
		if ok && (!l.bounds || boundary(text, start) && boundary(text, end)) {
			if l.group {
				out = append(out, []int{start, end, start, end})
			} else {
				out = append(out, []int{start, end})
			}
			i = end
			if end == start {
				i++
			}
			continue
		}
		i = start + 1
	}
	return out
}

// matchAt matches the words from start, with a run of white space between
// each two, and returns the end.
func (l *literal) matchAt(text string, start int) (int, bool) {
	at := start + len(l.words[0])
	for _, w := range l.words[1:] {
		k := at
		for k < len(text) && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n' || text[k] == '\r' || text[k] == '\f') {
			k++
		}
		if k == at || !strings.HasPrefix(text[k:], w) {
			return 0, false
		}
		at = k + len(w)
	}
	return at, true
}

// lowerOnce returns lowered, or s lowered when lowered is "".
func lowerOnce(s, lowered string) string {
	if lowered == "" {
		return asciiLower(s)
	}
	return lowered
}

// asciiLower lowers ASCII letters only, so that offsets stay those of s.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for k := i; k < len(b); k++ {
				if c := b[k]; c >= 'A' && c <= 'Z' {
					b[k] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// backtrackTimeout bounds one search of a backtracking pattern, against
// catastrophic backtracking on a hostile text. It is wall time (regexp2
// has no other limit), so it is set far above what a search costs on a
// loaded machine under the race detector: a search that reaches it is
// reported (SearchLimitError), never dropped in silence.
var backtrackTimeout = 2 * time.Second

// SearchLimitError says a backtracking search of Rule gave up at its time
// limit in a file: the rule's alerts there may be incomplete. The alerts
// found are returned with it.
type SearchLimitError struct {
	Rule  string
	Level Level // the rule's in the file
	Limit time.Duration
}

func (e *SearchLimitError) Error() string {
	return fmt.Sprintf("a search of %s gave up after %v (a pattern that backtracks on this text): its alerts in this file may be incomplete", e.Rule, e.Limit)
}

func compilePattern(expr string) (*pattern, error) {
	// What parses compiles: regexp.Compile adds no error syntax.Parse
	// does not give (the size limits are the parser's).
	if re, err := syntax.Parse(expr, syntax.Perl); err == nil {
		re = re.Simplify()
		p := &pattern{src: expr, run: classRunOf(re), exact: exactOf(re)}
		p.needs(re)
		return p, nil
	}
	re, err := regexp2.Compile(expr, regexp2.RE2)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = backtrackTimeout
	p := &pattern{back: re, isBack: true, src: expr}
	// What the rest needs, the whole expression needs too; with the text a
	// final lookahead asserts, when there is one, it needs more.
	if text, ok := lookaheadAsText(expr); ok {
		if rest, err := syntax.Parse(withoutLookarounds(text), syntax.Perl); err == nil {
			p.needs(rest.Simplify())
			return p, nil
		}
	}
	if rest, err := syntax.Parse(withoutLookarounds(expr), syntax.Perl); err == nil {
		p.needs(rest.Simplify())
	}
	return p, nil
}

// tailOf returns an expression every text with a match of the parsed,
// simplified re has a match of, that starts with a literal string (which
// the regexp engine finds with a string search), or "". re is a sequence
// with a repetition of at least one of a sequence that ends with a
// literal, such as `(?:[^\s,]+,){1,}\s+\w+\s+(?:and|or)`: its last
// iteration's literal and what follows the repetition end every match
// (`,\s+\w+\s+(?:and|or)`). An expression tried at every start, whose
// matches are rare, is then run only on the blocks that have its tail.
func tailOf(re *syntax.Regexp) string {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	if re.Op != syntax.OpConcat {
		return ""
	}
	for i, e := range re.Sub[:len(re.Sub)-1] {
		var body *syntax.Regexp
		switch {
		case e.Op == syntax.OpPlus:
			body = e.Sub[0]
		case e.Op == syntax.OpRepeat && e.Min >= 1:
			body = e.Sub[0]
		default:
			continue
		}
		for body.Op == syntax.OpCapture {
			body = body.Sub[0]
		}
		if body.Op != syntax.OpConcat {
			return ""
		}
		last := body.Sub[len(body.Sub)-1]
		if last.Op != syntax.OpLiteral || last.Flags&syntax.FoldCase != 0 {
			return ""
		}
		tail := &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: append([]*syntax.Regexp{last}, re.Sub[i+1:]...)}
		return tail.String()
	}
	return ""
}

// exactOf returns the string the parsed, simplified re matches when it
// matches one ASCII string and nothing else, as written (no case folding):
// its matches, leftmost first and not overlapping, are a string search's.
func exactOf(re *syntax.Regexp) string {
	if re.Op != syntax.OpLiteral || re.Flags&syntax.FoldCase != 0 || len(re.Rune) == 0 {
		return ""
	}
	b := make([]byte, len(re.Rune))
	for i, r := range re.Rune {
		if r >= utf8.RuneSelf {
			return ""
		}
		b[i] = byte(r)
	}
	return string(b)
}

// exactAll returns the spans of lit's occurrences in s, each after the one
// before, as FindAllStringSubmatchIndex of an expression without groups.
func exactAll(s, lit string) [][]int {
	var out [][]int
	for i := 0; ; {
		j := strings.Index(s[i:], lit)
		if j < 0 {
			return out
		}
		out = append(out, []int{i + j, i + j + len(lit)})
		i += j + len(lit)
	}
}

// backtracking reports whether the pattern needs the backtracking engine.
func (p *pattern) backtracking() bool { return p.isBack }

// findAll returns the byte spans of every match and of its groups, as
// regexp's FindAllStringSubmatchIndex does.
func (p *pattern) findAll(s string) [][]int { return p.find(s, "") }

// each calls f with the span of each match, in order: findAll without
// holding the matches, for the rules that count words.
func (p *pattern) each(s string, f func(start, end int)) {
	p.prepare()
	if p.run != nil && p.lit == nil {
		p.run.each(s, f)
		return
	}
	for _, loc := range p.find(s, "") {
		f(loc[0], loc[1])
	}
}

// find is findAll with s's ASCII letters lowered, or "" to lower them here
// if need be: a block's tokens share one lowering.
func (p *pattern) find(s, lowered string) [][]int {
	return p.findIn(s, lowered, &blockScan{folds: unknownFolds})
}

// blockScan is what the patterns that run on one text (a block, or a
// sentence of one) share, worked out the first time one needs it.
type blockScan struct {
	of      string  // the text, for a file's scans
	valid   bool    // of is set
	folds   int8    // whether the text has a rune that folds to ASCII (foldsToASCII)
	toks    []int32 // its words (tokens), once tokened
	tokened bool
	// A file's scans lay out their words in one array (words) and share
	// the last text's runes (runes); a scan without them keeps its own.
	words *[]int32
	runes *runeScan
	// gaveUp, when set, is told that a backtracking search gave up.
	gaveUp *bool
}

// runeScan is a text's runes and the byte offset of each, and the text's
// length, for the backtracking engine.
type runeScan struct {
	of    string // the text decoded, when done
	runes []rune
	offs  []int
	done  bool
}

// runesOf returns the text's runes and their byte offsets, decoded once
// for all its backtracking patterns: regexp2 reads runes, and given the
// string it decodes it again for every pattern a text runs.
func (sc *blockScan) runesOf(s string) ([]rune, []int) {
	if sc.runes == nil {
		sc.runes = &runeScan{}
	}
	rs := sc.runes
	if !rs.done || !sameText(rs.of, s) {
		rs.runes, rs.offs = rs.runes[:0], rs.offs[:0]
		for i, r := range s {
			rs.runes = append(rs.runes, r)
			rs.offs = append(rs.offs, i)
		}
		rs.offs, rs.of, rs.done = append(rs.offs, len(s)), s, true
	}
	return rs.runes, rs.offs
}

func (sc *blockScan) tokens(s string) []int32 {
	if !sc.tokened {
		if sc.words != nil {
			at := len(*sc.words)
			*sc.words = tokens(s, *sc.words)
			sc.toks = (*sc.words)[at:len(*sc.words):len(*sc.words)]
		} else {
			sc.toks = tokens(s, sc.toks[:0])
		}
		sc.tokened = true
	}
	return sc.toks
}

// sameText reports whether a and b are the same bytes in memory, not only
// equal ones: the texts a file's rules run on are slices of its blocks.
func sameText(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// Whether a text has a rune that folds to ASCII (foldsToASCII), worked
// out once for all the patterns a block runs rather than once each.
const (
	unknownFolds int8 = iota - 1
	noFolds
	hasFolds
)

func (p *pattern) findIn(s, lowered string, sc *blockScan) [][]int {
	foldsTo := func() bool {
		if sc.folds == unknownFolds {
			sc.folds = noFolds
			if foldsToASCII(s) {
				sc.folds = hasFolds
			}
		}
		return sc.folds == hasFolds
	}
	if p.lit != nil && (!p.lit.fold || !foldsTo()) {
		return p.lit.findAll(s, lowered)
	}
	p.prepare()
	if p.run != nil {
		return p.run.findAll(s)
	}
	if p.exact != "" {
		return exactAll(s, p.exact)
	}
	p.compiled()
	if p.req != nil && !p.req.in(s) {
		return nil
	}
	if p.back == nil {
		// What parses compiles (compilePattern): the shortcuts below agree
		// with the expression, which is compiled only when they do not apply.
		if p.seq != nil && !foldsTo() {
			return p.seq.findAll(s, lowerOnce(s, lowered), sc.tokens(s))
		}
		if p.st != nil && !foldsTo() {
			if re := p.st.anchoredRe(); re != nil {
				return p.st.findAll(s, lowerOnce(s, lowered), re)
			}
		}
		if p.tail != nil && !p.tail.MatchString(s) {
			return nil
		}
		re := p.whole()
		if re == nil {
			return nil
		}
		return re.FindAllStringSubmatchIndex(s, -1)
	}
	var out [][]int
	runes, runeToByte := sc.runesOf(s)
	m, err := p.back.FindRunesMatch(runes)
	for err == nil && m != nil {
		groups := m.Groups()
		loc := make([]int, 2*len(groups))
		for i, g := range groups {
			if len(g.Captures) == 0 {
				loc[2*i], loc[2*i+1] = -1, -1
				continue
			}
			loc[2*i], loc[2*i+1] = runeToByte[g.Index], runeToByte[g.Index+g.Length]
		}
		out = append(out, loc)
		m, err = p.back.FindNextMatch(m)
	}
	if err != nil && sc.gaveUp != nil {
		*sc.gaveUp = true
	}
	return out
}

// matches reports whether s has a match.
func (p *pattern) matches(s string) bool {
	p.compiled()
	if p.req != nil && !p.req.in(s) {
		return false
	}
	if p.back == nil {
		re := p.whole()
		return re != nil && re.MatchString(s)
	}
	ok, err := p.back.MatchString(s)
	return err == nil && ok
}

// fullMatch reports whether p matches all of s.
func fullMatch(p *pattern, s string) bool {
	for _, loc := range p.findAll(s) {
		if loc[0] == 0 && loc[1] == len(s) {
			return true
		}
	}
	return false
}

// foldsToASCII reports whether s has a rune other than an ASCII letter
// that case folding makes one: the Kelvin sign and the long s.
func foldsToASCII(s string) bool {
	return !isASCII(s) && (strings.Contains(s, "\u212A") || strings.Contains(s, "\u017F"))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }
