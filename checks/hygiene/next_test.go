package hygiene

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
)

// TestNext checks next, which reads at most two bytes after a line,
// against a search for the line break, on random texts of lines with
// "\r", "\r\n" and fences.
func TestNext(t *testing.T) {
	pieces := []string{"a", " ", "\t", "\r", "\n", "\r\n", "\r\r\n", "```", "> q"}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(16) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		content := []byte(b.String())
		bodylines.Each(content, 0, len(content), func(ln bodylines.Line) {
			end := ln.Off + len(ln.Text)
			want := len(content)
			if i := bytes.IndexByte(content[end:], '\n'); i >= 0 {
				want = end + i + 1
			}
			if got := next(content, ln); got != want {
				t.Fatalf("next(%q, line at %d) = %d, want %d", content, ln.Off, got, want)
			}
		})
	}
}
