package status

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLabelSpan checks that every text before a sentence that the label
// rule accepts lies within labelSpan: the span only spares reading what
// cannot be a label.
func TestLabelSpan(t *testing.T) {
	isLabel := func(raw string) bool {
		label := strings.ToLower(strings.TrimSpace(strings.ReplaceAll(raw, "*", "")))
		label = strings.TrimSpace(strings.TrimLeft(label, "-+ []x"))
		return blockedLabels[strings.TrimSuffix(label, ":")] && strings.HasSuffix(label, ":")
	}
	parts := []string{"Still", "still", "blocked", "Remains", "remain", "stays", " ", "  ", "\t", "*", "**", "-", "+", "[x]", "[ ]", ":", ".", "`", "1", "\u00a0", "é", "\r", ","} // no line break: the text before a sentence is in its line
	rng := rand.New(rand.NewPCG(3, 4))
	labels := 0
	for range 200000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		raw := b.String()
		if !isLabel(raw) {
			continue
		}
		labels++
		line := raw + "`CTO-WORK-016` and more. Then more"
		if n := labelSpan([]byte(line)); n < len(raw) {
			t.Fatalf("label %q accepted, but labelSpan stops at %d", raw, n)
		}
	}
	for _, raw := range []string{"Still blocked:", "- **Remains blocked:** ", "  - [ ] stays blocked:\t"} {
		if !isLabel(raw) || labelSpan([]byte(raw+"`CTO-WORK-1`")) < len(raw) {
			t.Errorf("%q: not a label, or cut by labelSpan", raw)
		}
	}
	if labels < 100 {
		t.Errorf("only %d labels drawn", labels)
	}
	if n := labelSpan([]byte("Done. Still blocked: x")); n != 4 {
		t.Errorf("labelSpan stops at %d, want 4 (the end of the sentence before)", n)
	}
}
