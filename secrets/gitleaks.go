package secrets

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
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
	global := sync.OnceValue(func() *allowlist { return mustAllowlist(set.Allowlist) })
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
			if generic && (!genericKeyIsSecret(c) || hasProviderPrefix(c.Secret)) {
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
	regexes   []*regexp.Regexp
	stopWords []string // lower case
	paths     []*regexp.Regexp
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
		al.regexes = append(al.regexes, re)
	}
	for _, s := range a.Paths {
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, err
		}
		al.paths = append(al.paths, re)
	}
	for _, w := range a.StopWords {
		al.stopWords = append(al.stopWords, strings.ToLower(w))
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
			if re.Match(t) {
				return true
			}
		}
		return false
	}
	stopHit := func() bool {
		l := bytes.ToLower(c.Secret)
		for _, w := range al.stopWords {
			if bytes.Contains(l, []byte(w)) {
				return true
			}
		}
		return false
	}
	// A path criterion holds only for a named file: Redact, which knows no
	// path, redacts what a path allowlist would let through.
	pathHit := func() bool {
		if c.Path == "" {
			return false
		}
		for _, re := range al.paths {
			if re.MatchString(c.Path) {
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
