package secrets

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/svrnty/sotvet/secrets/internal/thirdparty"
)

// TestMaskWithoutRule: a value whose rule is not known shows nothing.
func TestMaskWithoutRule(t *testing.T) {
	for _, v := range []string{"", "abc", "4821", "Linden" + "baum!19", pGHP + strings.Repeat("x", 36), "日本語のひみつの鍵です"} {
		if got := Mask(v); got != MaskSuffix {
			t.Errorf("Mask(%q) = %q, want %q", v, got, MaskSuffix)
		}
	}
}

// TestRuleMask: a rule's mask shows its expression's literal prefix and
// nothing of a value no literal begins.
func TestRuleMask(t *testing.T) {
	byID := map[string]*Rule{}
	for _, r := range DefaultRules() {
		byID[r.ID] = r
	}
	g := newFakeGen("rule-mask")
	custom := func(expr string) *Rule { return &Rule{ID: "custom", Regex: regexp.MustCompile(expr)} }
	for _, c := range []struct {
		name   string
		rule   *Rule
		secret string
		want   string
	}{
		{"github token", byID[RuleGitHubToken], pGHP + g.mixed(base62, 36), pGHP + MaskSuffix},
		{"github oauth token", byID[RuleGitHubToken], pGHO + g.mixed(base62, 36), pGHO + MaskSuffix},
		{"gitlab token", byID[RuleGitLabToken], pGLPAT + g.mixed(base62, 20), pGLPAT + MaskSuffix},
		{"aws key id", byID[RuleAWSAccessKeyID], pAKIA + g.from(base32up, 16), pAKIA + MaskSuffix},
		{"aws temporary key id", byID[RuleAWSAccessKeyID], pASIA + g.from(base32up, 16), pASIA + MaskSuffix},
		{"slack bot token", byID[RuleSlackToken], pXOXB + "1234567890-1234567890-" + g.mixed(base62, 24), pXOXB + MaskSuffix},
		{"anthropic key", byID[RuleAnthropicAPIKey], pSKANT + "api03-" + g.mixed(base62, 93) + "AA", pSKANT + "api03-" + MaskSuffix},
		{"prefixed token, one of many written prefixes", byID[RulePrefixedToken], pHVS + g.mixed(base62, 12), pHVS + MaskSuffix},
		{"private key", byID[RulePrivateKey], g.pemBlock("RSA PRIVATE KEY", 256, "\n"), "-----BEGIN" + MaskSuffix},
		// a password, a PIN, a passphrase: nothing of them
		{"password", custom(`(?i)password\s*[:=]\s*(?P<secret>\S+)`), "Linden" + "baum!19", MaskSuffix},
		{"pin", custom(`(?i)\bpin\s*[:=]\s*(?P<secret>\d{4})\b`), "48" + "21", MaskSuffix},
		{"passphrase", custom(`(?i)passphrase\s*[:=]\s*"(?P<secret>[^"]+)"`), "correct horse " + "battery staple", MaskSuffix},
		{"connection string's password", custom(`postgres://[^:/\s]+:(?P<secret>[^@\s]+)@`), "s3cr" + "et-pw", MaskSuffix},
		// the whole URL is the secret: its scheme is the rule's literal
		{"whole url", custom(`postgres://[^:/\s]+:[^@\s]+@[\w.]+`), "postgres://app:s3cr" + "et@db.internal", "postgres://" + MaskSuffix},
		// a literal written under (?i) counts in its own letters only
		{"folded literal, lower case", custom(`(?i)\b(tok_[a-z0-9]{20})\b`), "tok_" + g.from(alphaLower, 20), "tok_" + MaskSuffix},
		{"folded literal, upper case", custom(`(?i)\b(tok_[a-z0-9]{20})\b`), "TOK_" + g.from(alphaUpper, 20), "TOK_" + MaskSuffix},
		{"folded literal, mixed case", custom(`(?i)\b(tok_[a-z0-9]{20})\b`), "Tok_" + g.from(alphaLower, 20), MaskSuffix},
		// a class the value begins with is random, not a prefix
		{"class first", custom(`\b[a-f][0-9a-f]{31}\b`), g.from(hexLower, 32), MaskSuffix},
		// no more than the literal, and never the whole value
		{"literal then digits", custom(`\bkey-\d+`), "key-1234", "key-" + MaskSuffix},
		{"literal only", custom(`\bkey-(?:abc)?`), "key-", MaskSuffix},
		// the group SecretGroup names, not the whole match
		{"secret group", &Rule{ID: "g", Regex: regexp.MustCompile(`(?i)(api)[_-]?key\s*=\s*(sk_[a-z0-9]{8,})`), SecretGroup: 2}, "sk_" + g.from(alphaLower, 12), "sk_" + MaskSuffix},
		// the first unnamed group, even though the match begins with a literal
		{"unnamed group", custom(`token=([a-z0-9]{12,})`), g.from(alphaLower, 16), MaskSuffix},
	} {
		if c.rule == nil {
			t.Errorf("%s: no such rule", c.name)
			continue
		}
		if got := c.rule.Mask(c.secret); got != c.want {
			t.Errorf("%s: %s.Mask = %q, want %q", c.name, c.rule.ID, got, c.want)
		}
	}
}

// TestScanMasksPassword: a password finding, its printed form and the
// redacted text hold no character of the password.
func TestScanMasksPassword(t *testing.T) {
	s := defaultScanner(t)
	pw := "Linden" + "baum!19"
	text := "db:\n  password: \"" + pw + "\"\n"
	fs := s.Scan("config.yml", []byte(text))
	if len(fs) == 0 {
		t.Fatal("no finding")
	}
	for _, f := range fs {
		if f.Redacted != MaskSuffix {
			t.Errorf("%s: Redacted = %q, want %q", f.RuleID, f.Redacted, MaskSuffix)
		}
		if strings.Contains(f.String(), pw[:3]) {
			t.Errorf("finding shows part of the password: %s", f)
		}
	}
	red := s.RedactString(text)
	if red != "db:\n  password: \"****\"\n" {
		t.Errorf("Redact = %q", red)
	}
}

// TestMaskRevealsOnlyLiterals: for every rule of the engine (built-in,
// gitleaks, Nosey Parker and Kingfisher), on values generated from its
// expression, on the corpus samples and on the third-party rules' own
// examples, the mask shows a strict prefix of the secret in which no
// character is one a random value could hold: changing it to any of
// several letters, digits or punctuation breaks the match (a literal's
// other case, or another letter of a small class such as gh[pousr]_,
// may keep it; five or more do not).
func TestMaskRevealsOnlyLiterals(t *testing.T) {
	sequentialSweep(t)
	if !ownProcess(t) { // alone, in a process of its own: see ownProcess
		return
	}
	s := defaultScanner(t)
	rules := s.Rules()
	byID := map[string]*Rule{}
	for _, r := range rules {
		byID[r.ID] = r
	}
	rng := rand.New(rand.NewPCG(1, 2))
	shown, checked := 0, 0
	check := func(r *Rule, re *regexp.Regexp, text string, a, b int, mask, what string) {
		t.Helper()
		sec := text[a:b]
		checked++
		if !strings.HasSuffix(mask, MaskSuffix) {
			t.Errorf("%s (%s): mask %q does not end with %q", r.ID, what, mask, MaskSuffix)
			return
		}
		p := strings.TrimSuffix(mask, MaskSuffix)
		if !strings.HasPrefix(sec, p) || len(p) >= len(sec) {
			t.Errorf("%s (%s): mask %q is no strict prefix of the secret and %q", r.ID, what, mask, MaskSuffix)
			return
		}
		if p == "" {
			return
		}
		shown++
		if spanAt(r, re, text, a, b) < 0 {
			return // the expression alone does not find it so (a scanner's window)
		}
		for i := 0; i < len(p); i++ {
			if p[i] >= utf8.RuneSelf {
				continue
			}
			kept := 0
			for _, c := range []byte("abfkqzABFKQZ0123579-_.") {
				if c == p[i] {
					continue
				}
				alt := text[:a+i] + string(c) + text[a+i+1:]
				if spanAt(r, re, alt, a, b) >= 0 {
					kept++
				}
			}
			if kept >= smallClass {
				t.Errorf("%s (%s): mask %q shows byte %d, which %d other characters may be", r.ID, what, mask, i, kept)
				return
			}
		}
	}
	// values generated from each rule's expression
	for _, r := range rules {
		re := r.Expr()
		tree, err := syntax.Parse(re.String(), syntax.Perl)
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		for k := 0; k < 6; k++ {
			text := " " + string(genMatch(rng, tree, nil)) + " "
			for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
				a, b := secretOfMatch(r, re, m)
				if a < b {
					check(r, re, text, a, b, r.Mask(text[a:b]), "generated")
				}
			}
		}
	}
	// the corpus samples and the third-party examples, as the scanner
	// reports them
	scanned := func(path, text, what string) {
		for _, f := range s.Scan(path, []byte(text)) {
			r := byID[f.RuleID]
			if r == nil {
				t.Errorf("finding of unknown rule %s", f.RuleID)
				continue
			}
			if want := r.Mask(text[f.Start:f.End]); f.Redacted != want {
				t.Errorf("%s (%s): Redacted = %q, want the rule's mask %q", f.RuleID, what, f.Redacted, want)
			}
			check(r, r.Expr(), text, f.Start, f.End, f.Redacted, what)
		}
	}
	for _, sm := range corpusSamples() {
		path := "dir/" + sm.name + ".md"
		if sm.path != "" {
			path = "dir/" + sm.path
		}
		scanned(path, sm.text, "sample "+sm.name)
	}
	tpRules, err := thirdparty.Load("rules/third_party")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tpRules {
		for _, ex := range r.Examples {
			scanned("example.conf", ex, "example of "+r.ID)
		}
	}
	t.Logf("%d secrets checked, %d with a public prefix", checked, shown)
	if checked < 1000 || shown < 100 {
		t.Errorf("only %d secrets checked, %d with a public prefix", checked, shown)
	}
}

// spanAt returns the index of a match of re in text whose secret (for r)
// is text[a:b], -1 when there is none.
func spanAt(r *Rule, re *regexp.Regexp, text string, a, b int) int {
	for i, m := range re.FindAllStringSubmatchIndex(text, -1) {
		if x, y := secretOfMatch(r, re, m); x == a && y == b {
			return i
		}
	}
	return -1
}

// secretOfMatch returns the secret's offsets in a match m of re, as the
// scanner picks them (compiledRule.secretSpan).
func secretOfMatch(r *Rule, re *regexp.Regexp, m []int) (int, int) {
	names := re.SubexpNames()
	named := false
	for i, n := range names {
		if n == "secret" {
			named = true
			if m[2*i] >= 0 {
				return m[2*i], m[2*i+1]
			}
		}
	}
	if named {
		return m[0], m[1]
	}
	if g := r.SecretGroup; g > 0 {
		if 2*g+1 < len(m) && m[2*g] >= 0 {
			return m[2*g], m[2*g+1]
		}
		return m[0], m[1]
	}
	for i, n := range names {
		if i > 0 && n == "" && m[2*i] >= 0 && m[2*i+1] > m[2*i] {
			return m[2*i], m[2*i+1]
		}
	}
	return m[0], m[1]
}

// ruleOf returns the rule of s with the given ID.
func ruleOf(s *Scanner, id string) *Rule {
	for _, r := range s.Rules() {
		if r.ID == id {
			return r
		}
	}
	panic("no rule " + id)
}

// TestPreparedPublicPrefixes: the public prefixes a rule works out from
// the parse prepare makes (preparePublic) are those of its source as
// written, for every rule of the engine: a stripped name prefix, or a
// tree the filter changes later, would show more or less of a secret.
func TestPreparedPublicPrefixes(t *testing.T) {
	s := defaultScanner(t)
	prepared := 0
	for _, cr := range s.rules {
		src, ok := cr.exprSource()
		if !ok || cr.Regex != nil {
			continue
		}
		cr.prepare()
		want := computePublicPrefixes(src, cr.SecretGroup)
		if !reflect.DeepEqual(cr.public, want) {
			t.Errorf("%s: prepared public prefixes %v, its source's %v", cr.ID, cr.public, want)
		}
		prepared++
	}
	if prepared < 800 {
		t.Fatalf("only %d rules prepared", prepared)
	}
}
