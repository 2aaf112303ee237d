package secrets

import (
	"math/rand/v2"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// narrowTexts are texts the narrowed attempts are compared on: the
// one-line phrases of the sweep, the password nouns of every language
// with values, the adversarial shapes' starts and planning prose.
func narrowTexts() []string {
	var texts []string
	for _, p := range sweepPhrases {
		texts = append(texts, strings.Repeat(p, 4))
	}
	for _, l := range passwordNounLanguages {
		for i, n := range l.nouns {
			if i%3 != 0 {
				continue
			}
			texts = append(texts, n+": Xq7!mPa9z, "+strings.ToUpper(n)+" do VPN "+n+" is `Lisbon#2023` ")
		}
	}
	adv := adversarial()
	for _, name := range caseNames(adv) {
		texts = append(texts, string(adv[name](300)))
	}
	corpus := benchCorpus()
	for i := 0; i+400 <= len(corpus) && i < 40000; i += 4000 {
		texts = append(texts, string(corpus[i:i+400]))
	}
	return texts
}

// TestNarrowSame compares, for every rule whose attempts at starts are
// narrowed, the narrowed expression on its cut text with the whole one on
// the whole text, at every offset of texts holding the rules' matches and
// near misses (200 attempts at random a rule, 60 with -short).
func TestNarrowSame(t *testing.T) {
	s := defaultScanner(t)
	texts := narrowTexts()
	tried, narrowed := 0, 0
	for _, cr := range s.rules {
		cr.prepare()
		if cr.starts == nil {
			continue
		}
		src := `^(?s:.)(?:` + cr.searchSrc + `)`
		whole := compileExact(src)
		if newByteNarrowing(src, whole) == nil {
			continue
		}
		n := newByteNarrowing(src, whole)
		rng := rand.New(rand.NewPCG(1, uint64(len(cr.ID))))
		attempts := 200
		if sampledSweeps() {
			attempts = 60
		}
		for range attempts {
			if len(n.byLive) >= narrowVariants {
				// a fresh one: past its variants it runs the whole
				n = newByteNarrowing(src, whole)
			}
			text := texts[rng.IntN(len(texts))]
			at := rng.IntN(len(text))
			end := min(len(text), at+1+rng.IntN(300))
			ctx := []byte(text[at:end])
			want := whole.FindSubmatchIndex(ctx)
			re, cut := n.forText(ctx)
			got := re.FindSubmatchIndex(cut)
			tried++
			if re != whole {
				narrowed++
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s on %q: narrowed %v, whole %v", cr.ID, ctx, got, want)
			}
		}
	}
	if narrowed == 0 || narrowed*4 < tried {
		t.Errorf("%d of %d attempts narrowed: the test reads the whole expressions", narrowed, tried)
	}
}

// TestNarrowNeedsSound checks bytesNeeded on expressions whose matches
// are known: every text an expression matches holds a byte of each set.
func TestNarrowNeedsSound(t *testing.T) {
	for _, c := range []struct{ expr, text string }{
		{`(?i)hasło`, "HASŁO"},
		{`(?i)kod`, "\u212Aod"},   // the Kelvin sign folds to k
		{`(?i)pass`, "pa\u017Fs"}, // long s folds to s
		{`[Pp]in\d+`, "pin12"},
		{`пароль`, "пароль"},
		{`a\x{FFFD}b`, "a\xffb"}, // an invalid byte reads as U+FFFD
	} {
		re, err := syntax.Parse(c.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		set := textBytes([]byte(c.text))
		for _, need := range bytesNeeded(re, nil) {
			if !need.meets(&set) {
				t.Errorf("%s needs a byte %q does not hold", c.expr, c.text)
			}
		}
		if !compileExact(c.expr).MatchString(c.text) {
			t.Errorf("%s does not match %q", c.expr, c.text)
		}
	}
}

// TestNarrowKeepsGroups: a dead branch keeps the groups it held, so the
// groups after it keep their numbers and names.
func TestNarrowKeepsGroups(t *testing.T) {
	src := `^(?s:.)(?:(?P<key>alpha|beta)(x)|(?P<key>gamma)(?P<secret>\d+)|delta(?P<secret>y))`
	whole := compileExact(src)
	n := newByteNarrowingMin(src, whole, 0)
	if n == nil {
		t.Fatal("no narrowing")
	}
	for _, text := range []string{" gamma42", " betax", " deltay", " alphay"} {
		re, cut := n.forText([]byte(text))
		if re == whole {
			t.Errorf("%q: not narrowed", text)
		}
		if got, want := re.FindStringSubmatchIndex(string(cut)), whole.FindStringSubmatchIndex(text); !slices.Equal(got, want) {
			t.Errorf("%q: narrowed %v, whole %v", text, got, want)
		}
		if !slices.Equal(re.SubexpNames(), whole.SubexpNames()) {
			t.Errorf("%q: groups %q, whole %q", text, re.SubexpNames(), whole.SubexpNames())
		}
	}
}

// TestLoginNounBetween compares the memo's answer with loginNounBefore's
// on ranges of a text, past the calls after which the memo is built.
func TestLoginNounBetween(t *testing.T) {
	words := []string{"cred", "CREDS", "login", "LogIn", "logi", "cre", "pw", "a", "xlogin", "credx", "loginn", "\u212Aey"}
	rng := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	for b.Len() < 4000 {
		b.WriteString(words[rng.IntN(len(words))])
		b.WriteString([]string{" ", "", "\n", ":"}[rng.IntN(4)])
	}
	data := []byte(b.String())
	var tm textMemo
	tm.reset(data)
	for i := range 5 * loginMemoAfter {
		base := rng.IntN(len(data) - 200)
		c := Candidate{Context: data[base : base+200], memo: &tm, base: base}
		from := rng.IntN(200)
		to := from + rng.IntN(200-from+1)
		if got, want := c.loginNounBetween(from, to), loginNounBefore(c.Context[from:to]); got != want {
			t.Fatalf("call %d, %q: %v, loginNounBefore %v", i, c.Context[from:to], got, want)
		}
	}
}

// TestTablePasswordNounLookup compares tablePasswordNoun with the walk
// over the table its lookup of the key's suffixes replaced.
func TestTablePasswordNounLookup(t *testing.T) {
	walk := func(ctx []byte, at int, key []byte) (noun, ok bool) {
		k := strings.Join(strings.Fields(strings.ToLower(string(key))), " ")
		var compounds, found bool
		best := ""
		for _, l := range passwordNounLanguages {
			for _, n := range append(append([]string(nil), l.nouns...), l.labels...) {
				if strings.HasSuffix(k, n) && len(n) >= len(best) {
					if len(n) > len(best) {
						compounds = false
					}
					best, found = n, true
					compounds = compounds || l.compounds
				}
			}
		}
		if !found {
			return false, false
		}
		if len(k) == len(string(key)) {
			at += len(k) - len(best)
		}
		if at == 0 {
			return true, true
		}
		r, _ := utf8.DecodeLastRune(ctx[:at])
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			return true, compounds && unicode.IsLetter(r)
		}
		return true, true
	}
	var keys []string
	for _, l := range passwordNounLanguages {
		for _, n := range append(append([]string(nil), l.nouns...), l.labels...) {
			keys = append(keys, n, strings.ToUpper(n), "wifi"+n, "WLAN-"+n, n[1:], n+"x", "my  "+n, "1"+n)
		}
	}
	for _, key := range keys {
		for _, before := range []string{"", "x", " ", "é"} {
			ctx := []byte(before + key)
			n1, w1 := tablePasswordNoun(ctx, len(before), []byte(key))
			n2, w2 := walk(ctx, len(before), []byte(key))
			if n1 != n2 || w1 != w2 {
				t.Errorf("%q after %q: %v %v, the walk %v %v", key, before, n1, w1, n2, w2)
			}
		}
	}
}

// narrowPieces are what TestNarrowDifferential's random attempts are
// made of: every rule keyword, the password nouns of every language,
// values, separators, blanks and line breaks, runes whose case folds
// are wider (the Kelvin sign, the long s), an invalid byte and U+FFFD.
func narrowPieces(s *Scanner) []string {
	pieces := []string{" ", "  ", "\t", "\n", "\r\n", ":", ": ", "=", " = ", "\"", "'", "`", ",", ".", "#", "!", "-", "--", "_", "/", "(", ")",
		"Xq7!mPa9z", "48213", "Lisbon#2023", "hunter2", "aB3$xY9!kL", "Xq7mPa9zK2vB8nR4tW6yL3hJ5cD0fG1s", "0123456789abcdef",
		"\u212A", "\u017F", "\xff", "\uFFFD", "é", "İ", "ß", "the", "is", "do", "for", "my", "our", "wifi", "VPN", "user", "a",
		"\u00a0", "is:", "was", "are", "är", "ist", "est", "to", "till"}
	for _, r := range s.Rules() {
		for _, k := range r.Keywords {
			pieces = append(pieces, k, strings.ToUpper(k))
		}
	}
	for _, l := range passwordNounLanguages {
		for _, n := range l.nouns {
			pieces = append(pieces, n, strings.ToUpper(n))
		}
		pieces = append(pieces, l.labels...)
	}
	return pieces
}

// TestNarrowDifferential compares, for every rule with a start table,
// the expression narrowed to an attempt's bytes with the whole one on
// random attempts (pieces of rules' keywords, nouns, values and
// separators strung together, and cuts of the sweep's one-line
// shapes), match span and every submatch. Every rule is narrowed here,
// whatever the size of its program (newByteNarrowingMin with 0), so that
// the narrowing is tried on every form of expression the rules use, not
// only on the large programs it runs on in a scan.
func TestNarrowDifferential(t *testing.T) {
	t.Parallel() // see "Parallel tests" in follow_test.go
	s := defaultScanner(t)
	pieces := narrowPieces(s)
	var shapes []string
	for _, r := range s.Rules() {
		for _, k := range r.Keywords {
			for _, p := range keywordLineShapes(k) {
				shapes = append(shapes, strings.Repeat(p, 600/len(p)+1))
			}
		}
	}
	for _, p := range sweepPhrases {
		shapes = append(shapes, strings.Repeat(p, 600/len(p)+1))
	}
	attempts := 600
	if sampledSweeps() {
		attempts = 100
	}
	rng := rand.New(rand.NewPCG(23, 7))
	var tree *syntax.Regexp
	text := func() []byte {
		switch rng.IntN(4) {
		case 0, 1:
			// a string of the rule's own expression, then mutated: a
			// piece put in, a byte dropped or the text cut
			b := append([]byte{" \n:x"[rng.IntN(4)]}, genMatch(rng, tree, nil)...)
			for m := rng.IntN(3); m > 0 && len(b) > 1; m-- {
				at := 1 + rng.IntN(len(b)-1)
				switch rng.IntN(3) {
				case 0:
					b = append(b[:at], append([]byte(pieces[rng.IntN(len(pieces))]), b[at:]...)...)
				case 1:
					b = append(b[:at], b[at+1:]...)
				default:
					b = b[:at]
				}
			}
			return append(b, pieces[rng.IntN(len(pieces))]...)
		case 2:
			sh := shapes[rng.IntN(len(shapes))]
			at := rng.IntN(len(sh) - 300)
			return []byte(sh[at : at+1+rng.IntN(299)])
		}
		var b []byte
		for n := 1 + rng.IntN(24); n > 0; n-- {
			b = append(b, pieces[rng.IntN(len(pieces))]...)
		}
		return b
	}
	rules, narrowed, matched := 0, 0, 0
	for _, cr := range s.rules {
		cr.prepare()
		if cr.starts == nil {
			continue
		}
		src := `^(?s:.)(?:` + cr.searchSrc + `)`
		whole := compileExact(src)
		if newByteNarrowingMin(src, whole, 0) == nil {
			continue
		}
		rules++
		tree, _ = syntax.Parse(cr.searchSrc, syntax.Perl)
		var n *byteNarrowing
		for i := range attempts {
			if i%narrowVariants == 0 {
				n = newByteNarrowingMin(src, whole, 0) // past its variants it runs the whole
			}
			ctx := text()
			want := whole.FindSubmatchIndex(ctx)
			re, cut := n.forText(ctx)
			if re != whole {
				narrowed++
				if want != nil {
					matched++
				}
			}
			if got := re.FindSubmatchIndex(cut); !slices.Equal(got, want) {
				t.Fatalf("%s on %q: narrowed %v, whole %v\nnarrowed expression %s", cr.ID, ctx, got, want, re)
			}
		}
	}
	if rules < 20 || narrowed < rules*attempts/4 || matched < rules*attempts/100 {
		t.Errorf("%d rules, %d of %d attempts narrowed, %d of them matched: the test reads the whole expressions or matches too seldom", rules, narrowed, rules*attempts, matched)
	}
	t.Logf("%d rules, %d of %d attempts narrowed, %d of them matched", rules, narrowed, rules*attempts, matched)
}

// genMatch appends a string re may match: a branch, a count and a rune
// of a class chosen at random (assertions are left to chance).
func genMatch(rng *rand.Rand, re *syntax.Regexp, b []byte) []byte {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && rng.IntN(3) == 0 {
				r = unicode.SimpleFold(r)
			}
			b = utf8.AppendRune(b, r)
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return b
		}
		i := 2 * rng.IntN(len(re.Rune)/2)
		if rng.IntN(4) != 0 { // mostly ASCII, where the values are
			for j := 0; j+1 < len(re.Rune); j += 2 {
				if re.Rune[j] < 0x80 && rng.IntN(2) == 0 {
					i = j
				}
			}
		}
		lo, hi := re.Rune[i], min(re.Rune[i+1], re.Rune[i]+200)
		b = utf8.AppendRune(b, lo+rune(rng.IntN(int(hi-lo)+1)))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b = append(b, "a Z9-_.:\""[rng.IntN(9)])
	case syntax.OpCapture:
		b = genMatch(rng, re.Sub[0], b)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, 12
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 || hi > lo+12 {
				hi = lo + 12
			}
		}
		for n := lo + rng.IntN(hi-lo+1); n > 0; n-- {
			b = genMatch(rng, re.Sub[0], b)
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			b = genMatch(rng, sub, b)
		}
	case syntax.OpAlternate:
		b = genMatch(rng, re.Sub[rng.IntN(len(re.Sub))], b)
	}
	return b
}
