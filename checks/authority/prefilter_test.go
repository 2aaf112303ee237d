package authority

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/svrnty/sotvet/internal/regexsample"
	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/sotparse"
)

func TestMatcher(t *testing.T) {
	lits := []string{"default", "fault", "backend", "‹code›", "she", "he", "hers", "is now ", " as default"}
	set := map[string]clauseBits{}
	for i, l := range lits {
		set[l] = 1 << i
	}
	m := newMatcher(set)
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Case is the DEFAULT Backend", []string{"default", "fault", "backend", "he"}},
		{"CASE IS DEFAULT", []string{"default", "fault"}},
		{"ushers", []string{"she", "he", "hers"}},
		{"the ‹code› span", []string{"‹code›", "he"}},
		// A run of white space reads as one space.
		{"it is \t\n now  here", []string{"he", "is now "}},
		{"Case as \r\n  Default.", []string{"default", "fault", " as default"}},
		{"is now", nil},
		// A rune that folds to an ASCII letter admits everything.
		{"ba\u212Aend", lits},
		{"nothing", nil},
		{"", nil},
	} {
		f := m.scan(tc.in)
		var got []string
		for i, l := range lits {
			if f&(1<<i) != 0 {
				got = append(got, l)
			}
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("scan(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestPoisonRunes checks that the runes that case-fold to ASCII letters are
// the poison runes.
func TestPoisonRunes(t *testing.T) {
	var got []rune
	for c := 'a'; c <= 'z'; c++ {
		for _, r := range orbit(c) {
			if r >= utf8.RuneSelf {
				got = append(got, r)
			}
		}
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(poisonRunes))
	if !slices.Equal(got, want) {
		t.Errorf("non-ASCII runes folding to ASCII letters: %q, poison runes: %q", got, want)
	}
}

// formatQuery renders q: clauses as (a|b), joined by " & "; disjunctions
// as OR[{...} {...}].
func formatQuery(q query) string {
	var parts []string
	for _, a := range q.any {
		parts = append(parts, "("+strings.Join(a, "|")+")")
	}
	for _, alts := range q.or {
		var ss []string
		for _, x := range alts {
			ss = append(ss, "{"+formatQuery(x)+"}")
		}
		parts = append(parts, "OR["+strings.Join(ss, " ")+"]")
	}
	return strings.Join(parts, " & ")
}

func TestQuery(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{`default backend`, "(default backend)"},
		{`\bdefault\s+(?:backend|engine)\b`, "(default backend|default engine)"},
		{`(?:is|was)\s+promoted`, "(is promoted|was promoted)"},
		// Runs of white space are one space, wherever they meet.
		{`activation\s+\s*(?:is|was)\s+now`, "(activation is now|activation was now)"},
		{`a[ \t]+b\s*:`, "(a b :|a b:)"},
		{`a|bcd`, ""},
		{`(?:foo)?bar`, "(bar)"},
		{`(?:foo)+bar`, "(foobar)"},
		{`x{2,}yyy`, "(xyyy)"},
		{`(?-i:Case)\s+is`, "(case is)"},
		// Two letters say nothing alone, but do with what is next to them.
		{`\bJP\s+(?:approved|granted)`, "(jp approved|jp granted)"},
		{`\bJP\b`, ""},
		// A class too large to spell out, or any character, breaks a literal.
		{`promot\w+\s+to\s+core`, "(promot) & ( to core)"},
		{`abc.def`, "(abc) & (def)"},
		// Case folds beyond ASCII.
		{`caf[eé] bar`, "(cafe bar|cafÉ bar|café bar)"},
		// U+FFFD matches an invalid byte: it is not a literal.
		{"abc\uFFFDdef", "(abc) & (def)"},
		// Alternatives that are not exact keep what each one requires.
		{`(?:alpha\s+\w+\s+beta|gamma\w*delta)`, "(alpha |gamma) & ( beta|delta) & OR[{(alpha ) & ( beta)} {(gamma) & (delta)}]"},
		{`(?:foo\w+|\w+)bar`, "(bar)"},
		{`(`, ""},
	} {
		if got := formatQuery(queryOf(tc.expr)); got != tc.want {
			t.Errorf("queryOf(%q) = %s, want %s", tc.expr, got, tc.want)
		}
	}
}

// tricky are expressions beyond the built-in rules that the prefilter must
// stay sound for: white space, case folding, classes, repetition.
var tricky = []string{
	`a\s*\s*b`, `foo[ \t]+bar\s+baz`, `stra(?:ss|ß)e`, `\bk\w+s\b`, `caf[eé]\s+noir`,
	`x.y\s+zzz`, `(?:ab|cd){2,3}ef`, `[a-c]{2}xyz`, `kelvin\s*:\s*k`, `(?s)start.*end`,
	`^\s+lead`, `trail\s+$`, `(?:\s|-)+sep(?:\s|_)+`, `(?i:MiXeD)\s+(?-i:Case)`, `\x{212A}\s*x`,
	`(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen)\s+items?`,
	`\bis\s+(?:now\s+)?(?:on|off)\b`, `xx\s+\s+yy`, `(?:foo\s+|bar\s)\s+baz`, `abc[[:space:]]+def\v?ghi`, `[\s.,;:!]default[\s.,;:!]`, `a{0,3}bcd\s{2,}efg`,
}

// TestPrefilterGenerated is a property test: strings generated to match
// each expression of the built-in rules and of tricky, in random case, with
// random runs of white space, in random context, pass its prefilter when
// the expression matches them.
func TestPrefilterGenerated(t *testing.T) {
	var exprs []string
	for _, c := range DefaultClaims {
		exprs = append(exprs, c.Pattern...)
	}
	exprs = append(exprs, tricky...)
	rng := rand.New(rand.NewPCG(1, 2))
	contexts := []string{"", " ", "x", "The ", "  \t", "“", ". ", "K", "ſ"}
	for i, e := range exprs {
		re, err := syntax.Parse(e, syntax.Perl|syntax.FoldCase)
		if err != nil {
			t.Fatal(err)
		}
		// One rule set each: a set has room for only so many clauses.
		set := NewClaimSet([]Claim{{ID: fmt.Sprintf("r%d", i), Pattern: Patterns{e}, Scope: Scopes{ScopeSentence}, Message: "m"}})
		a := set.compiled[0].alts[0]
		matched := 0
		for range sampled(2000) {
			var b strings.Builder
			b.WriteString(contexts[rng.IntN(len(contexts))])
			regexsample.Write(&b, re, rng)
			b.WriteString(contexts[rng.IntN(len(contexts))])
			s := b.String()
			if !a.re.MatchString(s) {
				continue
			}
			matched++
			if !a.filter.admits(set.matcher.scan(s)) {
				t.Errorf("%s: prefilter %s rejects matching %q", e, formatQuery(queryOf(e)), s)
				break
			}
		}
		if matched < sampled(100) {
			t.Errorf("%s: only %d of the generated strings match", e, matched)
		}
	}
}

// TestPrefilterSound checks, on every sentence, fact and frontmatter field
// of the test workspaces and the corpus, that no alternative of the
// built-in rules matches a text its prefilter rejects.
func TestPrefilterSound(t *testing.T) {
	set := NewClaimSet(DefaultClaims)
	dirs, _ := filepath.Glob(filepath.Join("testdata", "*"))
	if c := testcorpus.Optional(t); c != "" {
		dirs = append(dirs, c)
	}
	n, matched, seen := 0, 0, 0
	check := func(where, text string) {
		// Under -race, every fifth text: the plain run checks them all.
		if seen++; raceEnabled && seen%5 != 0 {
			return
		}
		f := set.matcher.scan(text)
		for _, cc := range set.compiled {
			for _, a := range cc.alts {
				n++
				if a.re.MatchString(text) {
					matched++
					if !a.filter.admits(f) {
						t.Errorf("%s: %s: prefilter rejects a matching text: %q", where, a.re, text)
					}
				}
			}
		}
	}
	for _, dir := range dirs {
		ws, err := sotparse.Load(dir, sotparse.Options{NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ws.Docs {
			for _, bl := range readBody(d.Blocks(), nil, nil).blocks {
				for _, s := range bl.sentences() {
					check(d.Path, bl.Text[s[0]:s[1]])
				}
			}
			for _, f := range d.Facts.All() {
				check(d.Path, strings.Trim(f.Key, "`")+": "+plain(f.Value))
			}
			if d.Frontmatter != nil {
				for _, f := range d.Frontmatter.Fields {
					check(d.Path, f.Key+": "+strings.TrimSpace(f.Value))
				}
			}
		}
	}
	if n == 0 || matched == 0 {
		t.Errorf("%d texts checked, %d matched", n, matched)
	}
}

// TestPrefilterSelective checks that the prefilters reject the sentences
// of the workspace convention that only share words with the rules.
func TestPrefilterSelective(t *testing.T) {
	set := NewClaimSet(DefaultClaims)
	for _, s := range []string{
		"Case runtime default active: false",
		"Runtime default activation remains false",
		"The closeout pins the ‹code› field without granting Core authority.",
		"The CTO route validates the candidate-default comparison.",
		"Local planning SOT only. Not a Core Protocol. Not active Core authority.",
	} {
		f := set.matcher.scan(s)
		for _, cc := range set.compiled {
			if cc.Scope.has(ScopeSentence) && cc.admits(f) {
				t.Errorf("%q: a prefilter of %s admits it", s, cc.ID)
			}
		}
	}
}

// TestClauseKeys checks that clauses whose strings join alike stay apart.
func TestClauseKeys(t *testing.T) {
	set := NewClaimSet([]Claim{
		{ID: "a", Pattern: Patterns{`aaa\x00bbb`}, Scope: Scopes{ScopeSentence}, Message: "m"},
		{ID: "b", Pattern: Patterns{`(?:aaa|bbb)`}, Scope: Scopes{ScopeSentence}, Message: "m"},
	})
	if f := set.matcher.scan("xx aaa xx"); !set.compiled[1].admits(f) {
		t.Error(`"(?:aaa|bbb)" does not admit "xx aaa xx"`)
	}
}

// TestASCIILiteral: an ASCII literal's string, built at once, is what
// the rune-by-rune analysis gives, with and without case folding (white
// space runs, the letters that fold to non-ASCII runes, punctuation).
func TestASCIILiteral(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abkKsSZz09 \t\n\r\f-_.:/'\"\\*"
	for n := 0; n < 2000; n++ {
		rs := make([]rune, rng.IntN(12))
		for i := range rs {
			rs[i] = rune(alphabet[rng.IntN(len(alphabet))])
		}
		for _, foldCase := range []bool{false, true} {
			s, ok := asciiLiteral(rs)
			want := literal(rs, foldCase)
			if !ok || len(want.exact) != 1 || want.exact[0] != s || !want.match.isTrue() {
				t.Fatalf("%q (fold %v): %q, %v; the analysis gives %+v", string(rs), foldCase, s, ok, want)
			}
		}
	}
	if _, ok := asciiLiteral([]rune("café")); ok {
		t.Error("a non-ASCII literal took the ASCII path")
	}
}

// TestScan2 checks that scanning two texts at once finds what scanning
// each finds, whichever is longer.
func TestScan2(t *testing.T) {
	m := NewClaimSet(DefaultClaims).matcher
	pieces := []string{"the agent ", "will ", "must ", "never ", "merge ", "  ", "approved", "WITHOUT review", ". ", "ﬁ", "é", "\n", "ADMIN ", "push to main", "sotvet ", "x"}
	rng := rand.New(rand.NewPCG(3, 4))
	text := func() string {
		var b strings.Builder
		for range rng.IntN(20) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	hits := 0
	for range 5000 {
		a, b := text(), text()
		fa, fb := m.scan2(a, b)
		if fa != m.scan(a) || fb != m.scan(b) {
			t.Fatalf("scan2(%q, %q) = %x, %x; scan gives %x, %x", a, b, fa, fb, m.scan(a), m.scan(b))
		}
		if fa != 0 {
			hits++
		}
	}
	if hits < 500 {
		t.Errorf("only %d texts satisfy a clause: the test texts say too little", hits)
	}
}
