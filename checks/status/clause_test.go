package status

import (
	"strings"
	"testing"
	"time"
)

func TestClauseStarts(t *testing.T) {
	text := "X is done, but Y remains blocked, And Z; W, although V"
	got := clauseStarts(text)
	want := []int{0, strings.Index(text, "Y"), strings.Index(text, "Z"), strings.Index(text, " although") + 1 + len("although ")}
	if len(got) != len(want) {
		t.Fatalf("clauseStarts = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("clauseStarts = %v, want %v", got, want)
		}
	}
}

// TestClauseStartsLinear: a line listing thousands of ids, each after a
// comma, costs in proportion to its length. Lowering the rest of the line at
// every comma made 8 times the line cost 64 times the time (the manyids
// shape of scripts/sweep.sh: 50 s for 1,000 documents).
func TestClauseStartsLinear(t *testing.T) {
	line := func(n int) string { return strings.Repeat("CTO-WORK-101, ", n) }
	cost := func(s string) time.Duration {
		best := time.Duration(1 << 62)
		for range 5 {
			start := time.Now()
			clauseStarts(s)
			best = min(best, time.Since(start))
		}
		return best
	}
	small, large := line(1000), line(8000)
	cs, cl := cost(small), cost(large)
	if cl > 24*cs+time.Millisecond {
		t.Errorf("8x the line took %.1fx the time (%v, %v): not linear", float64(cl)/float64(cs), cs, cl)
	}
}

// TestBlockerClaimLinear: a line of thousands of blocker claims costs in
// proportion to its length (the word before each claim is read from the
// claim back, not by splitting the line before it).
func TestBlockerClaimLinear(t *testing.T) {
	rp := newRemainPatterns()
	line := func(n int) string { return strings.Repeat("X remains blocked by CTO-WORK-101, ", n) }
	cost := func(s string) time.Duration {
		best := time.Duration(1 << 62)
		for range 5 {
			start := time.Now()
			rp.blockerClaim(s)
			best = min(best, time.Since(start))
		}
		return best
	}
	small, large := line(500), line(4000)
	if ids, _ := rp.blockerClaim(small); len(ids) != 1 || ids[0] != "CTO-WORK-101" {
		t.Fatalf("blockerClaim = %v, want [CTO-WORK-101]", ids)
	}
	// Linear is 8x, quadratic 64x; the bound between them leaves room for
	// a loaded machine (the tests' neighbours share its cores).
	cs, cl := cost(small), cost(large)
	if cl > 40*cs+5*time.Millisecond {
		t.Errorf("8x the line took %.1fx the time (%v, %v): not linear", float64(cl)/float64(cs), cs, cl)
	}
}
