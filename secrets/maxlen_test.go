package secrets

import (
	"math/rand/v2"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/secrets/internal/thirdparty"
)

func TestMaxMatchBytes(t *testing.T) {
	for _, c := range []struct {
		expr string
		want int
	}{
		{`abc`, 3},
		{`(?i)k`, 3}, // the Kelvin sign
		{`(?i)s`, 2}, // ſ
		{`[a-z]{2,5}`, 5},
		{`[a-zé]{2}`, 4},
		{`a|bcd|\bef$`, 3},
		{`x(?:y{0,3}z)?`, 5},
		{`.`, 4},
		{`(?s:.)`, 4},
		{`(?:\b)*x`, 1},
		{`a+`, -1},
		{`a{2,}`, -1},
		{`[^\x00-\x{10FFFF}]`, 0},
		{`(?i:k{1000})b{1000}`, 4000},
	} {
		re, err := syntax.Parse(c.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := maxMatchBytes(re); got != c.want {
			t.Errorf("maxMatchBytes(%q) = %d, want %d", c.expr, got, c.want)
		}
	}
}

// TestAnchoredCutAtMaxMatch runs each bounded rule's anchored expression
// at every keyword of texts made of the third-party rules' examples, as
// written and with text around them: the match in the whole text must be
// the match in the text cut one byte past the bound (see maxMatchBytes),
// and no match longer than the bound.
func TestAnchoredCutAtMaxMatch(t *testing.T) {
	t.Parallel() // see "Parallel tests" in follow_test.go
	trs, err := thirdparty.Load("rules/third_party")
	if err != nil {
		t.Fatal(err)
	}
	var examples []string
	for _, r := range trs {
		examples = append(examples, r.Examples...)
		examples = append(examples, r.Negatives()...)
	}
	rng := rand.New(rand.NewPCG(33, 6))
	around := []string{"", "\n", " ", "\"", "x", "_", "ſ", "K", "é", ";\n", "=", "abcdefghij0123456789"}
	// one text of them all, a line each: the claim holds in any text
	var b strings.Builder
	for _, ex := range examples {
		b.WriteString("\n" + ex)
		for range 2 {
			b.WriteString("\n" + around[rng.IntN(len(around))] + ex + around[rng.IntN(len(around))] + around[rng.IntN(len(around))])
		}
	}
	data := []byte(b.String())
	l := make([]byte, len(data))
	for i, c := range data {
		l[i] = lower(c) // ASCII only: the offsets agree
	}
	lowered := string(l)
	s := defaultScanner(t)
	bounded, attempts, found := 0, 0, 0
	for _, cr := range s.rules {
		if cr.prepare(); !cr.atHits || cr.matchMax < 0 {
			continue
		}
		bounded++
		re := cr.anchoredAfterExpr()
		for _, k := range cr.lowerKeywords {
			for off := 1; ; {
				i := strings.Index(lowered[off:], k)
				if i < 0 {
					break
				}
				st := off + i
				off = st + 1
				attempts++
				whole := re.FindSubmatchIndex(data[st-1:])
				cut := re.FindSubmatchIndex(data[st-1 : min(len(data), st+cr.matchMax+1)])
				if !equalInts(whole, cut) {
					t.Fatalf("%s at %d of %q: %v in the whole text, %v cut at %d bytes", cr.ID, st, data[st-1:min(len(data), st+cr.matchMax+2)], whole, cut, cr.matchMax)
				}
				if whole != nil {
					found++
					if whole[1]-1 > cr.matchMax {
						t.Fatalf("%s: a match of %d bytes, more than its bound %d", cr.ID, whole[1]-1, cr.matchMax)
					}
				}
			}
		}
	}
	if bounded < 100 || found < 100 {
		t.Fatalf("%d bounded rules, %d matches in %d attempts: too few to check anything", bounded, found, attempts)
	}
	t.Logf("%d bounded rules, %d matches in %d attempts", bounded, found, attempts)
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
