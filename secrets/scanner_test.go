package secrets

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestFingerprint(t *testing.T) {
	sum := sha256.Sum256([]byte("generic-secret\x00s3cr3t-value"))
	if got, want := Fingerprint("generic-secret", "s3cr3t-value"), hex.EncodeToString(sum[:]); got != want {
		t.Errorf("Fingerprint = %s, want %s", got, want)
	}
	if Fingerprint("a", "bc") == Fingerprint("ab", "c") {
		t.Error("fingerprint does not separate rule and secret")
	}
}

func TestEntropy(t *testing.T) {
	if e := Entropy([]byte("aaaa")); e != 0 {
		t.Errorf("Entropy(aaaa) = %v", e)
	}
	if e := Entropy([]byte("abcd")); e != 2 {
		t.Errorf("Entropy(abcd) = %v", e)
	}
}

func tokenFor(seed string) string { return pGHP + newFakeGen(seed).mixed(base62, 36) }

func TestInlineAllow(t *testing.T) {
	s := defaultScanner(t)
	tok := tokenFor("inline")
	cases := []struct {
		name        string
		line        string
		allowed     bool
		reason      string
		unjustified bool
	}{
		{"reason", "GITHUB_TOKEN=" + tok + " # sotvet:allow-secret -- revoked fixture token", true, "inline: revoked fixture token", false},
		{"html comment", "- token: `" + tok + "` <!-- sotvet:allow-secret -- revoked 2026-05-01 -->", true, "inline: revoked 2026-05-01", false},
		{"no reason", "GITHUB_TOKEN=" + tok + " # sotvet:allow-secret", false, "", true},
		{"empty reason", "GITHUB_TOKEN=" + tok + " # sotvet:allow-secret --   ", false, "", true},
		{"no dashes", "GITHUB_TOKEN=" + tok + " # sotvet:allow-secret because", false, "", true},
		{"marker before", "# sotvet:allow-secret -- the token " + tok + " is revoked", true, "inline: the token " + Mask(tok) + " is revoked", false},
		{"other line", "# sotvet:allow-secret -- revoked\nGITHUB_TOKEN=" + tok, false, "", false},
	}
	for _, c := range cases {
		fs := s.Scan("x.env", []byte(c.line))
		if len(fs) != 1 {
			t.Fatalf("%s: %d findings", c.name, len(fs))
		}
		f := fs[0]
		if f.Allowed != c.allowed || f.AllowReason != c.reason || f.Unjustified != c.unjustified {
			t.Errorf("%s: got allowed=%v reason=%q unjustified=%v, want %v %q %v", c.name, f.Allowed, f.AllowReason, f.Unjustified, c.allowed, c.reason, c.unjustified)
		}
		if strings.Contains(fmt.Sprintf("%#v", f), tok) {
			t.Errorf("%s: finding holds the secret", c.name)
		}
	}
}

func TestInlineAllowMultiline(t *testing.T) {
	s := defaultScanner(t)
	blk := newFakeGen("pem-allow").pemBlock("RSA PRIVATE KEY", 300, "\n")
	for _, text := range []string{
		"<!-- sotvet:allow-secret -- test fixture key --> " + blk,
		blk + " <!-- sotvet:allow-secret -- test fixture key -->",
	} {
		fs := s.Scan("k.md", []byte(text))
		if len(fs) != 1 || !fs[0].Allowed || fs[0].AllowReason != "inline: test fixture key" {
			t.Errorf("got %v", fs)
		}
	}
}

func TestAllowlists(t *testing.T) {
	tok := tokenFor("allowlists")
	text := []byte("a: 1\nGITHUB_TOKEN=" + tok + "\n")
	base, err := NewScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	f0 := base.Scan("p", text)[0]
	if f0.Allowed || f0.Line != 2 || f0.Col != 14 || f0.EndLine != 2 || f0.EndCol != 14+len(tok) || f0.Start != 18 || f0.End != 18+len(tok) {
		t.Errorf("position: %+v", f0)
	}

	cases := []struct {
		name   string
		cfg    Config
		path   string
		reason string
	}{
		{"glob", Config{AllowPaths: []string{"**/testdata/**"}}, "secrets/testdata/x.env", "path"},
		{"glob miss", Config{AllowPaths: []string{"**/testdata/**"}}, "secrets/x.env", ""},
		{"glob dot slash", Config{AllowPaths: []string{"docs/*.md"}}, "./docs/a.md", "path"},
		{"glob no deep", Config{AllowPaths: []string{"docs/*.md"}}, "docs/x/a.md", ""},
		{"func", Config{AllowPath: func(p string) bool { return strings.HasSuffix(p, ".example") }}, ".env.example", "path"},
		{"value", Config{AllowValues: []*regexp.Regexp{regexp.MustCompile("^" + pGHP)}}, "x", "value"},
		{"baseline", Config{Baseline: map[string]bool{f0.Fingerprint: true}}, "x", "baseline"},
		{"baseline other", Config{Baseline: map[string]bool{Fingerprint(RuleGenericSecret, tok): true}}, "x", ""},
	}
	for _, c := range cases {
		s, err := NewScanner(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		fs := s.Scan(c.path, text)
		if len(fs) != 1 {
			t.Fatalf("%s: %d findings", c.name, len(fs))
		}
		if got := fs[0].AllowReason; got != c.reason || fs[0].Allowed != (c.reason != "") {
			t.Errorf("%s: reason %q allowed %v, want %q", c.name, got, fs[0].Allowed, c.reason)
		}
		// Redact ignores every allowlist but the value one.
		red := string(s.Redact(text))
		if c.reason == "value" {
			if red != string(text) {
				t.Errorf("%s: value-allowed secret was redacted", c.name)
			}
		} else if strings.Contains(red, tok) {
			t.Errorf("%s: Redact kept an allowed secret", c.name)
		}
	}
}

func TestGlob(t *testing.T) {
	for _, c := range []struct {
		pat, path string
		want      bool
	}{
		{"**", "a/b/c", true},
		{"**/*.env", ".env", true},
		{"**/*.env", "a/b/prod.env", true},
		{"a/**/c", "a/c", true},
		{"a/**/c", "a/x/y/c", true},
		{"a/**/c", "a/x/y/d", false},
		{"*.md", "a/b.md", false},
		{"a/*/c", "a/b/c", true},
		{"testdata/**", "testdata", true},
		{"a/**/**/b", "a/b", true},
		{"x/[ab].txt", "x/b.txt", true},
	} {
		g, err := compileGlob(c.pat)
		if err != nil {
			t.Fatal(err)
		}
		p, ok := cleanPath(c.path)
		if got := ok && g.match(p); got != c.want {
			t.Errorf("%q ~ %q = %v, want %v", c.pat, c.path, got, c.want)
		}
	}
	for _, bad := range []string{"", "../x", "a/**b", "x/[", "."} {
		if _, err := compileGlob(bad); err == nil {
			t.Errorf("compileGlob(%q): no error", bad)
		}
	}
	if _, ok := cleanPath("../etc/passwd"); ok {
		t.Error("cleanPath accepted a path outside the root")
	}
}

func TestEndpointConfig(t *testing.T) {
	text := []byte("OPENAI_BASE_URL=http://localhost:8000/v1\nSPARK_URL=http://10.1.2.3:8000\nX_API_BASE=http://staging.svrnty.internal/v1\n")
	ids := func(cfg Config) string {
		s, err := NewScanner(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range s.Scan("e", text) {
			out = append(out, fmt.Sprintf("%s@%d", f.RuleID, f.Line))
		}
		return strings.Join(out, " ")
	}
	if got := ids(DefaultConfig()); got != "endpoint-value@3" {
		t.Errorf("default: %s", got)
	}
	if got := ids(Config{}); got != "endpoint-value@1 endpoint-value@3" {
		t.Errorf("zero config (localhost not allowed): %s", got)
	}
	if got := ids(Config{AllowLocalhost: true, EndpointKeySuffixes: []string{"_URL"}}); got != "endpoint-value@2" {
		t.Errorf("suffix _URL: %s", got)
	}
	if got := ids(Config{AllowLocalhost: true, EndpointPlaceholders: []*regexp.Regexp{regexp.MustCompile(`\.internal\b`)}}); got != "" {
		t.Errorf("placeholder: %s", got)
	}
	// A caller-built rule list keeps its own endpoint rule.
	custom := []*Rule{EndpointRule([]string{"SPARK_URL"}, false, nil)}
	if got := ids(Config{Rules: custom, AllowLocalhost: true}); got != "endpoint-value@2" {
		t.Errorf("custom rule: %s", got)
	}
}

func TestNewScannerErrors(t *testing.T) {
	re := regexp.MustCompile(`x`)
	for name, cfg := range map[string]Config{
		"nil regex":   {Rules: []*Rule{{ID: "a"}}},
		"no id":       {Rules: []*Rule{{Regex: re}}},
		"nil rule":    {Rules: []*Rule{nil}},
		"duplicate":   {Rules: []*Rule{{ID: "a", Regex: re}, {ID: "a", Regex: re}}},
		"bad glob":    {AllowPaths: []string{"a/["}},
		"nil value":   {AllowValues: []*regexp.Regexp{nil}},
		"empty kw":    {Rules: []*Rule{{ID: "a", Regex: re, Keywords: []string{""}}}},
		"negative":    {Rules: []*Rule{{ID: "a", Regex: re, After: -1}}},
		"placeholder": {EndpointPlaceholders: []*regexp.Regexp{nil}},
	} {
		if _, err := NewScanner(cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestCustomRuleWithoutKeywords(t *testing.T) {
	s, err := NewScanner(Config{Rules: []*Rule{{
		ID: "ticket", Description: "internal ticket secret",
		Regex: regexp.MustCompile(`TKT-(?P<secret>[0-9A-F]{12})`),
	}}})
	if err != nil {
		t.Fatal(err)
	}
	fs := s.Scan("a", []byte("x\nsee TKT-3F7A09C2E5B1 and TKT-B84D2E6A0C97\n"))
	if len(fs) != 2 || fs[0].Line != 2 || fs[0].Col != 9 || fs[1].Start <= fs[0].Start {
		t.Errorf("got %v", fs)
	}
}

func TestOverlapAndOrder(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("overlap")
	tok := pGHP + g.mixed(base62, 36)
	pw := g.mixed(base62, 20)
	text := "password=" + pw + "\nurl: https://x-access-token:" + tok + "@github.com/o/r.git\nAPI_TOKEN=" + tok + "\n"
	fs := s.Scan("o", []byte(text))
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s@%d", f.RuleID, f.Line))
	}
	if want := "generic-secret@1 github-token@2 github-token@3"; strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
	for i := 1; i < len(fs); i++ {
		if fs[i].Start < fs[i-1].End {
			t.Errorf("findings overlap or are unsorted: %v", fs)
		}
	}
}

func TestRedactEveryOccurrence(t *testing.T) {
	s := defaultScanner(t)
	pw := newFakeGen("occ").mixed(base62, 20)
	text := "DB_PASSWORD=" + pw + "\nlater the log echoed " + pw + " in prose\n"
	red := s.RedactString(text)
	if strings.Contains(red, pw) {
		t.Fatalf("secret survived: %q", red)
	}
	if want := "DB_PASSWORD=" + Mask(pw) + "\nlater the log echoed " + Mask(pw) + " in prose\n"; red != want {
		t.Errorf("got %q, want %q", red, want)
	}
	if got := s.RedactString("nothing to see"); got != "nothing to see" {
		t.Errorf("clean text changed: %q", got)
	}
}

func TestConcurrentScan(t *testing.T) {
	s := defaultScanner(t)
	samples := corpusSamples()
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, sm := range samples {
				path := sm.name
				if sm.path != "" {
					path = sm.path
				}
				fs := s.Scan(path, []byte(sm.text))
				if sm.rule != "" && len(fs) == 0 {
					t.Errorf("%s: no finding", sm.name)
				}
				_ = s.Redact([]byte(sm.text))
			}
		}()
	}
	wg.Wait()
}

func TestKeyWords(t *testing.T) {
	for in, want := range map[string]string{
		"CTO_HARNESS_CASE_LOCAL_BASE_URL": "cto harness case local base url",
		"openaiBaseURL":                   "openai base url",
		"APIKey":                          "api key",
		"x-api-key":                       "x api key",
		"--password":                      "password",
		"clientSecret":                    "client secret",
	} {
		if got := strings.Join(keyWords(in), " "); got != want {
			t.Errorf("keyWords(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestKeywordMatcher(t *testing.T) {
	m := newKWMatcher([]string{"he", "she", "his", "hers", "SK-"}, []int{0, 1, 2, 3, 4})
	var hits []string
	m.scan([]byte("uSHers ask-x"), func(i int, rules []uint16) {
		hits = append(hits, fmt.Sprint(i, rules))
	})
	if got := strings.Join(hits, " "); got != "3 [1 0] 5 [3] 10 [4]" {
		t.Errorf("hits %s", got)
	}
}

// TestKeywordMatcherStreams: the four-stream scan reports exactly the hits
// of a plain serial DFA pass, keywords across block and stream cuts
// included.
func TestKeywordMatcherStreams(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("streams")
	kws := []string{"secret", "token", "://", "-----BEGIN", "service_account", "ENDPOINT", "sk-", "base_url", "password"}
	var b []byte
	for len(b) < 600<<10 {
		if g.next()%4 == 0 {
			b = append(b, kws[g.next()%uint64(len(kws))]...)
		} else {
			b = append(b, g.from("abcdeknoprstuw_-:/ \n", int(g.next()%7))...)
		}
	}
	for _, n := range []int{len(b), 64<<10 + 3, 64 << 10, 4*256 + 1, 4 * 256, 1000, 17} {
		data := b[:n]
		var got, want []string
		s.kw.scan(data, func(i int, r []uint16) { got = append(got, fmt.Sprint(i, r)) })
		s.kw.run(data, 0, len(data), 0, func(i int, r []uint16) { want = append(want, fmt.Sprint(i, r)) })
		if len(want) == 0 || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("n=%d: %d hits, want %d", n, len(got), len(want))
		}
	}
}

// TestScannersShareExpressions: a second scanner over the same rules
// reuses the expressions the first compiled (the check, the records check
// and the redactor each build one per run).
func TestScannersShareExpressions(t *testing.T) {
	text := []byte("GITHUB_TOKEN=ghp_" + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ\nOPENAI_BASE_URL=" + "https://llm.internal.corp:8443/v1\n")
	a := defaultScanner(t)
	b, err := NewScanner(Config{AllowLocalhost: true, AllowPaths: []string{"vendor/**"}})
	if err != nil || a == b {
		t.Fatalf("a scanner of another configuration: %v", err)
	}
	if len(a.Scan("a.env", text)) == 0 || len(b.Scan("a.env", text)) == 0 {
		t.Fatal("no findings")
	}
	// Whether a scan compiles a tier depends on the process's history (a
	// start table's expression may serve instead, once other scans made
	// that the way): the first rules of each scanner are asked for their
	// expression, which either compiles it or finds it compiled.
	for i, ra := range a.rules[:min(len(a.rules), 20)] {
		if rb := b.rules[i]; ra.search == nil {
			ra.prepare()
			rb.prepare()
			ra.searchExpr()
			rb.searchExpr()
		}
	}
	shared := 0
	for i, ra := range a.rules {
		rb := b.rules[i]
		for k, pair := range [][2]*tieredExpr{{&ra.searchT, &rb.searchT}, {&ra.anchoredAfterT, &rb.anchoredAfterT}} {
			x, y := pair[0], pair[1]
			if px, py := x.plain.Load(), y.plain.Load(); px != nil && py != nil {
				// another scanner may have folded the expression meanwhile:
				// the one as written is let go, the folded one serves
				folded, _ := sharedRegexps.Load(px.String())
				if px != py && folded != py {
					t.Errorf("rule %s: each scanner compiled its own expression (%d, as written)", ra.ID, k)
				}
				shared++
			}
			if fx, fy := x.folded.Load(), y.folded.Load(); fx != nil && fy != nil {
				if fx != fy {
					t.Errorf("rule %s: each scanner compiled its own expression (%d, folded)", ra.ID, k)
				}
				shared++
			}
		}
	}
	if shared == 0 {
		t.Error("no rule prepared in both scanners")
	}
}

// TestKeyMaterialMayMatch: a window keyMaterialMayMatch rules out holds no
// match of the rule's expression, and a window searched by the forms
// keyMaterialFormsIn finds in it has the whole expression's matches, on
// windows built from the pieces of every form (armor, base64 DER
// prefixes, hex headers, names, hex runs just under and over the bound).
func TestKeyMaterialMayMatch(t *testing.T) {
	sequentialSweep(t)
	if !ownProcess(t) { // alone, in a process of its own: see ownProcess
		return
	}
	re := keyMaterialRule().Expr()
	defer func(f int64) { foldAfter = f }(foldAfter)
	// As written, then with the folded literals (compileFolded): the
	// variants are searched in both tiers.
	for _, fold := range []int64{1 << 62, 0} {
		foldAfter = fold
		keyMaterialWindows(t, re, fold == 0)
	}
	cr := &compiledRule{Rule: keyMaterialRule()}
	cr.prepare()
	if got := formsExpr(cr.forms, 1<<len(cr.forms)-1); got != cr.builtinRE.src {
		t.Errorf("the forms joined are not the rule's expression:\n%s\n%s", got, cr.builtinRE.src)
	}
	for in := uint32(1); in < 1<<len(cr.forms); in++ {
		fre := regexp.MustCompile(formsExpr(cr.forms, in))
		if !slices.Equal(fre.SubexpNames(), re.SubexpNames()) {
			t.Fatalf("forms %06b: groups %q, the whole expression's %q", in, fre.SubexpNames(), re.SubexpNames())
		}
	}
	// A form ruled out compiles none of its instructions: the PEM form
	// alone is a fraction of the whole program.
	insts := func(src string) int {
		tree, err := syntax.Parse(src, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := syntax.Compile(tree.Simplify())
		if err != nil {
			t.Fatal(err)
		}
		return len(prog.Inst)
	}
	if pem, whole := insts(formsExpr(cr.forms, 1<<kmPEMBody)), insts(cr.builtinRE.src); pem*2 > whole {
		t.Errorf("the PEM form alone compiles %d instructions, the whole expression %d", pem, whole)
	}
	// A caller's own expression for the rule is searched as given, the
	// built-in forms and their gate aside.
	own := keyMaterialRule()
	own.Regex = regexp.MustCompile(`PRIVATE KEY-----\n[A-Z]{4}(?P<secret>[A-Z]{40,})`)
	co := &compiledRule{Rule: own}
	co.prepare()
	if got := co.searchExprIn([]byte("-----BEGIN RSA PRIVATE KEY-----\nMIIE")); got.re != own.Regex || got.most != nil {
		t.Errorf("a caller's expression is replaced by %v", got)
	}
}

// keyMaterialWindows: the search of random windows by the forms that
// may match in each finds the whole expression's matches, groups and
// all, and a window the gate rules out holds none.
func keyMaterialWindows(t *testing.T, re *regexp.Regexp, folded bool) {
	cr := &compiledRule{Rule: keyMaterialRule()}
	cr.prepare()
	narrowed := 0
	hexRun := func(n int) string { return strings.Repeat("0123456789abcdefABCDEF", n/22+1)[:n] }
	pieces := []string{
		"-----BEGIN RSA PRIVATE KEY-----\n", "-----BEGIN PRIVATE KEY-----", "PRIVATE KEY", "Proc-Type: 4,ENCRYPTED\n",
		"MC4CAQAwBQYDK2Vw", "MIGHAgEAMBMGByqGSM49", "MIIEvQIBADANBgkqhkiG9w0BAQEFAAS", "MIIEpAIBAAKCAQEA", "MIIEpAIBAAKCQgEA",
		"MHcCAQEEI", "MIGkAgEBBDA", "b3BlbnNzaC1rZXktdjEA", "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0t",
		"2d2d2d2d2d424547494e20", "302e020100300506032b657004220420", "3082025c020100300d06092a864886f70d0101010500",
		"private_key = ", "signing_seed: ", "PRIV=", "seed => '", "`",
		hexRun(40), hexRun(61), hexRun(62), hexRun(64), hexRun(128), "AAAAB3NzaC1yc2EAAAADAQABAAABAQ", "==", "\n", "\r\n  ", " ", "private: true\n",
	}
	rng := rand.New(rand.NewPCG(3, 4))
	ruledOut, matched, foldedSeen := 0, 0, 0
	for n := 0; n < sampled(10000); n++ {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		w := []byte(b.String())
		ms := re.FindAllSubmatchIndex(w, -1)
		var fs [][]int
		cr.read(len(w)) // past foldAfter, the variants are folded
		if fre := cr.searchExprIn(w); fre != nil {
			fs = fre.FindAllSubmatchIndex(w, -1)
			if fre != cr.searchExpr() {
				narrowed++
			}
			if f, ok := sharedRegexps.Load(formsExpr(cr.forms, keyMaterialFormsIn(w))); ok && f.(*ruleRegexp) == fre {
				foldedSeen++
			}
		}
		if !reflect.DeepEqual(fs, ms) {
			t.Fatalf("folded %v, forms %06b of %q: matches %v, the whole expression's %v", folded, keyMaterialFormsIn(w), w, fs, ms)
		}
		if !keyMaterialMayMatch(w) {
			ruledOut++
			if len(ms) > 0 {
				t.Fatalf("ruled out %q, which holds a match %q", w, w[ms[0][0]:ms[0][1]])
			}
		} else if len(ms) > 0 {
			matched++
		}
		if (keyMaterialFormsIn(w) != 0) != keyMaterialMayMatch(w) {
			t.Fatalf("%q: the gate and the forms disagree", w)
		}
	}
	if ruledOut < sampled(500) || matched < sampled(500) || narrowed < sampled(500) {
		t.Errorf("weak test: %d windows ruled out, %d with a match, %d searched by fewer forms", ruledOut, matched, narrowed)
	}
	// (As written, a search may still get a program another scanner of
	// the process folded: the shared tables are keyed by source.)
	if folded && foldedSeen == 0 {
		t.Error("no search used a folded expression")
	}
}

// TestDefaultScannerShared: the scanner of the default configuration is
// built once; another configuration gets its own.
func TestDefaultScannerShared(t *testing.T) {
	a, b := defaultScanner(t), defaultScanner(t)
	if a != b {
		t.Error("two default scanners")
	}
	c, err := NewScanner(Config{})
	if err != nil || c == a {
		t.Errorf("Config{} (localhost not allowed) shares the default scanner: %v", err)
	}
}

// TestScanCapped: the findings kept are Scan's first ones, allowed ones
// kept apart, and the others are counted by rule.
// TestScanCapped: ScanCapped keeps the first findings of each kind and
// counts the rest, as a Scan cut the same way, also when findings past
// the cap are allowed only by a value, a baseline fingerprint or a
// .gitleaksignore line (judging those needs the text, fingerprint or line
// a dropped finding otherwise goes without).
func TestScanCapped(t *testing.T) {
	g := newFakeGen("capped")
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "token=%s\n", g.mixed(base62, 24))
		if i%4 == 0 {
			fmt.Fprintf(&b, "token=%s # %s -- fixture\n", g.mixed(base62, 24), AllowMarker)
		}
	}
	data := []byte(b.String())
	var late []Finding // the last three findings not allowed
	for _, f := range slices.Backward(defaultScanner(t).Scan("a.env", data)) {
		if !f.Allowed && len(late) < 3 {
			late = append(late, f)
		}
	}
	if len(late) < 3 {
		t.Fatalf("%d findings not allowed, want 3 at least", len(late))
	}
	baseline := DefaultConfig()
	baseline.Baseline = map[string]bool{}
	values := DefaultConfig()
	var ignore strings.Builder
	for _, f := range late {
		baseline.Baseline[f.Fingerprint] = true
		values.AllowValues = append(values.AllowValues, regexp.MustCompile("^"+regexp.QuoteMeta(string(data[f.Start:f.End]))+"$"))
		fmt.Fprintf(&ignore, "a.env:%s:%d\n", f.RuleID, f.Line)
	}
	gl := DefaultConfig()
	var err error
	if gl.GitleaksIgnore, err = ParseGitleaksIgnore([]byte(ignore.String())); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, why string
		cfg       Config
	}{{"plain", "", DefaultConfig()}, {"baseline", "baseline", baseline}, {"values", "value", values}, {"gitleaksignore", "gitleaksignore", gl}} {
		s, err := NewScanner(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		all := s.Scan("a.env", data)
		if c.why != "" {
			n := 0
			for _, f := range all {
				if f.AllowReason == c.why {
					n++
				}
			}
			if n != len(late) {
				t.Fatalf("%s: %d findings allowed by it, want %d", c.name, n, len(late))
			}
		}
		// 10: the late allowed ones are past the cap of findings not
		// allowed, and the first is kept with the nine allowed inline
		// while the others are past the cap of allowed ones too.
		for _, keep := range []int{5, 10} {
			kept, more := s.ScanCapped("a.env", data, keep)
			var want []Finding
			wantMore := map[string]int{}
			nAllowed, nOther := 0, 0
			for _, f := range all {
				switch {
				case f.Allowed && nAllowed < keep:
					nAllowed++
					want = append(want, f)
				case f.Allowed:
				case nOther < keep:
					nOther++
					want = append(want, f)
				default:
					wantMore[f.RuleID]++
				}
			}
			if nOther != keep || len(all)-nAllowed-nOther < 20 {
				t.Fatalf("%s: sample too small: %d findings, %d allowed kept", c.name, len(all), nAllowed)
			}
			if !reflect.DeepEqual(kept, want) {
				t.Errorf("%s, keep %d: kept %d findings, want the first %d", c.name, keep, len(kept), len(want))
			}
			if !reflect.DeepEqual(more, wantMore) {
				t.Errorf("%s, keep %d: counted %v, want %v", c.name, keep, more, wantMore)
			}
		}
		if k, m := s.ScanCapped("a.env", data, 0); !reflect.DeepEqual(k, all) || m != nil {
			t.Errorf("%s: ScanCapped(0) is not Scan", c.name)
		}
	}
}

// An endpoint under a name no public suffix holds, or a provider hands
// its users, or that spells an IP, is a team's own; a public name on its
// scheme's default port is a public service's.
func TestEndpointPublicService(t *testing.T) {
	for _, c := range []struct {
		v    string
		want bool
	}{
		{"https://api.openai.com/v1", true},
		{"https://api.stripe.com:443", true},
		{"http://api.example-llm.co.uk/v1", true},
		{"https://api.openai.com:80/v1", false}, // 80 is not https's own port
		{"http://vllm.inference/v1", false},
		{"http://ollama.ai-models:80/v1", false},
		{"http://spark.lab/v1", false},
		{"http://10.0.0.5.nip.io/v1", false},
		{"http://192-168-1-50.sslip.io/v1", false},
		{"https://gpu-box.tail1234.ts.net/", false},
		{"https://abc123.ngrok-free.app/v1", false},
		{"http://spark1/v1", false},
		{"http://[fd7a:115c:a1e0::1]:8000/v1", false},
	} {
		host, port, ok := endpointHost(c.v)
		if !ok {
			t.Errorf("%s: no endpoint", c.v)
			continue
		}
		if got := publicService(c.v, host, port); got != c.want {
			t.Errorf("publicService(%s) = %v, want %v", c.v, got, c.want)
		}
	}
}
