package prose

import (
	"math/rand/v2"
	"testing"
)

// TestOffsetsAgree checks the run-length map against one int per byte, on
// random sequences of copied and made-up text, and on slices of them.
func TestOffsetsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 500 {
		var b offsetsBuilder
		var want []int
		src := rng.IntN(50)
		for range rng.IntN(12) {
			n := rng.IntN(6)
			switch rng.IntN(3) {
			case 0: // contiguous with what came before, or not
				if rng.IntN(2) == 0 {
					src += rng.IntN(20)
				}
				b.add(src, n)
				for i := range n {
					want = append(want, src+i)
				}
				src += n
			case 1:
				at := 0
				if len(want) > 0 {
					at = want[len(want)-1]
				}
				b.addFixed(at, n)
				for range n {
					want = append(want, at)
				}
			default:
				src += rng.IntN(5)
			}
		}
		o := b.offsets()
		if o.Len() != len(want) {
			t.Fatalf("round %d: Len %d, want %d", round, o.Len(), len(want))
		}
		for i, w := range want {
			if got := o.At(i); got != w {
				t.Fatalf("round %d: At(%d) = %d, want %d", round, i, got, w)
			}
		}
		if len(want) == 0 {
			continue
		}
		i := rng.IntN(len(want))
		j := i + rng.IntN(len(want)-i+1)
		s := o.Slice(i, j)
		for k := range j - i {
			if got := s.At(k); got != want[i+k] {
				t.Fatalf("round %d: Slice(%d,%d).At(%d) = %d, want %d", round, i, j, k, got, want[i+k])
			}
		}
	}
}
