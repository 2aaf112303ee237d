package consistency

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestHeadingKey checks headingKey against the expression it stands for,
// on random headings of words in any case, ASCII and Unicode white space,
// and runes beyond ASCII.
func TestHeadingKey(t *testing.T) {
	pieces := []string{"Issue", "issue", "CTO-WORK-001", "2026-06-01", " ", "  ", "\t", "\v", "\r", "\n", "\u00a0", "\u0085", "\u2003", "É", "ß", "K", "-", ":", "x"}
	rng := rand.New(rand.NewPCG(11, 12))
	same := 0
	for range 50000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		want := strings.ToLower(strings.Join(strings.Fields(s), " "))
		got := headingKey(s)
		if got != want {
			t.Fatalf("headingKey(%q) = %q, want %q", s, got, want)
		}
		if got == s {
			same++
		}
	}
	if same < 1000 {
		t.Errorf("only %d headings in normal form", same)
	}
}
