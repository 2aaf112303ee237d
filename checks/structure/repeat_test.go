package structure

import (
	"go/token"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
)

// TestRepeatsLine checks, on random texts, that repeatsLine holds wherever
// duplicates would compare two adjacent equal lines, and that
// repeatsLineIn, with the line table, says what repeatsLine says.
func TestRepeatsLine(t *testing.T) {
	pieces := []string{"a", "a ", "a\t", "b", "\r", "```", "~~~", "> a", "  ", "- ", "|"}
	rng := rand.New(rand.NewPCG(5, 6))
	found := 0
	for range 5000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			if rng.IntN(2) == 0 {
				b.WriteByte('\n')
			}
		}
		content := []byte(b.String())
		start := rng.IntN(len(content) + 1)
		lines := bodylines.Lines(content, start, len(content))
		want := false
		for i := 1; i < len(lines); i++ {
			a, b := strings.TrimRight(lines[i-1].Text, " \t"), strings.TrimRight(lines[i].Text, " \t")
			if a == b && strings.TrimSpace(b) != "" && adjacent(content, lines[i-1], lines[i]) {
				want = true
			}
		}
		tf := token.NewFileSet().AddFile("doc.md", -1, len(content))
		tf.SetLinesForContent(content)
		for _, from := range []int{0, start} {
			if got, want := repeatsLineIn(content, bodylines.Starts(tf, content, content), from), repeatsLine(content[from:]); got != want {
				t.Fatalf("repeatsLineIn(%q, %d) = %v, repeatsLine says %v", content, from, got, want)
			}
		}
		if want {
			found++
			if !repeatsLine(content[start:]) {
				t.Fatalf("repeatsLine(%q) = false, but duplicates compares a pair", content[start:])
			}
		}
	}
	if found < 100 {
		t.Errorf("only %d texts with a repeated line", found)
	}
	for in, want := range map[string]bool{"": false, "a\na": true, "a \r\na\t": true, " \n ": false, "a\nb\na": false} {
		if got := repeatsLine([]byte(in)); got != want {
			t.Errorf("repeatsLine(%q) = %v, want %v", in, got, want)
		}
	}
}
