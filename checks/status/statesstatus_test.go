package status

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestMatchStatesStatusAsPattern: the hand reading of statesStatus gives
// the pattern's submatches on sentences built from its pieces and their
// near-misses (ids in any case, in marks, cut short; separators with and
// without "and"; "is", "are", "isn't", "now" as a status and before one;
// status words ending in '-', a digit, an underscore; spaces of every kind
// \s has and \v, which it has not; bytes outside ASCII: the Kelvin sign
// and the long s the pattern folds to 'k' and 's').
func TestMatchStatesStatusAsPattern(t *testing.T) {
	fixed := []string{
		"CTO-WORK-1 is done",
		"CTO-WORK-1, CTO-WORK-2 and CTO-WORK-3 are validated, see `x`.",
		"`CTO-WORK-1`, **CTO-WORK-2**, and _CTO-WORK-3_ are now blocked",
		"cto-work-7 IS NOW in-progress.",
		"CTO-WORK-1 is now",
		"CTO-WORK-1 is now-ready",
		"CTO-WORK-1 is nowhere",
		"CTO-WORK-1 is foo-bar2",
		"CTO-WORK-1 is done_x",
		"CTO-WORK-1 isn't done",
		"CTO-WORK-1 and is done",
		"CTO-WORK-1, and is done",
		"CTO-WORK-1 ,CTO-WORK-2 are done",
		"CTO-WORK-1, andCTO-WORK-2 are done",
		"CTO-WORK- is done",
		"CTO-WORK-1\vis done",
		"CTO-WORK-1\tis\ndone",
		"CTO-WOR\u212a-1 is done",
		"CTO-WORK-1 i\u017f done",
		"CTO-WORK-1 is d\u017fne",
		"CTO-WORK-1 is \u00e9t\u00e9",
		"CTO-WORK-12 is -",
		"CTO-WORK-12 is a",
		"",
		"CTO-WORK-1",
		"x CTO-WORK-1 is done",
	}
	for _, s := range fixed {
		checkAgainstPattern(t, s)
	}
	pieces := []string{
		"CTO-WORK-1", "cto-work-22", "Cto-Work-333", "`CTO-WORK-4`", "**CTO-WORK-5**", "_CTO-WORK-6_", "CTO-WORK-", "CTO-WORK-x", "CTO-WOR\u212a-7",
		", ", ",", " , ", ", and ", ",and ", " and ", " AND ", "  and\t", " an ", " ", "\t", "\n", "\v", "\f", "\r",
		"is", "IS", "are", "Are", "isn't", "ar", "now", "NOW", "i\u017f",
		"done", "in-progress", "blocked", "validated", "foo-", "a-b-", "x2", "done_", "-", "d\u017fne", "\u00e9t\u00e9",
		".", "`", "*", "_", "see", "1", "(",
	}
	rng := rand.New(rand.NewPCG(22, 34))
	for range 100000 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		checkAgainstPattern(t, b.String())
	}
	// Sentences shaped like a claim, each piece from its place.
	ids := pieces[:9]
	seps := pieces[9:25]
	verbs := []string{"is", "IS", "are", "Are", "isn't", "ar", "i\u017f"}
	words := []string{"done", "in-progress", "blocked", "now", "now-ready", "foo-", "a-b-", "x2", "done_", "-", "d\u017fne", ""}
	spacesOf := []string{" ", "  ", "\t", "\v", "", "\n "}
	for range 100000 {
		var b strings.Builder
		n := 1 + rng.IntN(5)
		for k := range n {
			if k > 0 {
				b.WriteString(seps[rng.IntN(len(seps))])
			}
			b.WriteString(ids[rng.IntN(len(ids))])
		}
		b.WriteString(spacesOf[rng.IntN(len(spacesOf))])
		b.WriteString(verbs[rng.IntN(len(verbs))])
		b.WriteString(spacesOf[rng.IntN(len(spacesOf))])
		if rng.IntN(3) == 0 {
			b.WriteString("now")
			b.WriteString(spacesOf[rng.IntN(len(spacesOf))])
		}
		b.WriteString(words[rng.IntN(len(words))])
		b.WriteString(pieces[rng.IntN(len(pieces))])
		checkAgainstPattern(t, b.String())
	}
}

func checkAgainstPattern(t *testing.T, s string) {
	t.Helper()
	got, want := matchStatesStatus(s), statesStatus.FindStringSubmatchIndex(s)
	if !slices.Equal(got, want) {
		t.Fatalf("matchStatesStatus(%q) = %v, the pattern gives %v", s, got, want)
	}
}

func BenchmarkStatesStatus(b *testing.B) {
	s := "CTO-WORK-0883210, CTO-WORK-0883211, CTO-WORK-0883212, CTO-WORK-0883213, CTO-WORK-0883214, CTO-WORK-0883215, CTO-WORK-0883216, CTO-WORK-0883217, CTO-WORK-0883218, CTO-WORK-0883219 are validated, see `.sot/old/OLD-0087321-PRD.md`."
	b.Run("hand", func(b *testing.B) {
		for b.Loop() {
			matchStatesStatus(s)
		}
	})
	b.Run("pattern", func(b *testing.B) {
		for b.Loop() {
			statesStatus.FindStringSubmatchIndex(s)
		}
	})
}
