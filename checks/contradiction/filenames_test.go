package contradiction

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docFileName is the pattern docFileNames reads without it.
var docFileName = regexp.MustCompile(`\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\.md\b`)

// TestDocFileNames checks that docFileNames, which reads the run before
// each ".md", finds what docFileName finds on the whole text: random text
// of file-name pieces, with word characters, non-ASCII characters and
// repeated ".md" around them.
func TestDocFileNames(t *testing.T) {
	pieces := []string{"CTO", "A", "Z9", "0", "-", "--", ".md", ".MD", ".mdx", "md", ".", "x", "_", " ", "`", "/", "é", "\u212a", "EVIDENCE", "-PRD", "(", ")"}
	rng := rand.New(rand.NewPCG(16, 5))
	found := 0
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		want := docFileName.FindAllString(s, -1)
		if got := docFileNames(s); !slices.Equal(got, want) {
			t.Fatalf("docFileNames(%+q) = %+q, the pattern finds %+q", s, got, want)
		}
		found += len(want)
	}
	if found == 0 {
		t.Fatal("no text holds a file name: the test compares nothing")
	}
}
