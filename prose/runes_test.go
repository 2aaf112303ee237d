package prose

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRunesOfBlock: a block's runes and offsets are its text's, invalid
// UTF-8 included, and a file's scan decodes each new block anew.
func TestRunesOfBlock(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "Z", " ", "é", "\u212a", "\xff", "\xe2\x82", "日本", "\n"}
	st := &fileState{}
	for range 500 {
		var b []byte
		for range r.IntN(40) {
			b = append(b, alphabet[r.IntN(len(alphabet))]...)
		}
		s := string(b)
		runes, offs := st.scanFor(s).runesOf(s)
		if want := []rune(s); !slices.Equal(runes, want) {
			t.Fatalf("%q: runes %q, want %q", s, runes, want)
		}
		var want []int
		for i := range s {
			want = append(want, i)
		}
		if want = append(want, len(s)); !slices.Equal(offs, want) {
			t.Fatalf("%q: offsets %v, want %v", s, offs, want)
		}
	}
}
