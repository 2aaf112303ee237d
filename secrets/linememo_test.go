package secrets

import (
	"math/rand"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestLineMemoSame checks that a line allowlist answers every candidate
// from the memo as it does from Candidate.Line: literals found once, a
// known match or miss reused, on expressions with and without zero-width
// assertions, with candidates in text order and out of it.
func TestLineMemoSame(t *testing.T) {
	common := []string{"token=", "\n", " ", "é", "\t", "ab", "cd"}
	sets := []struct{ srcs, frags []string }{
		// gitleaks' generic rule's line allowlists
		{[]string{`--mount=type=secret,`, `import[ \t]+{[ \t\w,]+}[ \t]+from[ \t]+['"][^'"]+['"]`},
			[]string{"import ", "{ a, b }", " from ", `"x"`, "'y'", "--mount=type=secret,"}},
		{[]string{`LICENSE[^=]*=\s*"[^"]+`, `LIC_FILES_CHKSUM[^=]*=\s*"[^"]+`, `SRC[^=]*=\s*"[a-zA-Z0-9]+`},
			[]string{"LICENSE = \"", "SRC=\"ab", "LIC_FILES_CHKSUM=", `"`}},
		// assertions, folded literals, no literal, an anchored first
		// byte, literals of different lengths
		{[]string{`\bimport\b`, `(?i)from\s+x`, `^ab`, `[{}]{2}`, `cd$`, `(?i:mount)=`, `(?:abcdef|cd)y?`},
			[]string{"import", "{", "}", " from ", "FROM x", "MOUNT=", "abcdef", "x"}},
	}
	rng := rand.New(rand.NewSource(1))
	n := 60
	if sampledSweeps() { // it starts no goroutine
		n = 15
	}
	type trial struct{ srcs, frags []string }
	var trials []trial
	for _, set := range sets {
		frags := append(set.frags, common...)
		trials = append(trials, trial{set.srcs, frags})
		// each expression alone too: in a set one that matches
		// hides the others
		for _, src := range set.srcs {
			trials = append(trials, trial{[]string{src}, frags})
		}
	}
	for _, tr := range trials {
		srcs, frags := tr.srcs, tr.frags
		rs, err := newRegexSet(srcs)
		if err != nil {
			t.Fatal(err)
		}
		for it := 0; it < n; it++ {
			// Texts with lines and one-line texts; contexts cut at the
			// start of a fragment half the time, so that an assertion
			// at the cut decides.
			var b strings.Builder
			var cuts []int
			for b.Len() < 200+rng.Intn(3000) {
				f := frags[rng.Intn(len(frags))]
				if it%3 == 0 && f == "\n" {
					continue
				}
				cuts = append(cuts, b.Len())
				b.WriteString(f)
			}
			data := []byte(b.String())
			cut := func(lo, hi int) int { // in [lo, hi]
				if rng.Intn(2) == 0 {
					k := sort.SearchInts(cuts, lo)
					if k < len(cuts) && cuts[k] <= hi {
						return cuts[k+rng.Intn(sort.SearchInts(cuts, hi+1)-k)]
					}
				}
				return lo + rng.Intn(hi-lo+1)
			}
			var tm textMemo
			tm.reset(data)
			type q struct{ base, end, ms, me int }
			var qs []q
			for range 40 {
				ms := rng.Intn(len(data))
				me := min(len(data), ms+rng.Intn(30))
				base := cut(max(0, ms-1200), ms)
				end := cut(me, min(len(data), me+1200))
				qs = append(qs, q{base, end, ms, me})
				// the same match in narrower and wider contexts: a window
				// inside or around one asked before
				for range 4 {
					if rng.Intn(2) == 0 {
						base = cut(base, ms)
						end = cut(me, end)
					} else {
						base = cut(max(0, base-8), base)
						end = cut(end, min(len(data), end+8))
					}
					qs = append(qs, q{base, end, ms, me})
				}
			}
			if it%2 == 0 {
				sort.SliceStable(qs, func(i, j int) bool { return qs[i].ms < qs[j].ms })
			}
			for _, x := range qs {
				ctx := data[x.base:x.end]
				c := Candidate{Match: data[x.ms:x.me], Context: ctx, MatchOffset: x.ms - x.base, memo: &tm, base: x.base}
				want := rs.any(c.Line())
				if got := tm.lineMatches(rs, c); got != want {
					t.Fatalf("%q on %q: memo says %v, the line %v", srcs, c.Line(), got, want)
				}
			}
		}
	}
}

// TestRegexSetFilterAnchored: an expression that begins at the start of
// the text is filtered anchored, and says what the expression says,
// once its filter is built.
func TestRegexSetFilterAnchored(t *testing.T) {
	srcs := []string{`^[a-zA-Z_.-]+$`, `(?i)^true|false|null$`, `^\$(?:[A-Z_]+|[a-z_]+)$`, `^ab[0-9]+`}
	rs, err := newRegexSet(srcs)
	if err != nil {
		t.Fatal(err)
	}
	// (the alternation is split into its branches: false and null$ do
	// not begin at the start)
	if len(rs.res) != 6 || !rs.atStart[0] || !rs.atStart[1] || rs.atStart[2] || rs.atStart[3] || !rs.atStart[4] {
		t.Fatalf("atStart %v", rs.atStart)
	}
	rng := rand.New(rand.NewSource(5))
	frags := []string{"a", "A", "b", "z", "_", ".", "-", "$", "0", "9", " ", "TRUE", "false", "null", "ab", "$AB"}
	var res []*regexp.Regexp
	for _, x := range rs.res {
		res = append(res, regexp.MustCompile(x.src))
	}
	for it := range 3 * regexSetDFAAfter {
		var b []byte
		for range rng.Intn(6) {
			b = append(b, frags[rng.Intn(len(frags))]...)
		}
		for i, re := range res {
			if got, want := rs.match(i, b), re.Match(b); got != want {
				t.Fatalf("run %d: %s on %q: set says %v, the expression %v", it, re, b, got, want)
			}
		}
	}
	for i, re := range res {
		if rs.filters[i].dfa.Load() == nil {
			t.Errorf("%s: no filter built", re)
		}
	}
}
