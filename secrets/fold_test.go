package secrets

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"testing"
)

// TestCompileFolded: the rewritten expression has no folded instruction
// left and matches what the original matches.
func TestCompileFolded(t *testing.T) {
	for _, expr := range []string{`(?i)token`, `(?i)\b(?P<k>api[_.-]?key)\s*=\s*(\w+)`, `(?i:sk)-(?-i:Ab)`, `x(?i)ſ`, `(?i)[a-c]k`} {
		re, err := compileFolded(expr)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := syntax.Parse(re.String(), syntax.Perl)
		prog, _ := syntax.Compile(p.Simplify())
		for _, in := range prog.Inst {
			if in.Op == syntax.InstRune && len(in.Rune) == 1 && syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
				t.Errorf("%s: folded instruction left in %s", expr, re)
			}
		}
		orig := regexp.MustCompile(expr)
		if got, want := re.SubexpNames(), orig.SubexpNames(); len(got) != len(want) {
			t.Errorf("%s: groups %q, want %q", expr, got, want)
		}
		for _, s := range []string{"TOKEN", "ToKeN", "to\u212aen", "API-KEY = x9", "sk-Ab", "SK-ab", "Sk-Ab", "xS", "x\u017f", "Bk", "b\u212a"} {
			if g, w := re.FindStringSubmatchIndex(s), orig.FindStringSubmatchIndex(s); !slices.Equal(g, w) {
				t.Errorf("%s on %q: %v, want %v", expr, s, g, w)
			}
		}
	}
}
