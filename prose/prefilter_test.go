package prose

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/svrnty/sotvet/internal/regexsample"
)

// storedExprs returns every expression of the stored styles: each rule's
// whole expression and each of its tokens.
func storedExprs(t *testing.T) []string {
	t.Helper()
	l := storedLinter(t)
	rules, _, _, err := l.Active("x.md")
	if err != nil {
		t.Fatal(err)
	}
	var exprs []string
	for _, r := range rules {
		if e := r.prefilterExpr(); e != "" {
			exprs = append(exprs, e)
		}
		if tr, ok := r.check.(tokenRule); ok {
			for _, p := range tr.alternatives() {
				exprs = append(exprs, p.src)
			}
		}
	}
	return exprs
}

// drawNeighbours are what drawMatch puts around a drawn string: word and
// non-word bytes, a dash, and the runes that fold to ASCII letters.
var drawNeighbours = []string{"", " ", "a", "Z", "9", ".", "—", "é", "\n", "K", "ſ"}

// drawsPerExpr is how many strings the necessity tests draw from each
// expression: fewer under the race detector.
func drawsPerExpr() int {
	if raceEnabled {
		return 3
	}
	return 15
}

// drawMatch draws a string from parsed between two random neighbours, and
// reports whether re matches it (valid UTF-8 only).
func drawMatch(rng *rand.Rand, parsed *syntax.Regexp, re *regexp.Regexp) (string, bool) {
	var b strings.Builder
	b.WriteString(drawNeighbours[rng.IntN(len(drawNeighbours))])
	regexsample.Write(&b, parsed, rng)
	b.WriteString(drawNeighbours[rng.IntN(len(drawNeighbours))])
	text := b.String()
	return text, utf8.ValidString(text) && re.MatchString(text)
}

// TestFactorsNecessary: a block with a match of an expression has every
// factor the prefilter requires of it. Strings are drawn from each
// expression of the stored styles (all their tokens and rule expressions),
// put between random neighbours, and kept when the expression matches.
func TestFactorsNecessary(t *testing.T) {
	exprs := storedExprs(t)
	// Expressions written to probe the derivation's corners.
	exprs = append(exprs, `(?i)\bkm\b`, `[^\s,]+,\s+and`, `(?:ab|cd)x`, `\d{2}:\d{2}`, `a.b`, `(?i)ſtop`, `x{3}y`, `—\s`)
	rng := rand.New(rand.NewPCG(7, 7))
	checked, used := 0, 0
	for _, e := range exprs {
		req := requiredFactors(e)
		if req == nil {
			continue
		}
		used++
		parsed, err := syntax.Parse(withoutLookarounds(e), syntax.Perl)
		if err != nil {
			continue
		}
		re, err := regexp.Compile(withoutLookarounds(e))
		if err != nil {
			continue
		}
		for range drawsPerExpr() {
			text, ok := drawMatch(rng, parsed, re)
			if !ok {
				continue
			}
			checked++
			if !req.in(text) {
				t.Fatalf("%s matches %q, but the prefilter rules the text out (factors %d, ascii-only %v)", e, text, len(req.factors), req.ascii)
			}
		}
	}
	if used < 20 || checked < 1000 {
		t.Fatalf("%d expressions with factors, %d matching texts: the test saw too little", used, checked)
	}
	t.Logf("%d expressions with factors, %d matching texts", used, checked)
}

// TestFactorsRuleOut: the factors of a few expressions, and what they let
// through.
func TestFactorsRuleOut(t *testing.T) {
	cases := []struct {
		expr, text string
		may        bool
	}{
		{`[a-z][.?!][A-Z]`, "It ends. Another starts.", false},
		{`[a-z][.?!][A-Z]`, "It ends.Another starts.", true},
		{`\d{1,2}[AP]M\b`, "We met at noon.", false},
		{`(?m)(?:[a-z][.?!] {2,}[A-Z])`, "One. Two.\nThree.", false},
		{`(?m)(?:[a-z][.?!] {2,}[A-Z])`, "One.  Two.", true},
		{`x+yz`, "x yz xy", false},
		{`(?m)(?:\b\d+(?:B|kB|MB|GB|TB))`, "5 MB and 10 kB", false},
		{`(?m)(?:\b\d+(?:B|kB|MB|GB|TB))`, "5MB", true},
		{`x+yz`, "xxyz", true},
		{`\d{1,2}[AP]M\b`, "We met at 10PM.", true},
		// Non-ASCII text is let through when a set left out non-ASCII runes.
		{`(?i)(?:\bkm\b)`, "5 \u212Am", true},
		{`(?i)(?:\bkm\b)`, "5 miles", false},
	}
	for _, c := range cases {
		req := requiredFactors(c.expr)
		if req == nil {
			t.Errorf("%s: no factors", c.expr)
			continue
		}
		if got := req.in(c.text); got != c.may {
			t.Errorf("%s on %q: %v, want %v", c.expr, c.text, got, c.may)
		}
	}
}

// TestStartsAgree: a pattern searched from where its matches start finds
// what its whole expression finds, groups included, on texts made of
// matches of it, of the other expressions and of random neighbours.
func TestStartsAgree(t *testing.T) {
	l := storedLinter(t)
	rules, _, _, err := l.Active("x.md")
	if err != nil {
		t.Fatal(err)
	}
	var pats []*pattern
	for _, r := range rules {
		if tr, ok := r.check.(tokenRule); ok {
			pats = append(pats, tr.alternatives()...)
		}
	}
	for _, e := range []string{`(?i)\bfoo(?:bar|baz)?\b`, `(?m)^ab+c`, `\Aabc`, `(?i)(?:\bfo|x)o`, `a\bb|ab`, `(?i)(?:be|is)\b\s*\w+ed\b`,
		`\s[—–]\s|\s[—–]|[—–]\s`, `(?i)«\w+»`, `(?i)[’']s\b`, `([0-9]+ ?x ?[0-9]+)`, `\d{1,2} ?[ap]m\b`, `\b[A-Z]\d+`} {
		p, err := compilePattern(e)
		if err != nil {
			t.Fatal(err)
		}
		pats = append(pats, p)
	}
	rng := rand.New(rand.NewPCG(11, 11))
	neighbours := []string{" ", "a", "Z", "9", ".", "—", "–", "«", "’", "\n", "-", "_", "is ", "be ", "the "}
	rounds := 6
	if raceEnabled {
		rounds = 2
	}
	checked, matched := 0, 0
	for _, p := range pats {
		if p.back != nil {
			continue
		}
		p.compiled()
		if p.st == nil {
			continue
		}
		parsed, err := syntax.Parse(p.src, syntax.Perl)
		if err != nil || p.whole() == nil || p.st.anchoredRe() == nil {
			continue
		}
		for range rounds {
			var b strings.Builder
			for range 1 + rng.IntN(4) {
				b.WriteString(neighbours[rng.IntN(len(neighbours))])
				regexsample.Write(&b, parsed, rng)
			}
			b.WriteString(neighbours[rng.IntN(len(neighbours))])
			text := b.String()
			if !utf8.ValidString(text) || foldsToASCII(text) {
				continue
			}
			want := p.whole().FindAllStringSubmatchIndex(text, -1)
			got := p.st.findAll(text, asciiLower(text), p.st.anchoredRe())
			checked++
			if len(want) > 0 {
				matched++
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s on %q: searched from its starts %v, whole expression %v", p.src, text, got, want)
			}
		}
	}
	if checked < 100*rounds || matched < 40*rounds {
		t.Fatalf("%d texts, %d with a match: the test saw too little", checked, matched)
	}
	t.Logf("%d texts, %d with a match", checked, matched)
}

// TestLiteralsNecessary: a text with a match of an expression contains one
// of the literals the filter looks for (lower-cased). Strings are drawn as
// in TestFactorsNecessary, with probes for the strings adjacent parts of a
// concatenation make together (`a(?:m|re)`: "am", "are").
func TestLiteralsNecessary(t *testing.T) {
	exprs := storedExprs(t)
	exprs = append(exprs, `(?i)\b(am|are|were|being|is|been|was|be)\b\s*\w+ed`, `x(?:ab|c)\by`, `(?:a|b)(?:c|d)(?:e|f)?g`,
		`[ab]c\bd`, `(?i)(?:^|\s)I\s`, `(?m)foo$\nbar`, `a(?:b|)c`, `\s[—–]\s|\s[—–]|[—–]\s`, `(?i)«\w+»`, `(?i)[’']s\b`)
	rng := rand.New(rand.NewPCG(8, 8))
	checked, used := 0, 0
	for _, e := range exprs {
		parsed, err := syntax.Parse(withoutLookarounds(e), syntax.Perl)
		if err != nil {
			continue
		}
		lits := literalsOf(parsed.Simplify())
		if lits == nil {
			continue
		}
		re, err := regexp.Compile(withoutLookarounds(e))
		if err != nil {
			continue
		}
		used++
		for range drawsPerExpr() {
			text, ok := drawMatch(rng, parsed, re)
			if !ok {
				continue
			}
			checked++
			low := lower(text)
			if !slices.ContainsFunc(lits, func(l string) bool { return strings.Contains(low, l) }) {
				t.Fatalf("%s matches %q, which has none of its literals %q", e, text, lits)
			}
		}
	}
	if used < 50 || checked < 1000 {
		t.Fatalf("%d expressions with literals, %d matching texts: the test saw too little", used, checked)
	}
	t.Logf("%d expressions with literals, %d matching texts", used, checked)
}

// TestMatcherAgrees holds the literal table to a search for each literal
// at each end position: found reports every literal that occurs (ASCII
// case folded), first at the end of its first occurrence, longer before
// shorter, and duplicates in the order they were given.
func TestMatcherAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	word := func(n int) string {
		b := make([]byte, 1+r.IntN(n))
		for i := range b {
			b[i] = "abcAB .-"[r.IntN(8)]
		}
		return string(b)
	}
	for range 300 {
		lits := make([]string, 1+r.IntN(30))
		for i := range lits {
			lits[i] = strings.ToLower(word(5))
			if i > 0 && r.IntN(5) == 0 {
				lits[i] = lits[r.IntN(i)] // a duplicate
			}
		}
		// Both widths of table: 16-bit cells, and 32 (forced).
		m := newMatcher(lits)
		saved := maxStates16
		maxStates16 = 0
		m32 := newMatcher(lits)
		maxStates16 = saved
		if m.delta16 == nil || m32.delta16 != nil || m32.delta == nil {
			t.Fatal("the table widths are not the ones asked for")
		}
		text := word(60)
		got := m.found(text, make([]bool, len(lits)), nil)
		if got32 := m32.found(text, make([]bool, len(lits)), nil); !slices.Equal(got, got32) {
			t.Fatalf("lits %q in %q: 16-bit table found %v, 32-bit %v", lits, text, got, got32)
		}
		var want []int32
		seen := make([]bool, len(lits))
		low := strings.ToLower(text)
		for end := 1; end <= len(low); end++ {
			var at []int
			for id, l := range lits {
				if len(l) <= end && low[end-len(l):end] == l && !seen[id] {
					at = append(at, id)
				}
			}
			sort.SliceStable(at, func(i, j int) bool { return len(lits[at[i]]) > len(lits[at[j]]) })
			for _, id := range at {
				seen[id] = true
				want = append(want, int32(id))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("lits %q in %q: found %v, want %v", lits, text, got, want)
		}
	}
}

// TestFactorInAgrees holds a factor's search (anchored on its rarest set,
// a single byte found with IndexByte) to trying every start.
func TestFactorInAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	alphabet := "ab.( !A"
	for range 3000 {
		f := make(factor, r.IntN(4))
		for k := range f {
			for range 1 + r.IntN(3) {
				f[k].add(alphabet[r.IntN(len(alphabet))])
			}
		}
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		text := string(b)
		want := false
		for start := 0; start+len(f) <= len(text) && !want; start++ {
			want = true
			for k := range f {
				if !f[k].has(text[start+k]) {
					want = false
					break
				}
			}
		}
		if got := f.in(text); got != want {
			t.Fatalf("factor %v in %q: %v, want %v", f, text, got, want)
		}
	}
}

// TestExactAgrees holds the string search of an expression that is one
// ASCII string to the regexp engine, and wants those that are not (case
// folded, grouped, non-ASCII) left to it.
func TestExactAgrees(t *testing.T) {
	for _, c := range []struct {
		expr, lit string
	}{
		{`(?m)(?:;)`, ";"}, {`e\.g\.`, "e.g."}, {`aa`, "aa"}, {`(?m)--`, "--"},
		{`(?i)aa`, ""}, {`(;)`, ""}, {`é`, ""}, {`a|b`, ""}, {`a+`, ""},
	} {
		p, err := compilePattern(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		if p.exact != c.lit {
			t.Fatalf("%s: exact %q, want %q", c.expr, p.exact, c.lit)
		}
		if c.lit == "" {
			continue
		}
		re := regexp.MustCompile(c.expr)
		r := rand.New(rand.NewPCG(11, 12))
		for range 500 {
			b := make([]byte, r.IntN(16))
			for i := range b {
				b[i] = "a;.eg-\xff"[r.IntN(7)]
			}
			s := string(b)
			if got, want := exactAll(s, p.exact), re.FindAllStringSubmatchIndex(s, -1); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s in %q: %v, want %v", c.expr, s, got, want)
			}
		}
	}
}

// TestTailNecessary: a text with a match of an expression has a match of
// its tail. Strings are drawn from the stored styles' expressions and a
// few written for the derivation's corners.
func TestTailNecessary(t *testing.T) {
	exprs := append(storedExprs(t), `(?:[^\s,]+,){1,}\s+\w+\s+(?:and|or)\s+\w+[.?!]`, `\b(?:(?:[^,]+,){1,}\s\w+\s(?:and|or))\b`,
		`(?:ab;)+c`, `x(?:a\.){2,3}\s*$`, `(?m)^(?:(\w+)-)+\d`)
	rng := rand.New(rand.NewPCG(8, 8))
	used, checked := 0, 0
	for _, e := range exprs {
		parsed, err := syntax.Parse(e, syntax.Perl)
		if err != nil {
			continue
		}
		tail := tailOf(parsed.Simplify())
		if tail == "" {
			continue
		}
		used++
		tre := regexp.MustCompile(tail)
		re, err := regexp.Compile(e)
		if err != nil {
			continue
		}
		// A few expressions only: the race build draws as many.
		for range 60 {
			text, ok := drawMatch(rng, parsed, re)
			if !ok {
				continue
			}
			checked++
			if !tre.MatchString(text) {
				t.Fatalf("%s matches %q, its tail %s does not", e, text, tail)
			}
		}
	}
	if used < 3 || checked < 100 {
		t.Fatalf("%d expressions with a tail, %d matching texts: the test saw too little", used, checked)
	}
	t.Logf("%d expressions with a tail, %d matching texts", used, checked)
}
