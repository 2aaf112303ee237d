package secrets

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"

	"github.com/svrnty/sotvet/secrets/internal/gitleaksrules"
)

// The community rule set of gitleaks, converted at generate time from the
// pinned module's config/gitleaks.toml (see internal/gitleaksgen and
// docs/secrets.md). Bump the version here and run go generate.
//
//go:generate go run ./internal/gitleaksgen -version v8.30.1 -o gitleaks_rules.go

// GitleaksVersion is the gitleaks release whose default rules are compiled in.
func GitleaksVersion() string { loadGitleaks(); return gitleaks.set.Version }

var gitleaks struct {
	once  sync.Once
	set   *gitleaksrules.Set
	rules []*Rule // compiled, shared; GitleaksRules hands out copies
	err   error

	pathsOnce sync.Once
	paths     *allowlist // the global path allowlist
}

func loadGitleaks() {
	gitleaks.once.Do(func() {
		gitleaks.set = gitleaksSet
		gitleaks.rules, gitleaks.err = compileGitleaks(gitleaksSet)
	})
	if gitleaks.err != nil {
		// The file is generated and tested; failing here is a build defect.
		panic(gitleaks.err)
	}
}

// GitleaksRules returns fresh copies of the imported gitleaks rules, in the
// file's order, leaving out those whose ID a built-in rule already uses
// (the built-in one is kept: its ID is what existing baselines name) and
// path-only rules, which match a file name, not content.
func GitleaksRules() []*Rule {
	loadGitleaks()
	out := make([]*Rule, len(gitleaks.rules))
	for i, r := range gitleaks.rules {
		c := *r
		out[i] = &c
	}
	return out
}

// builtinIDs are the IDs of the built-in rules, which win over a gitleaks
// rule of the same ID.
var builtinIDs = map[string]bool{
	RuleGCPServiceAccount: true, RulePrivateKey: true, RuleGitHubToken: true, RuleGitHubFineGrained: true,
	RuleGitLabToken: true, RuleAWSAccessKeyID: true, RuleAWSSecretAccessKey: true, RuleGCPAPIKey: true,
	RuleAzureStorageKey: true, RuleAnthropicAPIKey: true, RuleOpenAIAPIKey: true, RuleHuggingFaceToken: true,
	RuleSlackToken: true, RuleSlackWebhook: true, RuleStripeKey: true, RuleNPMToken: true, RulePyPIToken: true,
	RuleJWT: true, RuleBearerToken: true, RuleURLCredentials: true, RuleEndpointValue: true,
	RuleGenericSecret: true, RuleK8sSecretData: true, RuleKeyMaterial: true,
	// Superseded: the built-in rule reports the webhook's secret part, not
	// the whole URL.
	"slack-webhook-url": true,
	// Superseded: the built-in rule reports each encoded value, in any
	// file, and checks that the document is a Secret.
	"kubernetes-secret-yaml": true,
}

// GitleaksAliases maps the ID of a gitleaks rule left out in favour of a
// built-in one to the built-in ID, for .gitleaksignore entries.
var GitleaksAliases = map[string]string{
	"slack-webhook-url":      RuleSlackWebhook,
	"kubernetes-secret-yaml": RuleK8sSecretData,
}

// pathFree lists the gitleaks rules whose path filter sotvet drops: the
// expression names the format's own syntax, and the same text pasted into
// a note or another config file is the same leak.
var pathFree = map[string]bool{
	"nuget-config-password": true, // <add key="ClearTextPassword" value="..."/> (also web.config, app.config)
}

// gitleaksContext is how far around a keyword an imported rule searches
// when its expression can cross lines (gitleaks searches the whole file;
// sotvet the keyword's line and this much around it).
const gitleaksContext = 512

func compileGitleaks(set *gitleaksrules.Set) ([]*Rule, error) {
	// The global path allowlist is applied once per file by the Scanner
	// (see gitleaksPathAllowed); the rules apply the rest.
	globalRest := set.Allowlist
	globalRest.Paths = nil
	global := sync.OnceValue(func() *allowlist { return mustAllowlist(globalRest) })
	var out []*Rule
	for _, gr := range set.Rules {
		if gr.Regex == "" || builtinIDs[gr.ID] {
			continue
		}
		r := &Rule{
			ID:          gr.ID,
			Description: gr.Description,
			lazy:        &lazyRegex{src: gr.Regex},
			SecretGroup: gr.SecretGroup,
			Keywords:    gr.Keywords,
			Source:      "gitleaks " + set.Version,
		}
		if gr.Entropy > 0 {
			// gitleaks wants more than the floor; sotvet at least.
			r.Entropy = math.Nextafter(gr.Entropy, math.Inf(1))
		}
		if gr.Path != "" && !pathFree[gr.ID] {
			var err error
			if r.Path, err = regexp.Compile(gr.Path); err != nil {
				return nil, fmt.Errorf("secrets: gitleaks rule %s: path: %v", gr.ID, err)
			}
		}
		r.Gate = gitleaksGate(gr.Regex, gr.Keywords)
		if multiLine(gr.Regex) {
			r.Before, r.After = gitleaksContext, gitleaksContext
		} else if strings.Contains(gr.Regex, `\s`) {
			// A value on the line after its key (XML), the keyword on
			// either line.
			r.Before, r.After = 256, 256
		}
		var (
			once  sync.Once
			lists []*allowlist
		)
		srcLists := gr.Allowlists
		generic := gr.ID == gitleaksGenericID
		r.Validate = func(c Candidate) bool {
			if generic && (!genericKeyIsSecret(c) || hasProviderPrefix(c.Secret) || isPublicKey(c.Secret)) {
				return false
			}
			once.Do(func() {
				lists = []*allowlist{global()}
				for _, a := range srcLists {
					lists = append(lists, mustAllowlist(a))
				}
			})
			for _, al := range lists {
				if al.allows(c) {
					return false
				}
			}
			return true
		}
		out = append(out, r)
	}
	return out, nil
}

// multiLine reports whether a gitleaks expression is written to span lines.
func multiLine(re string) bool {
	return strings.Contains(re, "(?s") || strings.Contains(re, `\n`) || strings.Contains(re, `\r`) || strings.Contains(re, `[\s\S`)
}

// allowlist is a compiled gitleaks allowlist: a finding is allowed when
// any (condition OR) or every (AND) of its non-empty criteria holds.
type allowlist struct {
	and       bool
	target    string // "secret", "match" or "line"
	regexes   []*prefiltered
	stopWords []string // lower case
	stops     *kwMatcher
	paths     []*prefiltered
	commits   bool // has commit criteria, which a file scan never meets
}

// mustAllowlist compiles an allowlist of the embedded file, which
// TestGitleaksRulesCompile checks.
func mustAllowlist(a gitleaksrules.Allowlist) *allowlist {
	al, err := compileAllowlist(a)
	if err != nil {
		panic(fmt.Sprintf("secrets: embedded gitleaks allowlist: %v", err))
	}
	return al
}

func compileAllowlist(a gitleaksrules.Allowlist) (*allowlist, error) {
	al := &allowlist{target: a.RegexTarget, commits: len(a.Commits) > 0}
	switch strings.ToUpper(a.Condition) {
	case "", "OR":
	case "AND":
		al.and = true
	default:
		return nil, fmt.Errorf("unknown condition %q", a.Condition)
	}
	switch al.target {
	case "":
		al.target = "secret"
	case "secret", "match", "line":
	default:
		return nil, fmt.Errorf("unknown regexTarget %q", a.RegexTarget)
	}
	for _, s := range a.Regexes {
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, err
		}
		al.regexes = append(al.regexes, newPrefiltered(re))
	}
	for _, s := range a.Paths {
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, err
		}
		al.paths = append(al.paths, newPrefiltered(re))
	}
	for _, w := range a.StopWords {
		al.stopWords = append(al.stopWords, strings.ToLower(w))
	}
	if len(al.stopWords) > 0 {
		al.stops = newKWMatcher(al.stopWords, make([]int, len(al.stopWords)))
	}
	return al, nil
}

func (al *allowlist) allows(c Candidate) bool {
	regexHit := func() bool {
		t := c.Secret
		switch al.target {
		case "match":
			t = c.Match
		case "line":
			t = c.Line()
		}
		for _, re := range al.regexes {
			if re.match(t) {
				return true
			}
		}
		return false
	}
	stopHit := func() bool { return al.stops.any(c.Secret) }
	// A path criterion holds only for a named file: Redact, which knows no
	// path, redacts what a path allowlist would let through.
	pathHit := func() bool {
		if c.Path == "" {
			return false
		}
		for _, re := range al.paths {
			if re.match([]byte(c.Path)) {
				return true
			}
		}
		return false
	}
	if al.and {
		if al.commits {
			return false
		}
		n := 0
		for _, crit := range []struct {
			present bool
			hit     func() bool
		}{{len(al.regexes) > 0, regexHit}, {len(al.stopWords) > 0, stopHit}, {len(al.paths) > 0, pathHit}} {
			if !crit.present {
				continue
			}
			if !crit.hit() {
				return false
			}
			n++
		}
		return n > 0
	}
	return (len(al.paths) > 0 && pathHit()) || (len(al.regexes) > 0 && regexHit()) || (len(al.stopWords) > 0 && stopHit())
}

// genericKeyIsSecret applies the built-in generic rule's judgement of the
// name to gitleaks' generic rule: a name ending in a word that describes a
// secret (its digest, id, path, length, ...) does not hold one, which
// keeps the many sha256 digests in sotvet's evidence out.
func genericKeyIsSecret(c Candidate) bool {
	key := c.Match
	if i := bytes.IndexAny(key, "=:>,|?"); i >= 0 {
		key = key[:i]
	}
	words := keyWords(string(key))
	if len(words) == 0 {
		return true
	}
	return !genericMetaWords[words[len(words)-1]] && !genericMetaFirst[words[0]]
}

// gitleaksAllows returns a test that reports whether the allowlists of the
// gitleaks rule id (not the global one) allow a candidate, or nil when the
// rule has none. Built-in rules take the allowlists of their gitleaks
// namesake, and generic-secret those of generic-api-key.
func gitleaksAllows(id string) func(Candidate) bool {
	loadGitleaks()
	for _, gr := range gitleaks.set.Rules {
		if gr.ID != id || len(gr.Allowlists) == 0 {
			continue
		}
		src := gr.Allowlists
		lists := sync.OnceValue(func() []*allowlist {
			var out []*allowlist
			for _, a := range src {
				out = append(out, mustAllowlist(a))
			}
			return out
		})
		return func(c Candidate) bool {
			for _, al := range lists() {
				if al.allows(c) {
					return true
				}
			}
			return false
		}
	}
	return nil
}

// withGitleaksAllowlists makes r also reject what the allowlists of the
// gitleaks rule id allow.
func withGitleaksAllowlists(r *Rule, id string) {
	allows := gitleaksAllows(id)
	if allows == nil {
		return
	}
	valid := r.Validate
	r.Validate = func(c Candidate) bool {
		if valid != nil && !valid(c) {
			return false
		}
		return !allows(c)
	}
}

// assignSignature is how gitleaks' generated rules follow a keyword to
// its value: a few more name characters, quotes or blanks, an operator.
const assignSignature = `(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`

// gitleaksGate derives a cheap keyword gate from an imported expression,
// so that the expression runs only where it can match: after a keyword
// of an assignment rule there must be an operator within reach, and a
// keyword the expression starts at a word boundary must start a word.
func gitleaksGate(re string, keywords []string) func([]byte, int) bool {
	lre := strings.ToLower(strings.TrimPrefix(re, "(?i)"))
	// The assignment gate holds when every keyword is part of the name,
	// before the operator (not a value prefix such as lob's "test_").
	name, _, assign := strings.Cut(re, assignSignature)
	for _, k := range keywords {
		assign = assign && strings.Contains(strings.ToLower(name), strings.ToLower(k))
	}
	var wordStart []string
	if rest, ok := strings.CutPrefix(lre, `\b`); ok {
		rest = strings.TrimPrefix(strings.TrimPrefix(rest, "("), "?:")
		for _, k := range keywords {
			k = strings.ToLower(k)
			// The keyword must be a plain literal at the start, not
			// followed by a quantifier that makes its last byte optional.
			if strings.HasPrefix(rest, k) && !strings.ContainsAny(k, `\[(.*+?{|^$`) &&
				(len(rest) == len(k) || !strings.ContainsAny(rest[len(k):len(k)+1], "?*{")) {
				wordStart = append(wordStart, k)
			}
		}
		if len(wordStart) != len(keywords) {
			wordStart = nil // some keyword is not the literal start: no gate
		}
	}
	if !assign && wordStart == nil {
		return nil
	}
	return func(data []byte, i int) bool {
		if wordStart != nil {
			ok := false
			for _, k := range wordStart {
				st := i + 1 - len(k)
				if st >= 0 && strings.EqualFold(string(data[st:i+1]), k) && (st == 0 || !isWordByte(data[st-1])) {
					ok = true
					break
				}
			}
			if !ok {
				return false
			}
		}
		return !assign || operatorAfter(data, i+1)
	}
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// operatorAfter reports whether data[j:] holds up to 20 name characters,
// up to 3 blanks or quotes and then an assignment operator, as
// assignSignature demands.
func operatorAfter(data []byte, j int) bool {
	for n := 0; n <= 20 && j+n <= len(data); n++ {
		k := j + n
		for q := 0; q <= 3 && k < len(data); q++ {
			switch data[k] {
			case '=', '>', ':', '|', '?', ',':
				return true
			}
			if c := data[k]; c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\f' && c != '\v' && c != '\'' && c != '"' {
				break
			}
			k++
		}
		if j+n >= len(data) {
			break
		}
		if c := data[j+n]; !(isWordByte(c) || c == ' ' || c == '\t' || c == '.' || c == '-') {
			break
		}
	}
	return false
}

// gitleaksPathAllowed reports whether the gitleaks global allowlist skips
// the file at path (lock files, vendored code, images, ...) for the
// imported rules, as gitleaks skips it for all of its rules.
func gitleaksPathAllowed(path string) bool {
	loadGitleaks()
	gitleaks.pathsOnce.Do(func() {
		gitleaks.paths = mustAllowlist(gitleaksrules.Allowlist{Paths: gitleaks.set.Allowlist.Paths})
	})
	return path != "" && gitleaks.paths.allows(Candidate{Path: path})
}

// prefiltered is an expression with a literal every match contains: the
// expression runs only on text holding it (most allowlist expressions fail
// on most text, and a substring search costs far less than a match).
type prefiltered struct {
	re   *regexp.Regexp
	lit  []byte // lower case when fold
	fold bool
}

func newPrefiltered(re *regexp.Regexp) *prefiltered {
	p := &prefiltered{re: re}
	if sre, err := syntax.Parse(re.String(), syntax.Perl); err == nil {
		p.lit, p.fold = requiredLiteral(sre)
	}
	return p
}

func (p *prefiltered) match(b []byte) bool {
	if len(p.lit) > 0 {
		if p.fold {
			if !containsFold(b, p.lit) {
				return false
			}
		} else if !bytes.Contains(b, p.lit) {
			return false
		}
	}
	return p.re.Match(b)
}

// requiredLiteral returns the longest literal of a top-level concatenation
// (every match holds it), and whether it is matched ignoring case.
func requiredLiteral(re *syntax.Regexp) ([]byte, bool) {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	var best []byte
	fold := false
	for _, s := range subs {
		if s.Op == syntax.OpLiteral && len(string(s.Rune)) > len(best) {
			best = []byte(string(s.Rune))
			fold = s.Flags&syntax.FoldCase != 0
		}
	}
	if len(best) < 2 {
		return nil, false
	}
	if fold {
		best = bytes.ToLower(best)
	}
	return best, fold
}

// containsFold reports whether b holds the lower-case ASCII lit, ignoring
// ASCII case.
func containsFold(b, lit []byte) bool {
	for i := 0; i+len(lit) <= len(b); i++ {
		if equalFoldASCII(b[i:i+len(lit)], string(lit)) {
			return true
		}
	}
	return false
}
