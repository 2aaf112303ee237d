package secrets

import (
	"bytes"
	"fmt"
	"math"
	"math/bits"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/svrnty/sotvet/secrets/internal/gitleaksrules"
)

// The community rule set of gitleaks, converted at generate time from the
// pinned module's config/gitleaks.toml (see internal/gitleaksgen and
// docs/secrets.md). Bump the version here and run go generate.
//
//go:generate go run -tags devtools ./internal/gitleaksgen -version v8.30.1 -o gitleaks_rules.go

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

// sourceName is the short name of a rule set's project: "gitleaks",
// "noseyparker", "kingfisher".
func sourceName(module string) string {
	if module == "" || strings.Contains(module, "gitleaks") {
		return "gitleaks"
	}
	return module[strings.LastIndexByte(module, '/')+1:]
}

// The rules of Nosey Parker and Kingfisher, converted at generate time
// from the YAML files checked in under rules/third_party (see
// internal/thirdparty and docs/secrets.md). Edit those files and run go
// generate.
//
//go:generate go run -tags devtools ./internal/thirdpartygen -o thirdparty_rules.go -report rules/third_party/IMPORT.md

var thirdParty struct {
	once  sync.Once
	rules []*Rule
	err   error
}

// ThirdPartyRules returns fresh copies of the imported Nosey Parker and
// Kingfisher rules. Their expressions compile on first use (lazily, when
// a keyword of the rule is in the file).
func ThirdPartyRules() []*Rule {
	thirdParty.once.Do(func() {
		for _, set := range thirdPartySets {
			rs, err := compileGitleaks(set)
			if err != nil {
				thirdParty.err = err
				return
			}
			thirdParty.rules = append(thirdParty.rules, rs...)
		}
	})
	if thirdParty.err != nil {
		panic(thirdParty.err) // generated and tested: a build defect
	}
	out := make([]*Rule, len(thirdParty.rules))
	for i, r := range thirdParty.rules {
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

// The end of a token in gitleaks' expressions, and the same end that also
// takes an escaped quote.
const (
	gitleaksTokenEnd        = `(?:[\x60'"\s;]|\\[nr]|$)`
	gitleaksTokenEndEscaped = `(?:[\x60'"\s;]|\\[nr"'\x60]|$)`
)

func compileGitleaks(set *gitleaksrules.Set) ([]*Rule, error) {
	// The global path allowlist is applied once per file by the Scanner
	// (see gitleaksPathAllowed); the rules apply the rest.
	globalRest := set.Allowlist
	globalRest.Paths = nil
	global := sync.OnceValue(func() *allowlist { return mustAllowlist(globalRest) })
	var out []*Rule
	source := sourceName(set.Module) + " " + set.Version
	for _, gr := range set.Rules {
		if gr.Regex == "" || builtinIDs[gr.ID] {
			continue
		}
		src, longOK := gr.Regex, func([]byte) bool { return true }
		if rw, ok := gitleaksRewrites[gr.ID]; ok {
			if !strings.Contains(src, rw.from) {
				return nil, fmt.Errorf("secrets: gitleaks rule %s: rewrite %q does not apply", gr.ID, rw.from)
			}
			src = strings.Replace(src, rw.from, rw.to, 1)
			longOK = rw.valid
		}
		// gitleaks ends a token at a quote, a blank or an escaped \n; a
		// token in a string that is itself inside a string (a notebook's
		// source line "x = \"SG.…\"\n") ends at an escaped quote
		src = strings.ReplaceAll(src, gitleaksTokenEnd, gitleaksTokenEndEscaped)
		r := &Rule{
			ID:          gr.ID,
			Description: gr.Description,
			lazy:        &lazyRegex{src: src},
			SecretGroup: gr.SecretGroup,
			Keywords:    gr.Keywords,
			Source:      source,
		}
		if gr.Entropy > 0 {
			// gitleaks wants more than the floor; sotvet at least.
			r.Entropy = math.Nextafter(gr.Entropy, math.Inf(1))
		}
		r.notProse = notInProse[gr.ID]
		if gr.Path != "" && !pathFree[gr.ID] {
			var err error
			if r.Path, err = regexp.Compile(gr.Path); err != nil {
				return nil, fmt.Errorf("secrets: gitleaks rule %s: path: %v", gr.ID, err)
			}
		}
		nameStart := set.Module != "github.com/zricethezav/gitleaks/v8"
		r.Gate = lazyGate(func() func([]byte, int) bool {
			g := gitleaksGate(gr.Regex, gr.Keywords)
			if nameStart {
				g = andGate(g, nameStartGate(gr.Regex, gr.Keywords))
			}
			return g
		})
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
		// A value its name calls public is none of a provider's secrets,
		// except to a rule that reports a public key on purpose
		// (mailgun-pub-key); the generic rule's allowlist has the names.
		namedPublicSkips := !generic && !strings.Contains(gr.ID, "pub")
		storedHash := pwHashRules[gr.ID]
		weakWord := gr.ID == "kingfisher.weak_password.1"
		r.Validate = func(c Candidate) bool {
			if !longOK(c.Secret) {
				return false
			}
			if weakWord && namedField(c) {
				return false
			}
			if storedHash && (namesItsHash(c) || c.memo != nil && c.memo.hashColumn(c.base+c.Offset, c.Secret)) {
				return false
			}
			// A value with a provider's prefix is not skipped: when the
			// provider's rule reports it, that rule wins the overlap (it
			// ranks first); when it does not, the generic rule still
			// reports the value, as gitleaks does, unless its tail is
			// shorter than any format of that provider (cutShort).
			if namedPublicSkips && publicKeyNamed(c) {
				return false
			}
			if generic && (!genericKeyIsSecret(c) || nameOnLineBefore(c.Match) || valueIsItsName(c) || isPublicKey(c.Secret) || cutShort(c.Secret) || isHostname(c.Secret) || proseComma(c.Match) || nextEnvName(c.Secret) || settingPair(c.Secret) || memberChain(c.Secret)) {
				return false
			}
			once.Do(func() {
				lists = []*allowlist{global()}
				for _, a := range srcLists {
					lists = append(lists, mustAllowlist(repairAllowlist(gr.ID, a)))
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

// publicKeyNamed reports a match whose name, before its value, says the
// value is public: DISCORD_PUBLIC_KEY = "…" (the key Discord verifies
// interactions with), pubKey: …. Gitleaks' generic rule allows these
// names (pub(lic)?[_.-]?key, public[_.-]?token); its rules anchored on a
// provider's name did not ask.
func publicKeyNamed(c Candidate) bool {
	end := c.Offset - c.MatchOffset
	return end > 0 && end <= len(c.Match) && publicKeyNameRE.Match(c.Match[:end])
}

var publicKeyNameRE = lazyRE.New(`(?i)pub(?:lic)?[_.-]?key|public[_.-]?token`)

// proseComma reports whether the assignment operator of a match of an
// assignment rule is a bare comma: gitleaks takes `"key", "value"` (an
// argument list) for an assignment, and with it every list in prose
// ("18-secrets-peer2, 13-fidelity2"). A markdown reader sees an
// assignment in key = value, key: value or a quoted key before a comma,
// so a comma counts only after a quote.
func proseComma(match []byte) bool {
	i := 0
	for i < len(match) && (isWordByte(match[i]) || match[i] == '.' || match[i] == '-' || match[i] == ' ' || match[i] == '\t') {
		i++
	}
	quoted := false
	for i < len(match) {
		switch match[i] {
		case '\'', '"':
			quoted = true
			i++
			continue
		case ' ', '\t', '\r', '\n':
			i++
			continue
		}
		break
	}
	return i < len(match) && match[i] == ',' && !quoted
}

// nextEnvName reports whether a generic value is the name of the next
// line's variable: in an env file, a key whose value is left blank or is
// a <placeholder> runs on to "SENDGRID_API_KEY=" on the line below, which
// gitleaks' value class (it takes "=") reads as the value. gitleaks drops
// it by a stop word inside the name ("send"); whole-word stop words do not.
func nextEnvName(v []byte) bool {
	n := len(v)
	for n > 0 && v[n-1] == '=' {
		n--
	}
	return n < len(v) && envNameRE.Match(v[:n])
}

// settingPair reports a value that is itself a setting, a name and a
// number or a word ("min_length=14", "require_symbols=true"): gitleaks'
// generic rule reads "password policy updated: min_length=14" as a
// password's value, since its value class holds "=". A setting of a
// token ("token=ghp_…") is not one: its right side is a word of letters
// of one case, or digits, of at most 12 bytes.
func settingPair(v []byte) bool {
	name, val, ok := bytes.Cut(v, []byte("="))
	if !ok || len(name) == 0 || len(val) == 0 || len(val) > 12 || !envNameRE.Match(name) && !isIdentifier(name) {
		return false
	}
	return isDigits(val) || isLowerASCII(val)
}

func isIdentifier(b []byte) bool {
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return len(b) > 0
}

// gitleaksRewrite replaces part of an imported expression by one that
// matches the same texts at a cost that does not grow with a bound,
// valid holding what the replaced part held besides.
type gitleaksRewrite struct {
	from, to string
	valid    func(secret []byte) bool
}

// gitleaksRewrites: the generic rule's value is a run of 10 to 150 value
// characters followed by a character outside them. RE2 unrolls {10,150}
// into 150 states, and every keyword of a line of keywords started a
// search that walked them all; a run of 10 or more, at most 150 long
// unless the second alternative (base64, unbounded) takes it, is the
// same set of matches.
var gitleaksRewrites = map[string]gitleaksRewrite{
	gitleaksGenericID: {
		from:  `([\w.=-]{10,150}|`,
		to:    `([\w.=-]{10,}|`,
		valid: func(sec []byte) bool { return len(sec) <= 150 || genericLongValueRE.Match(sec) },
	},
}

var genericLongValueRE = lazyRE.New(`(?i)^[a-z0-9][a-z0-9+/]{11,}={0,3}$`)

// multiLine reports whether a gitleaks expression is written to span lines.
func multiLine(re string) bool {
	return strings.Contains(re, "(?s") || strings.Contains(re, `\n`) || strings.Contains(re, `\r`) || strings.Contains(re, `[\s\S`)
}

// allowlist is a compiled gitleaks allowlist: a finding is allowed when
// any (condition OR) or every (AND) of its non-empty criteria holds.
type allowlist struct {
	and       bool
	target    string // "secret", "match" or "line"
	regexes   *regexSet
	stopWords []string // lower case
	stops     *stopSet
	paths     *regexSet
	commits   bool // has commit criteria, which a file scan never meets
	// lettersOnly stands for the expression ^[a-zA-Z_.-]+$ (gitleaks'
	// generic rule: a name, not a value), which sotvet reads as
	// lettersOnlyName: a random run of letters is a value.
	lettersOnly bool
}

// lettersOnlyExpr is the allowlist expression lettersOnlyName replaces.
const lettersOnlyExpr = `^[a-zA-Z_.-]+$`

// lettersOnlyName is what gitleaks' ^[a-zA-Z_.-]+$ stands for: a value
// of letters and separators that is a name, a word or a mode. A key drawn
// at random from letters and digits holds no digit about one time in 280
// at 32 bytes ((52/62)^32), and gitleaks drops it; a run of letters whose
// case flips as a random draw's does (randomLetters) is kept as a value.
func lettersOnlyName(v []byte) bool {
	for _, b := range v {
		if !('a' <= b|0x20 && b|0x20 <= 'z' || b == '_' || b == '.' || b == '-') {
			return false
		}
	}
	return len(v) > 0 && !randomLetters(v)
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
	var err error
	regexes := a.Regexes
	if i := slices.Index(regexes, lettersOnlyExpr); i >= 0 && al.target == "secret" {
		al.lettersOnly = true
		regexes = slices.Delete(slices.Clone(regexes), i, i+1)
	}
	if al.regexes, err = newRegexSet(regexes); err != nil {
		return nil, err
	}
	if al.paths, err = newRegexSet(a.Paths); err != nil {
		return nil, err
	}
	for _, w := range a.StopWords {
		al.stopWords = append(al.stopWords, strings.ToLower(w))
	}
	if len(al.stopWords) > 0 {
		al.stops = newStopSet(al.stopWords)
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
			if c.memo != nil {
				return c.memo.lineMatches(al.regexes, c)
			}
			t = c.Line()
		}
		return al.lettersOnly && lettersOnlyName(t) || al.regexes.any(t)
	}
	stopHit := func() bool { return al.stops.any(c.Secret) }
	// A path criterion holds only for a named file: Redact, which knows no
	// path, redacts what a path allowlist would let through.
	pathHit := func() bool {
		if c.Path == "" {
			return false
		}
		if c.memo != nil {
			return c.memo.pathMatches(al.paths, c.Path)
		}
		return al.paths.any([]byte(c.Path))
	}
	if al.and {
		if al.commits {
			return false
		}
		// Every criterion must hold: the cheapest are asked first (a
		// file's path once, not a line expression per candidate).
		n := 0
		for _, crit := range []struct {
			present bool
			hit     func() bool
		}{{al.paths.len() > 0, pathHit}, {len(al.stopWords) > 0, stopHit}, {al.regexes.len() > 0 || al.lettersOnly, regexHit}} {
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
	// The stop words first: cheaper than an expression.
	return (al.paths.len() > 0 && pathHit()) || (len(al.stopWords) > 0 && stopHit()) || ((al.regexes.len() > 0 || al.lettersOnly) && regexHit())
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
	if c.memo != nil {
		return c.memo.keyJudged(keyGitleaksGeneric, key, gitleaksKeyNamesSecret)
	}
	return gitleaksKeyNamesSecret(key)
}

// valueIsItsName reports whether a generic match assigns a name its own
// name: a variable of the same name (c.syncauthorizationrequest =
// syncauthorizationrequest), a key that repeats itself. No secret.
func valueIsItsName(c Candidate) bool {
	key := c.Match
	if i := bytes.IndexAny(key, "=:>,|?"); i >= 0 {
		key = key[:i]
	}
	key = bytes.Trim(key, " \t'\"`")
	if i := bytes.LastIndexAny(key, ". \t"); i >= 0 {
		key = key[i+1:]
	}
	return bytes.EqualFold(key, c.Secret)
}

// nameOnLineBefore reports whether a match of the generic rule has a
// line break between its name and its operator: gitleaks lets up to three
// spaces or quotes stand there, and "\s" takes a newline, so a line of
// prose ending "…the key in the data" reads as the name of a "= '…'" on
// the next line. No language or config format writes an assignment so.
func nameOnLineBefore(match []byte) bool {
	op := bytes.IndexAny(match, "=:>,|?")
	return op > 0 && bytes.IndexByte(match[:op], '\n') >= 0
}

func gitleaksKeyNamesSecret(key []byte) bool {
	words := keyWords(string(key))
	if len(words) == 0 {
		return true
	}
	return !genericMetaWords[words[len(words)-1]] && !genericMetaFirst[words[0]] && !handleTokenName(words)
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
				out = append(out, mustAllowlist(repairAllowlist(id, a)))
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

// allowlistRepairs are corrections to gitleaks' allowlist expressions,
// each an alternative replaced in the expressions of one rule's
// allowlists. TestAllowlistRepairsApply holds each to the pinned rule file:
// one whose text is gone fails it, and is then looked at again.
var allowlistRepairs = []struct{ rule, from, to, why string }{{
	rule: gitleaksGenericID, from: "|author|", to: "|author(?:$|[^i]|i(?:$|[^z])|iz(?:$|[^a]))|",
	// The alternative leaves out an author's name (author = "Jane Roe"),
	// but as a substring of the match it also left out every value named
	// for an authorization: AUTHORIZATION_TOKEN="…", "authorization":
	// "…" (a CredSweeper sample). It still leaves out what is authorized
	// or authorizes (authorized_network, authorize_url) and an authority.
	why: "author, authorized, authority; not authorization",
}}

// repairAllowlist returns a with the expressions allowlistRepairs corrects
// for the rule id corrected.
func repairAllowlist(id string, a gitleaksrules.Allowlist) gitleaksrules.Allowlist {
	var regexes []string
	for _, r := range allowlistRepairs {
		if r.rule != id {
			continue
		}
		for i, re := range a.Regexes {
			if strings.Contains(re, r.from) {
				if regexes == nil {
					regexes = slices.Clone(a.Regexes)
				}
				regexes[i] = strings.ReplaceAll(regexes[i], r.from, r.to)
			}
		}
	}
	if regexes != nil {
		a.Regexes = regexes
	}
	return a
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

// regexSet is a list of expressions of which any may match, with a
// prefilter: most allowlist expressions fail on most text, and the global
// path list runs on every file scanned. An expression with literals one
// of which each of its matches holds (see requiredLiterals) runs only
// when one of them is in the text, found for all expressions at once by
// one pass of an automaton; an expression anchored at the start with a
// literal first byte runs only on text starting with it; the rest always
// run. An expression is compiled when it first runs: most never do (the
// global path list's ~40 on a workspace of markdown and YAML).
type regexSet struct {
	res   []*lazyRegex
	first []int // the byte text must start with for res[i] to match, or -1
	// lits finds the literals of all expressions in one pass, when there
	// are many (the global path list); a short list compares each
	// expression's own literals (litsOf, lower case when foldOf).
	lits   *kwMatcher
	litsOf [][][]byte
	foldOf []bool
	always []int // expressions without literals, in order
	// cutFree[i]: expression i has no zero-width assertion (see
	// textMemo).
	cutFree []bool
	// atStart[i]: every match of expression i begins at the start of the
	// text (^...): its filter reads the text anchored, and rules out at
	// the first byte that cannot begin a match what it would otherwise
	// search for to the end (^[a-zA-Z_.-]+$ on every generic value).
	atStart []bool
	// filters hold each expression's DFA filter (dfa.go), built once it
	// has run regexSetDFAAfter times: the generic allowlist runs on every
	// candidate of a line dense with assignments.
	filters []regexFilter
}

type regexFilter struct {
	runs atomic.Int64
	once sync.Once
	dfa  atomic.Pointer[prefilterDFA]
}

// regexSetDFAAfter is how many times an allowlist expression runs before
// its filter is built.
const regexSetDFAAfter = 256

// match reports whether expression i matches b, asking its filter first.
func (rs *regexSet) match(i int, b []byte) bool {
	return rs.mayMatch(i, b) && rs.res[i].get().Match(b)
}

// mayMatch reports whether expression i's filter lets b through: false
// only where the expression cannot match.
func (rs *regexSet) mayMatch(i int, b []byte) bool {
	f := &rs.filters[i]
	if useDFA {
		d := f.dfa.Load()
		if d == nil && f.runs.Add(1) >= regexSetDFAAfter {
			f.once.Do(func() {
				if d := newPrefilterDFA(rs.res[i].src, allowlistFilters); d != nil {
					f.dfa.Store(d)
				}
			})
			d = f.dfa.Load()
		}
		if d != nil && !d.mayMatch(b, rs.atStart[i], false) {
			return false
		}
	}
	return true
}

// automatonLiterals is how many literals a regexSet needs before one
// automaton finds them faster than a substring search for each.
const automatonLiterals = 16

func newRegexSet(srcs []string) (*regexSet, error) {
	rs := &regexSet{}
	srcs = splitAlternations(srcs)
	var kws []string
	var kwRe []int
	for i, src := range srcs {
		// The parse is regexp.Compile's: an expression it takes compiles.
		sre, err := syntax.Parse(src, syntax.Perl)
		if err != nil {
			return nil, err
		}
		rs.res = append(rs.res, &lazyRegex{src: src})
		rs.first = append(rs.first, -1)
		rs.litsOf = append(rs.litsOf, nil)
		rs.foldOf = append(rs.foldOf, false)
		rs.cutFree = append(rs.cutFree, cutFree(sre))
		rs.atStart = append(rs.atStart, beginsAtTextStart(sre))
		if lits, fold, ok := requiredLiterals(sre); ok && shortest(lits) >= 2 && len(srcs) <= 64 {
			for j, l := range lits {
				kws = append(kws, string(l))
				kwRe = append(kwRe, i)
				if fold {
					lits[j] = bytes.ToLower(l)
				}
			}
			rs.litsOf[i], rs.foldOf[i] = lits, fold
			continue
		}
		rs.first[i] = anchoredFirstByte(sre)
		rs.always = append(rs.always, i)
	}
	if len(kws) >= automatonLiterals {
		rs.lits = newKWMatcher(kws, kwRe)
	}
	rs.filters = make([]regexFilter, len(rs.res))
	return rs, nil
}

func (rs *regexSet) len() int {
	if rs == nil {
		return 0
	}
	return len(rs.res)
}

// any reports whether some expression matches b.
func (rs *regexSet) any(b []byte) bool {
	for _, i := range rs.always {
		if f := rs.first[i]; f >= 0 && (len(b) == 0 || int(b[0]) != f) {
			continue
		}
		if rs.match(i, b) {
			return true
		}
	}
	if rs.lits != nil {
		for cand := rs.lits.hitMask(b); cand != 0; cand &= cand - 1 {
			if rs.match(bits.TrailingZeros64(cand), b) {
				return true
			}
		}
		return false
	}
	for i, lits := range rs.litsOf {
		if lits != nil && holdsLiteral(b, lits, rs.foldOf[i]) && rs.match(i, b) {
			return true
		}
	}
	return false
}

// equalFoldBytes reports whether b equals the lower-case ASCII l,
// ignoring ASCII case.
func equalFoldBytes(b, l []byte) bool {
	for i, c := range l {
		d := b[i]
		if 'A' <= d && d <= 'Z' {
			d += 'a' - 'A'
		}
		if d != c {
			return false
		}
	}
	return true
}

// holdsLiteral reports whether b contains one of lits (lower case, and
// compared ignoring ASCII case, when fold).
func holdsLiteral(b []byte, lits [][]byte, fold bool) bool {
	for _, l := range lits {
		if !fold {
			if bytes.Contains(b, l) {
				return true
			}
			continue
		}
		c0, c1 := l[0], l[0]
		if 'a' <= c0 && c0 <= 'z' {
			c1 = c0 - ('a' - 'A')
		}
		for i := 0; i+len(l) <= len(b); i++ {
			if b[i] == c0 || b[i] == c1 {
				if equalFoldBytes(b[i:i+len(l)], l) {
					return true
				}
			}
		}
	}
	return false
}

// beginsAtTextStart reports whether re is \A (or ^ without m) followed
// by the rest, so that every match begins at the start of the text.
func beginsAtTextStart(re *syntax.Regexp) bool {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	return re.Op == syntax.OpConcat && len(re.Sub) > 0 && re.Sub[0].Op == syntax.OpBeginText
}

// anchoredFirstByte returns the byte every match of re starts with when re
// is anchored at the start of the text and a literal follows (^\$...), or -1.
func anchoredFirstByte(re *syntax.Regexp) int {
	if !beginsAtTextStart(re) {
		return -1
	}
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	if len(re.Sub) < 2 {
		return -1
	}
	lit := re.Sub[1]
	if lit.Op != syntax.OpLiteral || lit.Flags&syntax.FoldCase != 0 || lit.Rune[0] >= 0x80 {
		return -1
	}
	return int(lit.Rune[0])
}

// requiredLiterals returns literals one of which every match of re holds,
// whether they are to be matched ignoring case, and false when it finds
// no such set. Of a concatenation it takes the longest run of exactly
// known parts (their cross product: "v" then "sidx" or "2" is "vsidx" or
// "v2") or the part whose set has the longest shortest literal; of an
// alternation the union of its branches'.
func requiredLiterals(re *syntax.Regexp) ([][]byte, bool, bool) {
	lits, fold, _, ok := literalSet(re)
	return lits, fold, ok
}

// maxLiteralSet bounds the cross products of literalSet.
const maxLiteralSet = 64

// literalSet is requiredLiterals, and reports too whether re matches
// exactly one of the literals (then it is part of a longer literal).
func literalSet(re *syntax.Regexp) (lits [][]byte, fold, exact, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return [][]byte{[]byte(string(re.Rune))}, re.Flags&syntax.FoldCase != 0, true, true
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return [][]byte{nil}, false, true, true
	case syntax.OpCapture:
		return literalSet(re.Sub[0])
	case syntax.OpPlus:
		lits, fold, _, ok := literalSet(re.Sub[0])
		return lits, fold, false, ok
	case syntax.OpRepeat:
		if re.Min >= 1 {
			lits, fold, _, ok := literalSet(re.Sub[0])
			return lits, fold, false, ok
		}
	case syntax.OpQuest:
		if lits, fold, exact, ok := literalSet(re.Sub[0]); ok && exact {
			return append([][]byte{nil}, lits...), fold, true, true
		}
	case syntax.OpConcat:
		var best [][]byte
		bestFold := false
		consider := func(l [][]byte, f bool) {
			if l != nil && (best == nil || shortest(l) > shortest(best)) {
				best, bestFold = l, f
			}
		}
		var run [][]byte // cross product of the current run of exact parts
		runFold, inRun, allExact := false, false, true
		for _, sub := range re.Sub {
			l, f, e, ok := literalSet(sub)
			if ok && e && (!inRun || len(run)*len(l) <= maxLiteralSet) {
				if !inRun {
					run, runFold, inRun = l, f, true
					continue
				}
				var next [][]byte
				for _, a := range run {
					for _, b := range l {
						next = append(next, append(append([]byte(nil), a...), b...))
					}
				}
				run, runFold = next, runFold || f
				continue
			}
			allExact = false
			if inRun {
				consider(run, runFold)
				inRun = false
			}
			if ok && e { // too many combinations: start a new run
				run, runFold, inRun = l, f, true
				continue
			}
			if ok {
				consider(l, f)
			}
		}
		if inRun {
			consider(run, runFold)
		}
		return best, bestFold, allExact && best != nil, best != nil
	case syntax.OpAlternate:
		var all [][]byte
		allFold, allExact := false, true
		for _, sub := range re.Sub {
			l, f, e, ok := literalSet(sub)
			if !ok {
				return nil, false, false, false
			}
			all = append(all, l...)
			allFold, allExact = allFold || f, allExact && e
		}
		return all, allFold, allExact, len(all) > 0
	}
	return nil, false, false, false
}

// splitAlternations returns srcs with each expression that is an
// alternation at the top replaced by its branches, when that keeps the
// list within what one literal automaton serves (64): any of the list
// matches exactly when it did, but each branch runs only when its own
// literals are in the text, and a branch is a small program. One
// allowlist of gitleaks' generic rule is 27 branches under (?i), which,
// run whole on every candidate, cost some 20µs each (a scan dense with
// candidates paid it per 20 bytes).
func splitAlternations(srcs []string) []string {
	var out []string
	for _, src := range srcs {
		re, err := syntax.Parse(src, syntax.Perl)
		if err != nil || re.Op != syntax.OpAlternate {
			out = append(out, src)
			continue
		}
		for _, sub := range re.Sub {
			out = append(out, regexpString(sub)) // not String(): see writeRegexp
		}
	}
	if len(out) > 64 {
		return srcs
	}
	return out
}

// shortest returns the length of the shortest of lits.
func shortest(lits [][]byte) int {
	n := -1
	for _, l := range lits {
		if n < 0 || len(l) < n {
			n = len(l)
		}
	}
	return n
}

// nameStartGate: a third-party rule whose expression begins with its
// keywords, names in the source's dialect without a \b ("(?i)(?:okta|ssws)
// .{0,40}…"), takes a hit only where the keyword starts a word or a part
// of a name (OKTA_TOKEN, myOktaKey), not inside one (rookTable).
func nameStartGate(re string, keywords []string) func([]byte, int) bool {
	lre := strings.ToLower(re)
	for _, f := range []string{"(?i)", "(?s)", "(?m)", "(?is)", "(?si)"} {
		lre = strings.TrimPrefix(lre, f)
	}
	// the leading alternation, (?:okta|ssws), or a literal
	lead := []string{lre}
	if rest, ok := strings.CutPrefix(lre, "(?:"); ok {
		alts, _, ok := strings.Cut(rest, ")")
		if !ok {
			return nil
		}
		lead = strings.Split(alts, "|")
	}
	lens := map[int]bool{}
	for _, k := range keywords {
		lk := strings.ToLower(k)
		ok := false
		for _, a := range lead {
			ok = ok || a == lk || len(lead) == 1 && strings.HasPrefix(a, lk)
		}
		if !ok || len(lk) < 3 {
			return nil
		}
		for _, c := range []byte(lk) {
			if c < 'a' || c > 'z' {
				return nil // a prefix with a separator already marks a start
			}
		}
		lens[len(lk)] = true
	}
	return func(data []byte, i int) bool {
		for n := range lens {
			st := i + 1 - n
			if st <= 0 {
				return true
			}
			p, c := data[st-1], data[st]
			if !isWordByte(p) || p == '_' || ('a' <= p && p <= 'z' || '0' <= p && p <= '9') && 'A' <= c && c <= 'Z' {
				return true
			}
		}
		return false
	}
}

// lazyGate is the gate build returns, built on its first call: most
// imported rules' keywords never occur in a run's text, and deriving every
// rule's gate from its expression at load cost ~2 ms a process. A nil gate
// passes everywhere.
func lazyGate(build func() func([]byte, int) bool) func([]byte, int) bool {
	gate := sync.OnceValue(build)
	return func(data []byte, i int) bool {
		g := gate()
		return g == nil || g(data, i)
	}
}

// andGate passes where both gates do (a nil gate passes everywhere).
func andGate(a, b func([]byte, int) bool) func([]byte, int) bool {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return func(data []byte, i int) bool { return a(data, i) && b(data, i) }
}

// notInProse are the imported rules whose matches in notes and prose are
// no secret of anyone's (issue 33, the blind notes of round 19): a crypt(3)
// hash quoted to say which scheme and cost a system uses, a blog's list
// of the most common passwords. In a file of code or configuration they
// stay: /etc/shadow's $6$, .htpasswd's $2y$, a seed's bcrypt are crackable
// offline, and a compose file's root password of a common word and
// digits is someone's password.
var notInProse = map[string]bool{
	"np.pwhash.1": true, "np.pwhash.2": true, "np.pwhash.3": true, "np.pwhash.4": true, "np.pwhash.5": true,
	"kingfisher.weak_password.1": true,
}

// namedField reports whether a weak password's word is a name, not a
// value: the target of an assignment or a key ("password1 =
// forms.CharField(…)", "password2:") or a form field's name or id
// (name="password1"), as Django's sign-up form writes its two password
// fields.
func namedField(c Candidate) bool {
	end := c.Offset + len(c.Secret)
	rest := c.Context[end:]
	i := 0
	for i < len(rest) && (rest[i] == '"' || rest[i] == '\'' || rest[i] == ' ' || rest[i] == '\t') {
		i++
	}
	if i < len(rest) && (rest[i] == '=' && (i+1 == len(rest) || rest[i+1] != '=') || rest[i] == ':') {
		return true
	}
	before := bytes.ToLower(c.Context[max(0, c.Offset-6):c.Offset])
	for _, attr := range []string{`name="`, `name='`, `id="`, `id='`, `for="`, `for='`} {
		if bytes.HasSuffix(before, []byte(attr)) {
			return true
		}
	}
	return false
}

// pwHashRules are the crypt(3) hash rules: where the line names the
// value a hash ("passwordHash: '$2b$…'", "password_hash" or Rails'
// "password_digest" in a seed's row), it is what an application stores
// in place of the password, as the round-19 and round-20 blind sets label
// it; /etc/shadow's, .htpasswd's and a router's "secret 8 $8$…" lines
// say no such thing.
var pwHashRules = map[string]bool{"np.pwhash.1": true, "np.pwhash.2": true, "np.pwhash.3": true, "np.pwhash.4": true, "np.pwhash.5": true}

// namesItsHash: "hash" on the value's line, outside the value, or a key
// just before the value that names a hash (hashColumnName: one that ends
// in "digest", password_digest:, "passwordDigest": …, Devise's
// encrypted_password:); "digest" elsewhere on a line (a user named
// digest in /etc/shadow) names nothing. hashColumn reads the names on
// the lines above (an INSERT's column list, a CSV's header).
func namesItsHash(c Candidate) bool {
	line := c.Line()
	at := bytes.Index(line, c.Secret)
	if at < 0 {
		return bytesContainsFold(line, "hash")
	}
	return bytesContainsFold(line[:at], "hash") || bytesContainsFold(line[at+len(c.Secret):], "hash") || digestKeyBefore(line[:at])
}

// digestKeyBefore reports whether before (the value's line up to it)
// ends with a key that names a hash and an operator, as a seed or a
// config writes it (`password_digest: "`, `"digest" => '`), not a
// passwd-style line, whose first field is a user's name and whose colon
// the value follows at once (`digest:$6$…`).
func digestKeyBefore(before []byte) bool {
	i := len(before)
	for i > 0 && (before[i-1] == ' ' || before[i-1] == '\t' || before[i-1] == '"' || before[i-1] == '\'') {
		i--
	}
	op := i
	for i > 0 && (before[i-1] == ':' || before[i-1] == '=' || before[i-1] == '>') {
		i--
	}
	if i == op {
		return false
	}
	k := i
	for k > 0 && (before[k-1] == '"' || before[k-1] == '\'') {
		k--
	}
	j := k
	for j > 0 && (isWordByte(before[j-1]) || before[j-1] == '.' || before[j-1] == '-') {
		j--
	}
	if !hashColumnName(string(before[j:k])) {
		return false
	}
	passwdLine := j == 0 && op == len(before) && before[op-1] == ':'
	return !passwdLine
}

func bytesContainsFold(b []byte, s string) bool {
	return bytes.Contains(bytes.ToLower(b), []byte(s))
}

// notesPath: a file people write prose in (proseFiles), not one of the
// password stores whose names have no extension either (/etc/shadow).
func notesPath(path string) bool {
	switch base := path[strings.LastIndexByte(path, '/')+1:]; base {
	case "shadow", "gshadow", "passwd", "master.passwd", "shadow-", "passwd-":
		return false
	}
	return proseFiles.MatchString(path)
}
