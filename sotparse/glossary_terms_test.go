package sotparse

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestTermMatchesAsRegexp: termMatches, which runs termPattern on the
// lines that start with "**", finds what the pattern in multi-line mode
// finds over the whole text, on random glossaries of the pieces a term
// line is made of.
func TestTermMatchesAsRegexp(t *testing.T) {
	whole := regexp.MustCompile(`(?m)` + termPattern.String())
	pieces := []string{"**", "*", "Term", " ", "\t", "(", ")", "qual", ":", "\n", "\r\n", "\n\n", "x", "# H", "é", "**A**:", "**B** (q): def"}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		var b strings.Builder
		for range rng.IntN(24) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		body := []byte(b.String())
		if got, want := fmt.Sprint(termMatches(body)), fmt.Sprint(whole.FindAllSubmatchIndex(body, -1)); got != want {
			t.Fatalf("case %d %q: termMatches %s, the pattern over the text %s", i, body, got, want)
		}
	}
}
