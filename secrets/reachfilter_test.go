package secrets

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode"
)

// TestWordSetsHoldTheRule checks that a word-set filter's expression
// accepts every string its rule's does: strings drawn from each rule's
// expression (every branch of its alternations, a case of each letter,
// runs of a few), kept where the rule's expression accepts them whole,
// must be accepted by the filter's. Its reach is then never short of a
// match's.
func TestWordSetsHoldTheRule(t *testing.T) {
	s := defaultScanner(t)
	rng := rand.New(rand.NewPCG(5, 8))
	n := 0
	for _, cr := range s.rules {
		cr.prepare()
		if b := newBoundedFilter(cr.filterSrc(), nil); b == nil || b.words <= boundedMaxWords {
			continue
		}
		if newWordSetFilter(cr.filterSrc(), nil) == nil {
			continue
		}
		n++
		parsed, err := syntax.Parse(cr.filterSrc(), syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		orig := regexp.MustCompile(`^(?:` + dropCaptures(parsed).String() + `)$`)
		parsed, _ = syntax.Parse(cr.filterSrc(), syntax.Perl)
		sets := regexp.MustCompile(`^(?:` + asWordSets(dropCaptures(parsed)).String() + `)$`)
		parsed, _ = syntax.Parse(cr.filterSrc(), syntax.Perl)
		kept := 0
		for i := range 4000 {
			var b strings.Builder
			drawString(&b, parsed, rng, i)
			str := b.String()
			if !orig.MatchString(str) {
				continue
			}
			kept++
			if !sets.MatchString(str) {
				t.Fatalf("%s: %q is the rule's, not its word-set filter's", cr.ID, str)
			}
		}
		if kept < 400 {
			t.Errorf("%s: only %d of 4000 drawn strings are the rule's", cr.ID, kept)
		}
	}
	if n < 3 {
		t.Fatalf("%d rules have a word-set filter; want prose-password-intl, prose-secret, name-value-secret at least", n)
	}
}

// drawString writes a string of re's language, or one near it (its
// assertions are not heeded): the i-th draw takes, at each alternation,
// branch i mod its branches, so that every branch is drawn.
func drawString(b *strings.Builder, re *syntax.Regexp, rng *rand.Rand, i int) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && rng.IntN(2) == 0 {
				r = unicode.SimpleFold(r)
			}
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return
		}
		k := 2 * rng.IntN(len(re.Rune)/2)
		lo, hi := re.Rune[k], min(re.Rune[k+1], re.Rune[k]+200)
		b.WriteRune(lo + rune(rng.IntN(int(hi-lo)+1)))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte(" x"[rng.IntN(2)]) // a blank now and then, for a \b after
	case syntax.OpCapture:
		drawString(b, re.Sub[0], rng, i)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			drawString(b, s, rng, i)
		}
	case syntax.OpAlternate:
		drawString(b, re.Sub[(i+rng.IntN(2))%len(re.Sub)], rng, i/len(re.Sub)+rng.IntN(3))
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, 3
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 || hi > lo+12 {
				hi = lo + 12
			}
		}
		for range lo + rng.IntN(hi-lo+1) {
			drawString(b, re.Sub[0], rng, i)
		}
	}
}
