package status

import (
	"slices"
	"testing"
)

// TestClaimsRoundTrip packs claims of large and small ids and offsets
// (one going back) and reads them back in order.
func TestClaimsRoundTrip(t *testing.T) {
	want := []stated{{1, 2, 0}, {1 << 20, 3, 40}, {7, 3, 40}, {0, 1 << 30, 1 << 24}, {5, 6, 100}}
	var c claims
	last := 0
	for _, s := range want {
		c.add(s, last)
		last = s.off
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
