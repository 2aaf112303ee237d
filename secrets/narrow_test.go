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
		if testing.Short() || raceEnabled {
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
