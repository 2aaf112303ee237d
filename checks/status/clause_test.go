package status

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
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

// TestClauseStartsThat: a clause starts after "that" when a verb that
// reports a finding precedes it, not after one that asks for a state.
func TestClauseStartsThat(t *testing.T) {
	for text, want := range map[string]int{
		"On 2026-06-09 we confirmed that X stays blocked":    strings.Index("On 2026-06-09 we confirmed that X stays blocked", "X"),
		"The log showed that X stays blocked":                strings.Index("The log showed that X stays blocked", "X"),
		"We must ensure that X stays blocked":                -1,
		"The route states that X stays blocked":              -1,
		"A reconfirmed that X":                               -1, // not the word "confirmed"
		"supercalifragilisticconfirmed that X stays blocked": -1,
	} {
		got := clauseStarts(text)
		if want < 0 && len(got) != 1 || want >= 0 && (len(got) != 2 || got[1] != want) {
			t.Errorf("clauseStarts(%q) = %v, want [0 %d]", text, got, want)
		}
	}
}

// allocRatio returns the bytes f allocates on large over those on small:
// deterministic, unlike the time a loaded machine gives it. The fewest of
// a few runs is kept, as the count is the process's and a test running in
// parallel may allocate during one. Linear is at most 12x for 8x the
// input: slices grown by doubling and the regexp package's pooled
// machines make 8x the input allocate 7-9.1x (9x failed once in twenty
// runs), where a quadratic path allocates 60-64x.
func allocRatio(f func(string), small, large string) (float64, uint64, uint64) {
	bytes := func(s string) uint64 {
		least := uint64(1<<64 - 1)
		for range 5 {
			var a, b runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&a)
			f(s)
			runtime.ReadMemStats(&b)
			least = min(least, b.TotalAlloc-a.TotalAlloc)
		}
		return least
	}
	bs, bl := bytes(small), bytes(large)
	return float64(bl) / float64(max(bs, 1)), bs, bl
}

// TestClauseStartsLinear: a line listing thousands of ids, each after a
// comma, costs in proportion to its length. Lowering the rest of the line at
// every comma made 8 times the line cost 64 times the time and memory (the
// manyids shape of scripts/sweep.sh: 50 s for 1,000 documents).
func TestClauseStartsLinear(t *testing.T) {
	line := func(n int) string { return strings.Repeat("CTO-WORK-101, we confirmed that ", n) }
	r, bs, bl := allocRatio(func(s string) { clauseStarts(s) }, line(1000), line(8000))
	t.Logf("8x the line: %.1fx the bytes (%d, %d)", r, bs, bl)
	if r > 12 {
		t.Errorf("8x the line allocated %.1fx the bytes (%d, %d): not linear", r, bs, bl)
	}
}

func BenchmarkClauseStarts(b *testing.B) {
	for _, n := range []int{1000, 8000} {
		line := strings.Repeat("CTO-WORK-101, ", n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for range b.N {
				clauseStarts(line)
			}
		})
	}
}

// TestBlockerClaimLinear: a line of thousands of blocker claims costs in
// proportion to its length (the word before each claim is read from the
// claim back, not by splitting the line before it).
func TestBlockerClaimLinear(t *testing.T) {
	rp := newRemainPatterns()
	line := func(n int) string { return strings.Repeat("X remains blocked by CTO-WORK-101, ", n) }
	if ids, _, _ := rp.blockerClaim(line(500)); len(ids) != 1 || ids[0] != "CTO-WORK-101" {
		t.Fatalf("blockerClaim = %v, want [CTO-WORK-101]", ids)
	}
	r, bs, bl := allocRatio(func(s string) { rp.blockerClaim(s) }, line(500), line(4000))
	t.Logf("8x the line: %.1fx the bytes (%d, %d)", r, bs, bl)
	if r > 12 {
		t.Errorf("8x the line allocated %.1fx the bytes (%d, %d): not linear", r, bs, bl)
	}
}

func BenchmarkBlockerClaim(b *testing.B) {
	rp := newRemainPatterns()
	for _, n := range []int{500, 4000} {
		line := strings.Repeat("X remains blocked by CTO-WORK-101, ", n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for range b.N {
				rp.blockerClaim(line)
			}
		})
	}
}

// TestBlockerClaimEnd: the end of a claim is mapped back past the emphasis
// before it only, not past every '*' of the sentence.
func TestBlockerClaimEnd(t *testing.T) {
	rp := newRemainPatterns()
	text := "**Stage 5** remains blocked by CTO-WORK-040, while *a* *b* *c* stay open"
	_, end, _ := rp.blockerClaim(text)
	if want := strings.Index(text, "CTO-WORK-040") + len("CTO-WORK-040"); end != want {
		t.Errorf("end = %d (%q), want %d (%q)", end, text[:end], want, text[:want])
	}
}

// TestOtherClaimLinear: a sentence listing thousands of ids costs in
// proportion to its length. Each ", " starts a clause, and reading the
// id list again from each was quadratic (a 64 KB line of ids took 6 s).
// The work counted is the bytes handed to the claim pattern.
func TestOtherClaimLinear(t *testing.T) {
	byID, aside, this, blocker := stillBlockedPatterns(nil)
	rp := &remainPatterns{byID: byID, aside: aside, this: this, blocker: blocker}
	work := 0
	claimWork = func(n int) { work += n }
	defer func() { claimWork = nil }()
	bytesFor := func(n int) int {
		s := strings.Repeat("`CTO-WORK-040`, ", n) + "and we confirmed that x remains blocked."
		work = 0
		rp.otherClaim([]byte(s), 0, 0, sentence{text: s})
		return work
	}
	small, large := bytesFor(500), bytesFor(4000)
	r := float64(large) / float64(max(small, 1))
	t.Logf("8x the line: %.1fx the work (%d, %d)", r, small, large)
	if r > 10 {
		t.Errorf("8x the line cost %.1fx the work (%d, %d): not linear", r, small, large)
	}
}
