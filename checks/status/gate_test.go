package status

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
)

// gateWords are the pieces the random sentences of the gate tests are made
// of: the words of the patterns, in odd cases and with the non-ASCII
// characters that fold to their letters, and the marks around ids.
var gateWords = []string{
	"CTO-WORK-", "cto-work-", "Cto-WoRk-", "CTO-WOR\u212a-", "CTO-WORK", "CTO-WOR", "XCTO-WORK-", "_CTO-WORK-",
	"7", "12", "0a", "_", "`", "*", "-", " ", "  ", "\t", ",", ".", ";", "?", "é",
	"remains", "blocked", "BLOCKED", "bLoCkEd", "blo\u212aed", "is", "still", "by", "on", "until", "pending",
	"only", "the", "item", "work", "validated", "lands", "stays", "If", "İF", "when", "Whenever", "whenevers",
	"|", "Still blocked:", "used to", "was", "and",
	// Whole phrases and ids, so that the patterns match often.
	"remains blocked by", "remain blocked on", "is still blocked until", "stays blocked pending", "blocked by",
	"CTO-WORK-7", "`CTO-WORK-12`", "cto-work-3", "the item CTO-WORK-5 is validated",
	// Emphasis inside a word, which the claims drop before they read;
	// runes that fold to the letters of a verb or an id.
	"remains b*lock*ed", "stays bl**oc**ked by", "remainſ blocked by", "ſtill blocked on",
	"CTO-WORK-9", "remains blocked by CTO-WORK-5", "\xe2\x84", "\xc5", "\xff",
}

func randomSentence(rng *rand.Rand) string {
	var b strings.Builder
	for range 1 + rng.IntN(14) {
		b.WriteString(gateWords[rng.IntN(len(gateWords))])
		if rng.IntN(3) > 0 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// TestIDsAgainstPattern checks that ids finds what idPattern finds, on
// random text made of the id's pieces in any case, with the KELVIN SIGN,
// word characters around them and no digits after them.
func TestIDsAgainstPattern(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 34))
	for range 20000 {
		s := randomSentence(rng)
		var want []string
		for _, m := range idPattern.FindAllString(s, -1) {
			want = append(want, strings.ToUpper(m))
		}
		if got := slices.Collect(ids(s)); !slices.Equal(got, want) {
			t.Fatalf("ids(%+q) = %+q, idPattern finds %+q", s, got, want)
		}
	}
}

// TestBlockerGate checks that the tests run before the blocker pattern
// (mayNameBlocker, then "bloc" with an id after it) never turn away a
// sentence the pattern matches, and that they turn away some: the gate
// may only save work.
func TestBlockerGate(t *testing.T) {
	rp := newRemainPatterns()
	if !rp.saysBlocked {
		t.Fatal("no phrase added, but the patterns do not say blocked")
	}
	rng := rand.New(rand.NewPCG(34, 16))
	matched, gated := 0, 0
	for range 10000 {
		s := randomSentence(rng)
		if !mayNameBlocker(s) {
			continue
		}
		u := strings.ReplaceAll(s, "*", "")
		at := blocNeedle.index(u)
		pass := at >= 0 && namesID(u[at:])
		if rp.blocker.MatchString(u) {
			matched++
			if !pass {
				t.Fatalf("%+q: the blocker pattern matches, but the gate turns it away", u)
			}
		} else if !pass {
			gated++
		}
		if strings.Contains(strings.ToLower(s), "bloc") != mayBeBlocked(s) {
			t.Fatalf("mayBeBlocked(%+q) = %v", s, mayBeBlocked(s))
		}
	}
	t.Logf("%d matched, %d turned away", matched, gated)
	if matched == 0 || gated == 0 {
		t.Fatalf("the random sentences exercise too little: %d matched, %d turned away", matched, gated)
	}
}

// TestClaimSentences checks that the sentences index keeps of a remain
// line (mayClaim: those that say "bloc", or that follow a label) hold
// every sentence a pattern of match reads a claim from: the others are
// dropped unread.
func TestClaimSentences(t *testing.T) {
	rp := newRemainPatterns()
	rng := rand.New(rand.NewPCG(1, 2))
	matched, dropped := 0, 0
	for range 4000 {
		var parts []string
		for range 1 + rng.IntN(4) {
			parts = append(parts, randomSentence(rng))
		}
		line := strings.Join(parts, ". ")
		ln := bodylines.Line{Text: line}
		labelEnd := labelSpan([]byte(line))
		var kept []sentence
		eachSentence(ln, func(s sentence) {
			if mayClaim(s, labelEnd) {
				kept = append(kept, s)
			}
		})
		for _, s := range sentences(ln) {
			text := strings.ReplaceAll(s.text, "*", "")
			m := rp.byID.MatchString(text) || rp.this.MatchString(text) || rp.blocker.MatchString(text) ||
				statusRemains.MatchString(strings.TrimRight(s.text, " *_"))
			switch {
			case slices.Contains(kept, s):
				matched += b2i(m)
			case m:
				t.Fatalf("line %+q: sentence %+q was dropped, but a pattern matches it", line, s.text)
			default:
				dropped++
			}
		}
	}
	t.Logf("%d kept sentences match, %d dropped", matched, dropped)
	if matched == 0 || dropped == 0 {
		t.Fatalf("the random lines exercise too little: %d kept sentences match, %d dropped", matched, dropped)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestConditional checks the allocation-free lowering of conditional's
// first word against strings.ToLower.
func TestConditional(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"If CTO-WORK-1 fails, X remains blocked by it", true},
		{"- **WHENEVER** it fails", true},
		{"İF it fails", true}, // strings.ToLower("İF") is "if"
		{"Whenevers it fails", false},
		{"Ifs and buts", false},
		{"`unless`, it is", true},
		{"CTO-WORK-1 remains blocked", false},
		{"", false},
	} {
		if got := conditional(strings.ReplaceAll(c.s, "*", "")); got != c.want {
			t.Errorf("conditional(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// TestStatesStatusGate checks that saysIsOrAre holds on every sentence
// statesStatus matches.
func TestStatesStatusGate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	words := append([]string{"is", "IS", "iſ", "Are", "aRE", "now", "validated", "are.", "this", "remains"}, gateWords...)
	matched, gated := 0, 0
	for range 20000 {
		var b strings.Builder
		b.WriteString("CTO-WORK-1 ")
		for range 1 + rng.IntN(6) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		s := b.String()
		pass := saysIsOrAre(s)
		if statesStatus.MatchString(s) {
			matched++
			if !pass {
				t.Fatalf("%+q: statesStatus matches, but saysIsOrAre is false", s)
			}
		} else if !pass {
			gated++
		}
	}
	t.Logf("%d matched, %d turned away", matched, gated)
	if matched == 0 || gated == 0 {
		t.Fatalf("the random sentences exercise too little: %d matched, %d turned away", matched, gated)
	}
}

// TestBlockerMatches checks blockerMatches, which starts each search of
// the blocker pattern before a "bloc", against FindAllStringSubmatchIndex
// on random sentences of several claims.
func TestBlockerMatches(t *testing.T) {
	rp := newRemainPatterns()
	rng := rand.New(rand.NewPCG(9, 10))
	fixed := []string{
		"X remains blocked by CTO-WORK-1 and Y is blocked by CTO-WORK-2, Z stays blocked until the item CTO-WORK-3 lands",
		"Premains blocked by CTO-WORK-3; is blocked by the review, stays \t blocked on `CTO-WORK-4`",
		"X is still blocked pending CTO-WOR\u212a-5, still blocked by CTO-WORK-6",
		"blocked by CTO-WORK-7 remains blocked remains blocked by CTO-WORK-8",
	}
	found := 0
	for i := range 1500 + len(fixed) {
		var s string
		if i < len(fixed) {
			s = fixed[i]
		} else {
			var parts []string
			for range 1 + rng.IntN(3) {
				parts = append(parts, randomSentence(rng))
			}
			s = strings.Join(parts, ", and ")
		}
		want := rp.blocker.FindAllStringSubmatchIndex(s, -1)
		got := rp.blockerMatches(s)
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("blockerMatches(%+q) = %v, the pattern finds %v", s, got, want)
		}
		found += len(want)
	}
	t.Logf("%d matches", found)
	if found == 0 {
		t.Fatal("no sentence matches: the test compares nothing")
	}
}
