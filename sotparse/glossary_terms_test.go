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

// BenchmarkGlossaryTerms finds the terms of glossaries of two shapes at
// two sizes ten times apart: one term a paragraph ("**Name N**:" and a
// line of definition), and prose whose every line opens in bold without
// defining a term ("**Note**, …"), each line a match attempt.
func BenchmarkGlossaryTerms(b *testing.B) {
	shapes := map[string]func(i int) string{
		"terms": func(i int) string {
			return fmt.Sprintf("**Route Admission %d** (stage):\nThe gate stays closed until approval; lane %d replays.\n_Avoid_: gate\n\n", i, i)
		},
		"bold-prose": func(i int) string {
			return fmt.Sprintf("**Note %d**, the lane replays the fixture and the ladder waits for the operator.\n", i)
		},
	}
	for _, name := range []string{"terms", "bold-prose"} {
		for _, n := range []int{2000, 20000} {
			var buf strings.Builder
			for i := range n {
				buf.WriteString(shapes[name](i))
			}
			body := []byte(buf.String())
			b.Run(fmt.Sprintf("%s/%dKB", name, len(body)>>10), func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				for b.Loop() {
					termMatches(body)
				}
			})
		}
	}
}
