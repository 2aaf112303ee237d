package prose

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/dlclark/regexp2"

	"github.com/svrnty/sotvet/internal/regexsample"
)

func TestLookaheadAsText(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{`(?:^|\s)I(?=\s)`, `(?:^|\s)I(?:\s)`},
		{`(?i)(?m)(?:(?:^|\s)I(?=,\s))`, `(?i)(?m)(?:(?:^|\s)I(?:,\s))`},
		{`it's(?=\.)`, `it's(?:\.)`},
		{`\b(?:eg|e\.g\.)(?=[\s,;])`, `\b(?:eg|e\.g\.)(?:[\s,;])`},
		{`a|b(?=[)(])`, `a|b(?:[)(])`},
		{`(?:x|y(?=z))`, `(?:x|y(?:z))`},
		// Not at the end, or under a quantifier, a negation or a lookbehind.
		{`a(?=b)c`, ``},
		{`(?:a(?=b))+`, ``},
		{`a(?!b)`, ``},
		{`(?!a(?=b))`, ``},
		{`(?<=a(?=b))`, ``},
		{`a(?=b)\)`, ``},
		{`a[(?=b)]`, ``},
		{`a(?=b`, ``},
		{`a(?=[[:alpha:]])`, ``},
	} {
		got, ok := lookaheadAsText(c.in)
		if got != c.out || ok != (c.out != "") {
			t.Errorf("lookaheadAsText(%q) = %q, %v; want %q", c.in, got, ok, c.out)
		}
	}
}

// TestLookaheadAsTextNecessary: wherever a backtracking expression with a
// final lookahead matches, its rewrite matches too. Texts are drawn from
// the rewrite and from random neighbours, so that both matching and
// nearly matching texts are tried.
func TestLookaheadAsTextNecessary(t *testing.T) {
	exprs := []string{`(?i)(?m)(?:(?:^|\s)I(?=\s))`, `(?i)(?m)(?:(?:^|\s)I(?=,\s))`, `(?i)it's(?=\.)`,
		`(?i)\b(?:eg|e\.g\.)(?=[\s,;])`, `(?i)(?m)\b(?:ie|i\.e\.)(?=[\s,;])`, `a+(?=a)`, `(?:ab|a)(?=b)`, `(?m)^\w+(?=:$)`}
	rng := rand.New(rand.NewPCG(5, 9))
	neighbours := []string{"", " ", "a", "b", "I", "i", ",", ".", "\n", ";", ":", "e.g.", "é", "K"}
	for _, e := range exprs {
		text, ok := lookaheadAsText(e)
		if !ok {
			t.Fatalf("%s: not rewritten", e)
		}
		back := regexp2.MustCompile(e, regexp2.RE2)
		re := regexp.MustCompile(text)
		parsed, err := syntax.Parse(text, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		matched := 0
		for range 300 {
			var b strings.Builder
			for range rng.IntN(4) {
				b.WriteString(neighbours[rng.IntN(len(neighbours))])
			}
			if rng.IntN(2) == 0 {
				regexsample.Write(&b, parsed, rng)
			}
			for range rng.IntN(4) {
				b.WriteString(neighbours[rng.IntN(len(neighbours))])
			}
			s := b.String()
			if ok, _ := back.MatchString(s); ok {
				matched++
				if !re.MatchString(s) {
					t.Fatalf("%s matches %q, its rewrite %s does not", e, s, text)
				}
			}
		}
		if matched < 20 {
			t.Errorf("%s: only %d of 300 texts matched; the check saw too few", e, matched)
		}
	}
}
