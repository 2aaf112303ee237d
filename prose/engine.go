package prose

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/svrnty/sotvet/internal/lazyre"
	"github.com/yuin/goldmark/ast"
)

// Alert is one finding of a rule, at byte offsets of the file.
type Alert struct {
	Rule       string // Style.Rule
	Level      Level
	Start, End int
	Message    string
	Link       string
	Fix        []string // replacements for [Start, End), when the rule names them
}

// Linter runs a configuration's rules on markdown files.
type Linter struct {
	Config *Config
	Styles map[string]*Styles // by the set of styles and vocabularies a file gets
	dir    string
	accept []*regexp.Regexp

	stylesMu sync.Mutex
	mu       sync.Mutex
	filters  map[string]*filter // by the names of a file's active rules
	active   map[string]activeSet
}

// filter says which of a list of rules, and which of their tokens, can
// match a text.
type filter struct {
	m          *matcher
	litRule    []int   // literal id -> rule index
	litAlt     []int   // literal id -> token index, or -1 for the whole rule
	always     []bool  // rules with no literal to filter on
	alwaysAlts [][]int // per rule, tokens with no literal to filter on
	tokens     []bool  // rules run token by token
	// What the rules and tokens without a literal still require, or nil.
	req    []*requirement
	altReq [][]*requirement // parallel to alwaysAlts
}

func newFilter(rules []*Rule) *filter {
	f := &filter{always: make([]bool, len(rules)), alwaysAlts: make([][]int, len(rules)), tokens: make([]bool, len(rules)),
		req: make([]*requirement, len(rules)), altReq: make([][]*requirement, len(rules))}
	var lits []string
	add := func(set []string, rule, alt int) {
		for _, l := range set {
			lits = append(lits, l)
			f.litRule = append(f.litRule, rule)
			f.litAlt = append(f.litAlt, alt)
		}
	}
	for i, r := range rules {
		if tr, ok := r.check.(tokenRule); ok && tr.altCount() > 0 {
			f.tokens[i] = true
			for a := range tr.altCount() {
				if lits, req := tr.altFilter(a); lits != nil {
					add(lits, i, a)
				} else {
					f.alwaysAlts[i] = append(f.alwaysAlts[i], a)
					f.altReq[i] = append(f.altReq[i], req)
				}
			}
			continue
		}
		pf := r.prefilter()
		if pf.lits == nil {
			f.always[i], f.req[i] = true, pf.req
			continue
		}
		add(pf.lits, i, -1)
	}
	f.m = cachedMatcher(lits)
	return f
}

// candidates is what a filter found a block may match. A corpus has
// thousands of blocks and a style set hundreds of rules: only what a block
// may match is held, not a slot per rule.
type candidates struct {
	may   []bool // per rule
	pairs []int  // rule<<16 | token, sorted, for the tokens a block may match
}

// alts returns the tokens of rule r the block may match, sorted, in buf's
// array when it has room.
func (c *candidates) alts(r int, buf []int) []int {
	lo := sort.SearchInts(c.pairs, r<<16)
	out := buf[:0]
	for _, p := range c.pairs[lo:] {
		if p>>16 != r {
			break
		}
		out = append(out, p&0xffff)
	}
	return out
}

// find fills c for text. seen and hits are scratch space, returned for the
// next block. c.may is filled in place when it has room for every rule;
// c.pairs is made in free, and what is left of free returned: a file's
// blocks share one array of each rather than one per block.
func (f *filter) find(text string, seen []bool, hits []int32, c *candidates, free []int) ([]int32, []int) {
	hits = f.m.found(text, seen, hits[:0])
	// seen is only for the scan: left clear for the next block.
	for _, id := range hits {
		seen[id] = false
	}
	if len(c.may) == len(f.always) {
		copy(c.may, f.always)
	} else {
		c.may = append(c.may[:0], f.always...)
	}
	present, ascii := bytesOf(text)
	for i, r := range f.req {
		if r != nil && c.may[i] {
			c.may[i] = r.inBlock(text, &present, ascii)
		}
	}
	c.pairs = free[:0]
	for i, alts := range f.alwaysAlts {
		for k, a := range alts {
			if r := f.altReq[i][k]; r == nil || r.inBlock(text, &present, ascii) {
				c.pairs = append(c.pairs, i<<16|a)
				c.may[i] = true
			}
		}
	}
	for _, id := range hits {
		r := f.litRule[id]
		c.may[r] = true
		if a := f.litAlt[id]; a >= 0 {
			c.pairs = append(c.pairs, r<<16|a)
		}
	}
	if len(c.pairs) > 1 {
		slices.Sort(c.pairs)
		c.pairs = slices.Compact(c.pairs)
	}
	n := len(c.pairs)
	rest := c.pairs[n:]
	c.pairs = c.pairs[:n:n]
	return hits, rest
}

func (l *Linter) filterFor(rules []*Rule) *filter {
	names := make([]string, len(rules))
	for i, r := range rules {
		names[i] = r.Name
	}
	key := strings.Join(names, ",")
	l.mu.Lock()
	defer l.mu.Unlock()
	if f, ok := l.filters[key]; ok {
		return f
	}
	if l.filters == nil {
		l.filters = map[string]*filter{}
	}
	f := newFilter(rules)
	l.filters[key] = f
	return f
}

// NewLinter reads the styles a configuration names. The styles a file gets
// depend on its path; they are read once per distinct set.
func NewLinter(c *Config) *Linter {
	return &Linter{Config: c, Styles: map[string]*Styles{}, dir: c.StylesDir()}
}

// stylesFor returns the rules that apply to a file, reading them the first
// time a set is asked for.
func (l *Linter) stylesFor(rel string) (*Styles, []string, map[string]RuleSetting, error) {
	styles, settings := l.Config.Styles(rel)
	vocab := l.Config.VocabFor(rel)
	// A rule turned on by name belongs to a style that must be read too.
	need := append([]string(nil), styles...)
	for name, s := range settings {
		if i := strings.IndexByte(name, '.'); i > 0 && s.On && !slicesContains(need, name[:i]) {
			need = append(need, name[:i])
		}
	}
	sort.Strings(need)
	key := strings.Join(need, ",") + "|" + strings.Join(vocab, ",")
	// Files are linted concurrently; a set is read once.
	l.stylesMu.Lock()
	defer l.stylesMu.Unlock()
	if st, ok := l.Styles[key]; ok {
		return st, styles, settings, nil
	}
	if len(need) > 0 && l.dir == "" {
		return nil, nil, nil, fmt.Errorf("%s: BasedOnStyles needs a StylesPath", l.Config.Path)
	}
	st, err := LoadStyles(l.dir, need, vocab)
	if err != nil {
		return nil, nil, nil, err
	}
	addBuiltins(st)
	l.Styles[key] = st
	return st, styles, settings, nil
}

// Active returns the rules that apply to a file, sorted by name, with the
// level each has there.
func (l *Linter) Active(rel string) ([]*Rule, map[string]Level, *Styles, error) {
	// What applies depends only on which sections match: worked out once
	// per combination, not per file.
	key := l.Config.sectionsMatching(rel)
	l.mu.Lock()
	a, ok := l.active[key]
	l.mu.Unlock()
	if ok {
		return a.rules, a.levels, a.st, nil
	}
	rules, levels, st, err := l.active1(rel)
	if err != nil {
		return nil, nil, nil, err
	}
	l.mu.Lock()
	if l.active == nil {
		l.active = map[string]activeSet{}
	}
	l.active[key] = activeSet{rules, levels, st}
	l.mu.Unlock()
	return rules, levels, st, nil
}

// activeSet is what Active returns for a combination of sections.
type activeSet struct {
	rules  []*Rule
	levels map[string]Level
	st     *Styles
}

func (l *Linter) active1(rel string) ([]*Rule, map[string]Level, *Styles, error) {
	st, styles, settings, err := l.stylesFor(rel)
	if err != nil {
		return nil, nil, nil, err
	}
	var out []*Rule
	levels := map[string]Level{}
	for name, r := range st.Rules {
		style := name[:strings.IndexByte(name, '.')]
		// Vale's own rules come with a vocabulary, named or not.
		on := slicesContains(styles, style) || style == "Vale"
		level := r.Level
		if s, ok := settings[style]; ok && !s.On {
			on = false
		}
		if s, ok := settings[name]; ok {
			on = s.On
			if s.Set {
				level = s.Level
			}
		}
		if !on || level < l.Config.MinAlertLevel {
			continue
		}
		out = append(out, r)
		levels[name] = level
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, levels, st, nil
}

// lintScratch is what one Lint call lays out per file: kept for the next
// file a worker lints, so that a corpus's files do not each grow their own
// (fresh memory is much of a short run's cost).
type lintScratch struct {
	cands  []candidates
	may    []bool
	seen   []bool
	hits   []int32
	free   []int
	altBuf []int
	sents  [][][2]int
	sentAt []int
	split  []bool
	blocks []Block
	order  []int32 // sortAlerts' scratch
	sorted []Alert
	// fileState's scratch: its text scans and their arrays, and the merged
	// matches' array.
	texts []*blockScan
	chunk []blockScan
	toks  []int32
	runes []rune
	offs  []int
	alts  []altMatch
}

var lintScratchPool = sync.Pool{New: func() any { return new(lintScratch) }}

// grow returns s with length n, its first n elements zero, in s's array
// when it has room.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// emitter turns one rule's hits into alerts: one for the file, its rule
// and offsets set as the rules run, rather than a closure per rule.
type emitter struct {
	r      *Rule
	level  Level
	off    Offsets
	accept []*regexp.Regexp
	src    []byte
	out    []Alert
}

func (e *emitter) emit(h hit) {
	if h.end <= h.start || h.end > e.off.Len() {
		return
	}
	r := e.r
	if r.Vocab && (r.Extends == "existence" || r.Extends == "substitution") && accepted(e.accept, h, e.off, e.src) {
		return
	}
	e.out = append(e.out, Alert{
		Rule: r.Name, Level: e.level, Start: e.off.At(h.start), End: e.off.At(h.end-1) + 1,
		Message: format(r, h.msg), Link: r.Link, Fix: h.fix,
	})
}

// Lint runs the rules that apply to the file rel (a path relative to the
// configuration's directory, for its globs) on src.
func (l *Linter) Lint(rel string, src []byte) ([]Alert, error) { return l.LintTree(rel, src, nil, 0) }

// LintTree is Lint with a goldmark tree of src[base:] that sotparse's
// parser built (sotparse.DocPass.Markdown), or nil: where it is the tree
// Lint would build, src is not parsed again.
func (l *Linter) LintTree(rel string, src []byte, tree ast.Node, base int) ([]Alert, error) {
	return l.AppendLintTree(nil, rel, src, tree, base)
}

// AppendLintTree is LintTree appending the file's alerts to dst: a caller
// done with a file's alerts before it lints the next lints them all into
// one array, not a fresh one a file (a corpus pass makes ten thousand).
func (l *Linter) AppendLintTree(dst []Alert, rel string, src []byte, tree ast.Node, base int) ([]Alert, error) {
	rules, levels, st, err := l.Active(rel)
	if err != nil || len(rules) == 0 {
		return dst, err
	}
	sc := lintScratchPool.Get().(*lintScratch)
	defer lintScratchPool.Put(sc)
	blocks := appendBlocks(sc.blocks[:0], src, tree, base)
	defer func() { clear(blocks); sc.blocks = blocks[:0] }()
	// The text scans' arrays, and the merged matches', are the last file's.
	state := &fileState{defined: map[string]bool{}, chosen: map[*Rule]map[int]int{}, alts: sc.alts,
		texts: sc.texts[:0], chunk: sc.chunk, words: sc.toks, runes: runeScan{runes: sc.runes, offs: sc.offs}}
	flt := l.filterFor(rules)
	cands := grow(sc.cands, len(blocks))
	may := grow(sc.may, len(blocks)*len(rules))
	seen := grow(sc.seen, flt.m.count)
	hits, free := sc.hits[:0], sc.free[:0]
	if cap(free) < 4*len(blocks) {
		free = make([]int, 0, 4*len(blocks))
	}
	for b := range blocks {
		cands[b].may = may[b*len(rules) : (b+1)*len(rules) : (b+1)*len(rules)]
		hits, free = flt.find(blocks[b].Text, seen, hits, &cands[b], free)
	}
	altBuf := sc.altBuf // the tokens of one rule a block may match
	// A block's sentences, split once for all the rules that read them,
	// and its ASCII letters lowered once, for every search that folds case.
	sents := grow(sc.sents, len(blocks))
	split := grow(sc.split, len(blocks))
	lowered := lowerBlocks(blocks)
	// Block i is text i; a block's sentences are numbered when it is
	// split, from sentAt[i].
	state.texts = append(state.texts, make([]*blockScan, len(blocks))...)
	sentAt := grow(sc.sentAt, len(blocks))
	e := &emitter{accept: st.accept, src: src, out: dst}
	emit := e.emit
	gaveUp := ""
	for ri, r := range rules {
		if state.gaveUp && gaveUp == "" {
			gaveUp = rules[ri-1].Name
		}
		e.r, e.level = r, levels[r.Name]
		if selects(r.Scopes, "raw") {
			e.off, state.cur = identity(0, len(src)), 0
			r.check.run(string(src), state, emit)
			continue
		}
		tr, tokens := r.check.(tokenRule)
		tokens = tokens && flt.tokens[ri]
		sentence := selects(r.Scopes, "sentence")
		for i := range blocks {
			b := &blocks[i]
			c := &cands[i]
			if !c.may[ri] {
				continue
			}
			var alts []int
			if tokens {
				altBuf = c.alts(ri, altBuf)
				alts = altBuf
			}
			run := func(k int, text, low string, o Offsets) {
				state.lowerOf, state.lowered, e.off = text, low, o
				state.cur, state.curText = k+1, text
				if tokens {
					tr.runAlts(text, alts, state, emit)
				} else {
					r.check.run(text, state, emit)
				}
			}
			if sentence && !strings.HasPrefix(b.Scope, "frontmatter.") {
				if !split[i] {
					sents[i], split[i] = sentences(b.Text, sents[i][:0]), true
					if len(sents[i]) == 1 && sents[i][0] == [2]int{0, len(b.Text)} {
						sentAt[i] = i // one sentence, the block's text: its scan
					} else {
						sentAt[i] = len(state.texts)
						state.texts = append(state.texts, make([]*blockScan, len(sents[i]))...)
					}
				}
				for j, s := range sents[i] {
					run(sentAt[i]+j, b.Text[s[0]:s[1]], lowered[i][s[0]:s[1]], b.Off.Slice(s[0], s[1]))
				}
				continue
			}
			if !selects(r.Scopes, b.Scope) {
				continue
			}
			run(i, b.Text, lowered[i], b.Off)
		}
	}
	// What the next file reuses: the candidates' arrays are may's and
	// free's, which it lays out again.
	clear(cands)
	sc.cands, sc.may, sc.seen, sc.hits, sc.free, sc.altBuf, sc.split = cands[:0], may[:0], seen[:0], hits[:0], free[:0], altBuf[:0], split[:0]
	sc.sents, sc.sentAt = sents[:0], sentAt[:0]
	// keepAlts let the matches' spans go.
	clear(state.texts)
	clear(state.chunk)
	sc.texts, sc.chunk = state.texts[:0], state.chunk[:0]
	sc.alts, sc.toks, sc.runes, sc.offs = state.alts, state.words[:0], state.runes.runes[:0], state.runes.offs[:0]
	if state.gaveUp && gaveUp == "" {
		gaveUp = rules[len(rules)-1].Name
	}
	out := e.out
	sc.order, sc.sorted = sortAlerts(out[len(dst):], sc.order, sc.sorted)
	if gaveUp != "" {
		return out, &SearchLimitError{Rule: gaveUp, Level: levels[gaveUp], Limit: backtrackTimeout}
	}
	return out, nil
}

// sortAlerts sorts alerts by offset, then rule, keeping the order of equal
// ones: a stable sort, done on their indices. An alert is ~100 bytes and
// a file's come rule by rule, which a stable sort's merges move over and
// over.
//
// order and tmp are scratch space, returned for the next file.
func sortAlerts(out []Alert, order []int32, tmp []Alert) ([]int32, []Alert) {
	cmp := func(a, b *Alert) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return strings.Compare(a.Rule, b.Rule)
	}
	sorted := true
	for i := 1; i < len(out) && sorted; i++ {
		sorted = cmp(&out[i-1], &out[i]) <= 0
	}
	if sorted {
		return order, tmp
	}
	if cap(order) < len(out) {
		order, tmp = make([]int32, 0, len(out)), make([]Alert, 0, len(out))
	}
	idx := order[:0]
	for i := range out {
		idx = append(idx, int32(i))
	}
	slices.SortFunc(idx, func(a, b int32) int {
		if c := cmp(&out[a], &out[b]); c != 0 {
			return c
		}
		return int(a - b)
	})
	tmp = tmp[:0]
	for _, k := range idx {
		tmp = append(tmp, out[k])
	}
	copy(out, tmp)
	clear(tmp) // holds no file's strings past it
	return idx[:0], tmp[:0]
}

// lowerBlocks returns each block's text with its ASCII letters lowered, all
// in one allocation: a block without a capital is its own lowering.
func lowerBlocks(blocks []Block) []string {
	out := make([]string, len(blocks))
	n := 0
	for i := range blocks {
		if hasUpperASCII(blocks[i].Text) {
			n += len(blocks[i].Text)
		}
	}
	buf := make([]byte, 0, n)
	for i := range blocks {
		t := blocks[i].Text
		if !hasUpperASCII(t) {
			out[i] = t
			continue
		}
		at := len(buf)
		for k := 0; k < len(t); k++ {
			c := t[k]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf = append(buf, c)
		}
		out[i] = unsafe.String(&buf[at], len(t))
	}
	return out
}

func hasUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return true
		}
	}
	return false
}

// selects reports whether a rule's scopes take a block of the given scope.
func selects(scopes []string, scope string) bool {
	take := false
	for _, s := range scopes {
		neg := strings.HasPrefix(s, "~")
		s = strings.TrimPrefix(s, "~")
		match := s == scope || s == "text" || strings.HasPrefix(scope, s+".") ||
			(s == "heading" && strings.HasPrefix(scope, "heading.")) ||
			(s == "table" && strings.HasPrefix(scope, "table."))
		if s == "text" && (scope == "raw" || scope == "sentence") {
			match = false
		}
		if neg {
			if s == scope || strings.HasPrefix(scope, s+".") {
				return false
			}
			if scope != "raw" && scope != "sentence" {
				take = true
			}
			continue
		}
		if match {
			take = true
		}
	}
	return take
}

func acceptPatterns(words []string) ([]*regexp.Regexp, error) {
	var out []*regexp.Regexp
	for _, w := range words {
		re, err := regexp.Compile(`^(?:` + w + `)$`)
		if err != nil {
			return nil, fmt.Errorf("vocabulary entry %q: %v", w, err)
		}
		out = append(out, re)
	}
	return out, nil
}

func accepted(accept []*regexp.Regexp, h hit, off Offsets, src []byte) bool {
	if len(accept) == 0 {
		return false
	}
	word := strings.TrimSpace(string(src[off.At(h.start) : off.At(h.end-1)+1]))
	for _, re := range accept {
		if re.MatchString(word) {
			return true
		}
	}
	return false
}

// format fills a rule's message: `%s` takes the values in order (and `%d`
// too, for occurrence's count), as Vale fills them.
func format(r *Rule, vals []string) string {
	msg := r.Message
	if r.Extends == "substitution" && r.Action.Name == "replace" && len(r.Action.Params) == 0 {
		for _, q := range []string{"'%s'", `"%s"`} {
			if strings.Count(msg, q) == 2 {
				msg = strings.Replace(msg, q, "%s", 1)
			}
		}
	}
	if r.Extends == "occurrence" {
		msg = strings.ReplaceAll(msg, "%d", "%s")
	}
	if strings.IndexByte(msg, '%') < 0 {
		return msg // nothing to fill: every alert of the rule shares it
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(msg); i++ {
		if msg[i] == '%' && i+1 < len(msg) {
			switch msg[i+1] {
			case 's':
				if n < len(vals) {
					b.WriteString(vals[n])
				}
				n++
				i++
				continue
			case '%':
				b.WriteByte('%')
				i++
				continue
			}
		}
		b.WriteByte(msg[i])
	}
	return b.String()
}

// addBuiltins adds Vale's own rules for a vocabulary's rejected words
// (Vale.Avoid) and the accepted words' case (Vale.Terms).
func addBuiltins(st *Styles) {
	if len(st.Reject) > 0 {
		r := &Rule{Name: "Vale.Avoid", Extends: "existence", Level: Error, Scopes: []string{"text"},
			Message: "Avoid using '%s'.", Tokens: st.Reject}
		if c, err := compileExistence(r, nil); err == nil {
			r.check = c
			st.Rules[r.Name] = r
		}
	}
}

// A finding's category is its rule's name and its alert's level: a rule
// may have one level in one file and another in the next (a
// configuration's sections set it per glob), so the level travels with
// each finding, not by the rule's name. The mark sorts before any rune
// of a name, so categories sort as their rules do.
const levelMark = "\x1f"

// leveled are the categories made: a file's findings reuse them rather
// than build one each.
var leveled sync.Map // ruleLevel -> string

type ruleLevel struct {
	rule  string
	level Level
}

// LeveledCategory returns the category of an alert of rule at level l.
func LeveledCategory(rule string, l Level) string {
	k := ruleLevel{rule, l}
	if v, ok := leveled.Load(k); ok {
		return v.(string)
	}
	c := rule + levelMark + l.String()
	leveled.Store(k, c)
	return c
}

// SplitCategory returns the rule and level of a category LeveledCategory
// made, and the category itself, ok false, for any other.
func SplitCategory(category string) (rule string, l Level, ok bool) {
	i := strings.Index(category, levelMark)
	if i < 0 {
		return category, 0, false
	}
	l, ok = ParseLevel(category[i+len(levelMark):])
	if !ok {
		return category, 0, false
	}
	return category[:i], l, true
}

var ruleName = lazyre.New(`^[\p{L}\p{N}_-]+\.[\p{L}\p{N}_-]+$`)

// IsRuleName reports whether s has the form Style.Rule.
func IsRuleName(s string) bool { return ruleName.MatchString(s) }
