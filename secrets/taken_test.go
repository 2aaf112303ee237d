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

// TestOverlapIndex checks the index against a loop over every span:
// spans nested, touching, repeated and empty, queries everywhere.
func TestOverlapIndex(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for it := range 300 {
		cs := make([]cand, rng.Intn(40))
		for i := range cs {
			s := rng.Intn(100)
			cs[i] = cand{start: int32(s), end: int32(s + rng.Intn(30))}
		}
		x := newOverlapIndex(cs)
		for range 100 {
			s := rng.Intn(120)
			e := s + 1 + rng.Intn(20)
			want := false
			for _, c := range cs {
				want = want || int(c.start) < e && s < int(c.end)
			}
			if got := x.overlaps(s, e); got != want {
				t.Fatalf("trial %d: overlaps(%d, %d) = %v, the loop says %v (spans %v)", it, s, e, got, want, cs)
			}
		}
	}
}
