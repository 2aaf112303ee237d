package status

import (
	"slices"
	"testing"

	"github.com/svrnty/sotvet/sotparse"
)

// TestClaimsRoundTrip packs claims of large and small ids and offsets
// (one going back), claims of the sentence and status before them (their
// id alone) and of the sentence only, a first claim of the zero status and
// offset, and reads them back in order.
func TestClaimsRoundTrip(t *testing.T) {
	want := []stated{{0, 0, 0}, {9, 0, 0}, {1, 2, 0}, {1 << 20, 3, 40}, {7, 3, 40}, {1<<32 - 1, 3, 40}, {8, 4, 40},
		{0, 1 << 30, 1 << 24}, {5, 6, 100}, {6, 6, 100}}
	var c claims
	var last stated
	for _, s := range want {
		c.add(s, last)
		last = s
	}
	var got []stated
	for s := range c.all {
		got = append(got, s)
	}
	if !slices.Equal(got, want) {
		t.Errorf("claims read back %v, want %v", got, want)
	}
	for range claims(nil).all {
		t.Error("no claims yielded one")
	}
}

// TestClaimsConsecutiveIDs: a sentence naming ids the run's table gave
// out one after another (a list no other document names), far into the
// table, packs in a byte a claim after its first, where an id packed whole
// took 4.
func TestClaimsConsecutiveIDs(t *testing.T) {
	var c claims
	var last stated
	var want []stated
	for i := range 200 {
		s := stated{id: 3<<20 + sotparse.TextID(i), status: 7, off: 4000}
		c.add(s, last)
		want = append(want, s)
		last = s
	}
	if len(c) > 200+8 {
		t.Errorf("200 consecutive ids packed in %d bytes, want at most 208", len(c))
	}
	var got []stated
	for s := range c.all {
		got = append(got, s)
	}
	if !slices.Equal(got, want) {
		t.Errorf("claims read back %v, want %v", got, want)
	}
}
