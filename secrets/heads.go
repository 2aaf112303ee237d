package secrets

import (
	"slices"
	"strings"
	"sync"
)

// keywordHeads are the literal alternatives a rule's expression opens
// with: lead(?:alt|alt|...)tail. A rule of a hundred and fifty provider
// prefixes (prefixed-token) put each attempt at a keyword hit through
// the NFA over every alternative, ~8 µs an attempt; the alternatives
// that can begin where the hit's keyword does are a few.
type keywordHeads struct {
	lead, tail string
	alts       []string // as the expression writes them (quoted), in its order
}

// expr is the rule's expression with alts (some of h.alts, in their order)
// for its alternation.
func (h *keywordHeads) expr(alts []string) string {
	return h.lead + "(?:" + strings.Join(alts, "|") + ")" + h.tail
}

// at returns the alternatives that can match where the lower-case keyword
// k matches, ASCII case aside: those that agree with k, case aside, on
// the bytes both have. The others cannot match there, so that in a
// leftmost-first alternation they choose no match and the one the whole
// expression finds is the one these find, with the same groups (the
// alternatives are literals: they hold none). An alternative with a
// byte outside ASCII is kept (its folds are not ASCII's).
func (h *keywordHeads) at(k string) []string {
	var out []string
	for _, a := range h.alts {
		if headAgrees(unquoteMeta(a), k) {
			out = append(out, a)
		}
	}
	return out
}

func headAgrees(a, k string) bool {
	for j := 0; j < len(a) && j < len(k); j++ {
		if a[j] >= 0x80 || k[j] >= 0x80 {
			return true
		}
		if lower(a[j]) != k[j] {
			return false
		}
	}
	return true
}

// unquoteMeta undoes regexp.QuoteMeta.
func unquoteMeta(q string) string {
	if !strings.Contains(q, `\`) {
		return q
	}
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		if q[i] == '\\' && i+1 < len(q) {
			i++
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

// headExpr is a rule's anchored expression narrowed to the alternatives
// that can begin at one of its keywords (anchoredAfterAt).
type headExpr struct {
	once sync.Once
	src  string
	expr tieredExpr
}

// indexHeads readies anchoredAfterAt for a rule with heads.
func (cr *compiledRule) indexHeads() {
	if cr.heads == nil || cr.Regex != nil {
		return
	}
	cr.headFirst = make([][]uint16, 256)
	for ki, k := range cr.lowerKeywords {
		if k == "" {
			continue
		}
		cr.headFirst[k[0]] = append(cr.headFirst[k[0]], uint16(ki))
	}
	for _, ks := range cr.headFirst {
		slices.SortStableFunc(ks, func(a, b uint16) int { return len(cr.lowerKeywords[b]) - len(cr.lowerKeywords[a]) })
	}
	cr.headExprs = make([]headExpr, len(cr.lowerKeywords))
}

// anchoredAfterAt returns anchoredAfterExpr for an attempt at the keyword
// hit that starts at data[st], narrowed, for a rule with heads, to the
// alternatives that can begin at the longest of its keywords there.
func (cr *compiledRule) anchoredAfterAt(data []byte, st int) *ruleRegexp {
	if cr.headExprs == nil || st >= len(data) {
		return cr.anchoredAfterExpr()
	}
	for _, ki := range cr.headFirst[lower(data[st])] {
		k := cr.lowerKeywords[ki]
		if len(data)-st < len(k) || !equalFoldASCII(data[st:st+len(k)], k) {
			continue
		}
		h := &cr.headExprs[ki]
		h.once.Do(func() { h.src = `^(?s:.)(?:` + cr.heads.expr(cr.heads.at(k)) + `)` })
		return h.expr.get(cr, h.src)
	}
	return cr.anchoredAfterExpr()
}
