package contradiction

import (
	"go/token"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestSentenceEndsAgrees checks sentenceEnds against the expression it
// replaced, `[.!?;](?:\s|$)`, and mayJoinPair against pairPattern (a
// sentence with a pair holds a joiner), on random texts of marks, white
// space, names, code spans and joiners.
func TestSentenceEndsAgrees(t *testing.T) {
	re := regexp.MustCompile(`[.!?;](?:\s|$)`)
	pieces := []string{".", "!", "?", ";", " ", "\t", "\n", "\r", "\f", "\v", "a", "v1.2", "..", ". ", "`" + code + "`", code,
		" / ", " with model ", ", model ", " (model ", "gpt-5", "Case", "é", "\u00a0"}
	rng := rand.New(rand.NewPCG(9, 10))
	ends, pairs := 0, 0
	for range 30000 {
		var b strings.Builder
		for range rng.IntN(14) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		var want []int
		for _, m := range re.FindAllStringIndex(s, -1) {
			want = append(want, m[0]+1)
		}
		if got := sentenceEnds(s); !slices.Equal(got, want) {
			t.Fatalf("sentenceEnds(%q) = %v, want %v", s, got, want)
		}
		ends += len(want)
		if pairPattern.MatchString(s) {
			pairs++
			if !mayJoinPair(s) {
				t.Fatalf("%q holds a pair; mayJoinPair says no", s)
			}
		}
	}
	if ends < 10000 || pairs < 300 {
		t.Fatalf("%d ends, %d texts with a pair: the test saw too little", ends, pairs)
	}
}

// countedArg counts how often a related place's message is formatted.
type countedArg struct{ n *int }

func (c countedArg) String() string { *c.n++; return "x" }

// TestRelListFormatsKept: a finding's related places are formatted only
// up to what report keeps. Formatting one per compared statement made
// the roles rule quadratic in the statements about one pair (3.4 GB on
// a 1,000-document workspace where every document names it).
func TestRelListFormatsKept(t *testing.T) {
	n := 0
	var l relList
	for i := range 1000 {
		l.add(token.Pos(i+1), "%s", countedArg{&n})
	}
	if len(l) != maxRelated || n != maxRelated {
		t.Fatalf("1000 places added: %d kept, %d formatted; want %d of each", len(l), n, maxRelated)
	}
	if !l.full() {
		t.Fatal("a list of maxRelated places is not full")
	}
}
