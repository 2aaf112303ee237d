package secrets

import (
	"bytes"
	"math"
	"math/rand"
	"testing"
)

// TestEntropySame: Entropy gives, to the bit, what the walk over all 256
// counts gave (the rules compare it with thresholds).
func TestEntropySame(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for range 5000 {
		b := make([]byte, rng.Intn(200))
		span := 1 + rng.Intn(256)
		for i := range b {
			b[i] = byte(rng.Intn(span))
		}
		if got, want := Entropy(b), entropyDirect(b); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("Entropy(%q) = %v, the walk gives %v", b, got, want)
		}
	}
}

// TestPlaceholderWordsSame: the indexed search finds a placeholder word
// exactly where a search for each word does.
func TestPlaceholderWordsSame(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	const alpha = "abcdehmnoprstuxy_-"
	for range 20000 {
		b := make([]byte, rng.Intn(40))
		for i := range b {
			b[i] = alpha[rng.Intn(len(alpha))]
		}
		if rng.Intn(4) == 0 {
			w := placeholderWords[rng.Intn(len(placeholderWords))]
			k := rng.Intn(len(b) + 1)
			b = append(b[:k:k], append([]byte(w[:1+rng.Intn(len(w))]), b[k:]...)...)
		}
		want := false
		for _, w := range placeholderWords {
			want = want || bytes.Contains(b, []byte(w))
		}
		if got := holdsPlaceholderWord(b); got != want {
			t.Fatalf("%q: indexed %v, each word %v", b, got, want)
		}
	}
}
