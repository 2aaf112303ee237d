package status

import (
	"slices"
	"testing"
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
