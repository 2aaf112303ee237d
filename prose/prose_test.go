package prose

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	ini := "# comment\nStylesPath = styles\nMinAlertLevel = warning\nVocab = Base\n\n[*.{md,txt}]\nBasedOnStyles = A, B\nA.Rule = NO\nB.Other = error\n\n[docs/*.md]\nBasedOnStyles = C\nC.X = YES\n"
	c, err := ParseConfig("x/.vale.ini", []byte(ini))
	if err != nil {
		t.Fatal(err)
	}
	if c.StylesDir() != filepath.Join("x", "styles") || c.MinAlertLevel != Warning || !reflect.DeepEqual(c.Vocab, []string{"Base"}) {
		t.Fatalf("config = %+v", c)
	}
	styles, settings := c.Styles("notes.txt")
	if !reflect.DeepEqual(styles, []string{"A", "B"}) || settings["A.Rule"].On || settings["B.Other"].Level != Error {
		t.Errorf("notes.txt: %v %v", styles, settings)
	}
	styles, settings = c.Styles("docs/a.md")
	if !reflect.DeepEqual(styles, []string{"C"}) || !settings["C.X"].On || settings["A.Rule"].On {
		t.Errorf("docs/a.md: %v %v", styles, settings)
	}
	if styles, _ := c.Styles("a.go"); styles != nil {
		t.Errorf("a.go: %v", styles)
	}
}

func TestParseConfigErrors(t *testing.T) {
	for _, tc := range []struct{ ini, want string }{
		{"MinAlertLevel = loud\n", ".vale.ini:1:17: MinAlertLevel \"loud\""},
		{"[*.md\n", ".vale.ini:1:1: section header"},
		{"\n\n[*.md]\nA.B = maybe\n", ".vale.ini:4:7: A.B = \"maybe\""},
		{"Nonsense = 1\n", ".vale.ini:1:1: unknown core setting"},
		{"[*.md]\njust words\n", ".vale.ini:2:1: \"just words\" is not"},
	} {
		_, err := ParseConfig(".vale.ini", []byte(tc.ini))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want prefix %q", tc.ini, err, tc.want)
		}
	}
}

func TestParseRuleErrors(t *testing.T) {
	for _, tc := range []struct{ yml, want string }{
		{"message: x\n", "r.yml:1:1: missing extends"},
		{"extends: existence\nmessage: x\ntokens:\n  - '(unclosed'\n", "r.yml:3:1: token \"(unclosed\""},
		{"extends: existence\nlevel: loud\ntokens: [a]\n", "r.yml:2:8: level \"loud\""},
		{"extends: teleport\n", "r.yml:1:10: unknown extension point"},
		{"extends: existence\ntokens: [a]\nbogus: 1\n", "r.yml:3:1: unknown key \"bogus\""},
		{"extends: existence\nignorecase: perhaps\ntokens: [a]\n", "r.yml:2:13: want true or false"},
		{"extends: existence\ntokens: [a\n", "r.yml:"},
		{"extends: substitution\nswap: [a, b]\n", "r.yml:2:7: swap"},
	} {
		_, _, err := ParseRule("S.R", "r.yml", []byte(tc.yml))
		var ce *ConfigError
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.As(err, &ce) {
			t.Errorf("%q: err = %v, want prefix %q", tc.yml, err, tc.want)
		}
	}
	for _, skipped := range []string{"sequence", "spelling", "metric", "readability", "script"} {
		r, reason, err := ParseRule("S.R", "r.yml", []byte("extends: "+skipped+"\nmessage: x\n"))
		if r != nil || err != nil || reason == "" {
			t.Errorf("%s: rule %v, reason %q, err %v; want skipped with a reason", skipped, r, reason, err)
		}
	}
}

// lintWith lints src with one style made of the given rule files.
func lintWith(t *testing.T, rules map[string]string, src string) []string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "styles", "T"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, yml := range rules {
		if err := os.WriteFile(filepath.Join(dir, "styles", "T", name+".yml"), []byte(yml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := ParseConfig(filepath.Join(dir, ".vale.ini"), []byte("StylesPath = styles\n[*.md]\nBasedOnStyles = T\n"))
	if err != nil {
		t.Fatal(err)
	}
	alerts, err := NewLinter(cfg).Lint("doc.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, a := range alerts {
		line, col := lineCol([]byte(src), a.Start)
		out = append(out, fmt.Sprintf("%d:%d %s %s %q", line, col, a.Rule, a.Level, a.Message))
	}
	return out
}

func TestExtensionPoints(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rules map[string]string
		src   string
		want  []string
	}{
		{"existence", map[string]string{"E": "extends: existence\nmessage: \"Avoid '%s'.\"\nignorecase: true\nlevel: warning\ntokens:\n  - simply\n  - in order to\n"},
			"Simply put, we act in order\nto win. Simplyx is fine.\n",
			[]string{`1:1 T.E warning "Avoid 'Simply'."`, `1:20 T.E warning "Avoid 'in order\nto'."`}},
		{"existence exceptions and nonword", map[string]string{"E": "extends: existence\nmessage: \"'%s'\"\nnonword: true\ntokens: ['[A-Z]{3}']\nexceptions: [API]\n"},
			"The API and the CLI.\n", []string{`1:17 T.E suggestion "'CLI'"`}},
		{"substitution", map[string]string{"S": "extends: substitution\nmessage: \"Use '%s' instead of '%s'.\"\nignorecase: true\nlevel: error\nswap:\n  utilize: use\n  'e-mail': email\n"},
			"We utilize e-mail. We use email.\n",
			[]string{`1:4 T.S error "Use 'use' instead of 'utilize'."`, `1:12 T.S error "Use 'email' instead of 'e-mail'."`}},
		{"occurrence", map[string]string{"O": "extends: occurrence\nmessage: \"%s words\"\nscope: sentence\nmax: 3\ntoken: '\\b\\w+\\b'\n"},
			"One two three. One two three four five.\n", []string{`1:16 T.O suggestion "5 words"`}},
		{"repetition", map[string]string{"R": "extends: repetition\nmessage: \"'%s' is repeated\"\nalpha: true\ntokens: ['[^\\s]+']\n"},
			"This is is a test test.\n", []string{`1:6 T.R suggestion "'is' is repeated"`}},
		{"capitalization", map[string]string{"C": "extends: capitalization\nmessage: \"'%s' should be sentence case\"\nscope: heading\nmatch: $sentence\n"},
			"# Getting Started With Vale\n\n# Getting started\n\nNot A Heading.\n",
			[]string{`1:3 T.C suggestion "'Getting Started With Vale' should be sentence case"`}},
		{"conditional", map[string]string{"A": "extends: conditional\nmessage: \"Define '%s'\"\nfirst: '\\b([A-Z]{3,5})\\b'\nsecond: '(?:\\b[A-Z][a-z]+ )+\\(([A-Z]{3,5})\\)'\nexceptions: [API]\n"},
			"The World Health Organization (WHO) and WHO. NASA and API.\n",
			[]string{`1:46 T.A suggestion "Define 'NASA'"`}},
		{"consistency", map[string]string{"K": "extends: consistency\nmessage: \"Inconsistent '%s'\"\neither:\n  advisor: adviser\n"},
			"An advisor. Another adviser. The advisor.\n", []string{`1:21 T.K suggestion "Inconsistent 'adviser'"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := lintWith(t, tc.rules, tc.src)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestScoping: what is prose and what is not, as Vale scopes markdown.
func TestScoping(t *testing.T) {
	rules := map[string]string{
		"W":  "extends: existence\nmessage: \"%s\"\ntokens: [foo]\n",
		"H":  "extends: existence\nmessage: \"h %s\"\nscope: heading\ntokens: [foo]\n",
		"NH": "extends: existence\nmessage: \"nh %s\"\nscope: ~heading\ntokens: [foo]\n",
		"L":  "extends: existence\nmessage: \"l %s\"\nscope: list\ntokens: [foo]\n",
		"T":  "extends: existence\nmessage: \"t %s\"\nscope: table.cell\ntokens: [foo]\n",
		"Q":  "extends: existence\nmessage: \"q %s\"\nscope: blockquote\ntokens: [foo]\n",
	}
	src := strings.Join([]string{
		"---",
		"title: foo title",
		"count: 3",
		"---",
		"# Heading foo",
		"",
		"Text `foo` code and <!-- foo --> comment and https://foo.example/foo and [link foo](https://x/foo) foo.",
		"",
		"```",
		"foo in fence",
		"```",
		"",
		"    foo indented",
		"",
		"- item foo",
		"",
		"| h | i |",
		"| --- | --- |",
		"| foo | x |",
		"",
		"> quoted foo",
		"",
		"<div>foo html</div>",
		"",
	}, "\n")
	got := lintWith(t, rules, src)
	want := []string{
		`2:8 T.NH "nh foo"`, `2:8 T.W "foo"`,
		`5:11 T.H "h foo"`, `5:11 T.W "foo"`,
		`7:80 T.NH "nh foo"`, `7:80 T.W "foo"`, `7:100 T.NH "nh foo"`, `7:100 T.W "foo"`,
		`15:8 T.L "l foo"`, `15:8 T.NH "nh foo"`, `15:8 T.W "foo"`,
		`19:3 T.NH "nh foo"`, `19:3 T.T "t foo"`, `19:3 T.W "foo"`,
		`21:10 T.NH "nh foo"`, `21:10 T.Q "q foo"`, `21:10 T.W "foo"`,
	}
	for i := range got {
		got[i] = strings.Replace(got[i], " suggestion ", " ", 1)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestFilterAgrees: the literal prefilter and the per-token search find
// exactly what running each rule's whole expression on every block finds.
func TestFilterAgrees(t *testing.T) {
	l := storedLinter(t)
	rules, _, _, err := l.Active("x.md")
	if err != nil {
		t.Fatal(err)
	}
	words := strings.Fields("it is a simple fact that we utilize e-mail in order to very really just basically " +
		"the API of NASA (National Aeronautics) is not were was been being obviously am are 10 AM 5 pm e.g. i.e. " +
		"CTO-WORK-001 validated `code` **bold** _it_ I I, it's. e.g., ſhould not don't cannot will would... ; : -- — !! ? café \u212Am ſimply 10PM e-mail. Next.Sentence")
	rng := rand.New(rand.NewSource(1))
	f := newFilter(rules)
	rounds := 30
	if raceEnabled {
		rounds = 4
	}
	for n := 0; n < rounds; n++ {
		var b strings.Builder
		for i := 0; i < 40; i++ {
			b.WriteString(words[rng.Intn(len(words))])
			if rng.Intn(9) == 0 {
				b.WriteString("\n")
			} else {
				b.WriteString(" ")
			}
		}
		text := b.String()
		var c candidates
		f.find(text, make([]bool, f.m.count), nil, &c, nil)
		for i, r := range rules {
			var whole, filtered []hit
			st1 := &fileState{defined: map[string]bool{}, chosen: map[*Rule]map[int]int{}}
			st2 := &fileState{defined: map[string]bool{}, chosen: map[*Rule]map[int]int{}}
			r.check.run(text, st1, func(h hit) { whole = append(whole, h) })
			if c.may[i] {
				if f.tokens[i] {
					r.check.(tokenRule).runAlts(text, c.alts(i, nil), st2, func(h hit) { filtered = append(filtered, h) })
				} else {
					r.check.run(text, st2, func(h hit) { filtered = append(filtered, h) })
				}
			}
			if !reflect.DeepEqual(whole, filtered) {
				t.Fatalf("%s on %q:\nwhole expression %v\nfiltered %v", r.Name, text, whole, filtered)
			}
		}
	}
}

// TestMergeAlts: tokens searched one by one give what their alternation
// gives: leftmost first, the earlier token first at one start, no overlap.
func TestMergeAlts(t *testing.T) {
	toks := []string{"ab", "abc", "bcd", "d"}
	var alts []*pattern
	for _, tok := range toks {
		p, err := literalPattern(tok, plainWords(tok), false, false, false)
		if err != nil {
			t.Fatal(err)
		}
		alts = append(alts, p)
	}
	whole, _ := compilePattern(`(?:ab|abc|bcd|d)`)
	for _, text := range []string{"abcd", "xabcdd", "bcdab", "ddd"} {
		want := whole.findAll(text)
		got := mergeAlts(text, asciiLower(text), alts, []int{0, 1, 2, 3}, 0)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: merged %v, alternation %v", text, got, want)
		}
	}
}

// TestVocabulary: accepted words are exceptions to existence rules;
// rejected words are reported as Vale.Avoid, at error level.
func TestVocabulary(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"styles/T/E.yml": "extends: existence\nmessage: \"'%s'\"\nnonword: true\ntokens: ['[A-Z]{3}']\n",
		"styles/config/vocabularies/Base/accept.txt": "CTO\n",
		"styles/config/vocabularies/Base/reject.txt": "leverage\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := ParseConfig(filepath.Join(dir, ".vale.ini"), []byte("StylesPath = styles\nVocab = Base\n[*.md]\nBasedOnStyles = T\n"))
	if err != nil {
		t.Fatal(err)
	}
	alerts, err := NewLinter(cfg).Lint("a.md", []byte("The CTO and the CEO leverage it.\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range alerts {
		got = append(got, fmt.Sprintf("%s %s %q", a.Rule, a.Level, a.Message))
	}
	want := []string{`T.E suggestion "'CEO'"`, `Vale.Avoid error "Avoid using 'leverage'."`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestLazyExpressions compiles the package's expressions, which are
// compiled on first use rather than as a process starts.
func TestLazyExpressions(t *testing.T) {
	for _, re := range []interface{ Regexp() *regexp.Regexp }{ruleName, lookaround, captureOpen, firstWord, wordRe} {
		if re.Regexp() == nil {
			t.Fatal("nil expression")
		}
	}
}

// TestSortAlertsStable holds sortAlerts to a stable sort by offset and
// rule.
func TestSortAlertsStable(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	var order []int32
	var tmp []Alert
	for range 300 {
		in := make([]Alert, r.Intn(40))
		for i := range in {
			in[i] = Alert{Start: r.Intn(8), Rule: string(rune('a' + r.Intn(3))), Message: strconv.Itoa(i)}
		}
		want := slices.Clone(in)
		slices.SortStableFunc(want, func(a, b Alert) int {
			if a.Start != b.Start {
				return a.Start - b.Start
			}
			return strings.Compare(a.Rule, b.Rule)
		})
		got := slices.Clone(in)
		order, tmp = sortAlerts(got, order, tmp) // the scratch of the round before
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("sortAlerts(%v) = %v, want %v", in, got, want)
		}
	}
}

// TestAppendLintTree lints files one after another into one array, as the
// check does: each file's alerts are its own, sorted, after what the
// array held, whatever the files before left in the scratch space.
func TestAppendLintTree(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "styles", "T"), 0o755); err != nil {
		t.Fatal(err)
	}
	rules := map[string]string{
		"E": "extends: existence\nmessage: \"Avoid '%s'.\"\nignorecase: true\ntokens: [simply, very]\n",
		"S": "extends: substitution\nmessage: \"Use '%s' instead of '%s'.\"\nswap:\n  utilize: use\n",
	}
	for name, yml := range rules {
		if err := os.WriteFile(filepath.Join(dir, "styles", "T", name+".yml"), []byte(yml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := ParseConfig(filepath.Join(dir, ".vale.ini"), []byte("StylesPath = styles\n[*.md]\nBasedOnStyles = T\n"))
	if err != nil {
		t.Fatal(err)
	}
	l := NewLinter(cfg)
	srcs := []string{"We utilize it, very simply.\n", "Nothing here.\n", "Simply utilize. Very utilize.\n", "very\n"}
	// Written out, not only Lint's: Lint shares the scratch under test.
	wantRules := [][]string{{"T.S", "T.E", "T.E"}, nil, {"T.E", "T.S", "T.E", "T.S"}, {"T.E"}}
	var buf []Alert
	for round := range 3 {
		for i, src := range srcs {
			want, err := l.Lint("doc.md", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			var rules []string
			for _, a := range want {
				rules = append(rules, a.Rule)
			}
			if !reflect.DeepEqual(rules, wantRules[i]) {
				t.Fatalf("round %d file %d: rules %v, want %v", round, i, rules, wantRules[i])
			}
			held := []Alert{{Rule: "held", Start: 99}}
			got, err := l.AppendLintTree(append(buf[:0], held...), "doc.md", []byte(src), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1+len(want) || !reflect.DeepEqual(got[0], held[0]) || len(want) > 0 && !reflect.DeepEqual(got[1:], want) {
				t.Fatalf("round %d file %d: got %+v, want %+v after the held one", round, i, got, want)
			}
			clear(got)
			buf = got[:0]
		}
	}
}
