// Package regexsample draws random strings from a regular expression's
// language, for property tests of what is derived from an expression (a
// prefilter, a set of literals): every drawn string that the expression
// matches must pass what was derived from it.
package regexsample

import (
	"math/rand/v2"
	"regexp/syntax"
	"strings"
	"unicode"
)

// Write appends to b a random string of re's language. Assertions (\b, ^,
// $) are not honoured: the caller keeps the strings the expression really
// matches. A case-folded literal takes any member of its case orbit, the
// Kelvin sign and the long s too, and a class that holds the space often
// gives one, so that word breaks come up.
func Write(b *strings.Builder, re *syntax.Regexp, rng *rand.Rand) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				o := []rune{r}
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					o = append(o, f)
				}
				r = o[rng.IntN(len(o))]
			}
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return
		}
		k := rng.IntN(len(re.Rune)/2) * 2
		lo, hi := re.Rune[k], re.Rune[k+1]
		if lo <= ' ' && ' ' <= hi && rng.IntN(2) == 0 {
			b.WriteByte(' ')
			return
		}
		b.WriteRune(lo + rune(rng.Int32N(min(hi-lo, 300)+1)))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteString([]string{" ", "a", "\t", ".", "Z", "-", "é", "—"}[rng.IntN(8)])
	case syntax.OpCapture:
		Write(b, re.Sub[0], rng)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, 3
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 {
				hi = lo + 3
			}
		}
		for range lo + rng.IntN(hi-lo+1) {
			Write(b, re.Sub[0], rng)
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			Write(b, sub, rng)
		}
	case syntax.OpAlternate:
		Write(b, re.Sub[rng.IntN(len(re.Sub))], rng)
	}
}
