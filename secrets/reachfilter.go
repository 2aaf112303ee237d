package secrets

import (
	"slices"
	"unicode"

	"regexp/syntax"
)

// A rule's bounded filter (reach) tells where a match from a start may
// end: its expression with the bounds of its counted repetitions kept,
// which the loose filter drops. Some rules' expressions are too large for
// one (boundedMaxWords): an alternation of two hundred nouns in their
// forms and cases, of copulas in twenty languages. For those, each such
// finite part, a set of words, is read as what its words are made of:
// any run of their letters as long as the shortest to the longest of
// them. That filter accepts more than the rule (a superset of its
// language), so its reach is never short of a match's, and it keeps what
// bounds the reach on a line of prose: "up to six words, then a copula".
// Without it, a far table's first attempt on a line of such sentences
// read to farReach with the loose filter, and the line was searched whole
// by the rule's expression: 4.6 s for 4 MB of "lösenordet till wifi är
// …".

// wordSetMinCost is how large a finite part must be (runes and branches)
// to be read as its letters; wordSetMaxLen is how long its longest string
// may be (in runes), each one a state of the filter.
const (
	wordSetMinCost = 64
	wordSetMaxLen  = 48
)

// newWordSetFilter returns the bounded filter of expr with its large
// finite parts read as their letters (see above), nil when expr does not
// parse or the filter is still too large.
func newWordSetFilter(expr string, b *filterBudget) *prefilterDFA {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	re = dropCaptures(re)
	re = asWordSets(re)
	f := newFilterOfLoosened(re, b)
	if f == nil || f.words > boundedMaxWords {
		return nil
	}
	return f
}

// finite describes the strings of a finite expression: their lengths in
// runes, the runes they are made of (sorted ranges, lo, hi pairs), and
// what its program costs (runes and branches).
type finite struct {
	min, max int
	runes    []rune
	cost     int
}

// finiteOf returns the finite description of re, false when re matches
// strings of unbounded length.
func finiteOf(re *syntax.Regexp) (finite, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpNoMatch:
		// an assertion read as nothing: the filter accepts more
		return finite{}, true
	case syntax.OpLiteral:
		var rs []rune
		for _, r := range re.Rune {
			rs = append(rs, r, r)
			if re.Flags&syntax.FoldCase != 0 {
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					rs = append(rs, f, f)
				}
			}
		}
		return finite{len(re.Rune), len(re.Rune), rs, len(re.Rune)}, true
	case syntax.OpCharClass:
		return finite{1, 1, slices.Clone(re.Rune), 1}, true
	case syntax.OpAnyCharNotNL:
		return finite{1, 1, []rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune}, 1}, true
	case syntax.OpAnyChar:
		return finite{1, 1, []rune{0, unicode.MaxRune}, 1}, true
	case syntax.OpCapture:
		return finiteOf(re.Sub[0])
	case syntax.OpQuest:
		f, ok := finiteOf(re.Sub[0])
		f.min, f.cost = 0, f.cost+1
		return f, ok
	case syntax.OpRepeat:
		if re.Max < 0 {
			return finite{}, false
		}
		f, ok := finiteOf(re.Sub[0])
		f.min, f.max, f.cost = f.min*re.Min, f.max*re.Max, f.cost*max(1, re.Max)
		return f, ok
	case syntax.OpConcat, syntax.OpAlternate:
		var out finite
		for i, s := range re.Sub {
			f, ok := finiteOf(s)
			if !ok {
				return finite{}, false
			}
			out.runes = append(out.runes, f.runes...)
			out.cost += f.cost
			switch {
			case re.Op == syntax.OpConcat:
				out.min, out.max = out.min+f.min, out.max+f.max
			case i == 0:
				out.min, out.max = f.min, f.max
				out.cost++
			default:
				out.min, out.max = min(out.min, f.min), max(out.max, f.max)
				out.cost++
			}
		}
		return out, true
	}
	return finite{}, false
}

// asWordSets rewrites re, in place, reading each large finite part as a
// run of its runes (see newWordSetFilter).
func asWordSets(re *syntax.Regexp) *syntax.Regexp {
	if f, ok := finiteOf(re); ok && f.cost >= wordSetMinCost && f.max <= wordSetMaxLen {
		if f.max == 0 {
			return &syntax.Regexp{Op: syntax.OpEmptyMatch}
		}
		class := &syntax.Regexp{Op: syntax.OpCharClass, Rune: mergeRanges(f.runes)}
		return &syntax.Regexp{Op: syntax.OpRepeat, Min: f.min, Max: f.max, Sub: []*syntax.Regexp{class}}
	}
	if re.Op == syntax.OpRepeat && re.Max > wordSetMaxLen && oneChar(re.Sub[0]) {
		// a long run of one character, as the loose filter reads it: its
		// reach ends where the run does
		return dfaLoosen(re)
	}
	if re.Op == syntax.OpAlternate {
		// its finite branches as one set of words, the others as they are
		var words []*syntax.Regexp
		var rest []*syntax.Regexp
		for _, s := range re.Sub {
			if _, ok := finiteOf(s); ok {
				words = append(words, s)
			} else {
				rest = append(rest, asWordSets(s))
			}
		}
		if len(words) > 1 && len(rest) > 0 {
			set := asWordSets(&syntax.Regexp{Op: syntax.OpAlternate, Sub: words})
			re.Sub = append([]*syntax.Regexp{set}, rest...)
			return re
		}
	}
	for i, s := range re.Sub {
		re.Sub[i] = asWordSets(s)
	}
	return re
}

// mergeRanges sorts rune ranges (lo, hi pairs) and joins those that
// overlap or touch, as a character class's must be.
func mergeRanges(rs []rune) []rune {
	type rng struct{ lo, hi rune }
	var list []rng
	for i := 0; i+1 < len(rs); i += 2 {
		list = append(list, rng{rs[i], rs[i+1]})
	}
	slices.SortFunc(list, func(a, b rng) int { return int(a.lo - b.lo) })
	var out []rune
	for _, r := range list {
		if n := len(out); n > 0 && r.lo <= out[n-1]+1 {
			out[n-1] = max(out[n-1], r.hi)
			continue
		}
		out = append(out, r.lo, r.hi)
	}
	return out
}
