package smallset

import (
	"fmt"
	"testing"
)

// TestBranchesAgree: the linear and the hashed lookups answer alike, for
// sets on both sides of linearMax, members or not, the empty string and
// strings of a member's length included.
func TestBranchesAgree(t *testing.T) {
	for n := 0; n <= linearMax+3; n++ {
		var keys []string
		for i := range n {
			keys = append(keys, fmt.Sprintf("docs/k%02d.md", i))
		}
		if n > 1 {
			keys = append(keys, keys[0]) // a duplicate
		}
		lin, hash, of := linear(keys), hashed(keys), Of(keys)
		asks := append([]string{"", "docs/k99.md", "docs/k0.md", "docs/k00.mdx"}, keys...)
		for _, p := range asks {
			want := false
			for _, k := range keys {
				want = want || k == p
			}
			if lin(p) != want || hash(p) != want || of(p) != want {
				t.Errorf("n=%d %q: linear %v, hashed %v, Of %v; want %v", n, p, lin(p), hash(p), of(p), want)
			}
		}
	}
}

// TestOwnCopy: a change of the caller's slice after Of does not change the
// set.
func TestOwnCopy(t *testing.T) {
	keys := []string{"a", "b"}
	in := Of(keys)
	keys[0] = "z"
	if !in("a") || in("z") {
		t.Fatal("Of kept the caller's slice")
	}
}
