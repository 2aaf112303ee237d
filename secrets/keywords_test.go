package secrets

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// TestKeywordMatcherNaive: on random keyword sets (shared prefixes,
// suffixes that are other keywords, case, bytes outside the alphabet) the
// automaton reports at each offset exactly the rules whose keywords end
// there, as a naive search finds them.
func TestKeywordMatcherNaive(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	const alphabet = "abcABz-_\x00\xff"
	for n := 0; n < 3000; n++ {
		var kws []string
		var rules []int
		for range rng.Intn(12) {
			b := make([]byte, rng.Intn(5))
			for j := range b {
				b[j] = alphabet[rng.Intn(len(alphabet))]
			}
			kws = append(kws, string(b))
			rules = append(rules, rng.Intn(6))
		}
		text := make([]byte, rng.Intn(40))
		for j := range text {
			text[j] = (alphabet + "q\n")[rng.Intn(len(alphabet)+2)]
		}
		m := newKWMatcher(kws, rules)
		got := map[int][]int{}
		m.run(text, 0, len(text), 0, func(i int, rs []uint16) {
			for _, r := range rs {
				got[i] = append(got[i], int(r))
			}
		})
		want := map[int][]int{}
		for k, kw := range kws {
			if kw == "" {
				continue
			}
			for i := len(kw) - 1; i < len(text); i++ {
				if bytes.EqualFold(text[i+1-len(kw):i+1], []byte(kw)) && !slices.Contains(want[i], rules[k]) {
					want[i] = append(want[i], rules[k])
				}
			}
		}
		for _, h := range []map[int][]int{got, want} {
			for i := range h {
				slices.Sort(h[i])
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("keywords %q (rules %v) in %q: hits %v, want %v", kws, rules, text, got, want)
		}
	}
}

// TestKeywordMatcherWideAlphabet: keywords over more than 254 distinct
// bytes fold the excess into one class and still find every keyword.
func TestKeywordMatcherWideAlphabet(t *testing.T) {
	var kws []string
	var rules []int
	for c := range 256 {
		kws = append(kws, string([]byte{byte(c), byte(255 - c)}))
		rules = append(rules, c%7)
	}
	m := newKWMatcher(kws, rules)
	for c := range 256 {
		text := []byte{'q', byte(c), byte(255 - c)}
		found := false
		m.run(text, 0, len(text), 0, func(i int, rs []uint16) {
			found = found || (i == 2 && slices.Contains(rs, uint16(c%7)))
		})
		if !found {
			t.Errorf("keyword %q not found", kws[c])
		}
	}
}

// BenchmarkKeywordMatcherBuild: building the default scanner's automaton,
// which every sotvet process that scans for secrets does once.
func BenchmarkKeywordMatcherBuild(b *testing.B) {
	var kws []string
	var rules []int
	for i, r := range DefaultRules() {
		for _, k := range r.Keywords {
			kws = append(kws, k)
			rules = append(rules, i)
		}
	}
	for b.Loop() {
		newKWMatcher(kws, rules)
	}
}
