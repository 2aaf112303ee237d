package secrets

import (
	"math/rand"
	"testing"
)

// TestTakenSet checks the set against the map it replaced: candidates of
// several rules, in text order, out of it, with repeated starts.
func TestTakenSet(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	var ts takenSet
	for it := range 200 {
		ts.reset()
		ref := map[int]int{}
		pos := 0
		for range 1 + rng.Intn(6) { // rules
			ts.endRule()
			for range rng.Intn(200) {
				switch rng.Intn(4) {
				case 0:
					pos = rng.Intn(300) // out of order
				default:
					pos += rng.Intn(4)
				}
				s, e := pos, pos+1+rng.Intn(5)
				e0, ok := ref[s]
				want := ok && e0 >= e
				if got := ts.covers(s, e); got != want {
					t.Fatalf("trial %d: covers(%d, %d) = %v, the map says %v", it, s, e, got, want)
				}
				if !want && rng.Intn(3) > 0 {
					ts.add(s, e)
					if !ok || e0 < e {
						ref[s] = e
					}
				}
			}
		}
	}
}
