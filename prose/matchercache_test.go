package prose

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// sameMatcher compares two tables cell by cell.
func sameMatcher(a, b *matcher) bool {
	return a.count == b.count && a.width == b.width && a.class == b.class &&
		slices.Equal(a.delta16, b.delta16) && slices.Equal(a.delta, b.delta) &&
		slices.Equal(a.out, b.out) && slices.Equal(a.ids, b.ids)
}

// TestMatcherCacheRoundTrip writes tables of both widths and reads them
// back the same, and refuses every cut, every changed byte that is not
// padding, another key and another count of literals.
func TestMatcherCacheRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for round := range 40 {
		lits := make([]string, 1+r.IntN(12))
		for i := range lits {
			b := make([]byte, 1+r.IntN(6))
			for k := range b {
				b[k] = "abcde .-"[r.IntN(8)]
			}
			lits[i] = string(b)
		}
		saved := maxStates16
		if round%2 == 1 {
			maxStates16 = 0 // 32-bit cells
		}
		want := newMatcher(lits)
		maxStates16 = saved
		data := encodeMatcher("key", want)
		got := &matcher{}
		if err := decodeMatcher(got, data, "key", len(lits)); err != nil || !sameMatcher(got, want) {
			t.Fatalf("lits %q: read back %v, same %v", lits, err, sameMatcher(got, want))
		}
		if decodeMatcher(&matcher{}, data, "other", len(lits)) == nil || decodeMatcher(&matcher{}, data, "key", len(lits)+1) == nil {
			t.Fatal("another key's or another literal count's table taken")
		}
		for i := range data {
			if decodeMatcher(&matcher{}, data[:i], "key", len(lits)) == nil {
				t.Fatalf("cut at %d of %d taken", i, len(data))
			}
			for _, x := range []byte{0x01, 0x41} {
				bad := slices.Clone(data)
				bad[i] ^= x
				m := &matcher{}
				if decodeMatcher(m, bad, "key", len(lits)) == nil && !sameMatcher(m, want) {
					t.Fatalf("byte %d ^ %#x: a different table taken", i, x)
				}
			}
		}
	}
}

// TestMatcherCacheFile has cachedMatcher write a table, read it back (in
// place) the same as one built, and write a damaged one again.
func TestMatcherCacheFile(t *testing.T) {
	lits := []string{"passive", "utilize", "in order to", "is", "be"}
	want := newMatcher(lits)
	SetStyleCache(&StyleCache{Dir: t.TempDir(), Key: "k"})
	defer SetStyleCache(nil)
	for range 2 {
		if got := cachedMatcher(lits); !sameMatcher(got, want) {
			t.Fatal("a cached table differs from the one built")
		}
	}
	names, _ := filepath.Glob(filepath.Join(styleCache.Load().Dir, "*.filter"))
	if len(names) != 1 {
		t.Fatalf("table files %v, want one", names)
	}
	for _, damage := range [][]byte{nil, []byte("garbage"), []byte(matcherCacheMagic + "\x01k")} {
		if err := os.WriteFile(names[0], damage, 0o600); err != nil {
			t.Fatal(err)
		}
		if got := cachedMatcher(lits); !sameMatcher(got, want) {
			t.Fatal("a table read through a damaged file differs")
		}
		if data, _ := os.ReadFile(names[0]); len(data) <= len(damage) {
			t.Fatal("damaged table file not rewritten")
		}
	}
	// Other literals name another file.
	cachedMatcher(append(lits, "other"))
	if names, _ := filepath.Glob(filepath.Join(styleCache.Load().Dir, "*.filter")); len(names) != 2 {
		t.Fatalf("table files %v, want two", names)
	}
}
