package status

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// The patterns markerLen and labelLen stand for.
var (
	lineMarkerRE    = regexp.MustCompile(`^\s*(?:(?:[-*+]|\d{1,9}[.)])\s+)?(?:\[[ xX]\]\s+)?`)
	sentenceLabelRE = regexp.MustCompile(`^[A-Za-z][A-Za-z ]{0,40}:\s+`)
)

// TestMarkerLabel checks markerLen and labelLen against the patterns they
// stand for, on random lines of markers, boxes, labels, blanks and near
// misses.
func TestMarkerLabel(t *testing.T) {
	pieces := []string{" ", "  ", "\t", "\v", "\f", "\r", "\n", "-", "*", "+", "1", "12", "123456789", "0", ".", ")", "[", "]", "[ ]", "[x]", "[X]", "[y]",
		"Evidence", "Status", "a", "Z", "é", ":", ": ", "CTO-WORK-001", "x", strings.Repeat("abcd ", 9), strings.Repeat("a", 40)}
	rng := rand.New(rand.NewPCG(9, 10))
	markers, labels := 0, 0
	for range 200000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := markerLen(s), len(lineMarkerRE.FindString(s)); got != want {
			t.Fatalf("markerLen(%q) = %d, want %d", s, got, want)
		} else if want > 0 {
			markers++
		}
		want := 0
		if loc := sentenceLabelRE.FindStringIndex(s); loc != nil {
			want = loc[1]
			labels++
		}
		if got := labelLen(s); got != want {
			t.Fatalf("labelLen(%q) = %d, want %d", s, got, want)
		}
	}
	if markers < 10000 || labels < 1000 {
		t.Errorf("only %d markers and %d labels", markers, labels)
	}
}
