package prose

import (
	"regexp/syntax"
	"sync/atomic"
)

// Parsing a style set's ~2,500 expressions to derive their literals and
// factors was most of what reading a cached set cost (~30 ms a run). The
// style cache keeps what compiling each rule derived (patternFacts), and a
// rule compiled from the cache makes its patterns from it: the filter
// reads their literals and factors, and the rest of a pattern (its syntax
// tree, its engine) is worked out the first time a block runs it, which
// for most of a style set is never.

// compiler compiles a rule's expressions: from their source, noting what
// each derived when record is set, or from what the cache kept of them.
type compiler struct {
	kept   map[string]*patternFacts // by source; nil: compile every one
	record bool
	made   []patternFacts
	// alts is what the filter reads of each token of the rule, kept in
	// the cache: its token patterns are then made when first needed.
	alts []altFact
}

// patternFacts is what compilePattern derives from an expression that the
// filter and wholeAlts read before the pattern runs.
type patternFacts struct {
	src  string
	back bool         // it takes the backtracking engine
	lits []string     // as pattern.lits
	req  *requirement // as pattern.req
	// What else an RE2 pattern with literals requires, which compiled
	// works out when it first runs (litReqSet: litReq is known).
	litReq    *requirement
	litReqSet bool
}

// pattern is compilePattern(expr), made from the kept facts when there are
// some for expr.
func (c *compiler) pattern(expr string) (*pattern, error) {
	if c != nil && c.kept != nil {
		if f, ok := c.kept[expr]; ok {
			return &pattern{src: expr, isBack: f.back, lits: f.lits, req: f.req, lazy: true, litReq: f.litReq, litReqSet: f.litReqSet}, nil
		}
	}
	p, err := compilePattern(expr)
	if err == nil && c != nil && c.record {
		f := patternFacts{src: expr, back: p.isBack, lits: p.lits, req: p.req}
		if !p.isBack && p.lits != nil && p.run == nil {
			if re, err := syntax.Parse(expr, syntax.Perl); err == nil {
				f.litReq, f.litReqSet = factorsRequired(re.Simplify()), true
			}
		}
		c.made = append(c.made, f)
	}
	return p, err
}

// altsFor returns the kept facts of a rule's n tokens, or nil to make
// every token's pattern now.
func (c *compiler) altsFor(n int) []altFact {
	if c == nil || c.alts == nil || len(c.alts) != n {
		return nil
	}
	return c.alts
}

// keptFacts indexes facts by source.
func keptFacts(facts []patternFacts) map[string]*patternFacts {
	m := make(map[string]*patternFacts, len(facts))
	for i := range facts {
		m[facts[i].src] = &facts[i]
	}
	return m
}

// prefilterFacts is what the filter requires of a rule that is not run
// token by token (Rule.prefilterExpr's literals, or else its factors).
type prefilterFacts struct {
	lits []string
	req  *requirement
}

// prefilter returns r's prefilterFacts, worked out once (the style cache
// keeps them too). Filters are built under their linter's lock, and a set
// is cached before a linter has it.
func (r *Rule) prefilter() *prefilterFacts {
	if r.pre == nil {
		r.pre = prefilterOf(r)
	}
	return r.pre
}

func prefilterOf(r *Rule) *prefilterFacts {
	pf := &prefilterFacts{}
	if tr, ok := r.check.(tokenRule); ok && tr.altCount() > 0 {
		return pf // the filter reads its tokens' literals
	}
	if expr := r.prefilterExpr(); expr != "" {
		if pf.lits = requiredLiterals(expr); pf.lits == nil {
			pf.req = requiredFactors(expr)
		}
	}
	return pf
}

// altFact is what the filter and wholeAlts read of one token's pattern.
type altFact struct {
	lits []string
	req  *requirement
	back bool
}

// altFacts returns what the filter reads of a token rule's patterns, or
// nil for a rule not run token by token.
func altFacts(c checker) []altFact {
	tr, ok := c.(tokenRule)
	if !ok || tr.altCount() == 0 {
		return nil
	}
	out := make([]altFact, tr.altCount())
	for i, p := range tr.alternatives() {
		out[i] = altFact{p.lits, p.req, p.isBack}
	}
	return out
}

// altList is a token rule's patterns, one per token, made the first time
// a block may match each: a rule read from the style cache knows what the
// filter reads of them (facts), and most of a style set's tokens never
// occur in a run's text. Files are linted concurrently: a pattern made
// twice is the same pattern, and the first stored is kept.
type altList struct {
	facts []altFact
	ps    []atomic.Pointer[pattern]
	make  func(i int) *pattern
}

func newAltList(facts []altFact, mk func(i int) *pattern) *altList {
	return &altList{facts: facts, ps: make([]atomic.Pointer[pattern], len(facts)), make: mk}
}

func (l *altList) at(i int) *pattern {
	if p := l.ps[i].Load(); p != nil {
		return p
	}
	l.ps[i].CompareAndSwap(nil, l.make(i))
	return l.ps[i].Load()
}

// all makes every pattern (for tests and the property checks).
func (l *altList) all() []*pattern {
	out := make([]*pattern, len(l.ps))
	for i := range out {
		out[i] = l.at(i)
	}
	return out
}

func anyBack(facts []altFact) bool {
	for _, f := range facts {
		if f.back {
			return true
		}
	}
	return false
}

// tokenAlts are a rule's tokens (entries), each a pattern: compiled with
// the rule (alts), or made when first needed from what the style cache
// kept (lazy).
type tokenAlts struct {
	alts []*pattern
	lazy *altList
}

func (t *tokenAlts) alternatives() []*pattern {
	if t.lazy != nil {
		return t.lazy.all()
	}
	return t.alts
}

func (t *tokenAlts) altCount() int {
	if t.lazy != nil {
		return len(t.lazy.facts)
	}
	return len(t.alts)
}

func (t *tokenAlts) altFilter(i int) ([]string, *requirement) {
	if t.lazy != nil {
		return t.lazy.facts[i].lits, t.lazy.facts[i].req
	}
	return t.alts[i].lits, t.alts[i].req
}

func (t *tokenAlts) alt(i int) *pattern {
	if t.lazy != nil {
		return t.lazy.at(i)
	}
	return t.alts[i]
}
