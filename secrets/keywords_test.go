package secrets

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
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

// kwHits lists every hit of a scan as its offset, its number of rules and
// the rules.
func kwHits(scan func([]byte, func(int, []uint16)), data []byte) []int {
	var hits []int
	scan(data, func(i int, rs []uint16) {
		hits = append(hits, i, len(rs))
		for _, r := range rs {
			hits = append(hits, int(r))
		}
	})
	return hits
}

// naiveHits lists, as kwHits does, every offset where a keyword of kws
// ends in data (ASCII case folded) with the distinct rules of the keywords
// ending there, sorted: what the automaton must report, by a plain search.
// An ASCII keyword is searched for in data lowered once (bytes.Index):
// bytes.EqualFold of len(w) bytes of data against it is ASCII folding, as
// a rune beyond ASCII that folds into it (ſ, K) is longer than the byte it
// folds to. Any other keyword is compared at every offset.
func naiveHits(kws []string, rules []int, data []byte) []int {
	at := map[int][]int{}
	add := func(i, rule int) {
		if !slices.Contains(at[i], rule) {
			at[i] = append(at[i], rule)
		}
	}
	lower := bytes.Clone(data)
	for i, c := range lower {
		if 'A' <= c && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
	}
	for k, kw := range kws {
		w := []byte(kw)
		if len(w) == 0 {
			continue
		}
		if strings.IndexFunc(kw, func(r rune) bool { return r >= utf8.RuneSelf }) >= 0 {
			for i := len(w) - 1; i < len(data); i++ {
				if bytes.EqualFold(data[i+1-len(w):i+1], w) {
					add(i, rules[k])
				}
			}
			continue
		}
		w = bytes.ToLower(w)
		for from := 0; ; {
			j := bytes.Index(lower[from:], w)
			if j < 0 {
				break
			}
			add(from+j+len(w)-1, rules[k])
			from += j + 1
		}
	}
	var hits []int
	for _, i := range slices.Sorted(maps.Keys(at)) {
		rs := at[i]
		slices.Sort(rs)
		hits = append(append(hits, i, len(rs)), rs...)
	}
	return hits
}

// TestNaiveHitsIsEqualFold: naiveHits' search of lowered text finds what
// bytes.EqualFold at every offset finds, on keywords and texts holding
// runes that fold to ASCII letters (ſ, K) and bytes that are no UTF-8.
func TestNaiveHitsIsEqualFold(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	parts := []string{"s", "S", "k", "K", "e", "ſ", "\u212a", "\xc5", "\xff", "-"}
	draw := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		return b.String()
	}
	for range 2000 {
		var kws []string
		var rules []int
		for range 1 + rng.Intn(5) {
			kws = append(kws, draw(1+rng.Intn(3)))
			rules = append(rules, rng.Intn(4))
		}
		data := []byte(draw(rng.Intn(30)))
		at := map[int][]int{}
		for k, kw := range kws {
			for i := len(kw) - 1; i < len(data); i++ {
				if bytes.EqualFold(data[i+1-len(kw):i+1], []byte(kw)) && !slices.Contains(at[i], rules[k]) {
					at[i] = append(at[i], rules[k])
				}
			}
		}
		var want []int
		for _, i := range slices.Sorted(maps.Keys(at)) {
			slices.Sort(at[i])
			want = append(append(want, i, len(at[i])), at[i]...)
		}
		if got := naiveHits(kws, rules, data); !slices.Equal(got, want) {
			t.Fatalf("keywords %q in %q: %v, want %v", kws, data, got, want)
		}
	}
}

// sortedHits is kwHits with each offset's rules sorted.
func sortedHits(hits []int) []int {
	for i := 0; i < len(hits); i += 2 + hits[i+1] {
		slices.Sort(hits[i+2 : i+2+hits[i+1]])
	}
	return hits
}

// serialScan scans data in one stream, without the four-stream split.
func serialScan(m *kwMatcher) func([]byte, func(int, []uint16)) {
	return func(data []byte, hit func(int, []uint16)) { m.run(data, 0, len(data), 0, hit) }
}

// diffKW checks the matcher built for kws on data against a plain search:
// the same hits at the same offsets with the same rules; the four-stream
// scan reports exactly what one stream does, rules in the same order; any
// and hitMask agree with the hits.
func diffKW(t testing.TB, kws []string, rules []int, data []byte) {
	t.Helper()
	diffKWMax(t, kws, rules, data, max16)
}

// diffKWMax is diffKW with the 16-bit table limited to limit, so that
// small automata take the shifted, padded and 32-bit layouts too.
func diffKWMax(t testing.TB, kws []string, rules []int, data []byte, limit uint32) {
	t.Helper()
	shown := fmt.Sprintf("%q", kws[:min(len(kws), 6)]) // the first few, in a message
	m := newKWMatcherMax(kws, rules, limit)
	got, serial := kwHits(m.scan, data), kwHits(serialScan(m), data)
	if !slices.Equal(got, serial) {
		t.Fatalf("%d keywords (%s…) in %d bytes: four streams found %d hit entries, one stream %d", len(kws), shown, len(data), len(got), len(serial))
	}
	want := naiveHits(kws, rules, data)
	if got := sortedHits(got); !slices.Equal(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("%d keywords (%s…) in %d bytes: hits differ from entry %d: %v, want %v", len(kws), shown, len(data), i, got[i:min(i+8, len(got))], want[i:min(i+8, len(want))])
			}
		}
		t.Fatalf("%d keywords (%s…) in %d bytes: %d hit entries, want %d", len(kws), shown, len(data), len(got), len(want))
	}
	var mask uint64
	for i := 0; i < len(want); i += 2 + want[i+1] {
		for _, r := range want[i+2 : i+2+want[i+1]] {
			mask |= 1 << (r & 63)
		}
	}
	if g, w := m.any(data), len(want) > 0; g != w {
		t.Fatalf("%d keywords (%s…): any = %v, want %v", len(kws), shown, g, w)
	}
	if g := m.hitMask(data); g != mask {
		t.Fatalf("%d keywords (%s…): hitMask = %x, want %x", len(kws), shown, g, mask)
	}
}

// randKW returns random keywords over alphabet and a random text of n
// bytes that contains some of them.
func randKW(rng *rand.Rand, alphabet string, n int) ([]string, []int, []byte) {
	var kws []string
	var rules []int
	for range 1 + rng.Intn(40) {
		b := make([]byte, rng.Intn(7))
		for j := range b {
			b[j] = alphabet[rng.Intn(len(alphabet))]
		}
		kws = append(kws, string(b))
		rules = append(rules, rng.Intn(70))
	}
	text := make([]byte, 0, n)
	for len(text) < n {
		if rng.Intn(8) == 0 {
			text = append(text, kws[rng.Intn(len(kws))]...)
		} else {
			text = append(text, (alphabet + "q\n ")[rng.Intn(len(alphabet)+3)])
		}
	}
	return kws, rules, text[:n]
}

// TestKeywordMatcherMatchesReference: on random keyword sets and texts
// (short ones for the serial pass, long ones for the four streams), under
// every table layout, the matcher reports exactly what a plain search
// finds.
func TestKeywordMatcherMatchesReference(t *testing.T) {
	t.Parallel() // see "Parallel tests" in follow_test.go
	rng := rand.New(rand.NewSource(2))
	const alphabet = "abcdeABZ-_:/\x00\xff"
	for _, limit := range []uint32{0xffff, 255, 40, 3, 0} {
		for n := 0; n < sampled(300); n++ {
			size := rng.Intn(64)
			switch n % 20 {
			case 0:
				size = rng.Intn(140 << 10)
			case 1, 2, 3:
				size = rng.Intn(8 << 10)
			}
			kws, rules, text := randKW(rng, alphabet, size)
			diffKWMax(t, kws, rules, text, limit)
		}
	}
}

// TestKeywordMatcherLongKeywords: keywords longer than a quarter of a
// block, which the four streams warm up on one at a time, are found as a
// plain search finds them, across the cuts.
func TestKeywordMatcherLongKeywords(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	const alphabet = "ab"
	for n := 0; n < 40; n++ {
		kws, rules, _ := randKW(rng, alphabet, 0)
		long := make([]byte, 200+rng.Intn(500))
		for j := range long {
			long[j] = alphabet[rng.Intn(len(alphabet))]
		}
		kws = append(kws, string(long))
		rules = append(rules, 7)
		var text []byte
		for len(text) < 1024+rng.Intn(6<<10) {
			if rng.Intn(4) == 0 {
				text = append(text, long...)
			} else {
				text = append(text, alphabet[rng.Intn(len(alphabet))])
			}
		}
		diffKW(t, kws, rules, text)
	}
}

// TestKeywordMatcherLayouts: the default rules' automaton takes the 16-bit
// table, and forcing the wider shifts and the 32-bit table changes no hit
// on planning prose with secrets in it.
func TestKeywordMatcherLayouts(t *testing.T) {
	t.Parallel() // see "Parallel tests" in follow_test.go
	s := defaultScanner(t)
	kws, rules := defaultKeywords()
	if s.kw.t16 == nil {
		t.Fatalf("default automaton: 32-bit table (width %d, %d entries)", s.kw.width, len(s.kw.t32))
	}
	size := 2 << 20
	if raceEnabled {
		size = 512 << 10
	}
	data, _ := withSecrets(benchCorpus()[:size], 16<<10)
	// A plain search over every default keyword is slow: on a part.
	diffKW(t, kws, rules, data[:256<<10])
	want := kwHits(s.kw.scan, data)
	for _, limit := range []uint32{40000, 20000, 5000, 0} {
		m := newKWMatcherMax(kws, rules, limit)
		if got := kwHits(m.scan, data); !slices.Equal(got, want) {
			t.Fatalf("max16 %d: %d hit entries, want %d as with the 16-bit table", limit, len(got), len(want))
		}
		if m.hitMask(data) != s.kw.hitMask(data) || m.any(data) != s.kw.any(data) {
			t.Fatalf("max16 %d: hitMask/any differ from the 16-bit table's", limit)
		}
	}
}

func defaultKeywords() ([]string, []int) {
	var kws []string
	var rules []int
	for i, r := range DefaultRules() {
		for _, k := range r.Keywords {
			kws = append(kws, k)
			rules = append(rules, i)
		}
	}
	return kws, rules
}

// FuzzKeywordMatcher: on any input the default rules' automaton finds
// what a plain search finds, and in four streams what it finds in one.
func FuzzKeywordMatcher(f *testing.F) {
	kws, rules := defaultKeywords()
	m := newKWMatcher(kws, rules)
	// Under the race detector a quarter of the seeds: the matcher is
	// built once, here, and each seed is a sequential search.
	for _, sm := range raceSubset(corpusSamples()) {
		f.Add([]byte(sm.text), uint16(1))
	}
	f.Add([]byte("password=hun"+"ter2 -----BEGIN RSA PRIVATE KEY----- https://u:p@h"), uint16(300))
	f.Fuzz(func(t *testing.T, chunk []byte, reps uint16) {
		if len(chunk) == 0 || len(chunk) > 4<<10 {
			return
		}
		// A plain search over every default keyword is slow: on the
		// chunk alone, which TestKeywordMatcherMatchesReference extends
		// to long texts on small keyword sets.
		if len(chunk) <= 512 {
			diffKW(t, kws, rules, chunk)
		}
		// Repeated, the input crosses the four-stream cuts too.
		data := bytes.Repeat(chunk, 1+int(reps)%(16<<10/len(chunk)))
		if got, want := kwHits(m.scan, data), kwHits(serialScan(m), data); !slices.Equal(got, want) {
			t.Fatalf("%d bytes: four streams found %d hit entries, one stream %d", len(data), len(got), len(want))
		}
	})
}
