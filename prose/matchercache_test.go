package prose

import (
	"encoding/binary"
	"hash/crc32"
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

// TestMatcherCacheBounds damages one field of a table file at a time and
// recomputes the CRC, so that the check of that field's bounds, not the
// checksum, must refuse it: a move to a state past the table, a byte
// class past its width, a span outside the ids, an id past the literals.
func TestMatcherCacheBounds(t *testing.T) {
	lits := []string{"passive", "utilize", "in order to", "is", "be"}
	for _, bits := range []int{16, 32} {
		saved := maxStates16
		if bits == 32 {
			maxStates16 = 0
		}
		m := newMatcher(lits)
		maxStates16 = saved
		data := encodeMatcher("key", m)
		sumAt := len(matcherCacheMagic) + 1 + len("key")
		at := (sumAt + 4 + 7) / 8 * 8
		le := binary.LittleEndian
		cells, states, nIDs := le.Uint64(data[at+24:]), le.Uint64(data[at+32:]), le.Uint64(data[at+40:])
		classAt := at + matcherHeader
		deltaAt := classAt + 512
		outAt := deltaAt + int(cells*uint64(bits/8)+7)/8*8
		idsAt := outAt + 8*int(states)
		// The span damaged: the first one holding an id.
		k := slices.IndexFunc(m.out, func(o span32) bool { return o.hi > o.lo })
		if k < 0 {
			t.Fatal("the table has no span holding an id")
		}
		spanAt := outAt + 8*k
		put32 := func(b []byte, off int, v int32) { le.PutUint32(b[off:], uint32(v)) }
		cases := []struct {
			name   string
			damage func(b []byte)
		}{
			{"none", func([]byte) {}},
			{"class past the width", func(b []byte) { le.PutUint16(b[classAt:], uint16(m.width)) }},
			{"move past the states", func(b []byte) {
				if bits == 16 {
					le.PutUint16(b[deltaAt:], uint16(states))
				} else {
					put32(b, deltaAt, int32(states))
				}
			}},
			{"span starting below 0", func(b []byte) { put32(b, spanAt, -1) }},
			{"span ending before it starts", func(b []byte) { put32(b, spanAt, m.out[k].hi+1) }},
			{"span past the ids", func(b []byte) { put32(b, spanAt+4, int32(nIDs)+1) }},
			{"id below 0", func(b []byte) { put32(b, idsAt, -1) }},
			{"id past the literals", func(b []byte) { put32(b, idsAt, int32(len(lits))) }},
		}
		if bits == 32 {
			cases = append(cases, struct {
				name   string
				damage func(b []byte)
			}{"negative move", func(b []byte) { put32(b, deltaAt, -1) }})
		}
		for _, tc := range cases {
			bad := slices.Clone(data)
			tc.damage(bad)
			le.PutUint32(bad[sumAt:], crc32.Checksum(bad[at:], castagnoli()))
			err := decodeMatcher(&matcher{}, bad, "key", len(lits))
			if tc.name == "none" {
				if err != nil {
					t.Fatalf("%d bits: the undamaged table refused: %v", bits, err)
				}
			} else if err == nil {
				t.Errorf("%d bits: %s taken", bits, tc.name)
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
