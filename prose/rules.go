package prose

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/svrnty/sotvet/internal/lazyre"
)

// hit is one alert of a rule, in the text it was run on.
type hit struct {
	start, end int
	msg        []string // the message's %s values, in order
	fix        []string // the replacements an editor may offer
}

// fileState is what a rule remembers from one block to the next of a file.
type fileState struct {
	defined map[string]bool       // conditional: what the file has defined so far
	chosen  map[*Rule]map[int]int // consistency: the form each pair first took

	// The last text lowered, and its lowering: the rules that run on a
	// block one after the other share it.
	lowerOf, lowered string

	alts []altMatch // scratch for the merged matches of a rule's tokens

	// What the patterns that run on each text of the file (a block, a
	// sentence of one) share: the rules run one after the other over the
	// file's texts, so a text comes back once per rule, and is scanned
	// once. The engine numbers the texts and says which one the rules run
	// on (cur, its number+1, and curText); texts holds the scan of each
	// that a pattern needed, made in chunks; the texts' words are laid out
	// in words, the last text's runes are in runes. Another text (a raw
	// scope's) has the one scan of other.
	texts   []*blockScan
	cur     int
	curText string
	chunk   []blockScan
	words   []int32
	runes   runeScan
	other   blockScan

	// gaveUp is set when a backtracking search of the file gave up at
	// its time limit: its rule's alerts may be incomplete.
	gaveUp bool
}

// newScan returns the scan of a text that nothing has been worked out of.
func (st *fileState) newScan(text string) blockScan {
	return blockScan{of: text, valid: true, folds: unknownFolds, words: &st.words, runes: &st.runes, gaveUp: &st.gaveUp}
}

// scanFor returns what the patterns that run on text share: one scan per
// text for all the rules, not one per rule.
func (st *fileState) scanFor(text string) *blockScan {
	if st == nil {
		return &blockScan{folds: unknownFolds}
	}
	if st.cur > 0 && sameText(st.curText, text) {
		sc := st.texts[st.cur-1]
		if sc != nil && !sameText(sc.of, text) {
			// Another text's scan at this number: a numbering slip must
			// cost a scan, never hand this text another's words.
			return st.otherScan(text)
		}
		if sc == nil {
			if len(st.chunk) == cap(st.chunk) {
				// A new chunk: the scans made stay where they are.
				st.chunk = make([]blockScan, 0, 64)
			}
			st.chunk = append(st.chunk, st.newScan(text))
			sc = &st.chunk[len(st.chunk)-1]
			st.texts[st.cur-1] = sc
		}
		return sc
	}
	return st.otherScan(text)
}

// otherScan returns the scan of a text that has no number of its own.
func (st *fileState) otherScan(text string) *blockScan {
	if !st.other.valid || !sameText(st.other.of, text) {
		st.other = st.newScan(text)
	}
	return &st.other
}

// altBuf returns the array the last block's token matches were merged
// in, for the next: one per file rather than one per block and rule.
func (st *fileState) altBuf() []altMatch {
	if st == nil {
		return nil
	}
	b := st.alts
	st.alts = nil // a rule that runs another's tokens inside takes its own
	return b
}

// keepAlts hands back the array altBuf gave, its spans let go.
func (st *fileState) keepAlts(ms []altMatch) {
	if st != nil {
		clear(ms[:cap(ms)])
		st.alts = ms[:0]
	}
}

// lower returns text with its ASCII letters lowered.
func (st *fileState) lower(text string) string {
	if st == nil {
		return asciiLower(text)
	}
	if st.lowered == "" || st.lowerOf != text {
		st.lowerOf, st.lowered = text, asciiLower(text)
	}
	return st.lowered
}

// prefilterExpr is the expression whose literals every alert of the rule
// needs, or "" when a block without a match may still alert (occurrence's
// min, conditional's definitions, capitalization).
func (r *Rule) prefilterExpr() string {
	switch c := r.check.(type) {
	case *existence:
		return c.whole.src
	case *substitution:
		return c.whole.src
	case *repetition:
		return c.p.src
	case *occurrence:
		if r.Min == 0 {
			return c.p.src
		}
	case *consistency:
		var alts []string
		for _, p := range c.pairs {
			alts = append(alts, "(?:"+p.src+")")
		}
		return strings.Join(alts, "|")
	}
	return ""
}

// checker is an extension point compiled for one rule.
type checker interface {
	run(text string, st *fileState, emit func(hit))
}

// runCtx is what a rule needs beyond its text.
type runCtx struct {
	accept []*regexp.Regexp
}

func compile(r *Rule, pc *compiler) (checker, error) {
	switch r.Extends {
	case "existence":
		return compileExistence(r, pc)
	case "substitution":
		return compileSubstitution(r, pc)
	case "occurrence":
		if r.Token == "" {
			return nil, fmt.Errorf("occurrence needs a token")
		}
		p, err := pc.pattern(caseFlag(r.IgnoreCase) + r.Token)
		if err != nil {
			return nil, fmt.Errorf("token: %v", err)
		}
		return &occurrence{r: r, p: p, raw: slicesContains(r.Scopes, "raw")}, nil
	case "repetition":
		if len(r.Tokens) == 0 {
			return nil, fmt.Errorf("repetition needs tokens")
		}
		p, err := pc.pattern(caseFlag(r.IgnoreCase) + `(` + strings.Join(r.Tokens, "|") + `)`)
		if err != nil {
			return nil, fmt.Errorf("tokens: %v", err)
		}
		return &repetition{r: r, p: p}, nil
	case "capitalization":
		return compileCapitalization(r, pc)
	case "conditional":
		if r.First == "" || r.Second == "" {
			return nil, fmt.Errorf("conditional needs first and second")
		}
		first, err := pc.pattern(caseFlag(r.IgnoreCase) + r.First)
		if err != nil {
			return nil, fmt.Errorf("first: %v", err)
		}
		second, err := pc.pattern(caseFlag(r.IgnoreCase) + r.Second)
		if err != nil {
			return nil, fmt.Errorf("second: %v", err)
		}
		ex, err := exceptions(r.Exceptions, r.IgnoreCase, pc)
		if err != nil {
			return nil, err
		}
		return &conditional{r: r, first: first, second: second, except: ex,
			secondGroups: strings.Count(r.Second, "(") > strings.Count(r.Second, "(?")+strings.Count(r.Second, `\(`)}, nil
	case "consistency":
		if len(r.Either) == 0 {
			return nil, fmt.Errorf("consistency needs either")
		}
		c := &consistency{r: r}
		for _, pair := range r.Either {
			p, err := pc.pattern(caseFlag(r.IgnoreCase) + wordTemplate(r.Nonword, `(`+pair[0]+`)|(`+pair[1]+`)`))
			if err != nil {
				return nil, fmt.Errorf("either: %v", err)
			}
			c.pairs = append(c.pairs, p)
		}
		return c, nil
	}
	return nil, fmt.Errorf("unknown extension point %q", r.Extends)
}

func caseFlag(ignore bool) string {
	if ignore {
		return "(?i)"
	}
	return ""
}

func wordTemplate(nonword bool, body string) string {
	if nonword {
		return `(?m)(?:` + body + `)`
	}
	return `(?m)\b(?:` + body + `)\b`
}

// spacesAsRuns lets a space in a token match any run of white space, as a
// token's words may be split across lines of a paragraph. A space that a
// quantifier applies to stays as written.
func spacesAsRuns(tok string) string {
	if !strings.ContainsAny(tok, " \t") || strings.Contains(tok, "(?x") {
		return tok
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c == '\\' && i+1 < len(tok):
			b.WriteString(tok[i : i+2])
			i++
		case inClass:
			inClass = c != ']'
			b.WriteByte(c)
		case c == '[':
			inClass = true
			b.WriteByte(c)
		case c == ' ' || c == '\t':
			j := i
			for j < len(tok) && (tok[j] == ' ' || tok[j] == '\t') {
				j++
			}
			if j < len(tok) && strings.IndexByte("*+?{", tok[j]) >= 0 {
				b.WriteString(tok[i:j])
			} else {
				b.WriteString(`\s+`)
			}
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// exceptions compiles a rule's exceptions as one pattern a whole match must
// match.
func exceptions(ex []string, ignore bool, pc *compiler) (*pattern, error) {
	if len(ex) == 0 {
		return nil, nil
	}
	p, err := pc.pattern(caseFlag(ignore) + `^(?:` + strings.Join(ex, "|") + `)$`)
	if err != nil {
		return nil, fmt.Errorf("exceptions: %v", err)
	}
	return p, nil
}

type existence struct {
	r         *Rule
	whole     wholeAlts
	except    *pattern
	tokenAlts // one per token, when the rule has no raw part
}

func compileExistence(r *Rule, pc *compiler) (checker, error) {
	var toks []string
	var at []int // the index in r.Tokens of each of toks
	for k, t := range r.Tokens {
		if strings.TrimSpace(t) != "" {
			toks = append(toks, spacesAsRuns(t))
			at = append(at, k)
		}
	}
	body := ""
	if !r.Nonword && len(toks) > 0 {
		body = `(?m)\b(?:` + strings.Join(toks, "|") + `)\b`
	} else {
		body = `(?m)(?:` + strings.Join(toks, "|") + `)`
	}
	raw := strings.Join(r.Raw, "")
	if r.Append {
		body += raw
	} else {
		body = raw + body
	}
	if len(toks) == 0 && raw == "" {
		return nil, fmt.Errorf("existence needs tokens or raw")
	}
	ex, err := exceptions(r.Exceptions, r.IgnoreCase, pc)
	if err != nil {
		return nil, err
	}
	e := &existence{r: r, except: ex}
	tokPattern := func(i int) (*pattern, error) {
		t := toks[i]
		tmpl := `(?m)\b(?:` + t + `)\b`
		if r.Nonword {
			tmpl = `(?m)(?:` + t + `)`
		}
		ap, err := pc.literalPattern(caseFlag(r.IgnoreCase)+tmpl, plainWords(strings.TrimSpace(r.Tokens[at[i]])), r.IgnoreCase, !r.Nonword, false)
		if err != nil {
			return nil, fmt.Errorf("token %q: %v", t, err)
		}
		return ap, nil
	}
	n, back := 0, false
	if raw == "" {
		if facts := pc.altsFor(len(toks)); facts != nil {
			e.lazy = newAltList(facts, func(i int) *pattern { return orNothing(tokPattern(i)) })
			n, back = len(facts), anyBack(facts)
		} else {
			for i := range toks {
				ap, err := tokPattern(i)
				if err != nil {
					return nil, err
				}
				e.alts = append(e.alts, ap)
				back = back || ap.backtracking()
			}
			n = len(e.alts)
		}
	}
	if err := e.whole.set(caseFlag(r.IgnoreCase)+body, n, back, "tokens", pc); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *existence) run(text string, st *fileState, emit func(hit)) {
	e.runLocs(text, e.whole.pattern().findIn(text, st.lower(text), st.scanFor(text)), emit)
}

func (e *existence) runAlts(text string, alts []int, st *fileState, emit func(hit)) {
	ms := mergeAltMatches(text, st.lower(text), st.scanFor(text), e, alts, st.altBuf())
	for _, m := range ms {
		e.runLoc(text, m.loc, emit)
	}
	st.keepAlts(ms)
}

func (e *existence) runLocs(text string, locs [][]int, emit func(hit)) {
	for _, loc := range locs {
		e.runLoc(text, loc, emit)
	}
}

func (e *existence) runLoc(text string, loc []int, emit func(hit)) {
	if loc[1] <= loc[0] {
		return
	}
	observed := strings.TrimSpace(text[loc[0]:loc[1]])
	if e.except != nil && e.except.matches(observed) {
		return
	}
	h := hit{start: loc[0], end: loc[1], msg: []string{text[loc[0]:loc[1]]}}
	// A rule's message may name its capture groups' text as well.
	for g := 1; 2*g+1 < len(loc); g++ {
		if loc[2*g] >= 0 {
			h.msg = append(h.msg, text[loc[2*g]:loc[2*g+1]])
		}
	}
	if e.r.Action.Name == "replace" && len(e.r.Action.Params) == 1 {
		h.fix = e.r.Action.Params
	}
	emit(h)
}

type substitution struct {
	r         *Rule
	whole     wholeAlts
	repl      []string
	find      []string
	except    *pattern
	tokenAlts // one per entry, its text in group 1
	// Per entry, its replacement as an expression: Vale takes a text that
	// matches the replacement as already replaced. Compiled once, on the
	// first match that needs it, not on every match.
	expect []expectation
}

type expectation struct {
	once sync.Once
	p    *pattern // nil if the replacement is no expression
}

func (e *expectation) matches(expected, observed string) bool {
	e.once.Do(func() {
		e.p, _ = compilePattern(`^(?:` + expected + `)$`)
	})
	return e.p != nil && e.p.matches(observed)
}

var captureOpen = lazyre.New(`(^|[^\\])\(([^?]|$)`)

func compileSubstitution(r *Rule, pc *compiler) (checker, error) {
	if len(r.Swap) == 0 {
		return nil, fmt.Errorf("substitution needs swap")
	}
	swaps := append([]Swap(nil), r.Swap...)
	sort.SliceStable(swaps, func(i, j int) bool { return len(swaps[i].Find) > len(swaps[j].Find) })
	var alts, finds []string
	s := &substitution{r: r}
	for _, sw := range swaps {
		find := spacesAsRuns(sw.Find)
		// The rule's own groups must not shift the one per entry.
		for strings.IndexByte(find, '(') >= 0 && captureOpen.MatchString(find) {
			find = captureOpen.ReplaceAllString(find, `$1(?:$2`)
		}
		alts = append(alts, `(`+find+`)`)
		finds = append(finds, find)
		s.repl = append(s.repl, sw.Replace)
		s.find = append(s.find, sw.Find)
	}
	entryPattern := func(i int) (*pattern, error) {
		ap, err := pc.literalPattern(caseFlag(r.IgnoreCase)+wordTemplate(r.Nonword, `(`+finds[i]+`)`), plainWords(s.find[i]), r.IgnoreCase, !r.Nonword, true)
		if err != nil {
			return nil, fmt.Errorf("swap %q: %v", s.find[i], err)
		}
		return ap, nil
	}
	n, back := len(finds), false
	if facts := pc.altsFor(len(finds)); facts != nil {
		s.lazy = newAltList(facts, func(i int) *pattern { return orNothing(entryPattern(i)) })
		back = anyBack(facts)
	} else {
		for i := range finds {
			ap, err := entryPattern(i)
			if err != nil {
				return nil, err
			}
			s.alts = append(s.alts, ap)
			back = back || ap.backtracking()
		}
	}
	s.expect = make([]expectation, len(s.repl))
	if err := s.whole.set(caseFlag(r.IgnoreCase)+wordTemplate(r.Nonword, strings.Join(alts, "|")), n, back, "swap", pc); err != nil {
		return nil, err
	}
	var err error
	if s.except, err = exceptions(r.Exceptions, r.IgnoreCase, pc); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *substitution) run(text string, st *fileState, emit func(hit)) {
	s.runLocs(text, s.whole.pattern().findIn(text, st.lower(text), st.scanFor(text)), emit)
}

// runAlts runs the entries alts on text: each entry's match is placed in
// the group the combined expression would give it.
func (s *substitution) runAlts(text string, alts []int, st *fileState, emit func(hit)) {
	ms := mergeAltMatches(text, st.lower(text), st.scanFor(text), s, alts, st.altBuf())
	for _, m := range ms {
		// The entry's text is its group 1: the alternation's group 1+index.
		if m.loc[2] >= 0 {
			s.runEntry(text, m.alt, m.loc[2], m.loc[3], emit)
		}
	}
	st.keepAlts(ms)
}

func (s *substitution) runLocs(text string, locs [][]int, emit func(hit)) {
	for _, loc := range locs {
		for g := 1; 2*g+1 < len(loc) && g <= len(s.repl); g++ {
			if loc[2*g] < 0 {
				continue
			}
			s.runEntry(text, g-1, loc[2*g], loc[2*g+1], emit)
			break
		}
	}
}

// runEntry reports the text [start, end) that entry e matched, unless it
// is already what the entry asks for.
func (s *substitution) runEntry(text string, e, start, end int, emit func(hit)) {
	observed := text[start:end]
	expected := s.repl[e]
	options := splitOptions(expected)
	if slicesContains(options, observed) || expected == observed {
		return
	}
	if s.expect[e].matches(expected, observed) {
		return
	}
	if s.except != nil && s.except.matches(strings.TrimSpace(observed)) {
		return
	}
	h := hit{start: start, end: end}
	if s.r.Action.Name == "replace" && len(s.r.Action.Params) == 0 {
		h.msg = []string{quoteList(options), observed}
		if len(options) == 1 {
			h.fix = options
		}
	} else {
		h.msg = []string{expected, observed}
	}
	emit(h)
}

// wholeAlts is the alternation of a rule's tokens. With a backtracking
// token it is compiled on first use: a rule run token by token (any but a
// raw scope) never runs it, and its backtracking compile is most of what
// reading the rule costs. ParseRule compiles it at once (validate), which
// reports a bad one at its rule; a rule from the style cache compiled
// when it was cached, by this build.
type wholeAlts struct {
	src      string
	what     string // what the error names: tokens, swap
	p        *pattern
	once     sync.Once
	err      error
	deferred bool
}

func (w *wholeAlts) set(expr string, alts int, back bool, what string, pc *compiler) error {
	w.src, w.what = expr, what
	if back {
		w.deferred = true
		return nil
	}
	if alts > 0 {
		// Every token is RE2: the rule runs token by token, through the
		// filter, and its whole expression (an alternation of valid RE2
		// expressions, so valid too) is only compiled if a block needs it
		// (a raw scope), not parsed when the style is read. A style set
		// has hundreds of word lists.
		w.p = &pattern{src: expr}
		return nil
	}
	var err error
	if w.p, err = pc.pattern(expr); err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	return nil
}

// compiled compiles a deferred alternation, once, and returns its error.
func (w *wholeAlts) compiled() error {
	if w.deferred {
		w.once.Do(func() {
			if w.p, w.err = compilePattern(w.src); w.err != nil {
				// One that failed finds nothing, as an RE2 pattern
				// that does not compile.
				w.p, w.err = &pattern{src: w.src}, fmt.Errorf("%s: %v", w.what, w.err)
			}
		})
	}
	return w.err
}

func (w *wholeAlts) pattern() *pattern {
	w.compiled()
	return w.p
}

// validate compiles what a checker defers, and returns the first error.
func validate(c checker) error {
	switch c := c.(type) {
	case *existence:
		return c.whole.compiled()
	case *substitution:
		return c.whole.compiled()
	}
	return nil
}

// tokenRule is a rule whose expression is an alternation of tokens, each
// compiled on its own too: a block runs only the tokens whose literals it
// holds.
type tokenRule interface {
	altSource
	alternatives() []*pattern // every one, made
	altCount() int
	altFilter(i int) ([]string, *requirement) // what the filter reads of token i
	runAlts(text string, alts []int, st *fileState, emit func(hit))
}

// altSource gives a token rule's pattern i, made if need be.
type altSource interface{ alt(i int) *pattern }

// patterns is a list of patterns as an altSource.
type patterns []*pattern

func (ps patterns) alt(i int) *pattern { return ps[i] }

// orNothing is p, or a pattern that finds nothing when p failed to
// compile: a token read from the style cache compiled when it was cached,
// by this build.
func orNothing(p *pattern, err error) *pattern {
	if err != nil {
		return &pattern{src: "(", lazy: true} // does not compile: finds nothing
	}
	return p
}

// altMatch is a match of one of a rule's tokens: the token's own spans
// (the match, then its groups) and the token's index.
type altMatch struct {
	loc []int
	alt int
}

// mergeAlts runs the patterns alts (indices into all) on text and returns
// their matches as the one alternation of all would have: leftmost first,
// the earlier alternative first at one start, no overlap. With groups > 0
// each match's spans are laid out as the alternation's would be, the
// alternative's group 1 as group 1+index.
func mergeAlts(text, lowered string, all []*pattern, alts []int, groups int) [][]int {
	var out [][]int
	for _, c := range mergeAltMatches(text, lowered, &blockScan{folds: unknownFolds}, patterns(all), alts, nil) {
		loc := c.loc
		if groups > 0 {
			loc = make([]int, 2*(groups+1))
			for i := range loc {
				loc[i] = -1
			}
			loc[0], loc[1] = c.loc[0], c.loc[1]
			loc[2*(c.alt+1)], loc[2*(c.alt+1)+1] = c.loc[2], c.loc[3]
		}
		out = append(out, loc)
	}
	return out
}

// mergeAltMatches is mergeAlts with each match's token beside its own
// spans, in buf's array: a substitution with hundreds of entries need
// not lay out hundreds of groups per match.
func mergeAltMatches(text, lowered string, sc *blockScan, all altSource, alts []int, buf []altMatch) []altMatch {
	cands := buf[:0]
	for _, a := range alts {
		for _, loc := range all.alt(a).findIn(text, lowered, sc) {
			cands = append(cands, altMatch{loc, a})
		}
	}
	if len(cands) == 0 {
		return cands
	}
	// A pattern's matches start at distinct offsets: (start, token) orders
	// them all.
	slices.SortFunc(cands, func(a, b altMatch) int {
		if a.loc[0] != b.loc[0] {
			return a.loc[0] - b.loc[0]
		}
		return a.alt - b.alt
	})
	out := cands[:0]
	pos := 0
	for _, c := range cands {
		if c.loc[0] < pos || (c.loc[0] == c.loc[1] && c.loc[0] < pos) {
			continue
		}
		out = append(out, c)
		pos = c.loc[1]
		if c.loc[1] == c.loc[0] {
			pos++
		}
	}
	return out
}

// splitOptions splits a replacement's alternatives on unescaped `|`.
func splitOptions(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '|' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// quoteList writes options as Vale's messages do: 'a', 'a' or 'b',
// 'a', 'b' or 'c'.
func quoteList(opts []string) string {
	q := make([]string, len(opts))
	for i, o := range opts {
		q[i] = "'" + o + "'"
	}
	switch len(q) {
	case 1:
		return q[0]
	case 2:
		return q[0] + " or " + q[1]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

type occurrence struct {
	r   *Rule
	p   *pattern
	raw bool // a file with too few has no first word to point at: Vale says 1:1
}

var firstWord = lazyre.New(`[\p{L}\p{N}]+`)

func (o *occurrence) run(text string, _ *fileState, emit func(hit)) {
	n := 0
	first := []int(nil) // the first match that is not only space
	o.p.each(text, func(start, end int) {
		n++
		if first == nil && strings.TrimSpace(text[start:end]) != "" {
			first = []int{start, end}
		}
	})
	if !((o.r.Max > 0 && n > o.r.Max) || (o.r.Min > 0 && n < o.r.Min)) {
		return
	}
	count := strconv.Itoa(n)
	if n == 0 {
		if o.raw && len(text) > 0 {
			_, size := utf8.DecodeRuneInString(text)
			emit(hit{start: 0, end: size, msg: []string{count}})
			return
		}
		if w := firstWord.FindStringIndex(text); w != nil {
			emit(hit{start: w[0], end: w[1], msg: []string{count}})
		}
		return
	}
	if first != nil {
		emit(hit{start: first[0], end: first[1], msg: []string{count}})
	}
}

type repetition struct {
	r *Rule
	p *pattern
}

func (rp *repetition) run(text string, _ *fileState, emit func(hit)) {
	prevStart, prevEnd := -1, -1
	rp.p.each(text, func(start, end int) {
		cur := text[start:end]
		if prevStart >= 0 && strings.TrimSpace(text[prevEnd:start]) == "" && start > prevEnd {
			before := text[prevStart:prevEnd]
			same := before == cur || (rp.r.IgnoreCase && strings.EqualFold(before, cur))
			if same && (!rp.r.Alpha || isAlpha(cur)) {
				emit(hit{start: prevStart, end: end, msg: []string{cur}})
				prevStart, prevEnd = -1, -1
				return
			}
		}
		prevStart, prevEnd = start, end
	})
}

func isAlpha(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

type conditional struct {
	r             *Rule
	first, second *pattern
	except        *pattern
	secondGroups  bool
}

func (c *conditional) run(text string, st *fileState, emit func(hit)) {
	firsts := c.first.findAll(text)
	if len(firsts) == 0 {
		return
	}
	if !c.secondGroups {
		if c.second.matches(text) {
			return
		}
	} else {
		for _, loc := range c.second.findAll(text) {
			for g := 1; 2*g+1 < len(loc); g++ {
				if loc[2*g] >= 0 && loc[2*g+1] > loc[2*g] {
					st.defined[text[loc[2*g]:loc[2*g+1]]] = true
				}
			}
		}
	}
	for _, loc := range firsts {
		s := text[loc[0]:loc[1]]
		if c.secondGroups && st.defined[s] {
			continue
		}
		if c.except != nil && c.except.matches(s) {
			continue
		}
		emit(hit{start: loc[0], end: loc[1], msg: []string{s}})
	}
}

type consistency struct {
	r     *Rule
	pairs []*pattern
}

func (c *consistency) run(text string, st *fileState, emit func(hit)) {
	chosen := st.chosen[c.r]
	if chosen == nil {
		chosen = map[int]int{}
		st.chosen[c.r] = chosen
	}
	for i, p := range c.pairs {
		for _, loc := range p.findAll(text) {
			form := 1
			if loc[2] < 0 {
				form = 2
			}
			first, ok := chosen[i]
			if !ok {
				chosen[i] = form
				continue
			}
			if form != first {
				emit(hit{start: loc[0], end: loc[1], msg: []string{text[loc[0]:loc[1]]}})
			}
		}
	}
}

type capitalization struct {
	r       *Rule
	match   *pattern
	except  *pattern
	exceptW map[string]bool
}

func compileCapitalization(r *Rule, pc *compiler) (checker, error) {
	c := &capitalization{r: r, exceptW: map[string]bool{}}
	if r.Threshold == 0 {
		r.Threshold = 0.8
	}
	for _, e := range r.Exceptions {
		c.exceptW[e] = true
	}
	var err error
	if c.except, err = exceptions(r.Exceptions, false, pc); err != nil {
		return nil, err
	}
	switch r.Match {
	case "$title", "$sentence", "$lower", "$upper":
	case "":
		return nil, fmt.Errorf("capitalization needs match")
	default:
		if c.match, err = pc.pattern(r.Match); err != nil {
			return nil, fmt.Errorf("match: %v", err)
		}
	}
	return c, nil
}

var wordRe = lazyre.New(`[^\s]+`)

func (c *capitalization) run(text string, _ *fileState, emit func(hit)) {
	ok := true
	expected := text
	switch c.r.Match {
	case "$sentence":
		expected, ok = c.sentence(text)
	case "$title":
		expected, ok = c.title(text)
	case "$lower":
		expected = strings.ToLower(text)
		ok = expected == text
	case "$upper":
		expected = strings.ToUpper(text)
		ok = expected == text
	default:
		ok = fullMatch(c.match, text)
	}
	if ok {
		return
	}
	h := hit{start: 0, end: len(text), msg: []string{text, expected}}
	if c.r.Action.Name == "replace" && (c.r.Match == "$sentence" || c.r.Match == "$title") {
		h.fix = []string{expected}
	}
	emit(h)
}

// tokens are a heading's words, an exception of several words kept whole.
func (c *capitalization) tokens(s string) []string {
	return wordRe.FindAllString(s, -1)
}

func (c *capitalization) isException(w string) bool {
	return c.exceptW[w] || (c.except != nil && c.except.matches(w))
}

func (c *capitalization) indicator(prev string) bool {
	for _, ind := range c.r.Indicators {
		if strings.HasSuffix(prev, ind) {
			return true
		}
	}
	return false
}

func (c *capitalization) sentence(s string) (string, bool) {
	words := c.tokens(s)
	made := make([]string, len(words))
	for i, w := range words {
		switch {
		case c.isException(w):
			made[i] = w
		case i == 0 || (i > 0 && c.indicator(words[i-1])):
			made[i] = capFirst(strings.ToLower(w))
		default:
			made[i] = strings.ToLower(w)
		}
	}
	count := 0.0
	for i, w := range words {
		if w == made[i] || c.isException(w) {
			count++
		} else if i == 0 && w != titleParts(strings.ToLower(w)) {
			return strings.Join(made, " "), false
		}
	}
	if len(words) == 0 {
		return s, true
	}
	return strings.Join(made, " "), count/float64(len(words)) >= c.r.Threshold
}

var smallWords = map[string]bool{"a": true, "an": true, "and": true, "as": true, "at": true, "but": true,
	"by": true, "for": true, "in": true, "nor": true, "of": true, "on": true, "or": true, "the": true,
	"to": true, "up": true, "vs": true, "via": true, "with": true, "from": true, "into": true, "per": true}

func (c *capitalization) title(s string) (string, bool) {
	words := c.tokens(s)
	made := make([]string, len(words))
	count := 0.0
	for i, w := range words {
		switch {
		case c.isException(w):
			made[i] = w
		case i > 0 && i < len(words)-1 && smallWords[strings.ToLower(w)]:
			made[i] = strings.ToLower(w)
		default:
			made[i] = capFirst(w)
		}
		if w == made[i] || c.isException(w) {
			count++
		}
	}
	if len(words) == 0 {
		return s, true
	}
	return strings.Join(made, " "), count/float64(len(words)) >= c.r.Threshold
}

// titleParts capitalizes each letter that follows a non-letter, as Go's
// old strings.Title did: "non-goals" becomes "Non-Goals".
func titleParts(w string) string {
	prev := ' '
	var b strings.Builder
	for _, r := range w {
		if !unicode.IsLetter(prev) && !unicode.IsDigit(prev) && prev != '\'' {
			r = unicode.ToTitle(r)
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

func capFirst(w string) string {
	r, n := utf8.DecodeRuneInString(w)
	if r == utf8.RuneError {
		return w
	}
	return string(unicode.ToUpper(r)) + w[n:]
}
