package prose

import (
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/internal/regexsample"
)

// storedPatternExprs returns every expression the stored styles run.
func storedPatternExprs(t *testing.T) []string {
	l := storedLinter(t)
	rules, _, _, err := l.Active("x.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	add := func(ps ...*pattern) {
		for _, p := range ps {
			if p != nil && p.back == nil {
				out = append(out, p.src)
			}
		}
	}
	for _, r := range rules {
		switch c := r.check.(type) {
		case *existence:
			add(c.whole.p, c.except)
			add(c.alternatives()...)
		case *substitution:
			add(c.whole.p, c.except)
			add(c.alternatives()...)
		case *occurrence:
			add(c.p)
		case *repetition:
			add(c.p)
		case *conditional:
			add(c.first, c.second, c.except)
		case *consistency:
			add(c.pairs...)
		case *capitalization:
			add(c.match, c.except)
		}
	}
	return dedupe(out)
}

// TestWordSeqAgrees checks the word-sequence matcher against the regexp
// engine, matches and groups, for every expression of the stored styles
// it takes (and a few more), on texts made of matches of the expression
// with neighbours between them: other words, punctuation, non-ASCII
// letters, the long s and the Kelvin sign, invalid bytes, CRLF. It also
// checks that it refuses expressions whose matches are not whole words.
func TestWordSeqAgrees(t *testing.T) {
	exprs := append(storedPatternExprs(t),
		`\b([A-Z]{3,5})\b`, `(?i)\b(am|is|was)\b\s*\b(?:\w+ed|born|Kept)\b`, `(?i)\b(?:Jan(?:uary)?|Feb)\b\s*`,
		`\bfoo\b  \b(bar|baz)\b`, `(?i)\b[a-z]\w*ly\b[ \t]{1,2}\bsaid\b`, `\b\d+\b\s+\b(?:am|pm)\b`, `\bso\b\s?\bthat\b`, `\bso\b\s?`, `(?i)\b(?:((?:bunch|group)\s+of\s+(cats)))\b`, `\b(?:(it\s+is))\b\s+\b(so)\b`, `(?i)\bks?\b`, `(?i)\bfoo\w+\b\s+\b(?:[a-c]\d|ZZ\w*)\b`)
	refused := []string{`\bfoo\s*bar\b`, `\bfoo`, `foo\b`, `\bfoo\s*`, `\b(foo\s+)bar\b`, `(\bfoo)bar\b`, `\b(fo(o\s+bar))\b`, `\bfoo\b(\s+bar)\b`, `\b(?:a|)\b`, `\b\w*\b`,
		`\b(f)oo\b`, `\bfoo\b\s*\b`, `\bfoo\b\s*-\s*\bbar\b`, `\bcafé\b`, `(?:^|\s)foo\b`}
	rng := rand.New(rand.NewPCG(36, 10))
	neighbours := []string{" ", "  ", "\t", "\r\n", "\n", "a", "Z", "9", "_", ".", ",", "-", "é", "ſ", "\u212A", "\xff", "\xe2\x80",
		"is ", "was ", "the ", "ABC ", "Kelvin ", "born", "ed", "12 ", "pm"}
	rounds := 15
	if os.Getenv("SOTVET_SLOW") != "" {
		rounds = 400
	} else if raceEnabled {
		rounds = 8
	}
	taken, checked, matched := 0, 0, 0
	for _, expr := range exprs {
		parsed, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			continue
		}
		w := wordSeqOf(parsed.Simplify())
		if w == nil {
			continue
		}
		taken++
		p, err := compilePattern(expr)
		if err != nil {
			t.Fatal(err)
		}
		p.lit = nil // the word sequence, not the literal search
		re := regexp.MustCompile(expr)
		for range rounds {
			var b strings.Builder
			for range 1 + rng.IntN(4) {
				b.WriteString(neighbours[rng.IntN(len(neighbours))])
				if rng.IntN(4) > 0 {
					regexsample.Write(&b, parsed, rng)
				}
			}
			b.WriteString(neighbours[rng.IntN(len(neighbours))])
			text := b.String()
			if rng.IntN(3) == 0 {
				text = mutate(text, rng)
			}
			want := re.FindAllStringSubmatchIndex(text, -1)
			got := p.find(text, "")
			checked++
			if len(want) > 0 {
				matched++
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s on %q: word sequence %v, regexp %v", expr, text, got, want)
			}
			if !foldsToASCII(text) {
				if got := w.findAll(text, asciiLower(text), tokens(text, nil)); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s on %q: word sequence %v, regexp %v", expr, text, got, want)
				}
			}
		}
	}
	if taken < 50 || matched < checked/3 {
		t.Fatalf("%d expressions taken, %d texts, %d with a match: the test saw too little", taken, checked, matched)
	}
	t.Logf("%d of %d expressions taken; %d texts, %d with a match", taken, len(exprs), checked, matched)
	for _, expr := range refused {
		parsed, _ := syntax.Parse(expr, syntax.Perl)
		if wordSeqOf(parsed.Simplify()) != nil {
			t.Errorf("%s: taken as a word sequence, but its matches need not be whole words", expr)
		}
	}
}

// mutate changes one byte of s into a near miss: a letter's case, a
// letter for a space, a space for a letter or for two.
func mutate(s string, rng *rand.Rand) string {
	if s == "" {
		return s
	}
	b := []byte(s)
	i := rng.IntN(len(b))
	switch c := b[i]; {
	case c >= 'a' && c <= 'z':
		b[i] = c - 'a' + 'A'
	case c >= 'A' && c <= 'Z':
		b[i] = ' '
	case c == ' ' && rng.IntN(2) == 0:
		b[i] = 'x'
	case c == ' ' || c == '\t' || c == '\n':
		return s[:i] + s[i:i+1] + s[i:]
	default:
		b[i] = '-'
	}
	return string(b)
}
