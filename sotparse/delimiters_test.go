package sotparse

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// TestDelimitersAsGoldmark holds sotparse's delimiter processing
// (delimiterList) to goldmark's on random runs of emphasis and
// strikethrough delimiters of every length and flanking, links and
// images around them, and the pathological shapes' units.
func TestDelimitersAsGoldmark(t *testing.T) {
	reference := goldmark.New(goldmark.WithExtensions(MarkdownExtensions...)).Parser()
	pieces := []string{
		"*", "**", "***", "****", "_", "__", "___", "~", "~~", "~~~", "a", "b", " ", "  ", ".", ",", "!", "\\*", "\\_", "`",
		"[", "]", "](/u)", "][r]", "![", "(", ")", "\n", "\n\n", "é", "1", "*a_ ", "a**b", "c* ", "[a](b", "_a ", "*a* *",
	}
	rng := rand.New(rand.NewPCG(21, 22))
	for range sampled(12000) {
		var b strings.Builder
		for range 1 + rng.IntN(30) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		b.WriteString("\n\n[r]: /r\n")
		sameAsDefaultParser(t, reference, "random delimiters", []byte(b.String()))
	}
	for _, c := range pathologicalInlines {
		sameAsDefaultParser(t, reference, c.name, []byte("# P\n\n"+c.unit(100)+"\n"))
	}
}

// TestDelimiterWorkLinear: on every pathological shape the searches for
// openers look at no more delimiters than a few times the paragraph's
// bytes, at 2,000 units and at 16,000 (goldmark's look at the square).
func TestDelimiterWorkLinear(t *testing.T) {
	if raceEnabled {
		t.Skip("parses megabytes on one goroutine: nothing for the race detector, at ten times the cost; the plain run holds it")
	}
	var steps int64
	delimiterSteps = &steps
	defer func() { delimiterSteps = nil }()
	for _, c := range pathologicalInlines {
		for _, n := range []int{2000, 16000} {
			src := []byte("# P\n\n" + c.unit(n) + "\n")
			steps = 0
			mdParser().Parse(text.NewReader(src), parser.WithContext(InlineWorkContext(len(src))))
			if steps > 2*int64(len(src)) {
				t.Errorf("%s at %d units (%d bytes): %d delimiters looked at", c.name, n, len(src), steps)
			}
		}
	}
}
