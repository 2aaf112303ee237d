package secrets

import (
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// maxMatchBytes returns the most bytes a match of re can consume, -1 when
// it is unbounded (a star, a plus, x{n,}) or re is too large to count.
//
// An anchored attempt at a keyword hit reads no further than that and
// one byte more: every path of the expression, accepting or not, has
// consumed at most as much there, and the assertions it checks there (\b,
// $, (?m:$)) read the same byte in the cut text as in the whole one, so
// the cut text has the same accepting paths and the same leftmost-first
// match. Go's regexp takes its backtracker, not its slower NFA, for a
// text of fewer than ~256K/len(program) bytes: a hit in a small file had
// the rest of the file as its text, too long for a large program.
func maxMatchBytes(re *syntax.Regexp) int {
	n := maxBytes(re)
	if n >= maxMatchBound {
		return -1
	}
	return n
}

// maxMatchBound caps the count: past it, the bound spares nothing, and
// nested counted repetitions cannot overflow.
const maxMatchBound = 1 << 20

// maxBytes is maxMatchBytes's count, maxMatchBound or more for unbounded.
func maxBytes(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpNoMatch, syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine,
		syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			n += runeBytes(r, re.Flags&syntax.FoldCase != 0)
		}
		return n
	case syntax.OpCharClass:
		most := rune(-1)
		for i := 1; i < len(re.Rune); i += 2 {
			most = max(most, re.Rune[i])
		}
		if most < 0 {
			return 0 // the empty class matches nothing
		}
		return runeBytes(most, false)
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return utf8.UTFMax
	case syntax.OpCapture:
		return maxBytes(re.Sub[0])
	case syntax.OpQuest:
		return maxBytes(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		if maxBytes(re.Sub[0]) == 0 {
			return 0 // (?:\b)* and the like consume nothing however often
		}
		return maxMatchBound
	case syntax.OpRepeat:
		sub := maxBytes(re.Sub[0])
		if sub == 0 {
			return 0
		}
		if re.Max < 0 || sub >= maxMatchBound || re.Max >= maxMatchBound/sub {
			return maxMatchBound
		}
		return re.Max * sub
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			if n += maxBytes(s); n >= maxMatchBound {
				return maxMatchBound
			}
		}
		return n
	case syntax.OpAlternate:
		n := 0
		for _, s := range re.Sub {
			n = max(n, maxBytes(s))
		}
		return n
	}
	return maxMatchBound // an operator this count does not know
}

// runeBytes is the most bytes r takes in UTF-8, or any rune of its case
// folding orbit when fold is set (k matches the Kelvin sign, three bytes).
// A byte that is no valid UTF-8 matches as U+FFFD, one byte wide.
func runeBytes(r rune, fold bool) int {
	n := utf8RuneBytes(r)
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			n = max(n, utf8RuneBytes(f))
		}
	}
	return n
}

// utf8RuneBytes is utf8.RuneLen, with 3 for a surrogate and 4 past the
// last rune: a class's upper bound may be either (\x{10FFFF} is the last).
func utf8RuneBytes(r rune) int {
	switch {
	case r < 0x80:
		return 1
	case r < 0x800:
		return 2
	case r < 0x10000:
		return 3
	}
	return 4
}
