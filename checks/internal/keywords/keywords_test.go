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

// BenchmarkMaskParagraph is Mask of a set of sixty words, as a line
// reader's is (contradiction's lineKeys), on a long line of prose.
func BenchmarkMaskParagraph(b *testing.B) {
	s := New("required", " passed", "commit", "approv", "not ", "pending", "this ", "this*", "approval_source",
		"validat", "candidate", ".md", " model ", "validated",
		"skip", "reserv", "withdr", "retir", "intention", "deliberate", "purpose", "used", "assign",
		"command", "validator", "self-test", "run", "harness", "target", "test", "validation", "repo",
		"current", "admitted", "resolved", "fresh",
		"first", "before", "until", "readiness", "prerequisite", "requires", "depends on", "needed",
		"must exist before", "must be done before", "need", "can't",
		"` / `", " with model ", ", model ", "` (model `",
		"primary", "fallback", "default", "backup", "secondary", "fall back", "falls back", "fell back", "falling back")
	line := strings.Repeat("The focused test suite records the run directory and keeps the upstream sources untouched, and Cortex Core verifies `report.json`. ", 8)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		s.Mask(line)
	}
}

// TestMaskFullSet: with MaxWords random words over a few bytes (many
// states, words inside words, states where words end at every depth),
// a word's bit is set exactly when the text holds it, in short texts and
// in long ones read in two halves.
func TestMaskFullSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const alphabet = "abcd e-"
	var words []string
	for seen := map[string]bool{}; len(words) < MaxWords; {
		b := make([]byte, 1+rng.IntN(9))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if w := string(b); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	s := New(words...)
	for range 5000 {
		b := make([]byte, rng.IntN(200))
		for i := range b {
			b[i] = (alphabet + "ABCDx")[rng.IntN(len(alphabet)+5)]
		}
		text := string(b)
		m := s.Mask(text)
		for i, w := range words {
			if want := bodylines.ContainsFold(text, w); (m&(1<<i) != 0) != want {
				t.Fatalf("Mask(%q) bit %q = %v, ContainsFold %v", text, w, !want, want)
			}
		}
	}
}
