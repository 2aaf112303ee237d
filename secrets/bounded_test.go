package secrets

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// loosenCases are expressions with counted repetitions loosenBounds
// rewrites (greedy, lazy, folded, any character, outside ASCII) and some it
// must leave as written (nested, short span, more than one character).
var loosenCases = []string{
	`a[0-9]{2,12}b`,
	`a[0-9]{2,12}`,
	`a[0-9]{2,12}?`,
	`x(?P<secret>[A-Za-z0-9_-]{4,20})(?:[^A-Za-z0-9_-]|$)`,
	`(?i)\bkey.{0,16}?\b([a-z0-9]{8,24})\b`,
	`(?i)k{0,9}z`,
	`é[à-ü]{1,10}ß`,
	`[^\s"]{2,11}"`,
	`(?s:.){0,10}x`,
	`(?:ab{0,12}){2}`,
	`(?:[a-z]{1,12}-){0,3}[0-9]{0,9}`,
	`(a|bc){0,12}d`,
	`([a-c]{0,9})([b-d]{0,9})e`,
	`^(?s:.)(?:\bk([a-z]{3,14})(?:[^a-z]|$))`,
}

// TestLoosenedFindsWhatWrittenFinds: the loosened expression with its
// check finds what the expression as written finds, groups and all, on
// texts made of its own characters with runs around every bound.
func TestLoosenedFindsWhatWrittenFinds(t *testing.T) {
	sequentialSweep(t)
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "b", "c", "d", "e", "k", "K", "\u212a", "x", "z", "-", "_", "\"", " ", "\n", "é", "à", "ü", "ß", "\xff", "\xc3", "0", "5", "9", "=", "ab"}
	for _, expr := range loosenCases {
		written := regexp.MustCompile(expr)
		e, err := compileLoosened(expr, regexp.Compile)
		if err != nil {
			t.Fatal(err)
		}
		for range 3000 {
			var b strings.Builder
			for range rng.IntN(12) {
				p := pieces[rng.IntN(len(pieces))]
				b.WriteString(strings.Repeat(p, 1+rng.IntN(16)))
			}
			text := []byte(b.String())
			if got, want := e.FindSubmatchIndex(text), written.FindSubmatchIndex(text); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s on %q: %v, as written %v", expr, text, got, want)
			}
			if got, want := e.FindAllSubmatchIndex(text, -1), written.FindAllSubmatchIndex(text, -1); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s on %q: all %v, as written %v", expr, text, got, want)
			}
		}
		if !reflect.DeepEqual(e.SubexpNames(), written.SubexpNames()) {
			t.Errorf("%s: groups %q, as written %q", expr, e.SubexpNames(), written.SubexpNames())
		}
	}
}

// TestLoosenedRules: every built-in rule's expressions, loosened, find
// what they find as written on texts of their keywords, separators and
// value runs of lengths around the rules' bounds.
func TestLoosenedRules(t *testing.T) {
	t.Parallel() // see "Parallel tests" in follow_test.go
	s, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	alphabets := []string{"abcdef0123456789", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "abcXYZ019+/=_-.", "ab \t\"'=:"}
	lengths := []int{1, 3, 7, 8, 9, 15, 16, 17, 20, 21, 24, 31, 32, 33, 40, 41, 50, 64, 65, 100, 129, 201, 257, 513}
	loosened := 0
	for i, r := range s.rules {
		r.prepare()
		var srcs []string
		if r.atHits {
			srcs = append(srcs, r.afterSrc, r.anchoredSrc)
		} else if r.searchSrc != "" && r.search == nil {
			srcs = append(srcs, r.searchSrc)
		}
		for _, src := range srcs {
			e, err := compileLoosened(src, regexp.Compile)
			if err != nil {
				t.Fatal(err)
			}
			if e.most == nil {
				continue
			}
			loosened++
			if raceEnabled && i%4 != 0 {
				continue
			}
			written := regexp.MustCompile(src)
			for range 12 {
				var b strings.Builder
				for range 1 + rng.IntN(4) {
					if len(r.Keywords) > 0 && rng.IntN(2) == 0 {
						b.WriteString(r.Keywords[rng.IntN(len(r.Keywords))])
					}
					b.WriteString([]string{"", "=", ": ", "_key=\"", " token ", "\n", "-"}[rng.IntN(7)])
					a := alphabets[rng.IntN(len(alphabets))]
					for range lengths[rng.IntN(len(lengths))] {
						b.WriteByte(a[rng.IntN(len(a))])
					}
					b.WriteString([]string{"", "\"", " ", "\n", ";"}[rng.IntN(5)])
				}
				text := []byte(b.String())
				if got, want := e.FindAllSubmatchIndex(text, -1), written.FindAllSubmatchIndex(text, -1); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: %s on %q: %v, as written %v", r.ID, src, text, got, want)
				}
			}
		}
	}
	if loosened < 100 {
		t.Errorf("%d expressions loosened, want most rules'", loosened)
	}
}

// TestLoosenedIsSmaller: a long bounded run compiles to a few instructions
// and a group, not one pair per optional character; one inside another
// repetition is left as written.
func TestLoosenedIsSmaller(t *testing.T) {
	insts := func(expr string) int {
		re, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		p, err := syntax.Compile(re.Simplify())
		if err != nil {
			t.Fatal(err)
		}
		return len(p.Inst)
	}
	expr := `\bhvb\.([A-Za-z0-9_-]{24,500})(?:[^A-Za-z0-9_-]|$)`
	src, most := loosenBounds(expr)
	if !reflect.DeepEqual(most, []int{500}) {
		t.Fatalf("bounds %v, want [500]", most)
	}
	if a, b := insts(src), insts(expr); a > 60 || b < 900 {
		t.Errorf("loosened %d instructions, as written %d", a, b)
	}
	for _, expr := range []string{`(?:a[0-9]{0,20})+`, `a[0-9]{0,7}`, `(?:ab){0,20}`} {
		if src, most := loosenBounds(expr); src != expr || most != nil {
			t.Errorf("%s loosened to %s", expr, src)
		}
	}
}

// FuzzLoosened: on any text, the loosened expressions of loosenCases find
// what they find as written.
func FuzzLoosened(f *testing.F) {
	f.Add(0, []byte("a0123456789012b"))
	f.Add(4, []byte("kkkkkkkkkkz \u212a\u212akz"))
	f.Add(6, []byte("éàààààààààààààß"))
	f.Fuzz(func(t *testing.T, i int, text []byte) {
		expr := loosenCases[uint(i)%uint(len(loosenCases))]
		e, err := compileLoosened(expr, regexp.Compile)
		if err != nil {
			t.Fatal(err)
		}
		written := regexp.MustCompile(expr)
		if got, want := e.FindAllSubmatchIndex(text, -1), written.FindAllSubmatchIndex(text, -1); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s on %q: %v, as written %v", expr, text, got, want)
		}
	})
}

// TestWideBoundWritten: the look at the text that spares loosenBounds its
// parse never spares one that loosens, over every rule's expressions and
// forms that only look like a bound.
func TestWideBoundWritten(t *testing.T) {
	s, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	srcs := []string{`a{0,8}`, `a{0,7}`, `a{2,10}b`, `[{0,9}]`, `\{0,9}`, `a{3}`, `a{3,}`, `(?:ab){0,9}`, `a{0,99999}`, `a{10,2}`}
	for _, r := range s.rules {
		r.prepare()
		for _, src := range []string{r.afterSrc, r.anchoredSrc, r.searchSrc} {
			if src != "" {
				srcs = append(srcs, src)
			}
		}
	}
	skipped := 0
	for _, src := range srcs {
		_, most := loosenParsed(src)
		if !wideBoundWritten(src) {
			skipped++
			if most != nil {
				t.Errorf("%q loosens %v, but wideBoundWritten says it has no bound to loosen", src, most)
			}
		}
	}
	for i, want := range []bool{true, false, true, true, true, false, false, true, true, false} {
		if got := wideBoundWritten(srcs[i]); got != want {
			t.Errorf("wideBoundWritten(%q) = %v, want %v", srcs[i], got, want)
		}
	}
	if skipped < 100 {
		t.Errorf("%d expressions spared a parse, want most", skipped)
	}
	t.Logf("%d of %d expressions spared the parse", skipped, len(srcs))
}
