package secrets

import (
	"math"
	"testing"
)

// entropyDirect is Entropy without the table of terms.
func entropyDirect(s []byte) float64 {
	if len(s) == 0 {
		return 0
	}
	var counts [256]int
	for _, c := range s {
		counts[c]++
	}
	n := float64(len(s))
	e := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			e -= float64(p * math.Log2(p))
		}
	}
	return e
}

// TestEntropyTable: the looked-up terms give the same float64 as the
// logarithms, bit for bit, at every length the table covers and past
// it: a floor such as 3.5 judges a value the same either way.
func TestEntropyTable(t *testing.T) {
	g := newFakeGen("entropy")
	for n := 1; n <= entropyTableMax+8; n++ {
		for _, alphabet := range []string{"ab", hexLower, base62, base62 + "+/=-_.~"} {
			for range 20 {
				v := []byte(g.from(alphabet, n))
				if got, want := Entropy(v), entropyDirect(v); math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("Entropy(%q) = %v, want %v", v, got, want)
				}
			}
		}
	}
}
