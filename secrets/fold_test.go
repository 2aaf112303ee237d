package secrets

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
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

// TestWriteRegexp: every rule's expression, as parsed and unfolded,
// printed by writeRegexp compiles to the program syntax.Regexp.String's
// text does.
func TestWriteRegexp(t *testing.T) {
	if raceEnabled {
		// writeRegexp is a function of its tree alone, and the test
		// starts no goroutine: nothing for the detector to watch, at 22 s.
		t.Skip("prints parsed expressions, which no goroutine shares; the plain run holds it")
	}
	t.Parallel() // see "Parallel tests" in follow_test.go
	srcs := []string{`(?m)^a$|\Ab\z(?s:.)x.`, `(?U)a+b*?c{2,5}d{3}e{1,}`, `[^\n\x00-\x1f"'\x60\\-]+ \x{D800}`, `(?i:ß)\B[[:^alpha:]]`}
	for i, r := range DefaultRules() {
		if sampledSweeps() && i%2 == 1 {
			continue // half the rules in a contributor's run; CI prints all
		}
		switch {
		case r.lazy != nil:
			srcs = append(srcs, r.lazy.src)
		case r.builtinRE != nil:
			srcs = append(srcs, r.builtinRE.src)
		}
	}
	prog := func(s string) string {
		p, err := syntax.Parse(s, syntax.Perl)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		pr, err := syntax.Compile(p.Simplify())
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		return pr.String()
	}
	for _, src := range srcs {
		re, err := syntax.Parse(src, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // as parsed (folded literals), then unfolded
			var b strings.Builder
			writeRegexp(&b, re)
			if got, want := prog(b.String()), prog(re.String()); got != want {
				t.Errorf("%s: printed as %s, a different program from %s", src, b.String(), re.String())
			}
			unfold(re)
		}
	}
}
