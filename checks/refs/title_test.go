package refs

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

// fold is how sameTitle compared titles at first: by their letters and
// digits, lower case, built as strings.
func fold(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// TestSameTitle checks sameTitle against comparing the folded titles, on
// random titles of letters in both cases, digits, punctuation, white
// space, non-ASCII letters and invalid UTF-8.
func TestSameTitle(t *testing.T) {
	pieces := []string{"a", "A", "b", "Z", "1", "9", " ", "  ", "-", ":", ".", "é", "É", "ß", "Σ", "σ", "ς", "İ", "ı", "K", "k", "٣", "\xff", "\xc3", "\t", "—"}
	rng := rand.New(rand.NewPCG(9, 1))
	title := func() string {
		var b strings.Builder
		for range rng.IntN(7) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	same := 0
	for range 200000 {
		a, b := title(), title()
		if rng.IntN(4) == 0 {
			b = strings.ToUpper(a) + pieces[rng.IntN(len(pieces))]
		}
		want := fold(a) == fold(b)
		if got := sameTitle(a, b); got != want {
			t.Fatalf("sameTitle(%q, %q) = %v, fold gives %v", a, b, got, want)
		}
		if want {
			same++
		}
	}
	if same < 1000 {
		t.Fatalf("only %d pairs were the same title: the test says too little", same)
	}
}
