package status

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestFindDate holds findDate to the expression it stands for.
func TestFindDate(t *testing.T) {
	re := regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)
	check := func(s string) {
		t.Helper()
		if got, want := findDate(s), re.FindString(s); got != want {
			t.Fatalf("findDate(%q) = %q, want %q", s, got, want)
		}
	}
	for _, s := range []string{
		"", "2026-05-01", "Journal 2026-05-01", "2026-05-01: validated", "x2026-05-01", "2026-05-012",
		"_2026-05-01", "2026-05-01_", "12026-05-01 2026-06-02", "2026-5-01 2026-05-01", "é2026-05-01é",
		"2026-05-0", "(2026-05-01)", "2026-05-01-2026-05-02", "20260-05-01", "2026--05-01 2026-05-01x 2026-07-08",
	} {
		check(s)
	}
	// A date with any one byte changed, within any word or space.
	for i := range 10 {
		for _, c := range []byte{'1', '-', 'a', ' ', '_'} {
			d := []byte("2026-05-01")
			d[i] = c
			for _, around := range []string{"", " ", "x", "1", "é"} {
				check(around + string(d) + around)
			}
		}
	}
	// Random strings of dates, digits, word and other bytes.
	pieces := []string{"2026-05-01", "1", "-", "a", "_", " ", "é", "12", "2026-05-"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		var b strings.Builder
		for range r.IntN(6) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		check(b.String())
	}
}
