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

// diffKW compares the matcher built for kws with the reference matcher
// (the 32-bit, insertion-ordered automaton it replaced) on data: the same
// hits, at the same offsets, with the same rules in the same order, and the
// same answers from any and hitMask.
func diffKW(t testing.TB, kws []string, rules []int, data []byte) {
	t.Helper()
	m, ref := newKWMatcher(kws, rules), newRefKWMatcher(kws, rules)
	got, want := kwHits(m.scan, data), kwHits(ref.scan, data)
	if !slices.Equal(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("%d keywords (%.80q) in %d bytes: hits differ from entry %d: %v, want %v", len(kws), kws, len(data), i, got[i:min(i+8, len(got))], want[i:min(i+8, len(want))])
			}
		}
		t.Fatalf("%d keywords (%.80q) in %d bytes: %d hit entries, want %d", len(kws), kws, len(data), len(got), len(want))
	}
	if g, w := m.any(data), ref.any(data); g != w {
		t.Fatalf("%d keywords (%.80q): any = %v, want %v", len(kws), kws, g, w)
	}
	if g, w := m.hitMask(data), ref.hitMask(data); g != w {
		t.Fatalf("%d keywords (%.80q): hitMask = %x, want %x", len(kws), kws, g, w)
	}
}

// withMax16 runs f with the 16-bit table limited to limit, so that small
// automata take the shifted, padded and 32-bit layouts too.
func withMax16(limit uint32, f func()) {
	saved := max16
	max16 = limit
	defer func() { max16 = saved }()
	f()
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
// every table layout, the matcher reports exactly what the reference
// automaton does.
func TestKeywordMatcherMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	const alphabet = "abcdeABZ-_:/\x00\xff"
	for _, limit := range []uint32{0xffff, 255, 40, 3, 0} {
		withMax16(limit, func() {
			for n := 0; n < 300; n++ {
				size := rng.Intn(64)
				switch n % 20 {
				case 0:
					size = rng.Intn(140 << 10)
				case 1, 2, 3:
					size = rng.Intn(8 << 10)
				}
				kws, rules, text := randKW(rng, alphabet, size)
				diffKW(t, kws, rules, text)
			}
		})
	}
}

// TestKeywordMatcherLayouts: the default rules' automaton takes the 16-bit
// table, and forcing the wider shifts and the 32-bit table changes no hit
// on planning prose with secrets in it.
func TestKeywordMatcherLayouts(t *testing.T) {
	s := defaultScanner(t)
	kws, rules := defaultKeywords()
	if s.kw.t16 == nil {
		t.Fatalf("default automaton: 32-bit table (width %d, %d entries)", s.kw.width, len(s.kw.t32))
	}
	data, _ := withSecrets(benchCorpus()[:2<<20], 16<<10)
	diffKW(t, kws, rules, data)
	for _, limit := range []uint32{40000, 20000, 5000, 0} {
		withMax16(limit, func() { diffKW(t, kws, rules, data) })
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

// FuzzKeywordMatcher: the default rules' automaton and the reference agree
// on any input, scanned serially and in four streams.
func FuzzKeywordMatcher(f *testing.F) {
	kws, rules := defaultKeywords()
	m, ref := newKWMatcher(kws, rules), newRefKWMatcher(kws, rules)
	for _, sm := range corpusSamples() {
		f.Add([]byte(sm.text), uint16(1))
	}
	f.Add([]byte("password=hunter2 -----BEGIN RSA PRIVATE KEY----- https://u:p@h"), uint16(300))
	f.Fuzz(func(t *testing.T, chunk []byte, reps uint16) {
		// Repeat the input so that it also crosses the four-stream cuts
		// (TestKeywordMatcherMatchesReference covers the 64 KB blocks).
		if len(chunk) == 0 || len(chunk) > 4<<10 {
			return
		}
		data := bytes.Repeat(chunk, 1+int(reps)%(16<<10/len(chunk)))
		if got, want := kwHits(m.scan, data), kwHits(ref.scan, data); !slices.Equal(got, want) {
			t.Fatalf("%d bytes: %d hit entries, want %d", len(data), len(got), len(want))
		}
		if m.hitMask(chunk) != ref.hitMask(chunk) || m.any(chunk) != ref.any(chunk) {
			t.Fatalf("hitMask/any disagree on %q", chunk)
		}
	})
}
