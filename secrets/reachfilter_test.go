package secrets

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/internal/regexsample"
)

// TestWordSetsHoldTheRule checks that a word-set filter's expression
// accepts every string its rule's does: strings drawn from each rule's
// expression (regexsample), kept where the rule's expression accepts
// them whole,
// must be accepted by the filter's. Its reach is then never short of a
// match's.
func TestWordSetsHoldTheRule(t *testing.T) {
	t.Parallel()
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
		for range 1500 {
			var b strings.Builder
			regexsample.Write(&b, parsed, rng)
			str := b.String()
			if !orig.MatchString(str) {
				continue
			}
			kept++
			if !sets.MatchString(str) {
				t.Fatalf("%s: %q is the rule's, not its word-set filter's", cr.ID, str)
			}
		}
		if kept < 150 {
			t.Errorf("%s: only %d of 1500 drawn strings are the rule's", cr.ID, kept)
		}
	}
	if n < 3 {
		t.Fatalf("%d rules have a word-set filter; want prose-password-intl, prose-secret, name-value-secret at least", n)
	}
}
