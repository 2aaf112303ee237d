package keywords

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
)

// TestMaskIsContainsFold: a word's bit is set exactly when the text holds
// the word in some ASCII letter case, on random texts over the words' own
// bytes (where overlaps and near misses are common).
func TestMaskIsContainsFold(t *testing.T) {
	words := []string{"run", "runs", "unused", "used", "se", "e", "` / `", " model ", ", model ", "n\u2019t", "fall back", "falls back", "a.md", "test", "self-test"}
	s := New(words...)
	alphabet := []string{"r", "R", "u", "U", "n", "N", "s", "S", "e", "E", "d", "D", "`", " ", "/", ",", "m", "M", "o", "l", "L", "f", "a", "b", "c", "k", "t", "T", "-", ".", "x", "\u2019", "\u00e9"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(24) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		text := b.String()
		m := s.Mask(text)
		for i, w := range words {
			if want := bodylines.ContainsFold(text, w); (m&(1<<i) != 0) != want {
				t.Fatalf("Mask(%q) bit %q = %v, ContainsFold %v", text, w, !want, want)
			}
		}
		if want := strings.ContainsFunc(text, func(r rune) bool { return r >= 0x80 }); (m&NonASCII != 0) != want {
			t.Fatalf("Mask(%q) NonASCII = %v", text, !want)
		}
	}
}

// TestMaskLongText: on a text long enough to be read in two halves, a
// word is found wherever it stands, across the middle and at either end,
// and so is a non-ASCII byte in either half.
func TestMaskLongText(t *testing.T) {
	words := []string{"q", "run", " mod ", "falls back", "n\u2019t"} // none holds another
	s := New(words...)
	for _, n := range []int{minSplit + 2*(len("falls back")-1), 101, 160} {
		filler := strings.Repeat("x", n)
		for i, w := range words {
			for at := 0; at+len(w) <= n; at++ {
				text := filler[:at] + w + filler[at+len(w):]
				want := uint64(1) << i
				if w == "n\u2019t" {
					want |= NonASCII
				}
				if got := s.Mask(text); got != want {
					t.Fatalf("Mask of %d bytes with %q at %d = %b, want %b", n, w, at, got, want)
				}
			}
		}
	}
}

func TestBits(t *testing.T) {
	s := New("a", "b", "c")
	if got := s.Bits("a", "c"); got != 5 {
		t.Fatalf("Bits = %b", got)
	}
	for _, f := range []func(){func() { s.Bits("d") }, func() { New("A") }, func() { New("a", "a") }, func() { New("") }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		}()
	}
}

func BenchmarkMask(b *testing.B) {
	s := New("required", "skip", "unused", "reserv", "withdr", "retir", "intention", "deliberate", "purpose", "used", "assign", " passed", "commit", "command", "validator")
	line := "- Status: validated. The harness ran `go test ./...` against CTO-WORK-0042 and the evidence was recorded."
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		s.Mask(line)
	}
}
