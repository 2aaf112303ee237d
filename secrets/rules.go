package secrets

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"golang.org/x/net/publicsuffix"
	"math"
	"net/netip"
	"net/url"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
)

// Rule describes one kind of secret.
//
// A rule runs only where one of its Keywords occurs (ASCII
// case-insensitively): Regex searches the line holding the keyword, widened
// by Before and After bytes (rounded out to whole lines) for secrets that
// span lines. A rule without keywords searches the whole content. The
// built-in and imported rules leave Regex nil and hold their expression
// as source, compiled on first use: Expr returns it.
//
// The secret is the text of the named group "secret"; several alternatives
// may each carry a group of that name, and the first one that took part in
// the match is used. Without such a group the whole match is the secret. A
// group named "key" is passed to Validate as Candidate.Key.
//
// A match becomes a finding when the secret is at least MinLen bytes long,
// has a Shannon entropy of at least Entropy bits per byte, is not an obvious
// placeholder or an already-redacted value (see IsPlaceholder), and Validate,
// when set, accepts it.
type Rule struct {
	ID          string
	Description string
	Regex       *regexp.Regexp
	Entropy     float64  // minimum Shannon entropy of the secret, bits per byte; 0 = no floor
	MinLen      int      // minimum length of the secret in bytes; 0 = no floor
	Keywords    []string // prefilter; matched ASCII case-insensitively
	Before      int      // bytes of context searched before the keyword's line
	After       int      // bytes of context searched after the keyword's line
	// Gate, when set, is a cheap test run at each keyword hit before any
	// regular expression: data is the whole content and i the index of the
	// keyword's last byte. Returning false ignores that hit.
	Gate func(data []byte, i int) bool
	// Validate, when set, makes the final decision on a match.
	Validate func(c Candidate) bool
	// SecretGroup, when the expression has no group named "secret", is the
	// number of the capture group holding the secret; 0 means the first
	// unnamed group that took part, else the whole match (gitleaks'
	// secretGroup).
	SecretGroup int
	// Path, when set, limits the rule to files whose path it matches. Scan
	// applies it; Redact, which knows no path, runs the rule everywhere.
	Path *regexp.Regexp
	// Source names where the rule comes from when it is not built in,
	// e.g. "gitleaks v8.30.1".
	Source string

	endpoint bool       // the built-in endpoint-value rule: NewScanner rebuilds it from Config
	notProse bool       // an imported rule whose matches in notes are no secret (notInProse)
	lazy     *lazyRegex // an imported rule's expression, when Regex is nil
	// builtinRE is a built-in rule's expression, when Regex is nil: it
	// is compiled when a scan first needs it, which for most rules is
	// never (their keywords are not in the text), where compiling all of
	// them cost every check and scan process ~0.5 ms and 0.5 MB.
	builtinRE *lazyRegex
	// validReach, when set, bounds the context a validator is handed to
	// this many bytes either side of the match, where Before and After
	// would hand it the whole window: table-secret's window spans a
	// table (up to a megabyte, so that a header wakes its rows), its
	// validator reads the row's line and looks the header up in the
	// memo, and each cell of a long table was handed the window.
	validReach int
	// startsAtKeyword: every match begins with one of Keywords, so the
	// scanner tries Regex anchored at each keyword hit.
	startsAtKeyword bool
	// tokenAtKeyword: a startsAtKeyword rule whose expression starts
	// with \b and whose match is the run of token characters after its
	// keyword. An attempt at a hit either
	// matches, covering the hits in its run, or fails inside a run that
	// holds no other hit (no keyword is made of its separators alone):
	// attempts at every hit read the text once, so a dense run of hits
	// is not searched in one unanchored pass (which for a rule of 150
	// prefixes cost a thread per prefix at every byte), and the match
	// is not widened back over a name.
	tokenAtKeyword bool
	// kwAtWord: every match of the anchored expression begins at \b, so
	// an attempt at a keyword hit inside a word fails (searchAtKeywords
	// tries none there)
	kwAtWord bool
	// heads, when set, are the literal alternatives a tokenAtKeyword
	// rule's expression opens with (heads.expr builds the expression):
	// an attempt at a keyword hit runs the alternation of those that can
	// begin where its keyword does (anchoredAfterAt), not every one.
	heads *keywordHeads
	// mayMatch, when set, is false for a window no match of Regex can lie
	// in, which the scanner then does not search.
	mayMatch func(window []byte) bool
	// forms, when set, are the alternatives builtinRE is the alternation
	// of, in order, and formsIn tells which of them (bit i: forms[i]) may
	// match in a window. The window is searched by the expression with
	// the others made unmatchable (searchExprIn): an alternative that
	// matches nowhere in a text takes part in no leftmost-first match of
	// the alternation there, and its groups keep their numbers.
	forms   []string
	formsIn func(window []byte) uint32
	// find, when set, finds the rule's secrets itself and calls emit
	// with each one's span: what no keyword announces and an expression
	// cannot read (a run of words of a list). builtinRE then only
	// describes their shape. taken tells whether an earlier rule's
	// candidate overlaps a span (a list whose first code another rule
	// reports is reported from its second).
	find func(data []byte, taken func(start, end int) bool, emit func(start, end int))
}

// Candidate is a match offered to Rule.Validate. It holds the raw secret:
// never print or log it.
type Candidate struct {
	Secret  []byte // the "secret" group (or the whole match)
	Key     []byte // the "key" group, nil when the rule has none or it did not take part
	Match   []byte // the whole match
	Context []byte // the text the rule's Regex searched
	Offset  int    // offset of Secret in Context
	// MatchOffset is the offset of Match in Context.
	MatchOffset int
	// Path is the file's path as given to Scan; empty under Redact.
	Path string

	// memo, when the scanner offers the candidate, is its text's
	// allowlist memo, and base the offset of Context in that text.
	memo *textMemo
	base int
	// entropy is Entropy(Secret) when the scanner has worked it out for
	// the rule's floor (then above 0): validators ask for it again.
	entropy float64
}

// secretEntropy returns Entropy(c.Secret).
func (c *Candidate) secretEntropy() float64 {
	if c.entropy > 0 {
		return c.entropy
	}
	return Entropy(c.Secret)
}

// Line returns the whole lines of Context that hold the match.
func (c Candidate) Line() []byte {
	s, e := c.lineSpan()
	return c.Context[s:e]
}

func (c Candidate) lineSpan() (s, e int) {
	s = bytes.LastIndexByte(c.Context[:c.MatchOffset], '\n') + 1
	e = c.MatchOffset + len(c.Match)
	if i := bytes.IndexByte(c.Context[e:], '\n'); i >= 0 {
		e += i
	} else {
		e = len(c.Context)
	}
	return s, e
}

// lineNamesDigest reports whether a word of the match's lines, outside
// the secret, says the value is a commit, a digest or an id. The
// secret's own letters are not read: a random token holds "Id" between
// a lower-case letter and an upper-case one once in a hundred draws.
func (c Candidate) lineNamesDigest() bool {
	s, e := c.lineSpan()
	ss, se := c.Offset, c.Offset+len(c.Secret)
	if ss < s || se > e {
		return namesDigest(c.Context[s:e])
	}
	return namesDigest(c.Context[s:ss]) || namesDigest(c.Context[se:e])
}

// Rule IDs of the default rules.
const (
	RuleGCPServiceAccount  = "gcp-service-account"
	RulePrivateKey         = "private-key"
	RuleGitHubToken        = "github-token"
	RuleGitHubFineGrained  = "github-fine-grained-pat"
	RuleGitLabToken        = "gitlab-pat"
	RuleAWSAccessKeyID     = "aws-access-key-id"
	RuleAWSSecretAccessKey = "aws-secret-access-key"
	RuleGCPAPIKey          = "gcp-api-key"
	RuleAzureStorageKey    = "azure-storage-key"
	RuleAnthropicAPIKey    = "anthropic-api-key"
	RuleOpenAIAPIKey       = "openai-api-key"
	RuleHuggingFaceToken   = "huggingface-token"
	RuleSlackToken         = "slack-token"
	RuleSlackWebhook       = "slack-webhook"
	RuleStripeKey          = "stripe-secret-key"
	RuleNPMToken           = "npm-token"
	RulePyPIToken          = "pypi-token"
	RuleJWT                = "jwt"
	RuleBearerToken        = "bearer-token"
	RuleURLCredentials     = "url-credentials"
	RuleEndpointValue      = "endpoint-value"
	RuleGenericSecret      = "generic-secret"
	RuleK8sSecretData      = "kubernetes-secret-data"
	RuleKeyMaterial        = "private-key-material"
)

// DefaultEndpointKeySuffixes name the keys whose values are endpoints.
var DefaultEndpointKeySuffixes = []string{"_BASE_URL", "_ENDPOINT", "_API_BASE"}

// DefaultRules returns a fresh copy of the built-in rules, most specific
// first. Where matches of two rules overlap, the Scanner keeps the one whose
// rule comes first, so the order matters: a GitHub token assigned to
// `token=` is reported as github-token, not generic-secret.
//
// The endpoint-value rule in this list uses the default key suffixes and
// allows localhost; NewScanner replaces it with one built from its Config.
func DefaultRules() []*Rule { return defaultRules(true) }

// BaseRules are DefaultRules without the Nosey Parker and Kingfisher
// imports: the generator of those keeps only rules whose examples these
// do not already find.
func BaseRules() []*Rule { return defaultRules(false) }

// OwnRules returns the default rules but the imported Nosey Parker and
// Kingfisher ones: sotvet's and gitleaks'. The import generator asks
// them whether a rule's secret, standing alone, is found already.
func OwnRules() []*Rule {
	imported := map[string]bool{}
	for _, r := range ThirdPartyRules() {
		imported[r.ID] = true
	}
	return slices.DeleteFunc(DefaultRules(), func(r *Rule) bool { return imported[r.ID] })
}

func defaultRules(thirdParty bool) []*Rule {
	ep := EndpointRule(nil, true, nil)
	ep.endpoint = true
	var own []*Rule
	for _, r := range builtinCompiled() {
		if r.ID == RuleEndpointValue {
			own = append(own, ep)
			continue
		}
		c := *r
		own = append(own, &c)
	}
	// The gitleaks rules go after the built-in provider rules and before
	// the built-in context rules; gitleaks' own generic rule goes last.
	var specific, generic []*Rule
	for _, r := range GitleaksRules() {
		if r.ID == gitleaksGenericID {
			generic = append(generic, r)
		} else {
			specific = append(specific, r)
		}
	}
	var out, late []*Rule
	for _, r := range own {
		if r.ID == RuleTableSecret || r.ID == RuleProseSecret || r.ID == RulePgpassPassword || r.ID == RuleSessionCookie || r.ID == RuleNameValueSecret || r.ID == RuleProseLogin {
			// Read last: where another rule reports a value, its finding
			// keeps the rule ID (and so the fingerprint) it had before
			// these rules came.
			late = append(late, r)
			continue
		}
		switch r.ID {
		case RuleGenericSecret:
			withGitleaksAllowlists(r, gitleaksGenericID)
		default:
			withGitleaksAllowlists(r, r.ID)
		}
		if r.ID == RuleURLCredentials {
			out = append(out, specific...)
		}
		out = append(out, r)
	}
	if thirdParty {
		// The long tail ranks after sotvet's and gitleaks' rules: where
		// one of those reports a value, the finding keeps the ID users
		// know (url-credentials, not np.postgres.1).
		out = append(out, ThirdPartyRules()...)
	}
	out = append(out, generic...)
	out = append(out, prefixedTokenRule())
	// Among them, a structure's reading (a name/value pair, a .pgpass
	// line, a cookie) before prose's, which a snippet pasted into a note
	// would otherwise give to prose-secret.
	slices.SortStableFunc(late, func(a, b *Rule) int { return lateRank(a.ID) - lateRank(b.ID) })
	out = append(out, late...)
	if thirdParty {
		// Forms added from a peer's test suite (peerforms.go) rank last,
		// so that no finding of an older rule changes its rule ID; they
		// are not among the rules the third-party import is measured
		// against, so that import stays as it was.
		out = appendAllowlisted(out, peerRules()...)
		// Other languages, abbreviations and vendor prefixes no provider
		// rule reports (languages.go): after those, for the same reason.
		out = append(out, proseSecretIntlRule(), prosePasswordShortRule(), vendorTokenRule())
		// and the forms of secrets in code (codeforms.go) after them
		out = appendAllowlisted(out, codeRules()...)
		out = append(out, fcmServerKeyRule())
		out = append(out, signedFormatRules()...)
		// the sentence forms (proseplain.go) before the notes forms,
		// which read the same "with password …" and "パスワードは …" less
		// strictly: the stricter rule names the finding
		out = appendAllowlisted(out, proseFormRules()...)
		// and the forms of passwords in notes (notesforms.go) last
		out = appendAllowlisted(out, notesRules()...)
		// and the vendor forms of round nineteen (vendorcontext.go) last
		out = appendAllowlisted(out, vendorContextRules()...)
		// and the kinds of secret in notes no password rule judges
		// (noteskinds.go) after them
		out = appendAllowlisted(out, noteKindRules()...)
		// and the forms of round twenty (codeforms.go) after them
		out = appendAllowlisted(out, passwordNameArgumentRule())
		// and the forms of round twenty-one (typedforms.go) after them
		out = appendAllowlisted(out, typedRules()...)
		// and the password nouns of more languages (passwordnouns.go),
		// round twenty-one, after every older rule
		out = appendAllowlisted(out, prosePasswordIntlRule())
		// and the code forms of round twenty-seven (clientforms.go)
		out = appendAllowlisted(out, clientRules()...)
		// and seed phrases (seedphrase.go) and lists of one-time codes
		// (codelist.go), round twenty-seven
		out = append(out, seedPhraseRule(), oneTimeCodesRule())
		// and the forms and vendor formats of round thirty
		// (roundthirty.go)
		out = appendAllowlisted(out, roundThirtyRules()...)
		// and key stores under a known password (pkcs12.go), round forty
		out = append(out, pkcs12Rule())
		// and JSON Web Keys (jwk.go) and the user and password after a
		// pair of labels (labelpair.go), round forty-one
		out = append(out, jwkPrivateRule())
		out = appendAllowlisted(out, loginLabelPairRule())
		// and the user/password pair after a host's address
		// (hostpair.go), round forty-three
		out = appendAllowlisted(out, hostLoginPairRule())
		// and provider formats told by their shape alone
		// (bareformats.go), round forty-four
		out = append(out, bareFormatRules()...)
		// and formats told by their structure, round forty-seven
		// (structformats.go)
		out = append(out, structFormatRules()...)
		// and secrets defined as macros (macroforms.go), round
		// forty-nine
		out = appendAllowlisted(out, macroSecretRule())
		out = append(out, netUserPasswordRule())
		// and formats told by their shape and structure alone, round
		// fifty (structformats.go)
		out = append(out, roundFiftyRules()...)
		// and Redis's AUTH command (redisauth.go), round fifty-one
		out = appendAllowlisted(out, redisAuthRule())
		// and the passwords Samba's clients and htpasswd take as an
		// argument (commandforms.go), round fifty-four
		out = appendAllowlisted(out, commandPasswordRule())
		// and a secret a command printed in a transcript
		// (printedsecret.go), round fifty-four
		out = appendAllowlisted(out, printedSecretRule())
	}
	return out
}

// appendAllowlisted appends rs to out, each with gitleaks' allowlists
// for its ID (withGitleaksAllowlists), as defaultRules ranks sotvet's own
// rules after the imported ones.
func appendAllowlisted(out []*Rule, rs ...*Rule) []*Rule {
	for _, r := range rs {
		withGitleaksAllowlists(r, r.ID)
		out = append(out, r)
	}
	return out
}

// lateRank orders the rules defaultRules reads last: structured forms
// first, then tables, then sentences.
func lateRank(id string) int {
	switch id {
	case RuleNameValueSecret, RulePgpassPassword, RuleSessionCookie:
		return 0
	case RuleTableSecret:
		return 1
	}
	return 2
}

// RulePrefixedToken reports a token that starts with a provider's prefix
// but which that provider's rule does not take (a length or alphabet the
// rule does not expect: a new format, a truncated or padded copy). It
// ranks last, so a provider rule that reports the token wins.
const RulePrefixedToken = "prefixed-token"

// prefixedTokenSkip are prefixes that start ordinary identifiers too, and
// those of identifiers a client ships (Square's application ID, PubNub's
// publish and subscribe keys): a format of them no rule expects is no
// token.
var prefixedTokenSkip = map[string]bool{"bedrock-api-key-": true, "live_": true, "test_": true, "api-": true, "pat.": true, "sat.": true,
	"ext_": true, "ico-": true, "pul-": true, "secret_": true, "sq0idp-": true, "pub-c-": true, "sub-c-": true, "sk-ant-": false}

// prefixedTokenKeywords are the prefixed-token rule's keywords: its
// prefixes, sorted (the generator of kwtable_gen.go derives them so too).
func prefixedTokenKeywords(ps []string) []string { return slices.Sorted(slices.Values(ps)) }

// prefixedTokenRule builds the prefixed-token rule from the provider
// prefixes (see providerPrefixes) that end in a separator.
func prefixedTokenRule() *Rule {
	prefixedToken.once.Do(func() {
		ps := prefixedTokenPrefixes(providerPrefixes())
		alts := make([]string, len(ps))
		for i, p := range ps {
			alts[i] = regexp.QuoteMeta(p)
		}
		kws := prefixedTokenKeywords(ps)
		slices.SortFunc(alts, func(a, b string) int { return len(b) - len(a) }) // longest first
		heads := &keywordHeads{lead: `(?i)\b(?P<secret>`, alts: alts, tail: `[A-Za-z0-9_.~+/=-]*[A-Za-z0-9=])`}
		prefixedToken.rule = &Rule{
			ID:          RulePrefixedToken,
			Description: "token with a provider's prefix in a format its rule does not expect",
			builtinRE:   builtinExpr(heads.expr(heads.alts)),
			heads:       heads,
			// Unbounded: {0,510} unrolled into 510 states, which every
			// byte of a line of prefixes paid (a longer run is reported
			// whole, not cut at 512 bytes).
			Keywords: kws,
			MinLen:   16,
			Validate: validPrefixedToken,
			// every match starts with a prefix, a keyword
			startsAtKeyword: true,
			tokenAtKeyword:  true,
		}
	})
	c := *prefixedToken.rule
	return &c
}

// prefixedTokenPrefixes are the provider prefixes the prefixed-token rule
// takes, in their order.
func prefixedTokenPrefixes(prefixes []string) []string {
	var out []string
	for _, p := range prefixes {
		if len(p) < 4 || prefixedTokenSkip[p] || !strings.ContainsAny(p[len(p)-1:], "_-.") || strings.ContainsAny(p, " =") {
			continue
		}
		out = append(out, p)
	}
	return out
}

var uuidBodyRE = lazyRE.New(`(?i)^[0-9a-f]{8}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{12}`)

// peerFormTakes reports whether a format of peerProviders reports the
// token v whole: those rules rank after this one (so that no older
// finding changes its rule ID), and a token of the length and alphabet
// its format expects is theirs, not one of a format no rule expects.
func peerFormTakes(v []byte) bool {
	for _, r := range peerFormRules() {
		for _, k := range r.Keywords {
			if len(v) > len(k) && strings.EqualFold(string(v[:len(k)]), k) {
				if loc := r.Expr().FindIndex(v); loc != nil && loc[0] == 0 {
					return true
				}
			}
		}
	}
	return false
}

// peerFormRules are peerProviders, built once: each compiles its
// expression on first use.
var peerFormRules = sync.OnceValue(peerProviders)

var prefixedToken struct {
	once sync.Once
	rule *Rule
}

// validPrefixedToken: the part after the prefix looks random: at least 20
// characters, letters and digits, no run of lower-case words
// ("xoxb-not-a-token"), and enough entropy.
func validPrefixedToken(c Candidate) bool {
	if !notAfterHyphen(c) || peerFormTakes(c.Secret) {
		return false
	}
	sec := c.Secret
	body := sec
	for _, p := range prefixedTokenRule0() {
		if len(sec) > len(p) && strings.EqualFold(string(sec[:len(p)]), p) {
			body = sec[len(p):]
			break
		}
	}
	// A body of letters alone is a token when it does not read as a
	// name (a Vault "hvs." token of 24 draws no digit one time in
	// seventy): "hvs.myVaultTokenHere" is words.
	if len(body) < 20 || !(hasUpper(body) || hasLower(body)) || !hasDigit(body) && !drawnLetters(body) {
		return false
	}
	if wordListRE.Match(body) || uuidBodyRE.Match(body) {
		return false // words ("not-a-real-token") or a UUID (an identifier)
	}
	if hostName(body) {
		return false // "akab-….luna.akamaiapis.net": a host, whose first label has the prefix
	}
	return Entropy(body) >= entropyFloor(3.3, body)
}

// hostName reports whether b ends as a host name does: two dots or more,
// and a last label of two to six lower-case letters (net, io, cloud).
// A token's dots part random segments (a JWT's), none of them that.
func hostName(b []byte) bool {
	i := bytes.LastIndexByte(b, '.')
	if i < 0 || bytes.Count(b, []byte(".")) < 2 {
		return false
	}
	tld := b[i+1:]
	if len(tld) < 2 || len(tld) > 6 {
		return false
	}
	for _, c := range tld {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// prefixedTokenRule0 returns the prefixed-token rule's keywords, longest
// first.
func prefixedTokenRule0() []string {
	prefixedTokenKeys.once.Do(func() {
		k := slices.Clone(prefixedTokenRule().Keywords)
		slices.SortFunc(k, func(a, b string) int { return len(b) - len(a) })
		prefixedTokenKeys.list = k
	})
	return prefixedTokenKeys.list
}

var prefixedTokenKeys struct {
	once sync.Once
	list []string
}

// freshCopies returns a copy of each rule, in order: a caller may set a
// copy's fields (withGitleaksAllowlists, a team's config) without touching
// the compiled rules the process shares.
func freshCopies(rs []*Rule) []*Rule {
	out := make([]*Rule, len(rs))
	for i, r := range rs {
		c := *r
		out[i] = &c
	}
	return out
}

// gitleaksGenericID is gitleaks' catch-all rule, ranked after every other.
const gitleaksGenericID = "generic-api-key"

// builtinCompiled returns the built-in rules, compiled once per process
// (a regexp is safe to share); DefaultRules hands out copies.
func builtinCompiled() []*Rule {
	builtin.once.Do(func() {
		ep := EndpointRule(nil, true, nil)
		ep.endpoint = true
		builtin.rules = builtinRules(ep)
	})
	return builtin.rules
}

var builtin struct {
	once  sync.Once
	rules []*Rule
}

func builtinRules(ep *Rule) []*Rule {
	g := gapRules()
	named := g[len(g)-1] // named-key-value: a context rule, after the formats
	return append(append([]*Rule{
		{
			ID:          RuleGCPServiceAccount,
			Description: "GCP service account key (JSON with \"type\": \"service_account\" and a private_key)",
			builtinRE:   builtinExpr(`"private_key"\s*:\s*"(?P<secret>-----BEGIN[^"]*?PRIVATE KEY-----[^"]{0,64})"`),
			Keywords:    []string{"service_account"},
			Before:      16 << 10,
			After:       16 << 10,
			Validate:    validGCPServiceAccount,
		},
		{
			ID:          RulePrivateKey,
			Description: "PEM or OpenSSH/PGP private key block",
			builtinRE:   builtinExpr(`-----BEGIN[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)?-----`),
			Keywords:    []string{"-----begin"},
			After:       72 << 10,
			Validate:    func(c Candidate) bool { return pemBody(c.Secret) >= 64 },
		},
		{
			ID:          RuleGitHubToken,
			Description: "GitHub token (personal, OAuth, user-to-server, server-to-server or refresh)",
			builtinRE:   builtinExpr(`\bgh[pousr]_[A-Za-z0-9]{36,}\b`),
			Entropy:     3,
			Keywords:    []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"},
		},
		{
			ID:          RuleGitHubFineGrained,
			Description: "GitHub fine-grained personal access token",
			builtinRE:   builtinExpr(`\bgithub_pat_[A-Za-z0-9_]{60,}\b`),
			Entropy:     3,
			Keywords:    []string{"github_pat_"},
		},
		{
			ID:          RuleGitLabToken,
			Description: "GitLab personal access token",
			builtinRE:   builtinExpr(`\bglpat-[A-Za-z0-9_-]{20,}`),
			Entropy:     3,
			Keywords:    []string{"glpat-"},
		},
		{
			ID:          RuleAWSAccessKeyID,
			Description: "AWS access key ID",
			// The prefixes of credentials (AWS IAM's "unique identifiers":
			// AKIA access key, ASIA temporary key, ABIA STS bearer token,
			// ACCA context-specific credential). AIDA, AROA, ANPA, AGPA,
			// AIPA and ANVA name users, roles, policies, groups, instance
			// profiles and policy versions: identifiers printed in ARNs and
			// logs, which grant nothing.
			builtinRE: builtinExpr(`\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b`),
			Entropy:   3,
			Keywords:  []string{"akia", "asia", "abia", "acca"},
		},
		{
			ID:          RuleAWSSecretAccessKey,
			Description: "AWS secret access key assigned to an aws_secret_access_key-like name",
			builtinRE:   builtinExpr("(?i)(?P<key>[A-Za-z0-9_.-]*secret[_.-]?(?:access[_.-]?)?key)[\x60\"']?[ \\t]*(?:=|:=|:|=>)[ \\t]*[\x60\"']?(?P<secret>[A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)"),
			Entropy:     3.5,
			Keywords:    []string{"secret_access_key", "secretaccesskey", "secret-access-key", "aws_secret", "aws-secret", "awssecret"},
			Gate:        AssignmentGate,
			Validate: func(c Candidate) bool {
				k := strings.ToLower(string(c.Key))
				return strings.Contains(k, "aws") || strings.Contains(strings.NewReplacer("_", "", "-", "", ".", "").Replace(k), "secretaccesskey")
			},
		},
		{
			ID:          RuleGCPAPIKey,
			Description: "Google Cloud API key",
			builtinRE:   builtinExpr(`\b(?P<secret>AIza[0-9A-Za-z_-]{35})(?:[^0-9A-Za-z_-]|$)`),
			Entropy:     3,
			Keywords:    []string{"aiza"},
		},
		{
			ID:          RuleAzureStorageKey,
			Description: "Azure storage or service bus account key in a connection string",
			builtinRE:   builtinExpr(`(?i)\b(?:AccountKey|SharedAccessKey)[ \t]*=[ \t]*(?P<secret>[A-Za-z0-9+/]{40,}={0,2})`),
			Entropy:     3.5,
			Keywords:    []string{"accountkey", "sharedaccesskey"},
			Gate:        AssignmentGate,
		},
		{
			ID:          RuleAnthropicAPIKey,
			Description: "Anthropic API key",
			builtinRE:   builtinExpr(`\b(?P<secret>sk-ant-api03-[A-Za-z0-9_-]{93}AA)(?:[^A-Za-z0-9_-]|$)`),
			Entropy:     3.5,
			Keywords:    []string{"sk-ant-"},
			Validate:    notAfterHyphen,
		},
		{
			ID:          RuleOpenAIAPIKey,
			Description: "OpenAI API key",
			builtinRE:   builtinExpr(`\bsk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{32,}|[A-Za-z0-9]{32,})`),
			Entropy:     3.5,
			Keywords:    []string{"sk-"},
			Validate: func(c Candidate) bool {
				return notAfterHyphen(c) && mixedClasses(c.Secret[3:])
			},
		},
		{
			ID:          RuleHuggingFaceToken,
			Description: "Hugging Face access token",
			builtinRE:   builtinExpr(`\bhf_[A-Za-z0-9]{34}\b`),
			Entropy:     3.5,
			Keywords:    []string{"hf_"},
			Validate:    func(c Candidate) bool { return hasUpper(c.Secret[3:]) && hasLower(c.Secret[3:]) },
		},
		{
			ID:          RuleSlackToken,
			Description: "Slack token",
			builtinRE:   builtinExpr(`\bxox[baprs]-[0-9A-Za-z]{6,}(?:-[0-9A-Za-z]{4,}){1,4}\b`),
			Entropy:     3,
			MinLen:      24,
			Keywords:    []string{"xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-"},
		},
		{
			ID:          RuleSlackWebhook,
			Description: "Slack incoming webhook URL",
			builtinRE:   builtinExpr(`hooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>[A-Za-z0-9+/_-]{20,})`),
			Entropy:     3,
			Keywords:    []string{"hooks.slack.com"},
		},
		{
			ID:          RuleStripeKey,
			Description: "Stripe live secret or restricted key",
			builtinRE:   builtinExpr(`\b(?:sk|rk)_live_[0-9A-Za-z]{20,}\b`),
			Entropy:     3,
			Keywords:    []string{"sk_live_", "rk_live_"},
		},
		{
			ID:          RuleNPMToken,
			Description: "npm access token",
			builtinRE:   builtinExpr(`\bnpm_[A-Za-z0-9]{36}\b`),
			Entropy:     3,
			Keywords:    []string{"npm_"},
		},
		{
			ID:          RulePyPIToken,
			Description: "PyPI upload token (pypi.org's or TestPyPI's)",
			// The macaroon's first bytes name its index: 02 01 08
			// "pypi.org", or 02 01 0d "test.pypi.org", whose tokens
			// publish to TestPyPI and are no less a credential.
			builtinRE: builtinExpr(`\bpypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,}`),
			Entropy:   3,
			Keywords:  []string{"pypi-ageichlwas5vcmc", "pypi-agendgvzdc5wexbplm9yzw"},
		},
		{
			ID:          RuleJWT,
			Description: "JSON Web Token",
			builtinRE:   builtinExpr(`\bey[A-Za-z0-9_-]{8,}\.ey[A-Za-z0-9_/\\-]{8,}\.(?:[A-Za-z0-9_/\\-]+={0,2})?`),
			Entropy:     3,
			Keywords:    []string{"ey"},
			Gate:        jwtGate,
			Validate:    validJWT,
		},
		keyMaterialRule(),
		k8sSecretRule(),
	}, g[:len(g)-1]...), []*Rule{
		{
			ID:          RuleBearerToken,
			Description: "credential in an Authorization header",
			builtinRE: builtinExpr(`(?i)\b(?:proxy-)?authorization\b[\x60"']?[ \t]*[:=][ \t]*[\x60"']?(?:bearer|token|basic)[ \t]+(?P<secret>[A-Za-z0-9._~+/=-]+)` +
				// a header value under a token's name, unquoted: a
				// properties file's api.auth-token=Bearer … (quoted, it is
				// generic-secret's, which judges the credential after the
				// scheme)
				`|(?i)\b[A-Za-z0-9_.-]*(?:token|secret|api[_.-]?key)[ \t]*[:=][ \t]*bearer[ \t]+(?P<secret>[A-Za-z0-9._~+/=-]+)`),
			Entropy:  3,
			MinLen:   12,
			Keywords: []string{"authorization", "bearer"},
			Gate:     bearerTokenGate,
			Validate: validBearer,
		},
		{
			ID:          RuleURLCredentials,
			Description: "password in URL userinfo (scheme://user:password@host)",
			builtinRE:   builtinExpr(`\b[A-Za-z][A-Za-z0-9+.-]{0,20}://(?P<key>[^\s:/?#\x60"'<>]*):(?P<secret>[^\s@/?#\x60"']+)@[^\s/?#\x60"'@]`),
			MinLen:      4,
			Keywords:    []string{"://"},
			Gate:        URLUserinfoGate,
			Validate:    validURLPassword,
		},
		ep,
		named,
		{
			ID:          RuleGenericSecret,
			Description: "high-entropy value assigned to a password, secret, token or API key name",
			// The match starts at the keyword (the scanner tries it
			// there, anchored, and widens the key to the whole name).
			// A typed declaration names its type between the name and
			// "=" and quotes its value: const API_TOKEN: &str = "…"
			// (Rust), val apiKey: String = "…" (Kotlin, Swift,
			// TypeScript). Tried first, and only quoted: the other form's
			// bare value would otherwise read "key: <base64>==" as a type.
			builtinRE: builtinExpr("(?i)(?P<key>(?:password|passwd|secret|token|api[_.-]?key|access[_.-]?key|[_-]pat\\b)[A-Za-z0-9_.-]*)[\x60\"']?[ \\t]*(?:" +
				":[ \\t]*&?(?:'static[ \\t]+)?[A-Za-z][A-Za-z0-9_.]*\\??[ \\t]*=[ \\t]*(?:\"(?P<secret>[^\"\\r\\n]+)\"|'(?P<secret>[^'\\r\\n]+)'|\x60(?P<secret>[^\x60\\r\\n]+)\x60)|" +
				// round 27: C#'s auto-property, ApiSecret { get; init; } = "…"
				"(?:[ \\t]*\\{[ \\t]*get;[ \\t]*(?:(?:private[ \\t]+)?(?:set|init);[ \\t]*)?\\}[ \\t]*=[ \\t]*(?:\"(?P<secret>[^\"\\r\\n]+)\"))|" +
				// a label, a dash and a quoted value, as a list or a log
				// line writes it: sendgrid token - 'SG.…'
				"(?:[ \\t]+-[ \\t]+(?:\"(?P<secret>[^\"\\r\\n]+)\"|'(?P<secret>[^'\\r\\n]+)'|\x60(?P<secret>[^\x60\\r\\n]+)\x60))|" +
				"(?:=|:=|:|=>)[ \\t]*" +
				// round 27: a Python bytes literal, b"…"
				"(?:b?\"(?P<secret>[^\"\\r\\n]+)\"|b?'(?P<secret>[^'\\r\\n]+)'|\x60(?P<secret>[^\x60\\r\\n]+)\x60|(?P<secret>[^\\s\x60\"',;&]*[^\\s\x60\"',;&.:)\\]}>])))"),
			Entropy:         3, // 3.5 but for hex: validGeneric
			MinLen:          12,
			Gate:            genericSecretGate,
			Keywords:        []string{"password", "passwd", "secret", "token", "api_key", "apikey", "api-key", "api.key", "access_key", "accesskey", "access-key", "access.key", "_pat", "-pat"},
			Validate:        validGeneric,
			startsAtKeyword: true,
		},
		passwordRule(),
		tableSecretRule(),
		proseSecretRule(),
		pgpassRule(),
		sessionCookieRule(),
		nameValueRule(),
		proseLoginRule(),
	}...)
}

// EndpointRule builds the endpoint-value rule: a concrete URL or host:port
// assigned to a key whose name ends with one of suffixes (when none holds a
// letter or digit, DefaultEndpointKeySuffixes; compared word by word, ignoring case and
// "_", "-", "." and camelCase boundaries, so _BASE_URL matches
// OPENAI_BASE_URL, openai-base-url and openaiBaseUrl but not DATABASE_URL).
// Forms: env KEY=value, YAML key: value, JSON "key": "value", and markdown
// fact bullets "- KEY: `value`". Placeholders are never findings: <...>,
// ${VAR}, $VAR, example.com, example.org, example.net and *.example hosts,
// values matching any of placeholders, and, when allowLocalhost is set,
// localhost, *.localhost, 127.0.0.0/8, ::1 and 0.0.0.0.
func EndpointRule(suffixes []string, allowLocalhost bool, placeholders []*regexp.Regexp) *Rule {
	usable := false
	for _, s := range suffixes {
		usable = usable || len(keyWords(s)) > 0
	}
	if !usable {
		suffixes = DefaultEndpointKeySuffixes
	}
	var alts, kws []string
	var sufWords [][]string
	for _, s := range suffixes {
		w := keyWords(s)
		if len(w) == 0 {
			continue
		}
		sufWords = append(sufWords, w)
		q := make([]string, len(w))
		for i, x := range w {
			q[i] = regexp.QuoteMeta(x)
		}
		alts = append(alts, strings.Join(q, `[_.-]?`))
		for _, sep := range []string{"_", "-", ".", ""} {
			kws = append(kws, strings.Join(w, sep))
		}
	}
	re := compileExact("(?i)(?P<key>[A-Za-z0-9_.-]*(?:" + strings.Join(alts, "|") + "))[\x60\"']?[ \\t]*(?:=|:)[ \\t]*" +
		"(?:\"(?P<secret>[^\"\\s]+)\"|'(?P<secret>[^'\\s]+)'|\x60(?P<secret>[^\x60\\s]+)\x60|(?P<secret>[^\\s\x60\"',;]*[^\\s\x60\"',;.:)\\]}>]))")
	return &Rule{
		ID:          RuleEndpointValue,
		Description: "endpoint value (URL or host:port) assigned to a " + strings.Join(suffixes, ", ") + " key",
		Regex:       re,
		Keywords:    uniqueStrings(kws),
		Gate:        AssignmentGate,
		Validate: func(c Candidate) bool {
			kw := keyWords(string(c.Key))
			matched := false
			for _, sw := range sufWords {
				if len(kw) >= len(sw) && slices.Equal(kw[len(kw)-len(sw):], sw) {
					matched = true
					break
				}
			}
			if !matched {
				return false
			}
			if e := c.Offset + len(c.Secret); e < len(c.Context) && c.Context[e] == ';' {
				// a part of a connection string (Endpoint=…;Key=…): an
				// address beside the key, which the key rules judge
				return false
			}
			v := string(c.Secret)
			for _, p := range placeholders {
				if p.MatchString(v) {
					return false
				}
			}
			host, port, ok := endpointHost(v)
			if !ok {
				return false
			}
			return !placeholderHost(host, allowLocalhost) && !publicService(v, host, port)
		},
	}
}

var hostPortRE = lazyRE.New(`^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*):([0-9]{1,5})(?:/\S*)?$`)

var schemeRE = lazyRE.New(`^[A-Za-z][A-Za-z0-9+.-]*$`)

// endpointHost reports whether v is a concrete URL or host:port, and its
// host and port ("" when a URL names none).
func endpointHost(v string) (host, port string, ok bool) {
	if strings.ContainsAny(v, "<>{}$*") {
		return "", "", false
	}
	if i := strings.Index(v, "://"); i >= 0 {
		if !schemeRE.MatchString(v[:i]) {
			return "", "", false
		}
		u, err := url.Parse(v)
		if err != nil || u.Host == "" {
			return "", "", false
		}
		h := u.Hostname()
		if h == "" {
			return "", "", false
		}
		return h, u.Port(), true
	}
	m := hostPortRE.FindStringSubmatch(v)
	if m == nil {
		return "", "", false
	}
	h := strings.Trim(m[1], "[]")
	// A bare name must look like a host: it has a letter, a dot or a colon
	// (so "10:30" is a time, not a host).
	if !strings.ContainsAny(h, ".:") && !strings.ContainsAny(strings.ToLower(h), "abcdefghijklmnopqrstuvwxyz") {
		return "", "", false
	}
	return h, m[2], true
}

// publicService reports whether an address is a public service's: a
// name under a public (ICANN) suffix, on its scheme's default port
// ("https://api.stripe.com/v1", a BaseUrl in any app's settings). What
// the rule guards is a team's own model endpoint, which shows in its
// address: an IP literal or a name that spells one (10.0.0.5.nip.io), a
// one-label name ("spark1:8000"), a name under no public suffix
// (.internal, .lan, a cluster's vllm.inference, a made-up .lab), under a
// suffix a provider hands its users (a tailnet's .ts.net, a tunnel's
// .ngrok-free.app, .duckdns.org: the Public Suffix List's private part),
// or a port other than its scheme's own.
func publicService(v, host, port string) bool {
	scheme, _, ok := strings.Cut(v, "://")
	if !ok {
		return false
	}
	if port != "" && port != defaultPorts[strings.ToLower(scheme)] {
		return false
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return false
	}
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if !strings.Contains(h, ".") || ipSpelled.MatchString(h) {
		return false
	}
	suffix, icann := publicsuffix.PublicSuffix(h)
	return icann && suffix != h
}

// defaultPorts are the ports a scheme's URL leaves out.
var defaultPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443"}

// ipSpelled: a name that spells an IPv4 address (nip.io, sslip.io and
// the like resolve 10.0.0.5.nip.io and 10-0-0-5.sslip.io to it).
var ipSpelled = lazyRE.New(`(?:^|[.-])(?:\d{1,3}[.-]){3}\d{1,3}(?:[.-]|$)`)

func placeholderHost(h string, allowLocalhost bool) bool {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	switch {
	case h == "example.com", h == "example.org", h == "example.net", h == "example",
		strings.HasSuffix(h, ".example"), strings.HasSuffix(h, ".example.com"),
		strings.HasSuffix(h, ".example.org"), strings.HasSuffix(h, ".example.net"):
		return true
	}
	if !allowLocalhost {
		return false
	}
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	if a, err := netip.ParseAddr(h); err == nil {
		return a.IsLoopback() || a.IsUnspecified()
	}
	return false
}

// keyWords splits an identifier into lower-case words at "_", "-", ".",
// spaces and camelCase boundaries: "openaiBaseURL" -> [openai base url].
func keyWords(s string) []string {
	var words []string
	var cur []byte
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		isUp := 'A' <= c && c <= 'Z'
		isLow := 'a' <= c && c <= 'z'
		isDig := '0' <= c && c <= '9'
		if !isUp && !isLow && !isDig {
			flush()
			continue
		}
		if isUp && len(cur) > 0 {
			p := cur[len(cur)-1]
			pLow := 'a' <= p && p <= 'z' || '0' <= p && p <= '9'
			nextLow := i+1 < len(s) && 'a' <= s[i+1] && s[i+1] <= 'z'
			pUp := 'A' <= p && p <= 'Z'
			if pLow || (pUp && nextLow) {
				flush()
			}
		}
		cur = append(cur, c)
	}
	flush()
	return words
}

func uniqueStrings(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// AssignmentGate passes a keyword hit that is part of a name followed by an
// assignment: more name characters, an optional closing quote or backtick,
// blanks, then "=" or ":".
// genericSecretGate is AssignmentGate, and for the keywords "_pat" and
// "-pat" (a personal access token's name: CONFLUENCE_PAT, GITHUB_PAT) it
// first wants the word to end there: "_path", "_pattern" and "_patch"
// are far more common than a token's name, and end no name of one.
func genericSecretGate(data []byte, i int) bool {
	if i >= 3 && (data[i] == 't' || data[i] == 'T') && (data[i-3] == '_' || data[i-3] == '-') && equalFoldASCII(data[i-2:i+1], "pat") &&
		i+1 < len(data) && isAlnumByte(data[i+1]) {
		return false
	}
	return AssignmentGate(data, i)
}

func AssignmentGate(data []byte, i int) bool {
	j := i + 1
	for j < len(data) && isKeyChar(data[j]) {
		if j-i > 256 {
			return false // no name is this long
		}
		j++
	}
	if j < len(data) && (data[j] == '"' || data[j] == '\'' || data[j] == '`') {
		j++
	}
	for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
		j++
	}
	if j < len(data) && data[j] == '{' {
		// C#'s auto-property: Secret { get; set; } = "…"
		k := j + 1
		for k < len(data) && data[k] == ' ' {
			k++
		}
		return bytes.HasPrefix(data[k:], []byte("get;"))
	}
	if j+1 < len(data) && data[j] == '-' && (data[j+1] == ' ' || data[j+1] == '\t') {
		// a label, a dash and a quoted value (generic-secret)
		k := j + 1
		for k < len(data) && (data[k] == ' ' || data[k] == '\t') {
			k++
		}
		return k < len(data) && (data[k] == '"' || data[k] == '\'' || data[k] == '`')
	}
	return j < len(data) && (data[j] == '=' || data[j] == ':')
}

// bearerTokenGate passes "authorization" as AssignmentGate does, and
// "bearer" right after an assignment's sign ("token=Bearer …"), which
// ordinary prose and code about bearer tokens do not write.
func bearerTokenGate(data []byte, i int) bool {
	if i >= len("authorization")-1 && bytes.EqualFold(data[i+1-len("authorization"):i+1], []byte("authorization")) {
		return AssignmentGate(data, i)
	}
	j := i + 1 - len("bearer")
	for j > 0 && (data[j-1] == ' ' || data[j-1] == '\t') {
		j--
	}
	return j > 0 && (data[j-1] == '=' || data[j-1] == ':')
}

// URLUserinfoGate passes a "://" hit followed by userinfo with a password:
// a ":" and then an "@" before the end of the authority.
func URLUserinfoGate(data []byte, i int) bool {
	colon := false
	for j := i + 1; j < len(data) && j < i+1+4096; j++ {
		switch c := data[j]; c {
		case ':':
			colon = true
		case '@':
			// Before a colon, the "@" is the user's own (an e-mail
			// address as a mail server's login name, written unescaped
			// as clients accept it): the userinfo ends at the last.
			if colon {
				return true
			}
		case ' ', '\t', '\r', '\n', '/', '?', '#', '"', '\'', '`':
			return false
		}
	}
	return false
}

// keyCharSet holds the bytes isKeyChar accepts.
var keyCharSet = func() (s [256]bool) {
	for c := range 256 {
		s[c] = isKeyChar(byte(c))
	}
	return s
}()

func isKeyChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.'
}

// notAfterHyphen rejects a match glued to a preceding hyphenated word, such
// as the "sk-" in "task-sk-...".
func notAfterHyphen(c Candidate) bool {
	i := c.Offset
	return i == 0 || (c.Context[i-1] != '-' && c.Context[i-1] != '.')
}

func hasUpper(b []byte) bool {
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			return true
		}
	}
	return false
}

func hasLower(b []byte) bool {
	for _, c := range b {
		if 'a' <= c && c <= 'z' {
			return true
		}
	}
	return false
}

func hasDigit(b []byte) bool {
	for _, c := range b {
		if '0' <= c && c <= '9' {
			return true
		}
	}
	return false
}

// mixedClasses: upper, lower and digit all present, as in any long random
// base62 string.
func mixedClasses(b []byte) bool { return hasUpper(b) && hasLower(b) && hasDigit(b) }

// pemBody counts the base64 characters of a PEM block's body (the lines
// between the armor lines, without "Key: value" headers).
func pemBody(block []byte) int {
	// Skip the BEGIN line and stop at END.
	start := bytes.Index(block, []byte("-----BEGIN"))
	if start < 0 {
		return 0
	}
	rest := block[start+len("-----BEGIN"):]
	i := bytes.Index(rest, []byte("-----"))
	if i < 0 {
		return 0
	}
	rest = rest[i+5:]
	if j := bytes.Index(rest, []byte("-----END")); j >= 0 {
		rest = rest[:j]
	}
	n := 0
	for _, c := range rest {
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' {
			n++
		}
	}
	return n
}

var serviceAccountTypeRE = lazyRE.New(`"type"\s*:\s*"service_account"`)

func validGCPServiceAccount(c Candidate) bool {
	return pemBody(c.Secret) >= 64 && serviceAccountTypeRE.Match(c.Context)
}

// jwtGate passes an "ey" that starts a word and a dotted token: the
// keyword is in every "key" and "they", the expression rarely needed.
func jwtGate(data []byte, i int) bool {
	st := i - 1 // the "e"
	if st > 0 && isWordByte(data[st-1]) {
		return false
	}
	for j := i + 1; j < len(data) && j <= i+4096; j++ {
		c := data[j]
		if c == '.' {
			return j-st >= 10
		}
		if !isWordByte(c) && c != '-' {
			return false
		}
	}
	return false
}

// validJWT: a header that decodes to a JSON object must name an "alg" (a
// dotted base64 JSON record is not a token); a header that does not decode
// to JSON is an opaque token of the JWT shape, reported when both of its
// first parts have at least 17 characters, as gitleaks' jwt rule does.
func validJWT(c Candidate) bool {
	h, rest, _ := bytes.Cut(c.Secret, []byte("."))
	p, _, _ := bytes.Cut(rest, []byte("."))
	raw, err := base64.RawURLEncoding.DecodeString(string(bytes.TrimRight(h, "=")))
	var hdr map[string]any
	if err == nil && json.Unmarshal(raw, &hdr) == nil {
		alg, ok := hdr["alg"]
		if s, _ := alg.(string); strings.EqualFold(s, "none") && bytes.Count(c.Secret, []byte(".")) == 2 && bytes.HasSuffix(c.Secret, []byte(".")) {
			return false // unsigned (alg none, no signature): it signs nothing
		}
		return ok
	}
	return len(h) >= 17 && len(p) >= 17
}

var urlPasswordPlaceholders = map[string]bool{
	"password": true, "passwd": true, "pass": true, "pwd": true, "secret": true,
	"token": true, "pat": true, "apikey": true, "api_key": true, "key": true,
	"user": true, "username": true, "login": true, "x-oauth-basic": true,
	"x-access-token": true, "oauth2": true, "test": true, "none": true, "null": true,
	"foo": true, "bar": true, "foobar": true,
}

func validURLPassword(c Candidate) bool {
	// A password that merely repeats the user name ("user:user@") is no
	// secret, nor is a syntax's optional part ("[user[:password]@]", a
	// manual's template of the URL).
	if bytes.HasPrefix(c.Key, []byte("[")) && bytes.HasSuffix(c.Secret, []byte("]")) {
		return false
	}
	return !bytes.EqualFold(c.Key, c.Secret) && !sampleURLUserinfo(c.Secret, urlHost(c.Context[c.Offset+len(c.Secret)+1:]))
}

// sampleURLUserinfo reports whether a URL's password, on its host, is a
// sample's rather than a credential: samplePassword, or any password on a
// documentation host (example.com).
func sampleURLUserinfo(pass, host []byte) bool {
	return samplePassword(pass) || placeholderHost(string(host), false)
}

// samplePassword reports whether a URL's password is none: a word that
// names the value ("password", "token"), one character repeated, a
// reference or a format verb ($DB_PASS, %PASSWORD%, %s; not a password
// that starts with a percent escape, %24…), or a port ("host:8080@…").
// url-credentials reads a URL's password so, and the scanner so reads the
// password of a URL any rule reports, or of the URL in a value
// (urlSample): else a rule of the long tail that reports the password of
// a connection string (np.mongodb.1) reported
// "mongodb+srv://user:password@…", which url-credentials does not. The
// host is not read there: a token of a vendor's format is one in a
// sample's URL too (BBDC-… at git.company.example).
func samplePassword(pass []byte) bool {
	p := strings.ToLower(string(pass))
	return urlPasswordPlaceholders[p] || allSame(pass) || percentReference(p) || strings.HasPrefix(p, "$") ||
		isDigits(pass) && len(pass) <= 5
}

// percentReference reports whether p, starting with "%", is a reference
// (%PASSWORD%) or a format verb (%s, %v) rather than a password whose
// first character is percent-escaped (%24…, "$…").
func percentReference(p string) bool {
	if !strings.HasPrefix(p, "%") {
		return false
	}
	escaped := len(p) >= 3 && isHexDigit(p[1]) && isHexDigit(p[2])
	return !escaped || strings.HasSuffix(p, "%")
}

// urlHost is the host at the start of rest, the text after a URL's "@".
func urlHost(rest []byte) []byte {
	if i := bytes.IndexAny(rest, " \t\r\n/?#`\"':"); i >= 0 {
		return rest[:i]
	}
	return rest
}

// urlSample reports whether the value ctx[ss:se] is the password of a
// URL's userinfo that is a sample's (samplePassword, or
// sampleURLPassword's image defaults on a stand-in host), or holds a URL
// whose password is a sample's or a placeholder.
func urlSample(ctx []byte, ss, se int) bool {
	if ss >= 3 && ctx[ss-1] == ':' && se < len(ctx) && ctx[se] == '@' && bytes.Contains(ctx[max(0, ss-256):ss], []byte("://")) {
		return samplePassword(ctx[ss:se]) || sampleURLPassword(ctx, ss, se)
	}
	_, pass, _, ok := urlUserinfo(ctx[ss:se])
	return ok && (samplePassword(pass) || IsPlaceholder(pass))
}

// urlUserinfo returns the user, password and host of the first URL in v
// with a password in its userinfo (scheme://user:password@host), and
// false when v holds none.
func urlUserinfo(v []byte) (user, pass, host []byte, ok bool) {
	i := bytes.Index(v, []byte("://"))
	if i < 0 {
		return nil, nil, nil, false
	}
	auth := v[i+3:]
	if j := bytes.IndexAny(auth, "/?# \t\r\n\"'`<>"); j >= 0 {
		auth = auth[:j]
	}
	at := bytes.LastIndexByte(auth, '@')
	if at < 0 {
		return nil, nil, nil, false
	}
	user, pass, ok = bytes.Cut(auth[:at], []byte(":"))
	if !ok || len(pass) == 0 {
		return nil, nil, nil, false
	}
	return user, pass, urlHost(auth[at+1:]), true
}

func allSame(b []byte) bool {
	for _, c := range b {
		if c != b[0] {
			return false
		}
	}
	return true
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// genericKeyWords are the key words that make an assignment a secret.
var genericKeyWords = []string{"password", "passwd", "secret", "token", "apikey", "accesskey"}

// genericMetaWords: a key ending in one of these names data about a secret
// (where it lives, how long it is, its digest), not the secret itself.
var genericMetaWords = map[string]bool{
	"id": true, "ids": true, "name": true, "names": true, "path": true, "paths": true,
	"file": true, "files": true, "dir": true, "directory": true, "env": true, "var": true,
	"vars": true, "variable": true, "url": true, "uri": true, "endpoint": true, "hash": true,
	"digest": true, "sha": true, "sha1": true, "sha256": true, "sha512": true, "md5": true,
	"checksum": true, "fingerprint": true, "class": true, "type": true, "kind": true,
	"source": true, "ref": true, "refs": true, "count": true, "limit": true, "budget": true,
	"length": true, "len": true, "size": true, "ttl": true, "expiry": true, "expires": true,
	"expiration": true, "at": true, "policy": true, "rotation": true, "scope": true,
	"scopes": true, "header": true, "prefix": true, "format": true, "version": true,
	"field": true, "fields": true, "status": true, "mode": true, "enabled": true,
	"required": true, "present": true, "location": true, "store": true, "provider": true,
	"manager": true, "method": true, "usage": true, "used": true, "timeout": true,
	"label": true, "description": true, "hint": true, "rule": true, "rules": true,
	"check": true, "scan": true, "pattern": true, "regex": true, "lifetime": true,
	"min": true, "max": true, "backend": true, "command": true, "cmd": true, "helper": true,
}

// genericMetaFirst: a key starting with one of these counts tokens, or
// says its value is not a real one.
var genericMetaFirst = map[string]bool{"max": true, "min": true, "num": true, "total": true, "n": true,
	"non": true, "fake": true, "dummy": true, "mock": true, "bogus": true, "invalid": true}

// handleTokenName reports whether a name's words (keyWords) name a token
// an API hands out or takes back as a handle, no credential: a page's
// (next_token, page_token, continuation_token, cursor_token: AWS's,
// Google's and S3's paging), a request's (ClientRequestToken,
// idempotency_token: AWS's idempotency), a trace's, a lock's or a
// sync's. The last word must name a token: next_secret is a secret.
func handleTokenName(words []string) bool {
	if len(words) < 2 {
		return false
	}
	if last := words[len(words)-1]; last != "token" && last != "tokens" {
		return false
	}
	return slices.ContainsFunc(words[:len(words)-1], func(w string) bool {
		switch w {
		case "next", "page", "paging", "pagination", "continuation", "cursor", "marker",
			"request", "idempotency", "idempotent", "correlation", "trace", "lock", "lease", "sync", "cancel", "cancellation":
			return true
		}
		return false
	})
}

// antiForgeryWord: a word of a form's anti-forgery token's name
// (authenticity_token, csrf_token, csrfmiddlewaretoken, X-XSRF-TOKEN): a
// page hands the token to every visitor, and it guards a form, not an
// account.
func antiForgeryWord(w string) bool {
	return w == "authenticity" || w == "antiforgery" || strings.HasPrefix(w, "csrf") || strings.HasPrefix(w, "xsrf")
}

var (
	envNameRE  = lazyRE.New(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$`)
	wordListRE = lazyRE.New(`^[a-z]+(?:[-_. ][a-z0-9]+)*$`)
	// concatRE: what lies between the quotes of two strings a variable
	// joins ("…?secret=" + token + "&…"), read as a quoted value
	concatRE = lazyRE.New(`^[ \t]*\+[ \t]*[A-Za-z_$][A-Za-z0-9_$.]*(?:\(\))?[ \t]*\+?[ \t]*$`)
)

// typedDeclaration reports whether a generic-secret match names a type
// between its key and "=" (its first form: "key: Type = …"; not "key :=").
func typedDeclaration(c Candidate) bool {
	between := c.Context[c.MatchOffset+len(c.Key) : c.Offset]
	i := bytes.IndexByte(between, ':')
	if i < 0 {
		return false
	}
	j := i + 1
	for j < len(between) && (between[j] == ' ' || between[j] == '\t' || between[j] == '&') {
		j++
	}
	return j < len(between) && ('a' <= between[j]|0x20 && between[j]|0x20 <= 'z' || between[j] == '\'') && bytes.IndexByte(between[j:], '=') >= 0
}

func lastKeyWord(key []byte) string {
	ws := keyWords(string(key))
	if len(ws) == 0 {
		return ""
	}
	return ws[len(ws)-1]
}

func validGeneric(c Candidate) bool {
	if w := lastKeyWord(c.Key); typedDeclaration(c) && passwordWords[w] && w != "secret" {
		// val password: String = "…" is password-pair's, as before
		// typed declarations were read here; a secret's name is not
		// among the names it reads
		return false
	}
	if c.memo != nil {
		if !c.memo.keyJudged(keyGeneric, c.Key, genericKeyNamesSecret) {
			return false
		}
	} else if !genericKeyNamesSecret(c.Key) {
		return false
	}
	if rest, ok := cutAuthScheme(c.Secret); ok {
		// a whole header value: auth_token: "Bearer …" is judged by
		// its credential
		c.Secret, c.entropy = rest, 0
	}
	v := c.Secret
	colonJoined := bytes.IndexByte(v, ':') >= 0 && colonJoinedToken(v)
	switch {
	case isPublicKey(v), cutShort(v):
		return false
	case bytes.IndexByte(v, ':') >= 0 && !colonJoined:
		return false // a URL, a time, a reference; url-credentials reads URLs
	case looksLikePath(v):
		return false // a path
	case envNameRE.Match(v):
		return false // the name of a variable that holds the secret
	case wordListRE.Match(v):
		return false // lower-case words: a class or mode name
	case bytes.ContainsAny(v, " \t"):
		return false // prose, not a credential
	case codeValue(c):
		return false // code: a call, an index, a type
	case v[0] == '$' && cryptHashRE.Match(v) && hashColumnName(string(c.Key)):
		return false // a crypt(3) hash its key names one (Devise's encrypted_password): hashcolumn.go
	case !hasDigit(v) && memberChain(v): // the cheap test first
		return false // code: a field reference such as cfg.db.password
	case v[0] == '+' && concatRE.Match(v) && !holdsRandomRun(v):
		return false // code: a variable joined between two strings (a key of base64 starts with "+" too)
	case devMarkedKey(v):
		return false // Django's development key, as signing-secret judges it
	}
	if !isHexLower(v) && c.secretEntropy() < entropyFloor(genericEntropyFloor(len(v)), v) {
		return false // the rule's floor is hex's (see the rule), or a UUID's (entropyFloor)
	}
	if tokenNamed(c.Key) && !tokenAlphabet(v) && !colonJoined {
		return false // a provider issues keys and tokens in a token's alphabet; "?", "^" or "&" in one is a password's, a template's or a broken paste
	}
	if labelInBundle(c) {
		return false // a label in a translation bundle (Contrase\u00f1a): bundle.go
	}
	return hasDigit(v) || (hasUpper(v) && hasLower(v))
}

// colonJoinedToken reports a value that is a token joined by colons to
// its other parts, as credentials are written: Tableau's token secrets
// ("<key>==:<secret>"), an account's ID or a user and its key. At most
// three parts, none empty, each in a token's alphabet, none a URL's, the
// first no hash's name ("sha256:…" is a digest), and one of them a token
// on its own: 16 bytes or more at the generic floor, with a digit or
// both cases. A time, an IPv6 address, "host:port" and "ns:name" hold no
// such part, nor one of digits: an ID of digits before a key is a
// provider's, Telegram's bots' (telegramBotShape), left to its rule. That
// rule reports the keys that begin "AA", as Telegram's keys do; a key of
// the shape's length after a bot's ID that does not is reported here, so
// that the token is handed over only where the rule would report it
// (issue 33). An ID of other lengths is no bot's (gitleaks' samples of
// "too small" and "too big" IDs).
func colonJoinedToken(v []byte) bool {
	if bytes.Contains(v, []byte("//")) {
		return false
	}
	if m := telegramBotShape.Regexp().FindSubmatch(v); m != nil {
		return !bytes.HasPrefix(m[1], []byte("AA")) && tokenPart(m[1])
	}
	parts := bytes.Split(v, []byte{':'})
	if len(parts) > 3 || digestAlgorithmRE.Match(parts[0]) {
		return false
	}
	token := false
	for _, p := range parts {
		if len(p) == 0 || !tokenAlphabet(p) || isDigits(p) {
			return false
		}
		token = token || tokenPart(p)
	}
	return token
}

// tokenPart reports a part of a colon-joined value that is a token on its
// own: 16 bytes or more at the generic floor, with a digit or both cases.
func tokenPart(p []byte) bool {
	return len(p) >= 16 && (hasDigit(p) || hasUpper(p) && hasLower(p)) && Entropy(p) >= genericEntropyFloor(len(p))
}

// telegramBotShape is a Telegram bot token: the bot's ID, 8 to 10
// digits, then its key of 35 characters.
var telegramBotShape = lazyRE.New(`^[0-9]{8,10}:([A-Za-z0-9_-]{35})$`)

// digestAlgorithmRE matches the name of a hash a digest is prefixed with.
var digestAlgorithmRE = lazyRE.New(`^(?i:sha[0-9]*|sha3-[0-9]+|md[45]|blake2[bs]?|blake3|xxh[0-9]*|crc32c?|sum)$`)

// codeValue reports whether the value holds code's brackets: any bracket
// in a bare value, which ends at a blank and may cut a call in two
// ("pwd = (char *) …"); in a whole literal (wholeLiteral), brackets that
// pair up (codeBrackets).
func codeValue(c Candidate) bool {
	if wholeLiteral(c) {
		return codeBrackets(c.Secret)
	}
	return bytes.ContainsAny(c.Secret, "()[]{}")
}

// codeBrackets reports whether v's brackets pair up as code's do: a call,
// an index, a type, a template ("f(x)", "a[0]", "{{ .pw }}", "%(pw)s").
// A bracket that opens or closes nothing is no code's: generated
// passwords draw them ("N{w44mqa2si(zY8", "Qe]9x-vT2").
//
// What a pair holds must be code's too: names, numbers, paths and lists
// of them ("(pw)", "[0]", "{name}"). A pair around the symbols a
// generator draws ("[9BpEnw?9HJNf4?T7%]", "(2!IMU2oq5G4#a1)") is drawn.
func codeBrackets(v []byte) bool {
	var open []int // offsets of the brackets not closed yet
	paired := false
	for i, c := range v {
		switch c {
		case '(', '[', '{':
			open = append(open, i)
		case ')', ']', '}':
			if len(open) == 0 || v[open[len(open)-1]] != bracketPartner(c) {
				return false
			}
			if !codeInBrackets(v[open[len(open)-1]+1 : i]) {
				return false
			}
			open = open[:len(open)-1]
			paired = true
		}
	}
	return paired && len(open) == 0
}

// codeInBrackets: what a pair of brackets holds reads as code's, letters,
// digits, the brackets nested in it, "_.,:'\"$" and arithmetic ("f[i+1]")
// only, or a regular
// expression's group ("(?=.*\d)", "(?:…)").
func codeInBrackets(b []byte) bool {
	if len(b) > 0 && b[0] == '?' || !hasLetter(b) && !hasDigit(b) {
		return true // "(?=.*\d)", "(.+?)", "[^/]": a pattern's group or class
	}
	for _, c := range b {
		if !isAlnum(c) && strings.IndexByte("_.,:'\"$-+*/()[]{}", c) < 0 {
			return false
		}
	}
	return true
}

// bracketPartner returns the bracket that the closing bracket c closes.
func bracketPartner(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

// genericEntropyFloor is generic-secret's floor for a value of n bytes:
// 3.5 bits a byte, and for the 12 and 13 bytes the rule's shortest values
// have, a quarter bit under the most they can carry (log2 n: twelve
// distinct bytes are 3.58 bits), which a random value reaches.
func genericEntropyFloor(n int) float64 {
	if n < 16 {
		return min(3.5, math.Log2(float64(n))-0.25)
	}
	return 3.5
}

// cutAuthScheme returns what follows an HTTP authentication scheme
// (Bearer, Token, Basic) and a space at the start of v.
func cutAuthScheme(v []byte) ([]byte, bool) {
	for _, s := range []string{"bearer", "token", "basic"} {
		if len(v) > len(s)+1 && strings.EqualFold(string(v[:len(s)]), s) && v[len(s)] == ' ' {
			rest := bytes.TrimLeft(v[len(s):], " ")
			return rest, len(rest) > 0
		}
	}
	return v, false
}

// tokenNamed: the key names a token, an API key or an access key and no
// password or secret, which a person may choose with any symbol in it.
func tokenNamed(key []byte) bool {
	words := keyWords(string(key))
	if len(words) == 0 {
		return false
	}
	for _, w := range words {
		if passwordWords[w] || strings.HasSuffix(w, "password") || strings.HasSuffix(w, "secret") {
			return false
		}
	}
	last := words[len(words)-1]
	if strings.HasSuffix(last, "token") || strings.HasSuffix(last, "apikey") || strings.HasSuffix(last, "accesskey") {
		return true
	}
	// an API or access key; a signing, encryption or master key may be
	// a phrase someone chose
	return last == "key" && len(words) > 1 && (words[len(words)-2] == "api" || words[len(words)-2] == "access")
}

// tokenAlphabet: letters, digits and the symbols of base64, base64url,
// JWTs and dotted or dashed token formats, and "%" of a URL escape.
func tokenAlphabet(v []byte) bool {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '=' || c == '-':
		case c == '%': // URL-encoded base64 (Twitter's bearer tokens: %2B, %3D)
		case c == '!' && i > 0 && i < len(v)-1: // Salesforce's session tokens: the org's ID, "!", the secret
		default:
			return false
		}
	}
	return true
}

// looksLikePath: a value starting like a path whose parts are names; a
// base64 value that starts with "/" (/T6AKByw1b2+Za4…) holds "+" or "="
// or a long part of mixed case and digits, which no path part has.
func looksLikePath(s []byte) bool {
	if !bytes.HasPrefix(s, []byte("/")) && !bytes.HasPrefix(s, []byte("./")) && !bytes.HasPrefix(s, []byte("../")) && !bytes.HasPrefix(s, []byte("~/")) {
		return false
	}
	if bytes.ContainsAny(s, "+=") {
		return false
	}
	for part := range bytes.SplitSeq(s, []byte("/")) {
		if len(part) >= 16 && mixedClasses(part) {
			return false
		}
	}
	return true
}

// genericKeyNamesSecret is validGeneric's judgement of the name: one of
// genericKeyWords (or api key, access key) in it, and no word that says
// the value describes a secret (its length, its name).
func genericKeyNamesSecret(key []byte) bool {
	words := keyWords(string(key))
	if len(words) == 0 || genericMetaFirst[words[0]] || genericMetaWords[words[len(words)-1]] {
		return false
	}
	if len(words) >= 2 && words[len(words)-1] == "pat" {
		return true // a personal access token: GITHUB_PAT, jira_pat, ADO-PAT
	}
	if last := words[len(words)-1]; last == "token" || last == "tokens" || strings.HasSuffix(last, "token") {
		if slices.ContainsFunc(words, antiForgeryWord) {
			return false // a form's anti-forgery token; CSRF_SECRET, the key that signs them, is one
		}
		if handleTokenName(words) {
			return false // a page's, a request's or a lock's handle: next_token, ClientRequestToken
		}
	}
	for i, w := range words {
		for _, kw := range genericKeyWords {
			if w == kw || strings.HasSuffix(w, kw) {
				return true
			}
		}
		if i+1 < len(words) && (w == "api" || w == "access") && words[i+1] == "key" {
			return true
		}
	}
	return false
}

// isHexLower: lower-case hex digits only, sixteen or more. Random hex
// carries at most 4 bits a character (a 32-digit token typically 3.4 to
// 3.7), so the generic floor of 3.5 would drop half of them.
func isHexLower(v []byte) bool {
	return len(v) >= 16 && allLowerHex(v)
}

// checkRule checks a rule; the scanner works out the rest on first use
// (compiledRule.prepare).
func checkRule(r *Rule) error {
	if r == nil {
		return fmt.Errorf("secrets: nil rule")
	}
	if r.ID == "" {
		return fmt.Errorf("secrets: rule without an ID")
	}
	if r.Regex == nil && r.lazy == nil && r.builtinRE == nil {
		return fmt.Errorf("secrets: rule %s: no regex", r.ID)
	}
	if r.Regex != nil && (r.SecretGroup < 0 || r.SecretGroup > r.Regex.NumSubexp()) {
		return fmt.Errorf("secrets: rule %s: secret group %d does not exist", r.ID, r.SecretGroup)
	}
	if r.Before < 0 || r.After < 0 {
		return fmt.Errorf("secrets: rule %s: negative context", r.ID)
	}
	for _, k := range r.Keywords {
		if k == "" {
			return fmt.Errorf("secrets: rule %s: empty keyword", r.ID)
		}
		if strings.ContainsAny(k, "\n") {
			return fmt.Errorf("secrets: rule %s: keyword spans lines", r.ID)
		}
	}
	return nil
}

type compiledRule struct {
	*Rule
	// password: the rule reports a chosen password (chosenPasswordRules),
	// which in test code may be a fixture (textMemo.testFixture)
	password bool
	once     sync.Once
	// public are the literals the rule's secret may begin with (Rule.Mask),
	// looked up on the rule's first finding.
	publicOnce sync.Once
	public     publicPrefixes
	// tune is its scanner's thresholds (nil: the defaults; see tuned)
	tune *tuning
	// pathTails: the tails one of which every path Path matches ends with
	// (pathtails.go), nil when none is known.
	pathTails []string
	// atHits: the rule's matches begin at one of its keywords (gitleaks'
	// "name keyword, operator, value" rules): the scanner tries
	// anchoredAfterExpr, its expression anchored at its start after one byte,
	// at each keyword hit instead of searching the keyword's lines, and
	// such a rule compiles nothing else unless a keyword starts the text
	// (anchoredAtStart) or its hits run dense (searchAll).
	atHits bool
	// search finds the rule's matches in a window: Regex, or the rule's
	// expression compiled from searchSrc, which for an imported rule is
	// without a leading optional run of name characters (gitleaks'
	// [\w.-]{0,50}?) when stripped is set, which costs the matcher a thread
	// per character at every position; see matches.
	search    *ruleRegexp // a caller's Regex, as is
	searchSrc string
	stripped  bool
	prefixMax int
	prefixSet *[256]bool
	// matchMax bounds the bytes a match of anchoredSrc consumes, -1 when
	// nothing does (see maxMatchBytes)
	matchMax int
	// The expressions are compiled on first use (searchExpr and the
	// like), once a window passes the rule's filter; compiled is set then.
	// searched counts the bytes they searched (see foldAfter).
	compiled       atomic.Bool
	searched       atomic.Int64
	searchT        tieredExpr
	anchoredAfterT tieredExpr
	anchoredT      tieredExpr
	searchAllT     tieredExpr
	formExprs      sync.Map // formsIn's mask -> *formVariant (searchExprIn)
	anchoredSrc    string
	afterSrc       string // anchoredAfterExpr's source
	// tree is the parse of the rule's source, which prepare hands to the
	// rule's filter (nil once the filter has it, and for a caller's Regex)
	tree          *syntax.Regexp
	lowerKeywords []string
	// for a rule with heads: lowerKeywords' indexes by first byte,
	// longest first, and the anchored expression narrowed to each
	// keyword's alternatives (anchoredAfterAt)
	headFirst [][]uint16
	headExprs []headExpr
	// follow runs the expression past a keyword hit; followStart holds,
	// for each of lowerKeywords, its set after the keyword, nil where it
	// rules nothing out (see followNFA).
	follow      *followNFA
	followStart []pcSet
	followHits  atomic.Int64
	followOnce  sync.Once
	secretIdx   []int
	keyIdx      []int
	unnamedIdx  []int
	dfaState    // the rule's DFA filter (dfa.go)
	// allKeywords lists the indexes of lowerKeywords; kwTail, for a rule
	// with many keywords, those ending in each pair of bytes (see
	// keywordsEndingAt).
	allKeywords []int
	kwTail      map[uint16][]int
	kwFirst     asciiMask // the first bytes of lowerKeywords, both cases
	// a keyword has an s, a k: (?i) takes ſ, K for them (searchAtKeywords)
	kwFoldsS, kwFoldsK bool
	// starts, for a rule whose matches do not all begin at a keyword,
	// tells where they may begin (see startTable); nil when that would
	// not bound the attempts at them
	starts        *startTable
	startsAfterRE atomic.Pointer[regexp.Regexp] // see startsAfter
	// startsAttempts counts the attempts at starts; past narrowAfter
	// they run startsAfter narrowed to their text's bytes (narrow.go)
	startsAttempts   atomic.Int64
	startsNarrowOnce sync.Once
	startsNarrow     *byteNarrowing
}

// kwTailMin is how many keywords a rule needs before a keyword hit looks
// its keywords up by their last two bytes instead of trying each:
// prefixed-token has some 150, and a line of xoxb- paid 150 comparisons
// at each of its 800,000 hits.
const kwTailMin = 8

func tailKey(a, b byte) uint16 {
	if 'A' <= a && a <= 'Z' {
		a += 'a' - 'A'
	}
	if 'A' <= b && b <= 'Z' {
		b += 'a' - 'A'
	}
	return uint16(a)<<8 | uint16(b)
}

func (cr *compiledRule) indexKeywordTails() {
	cr.allKeywords = make([]int, len(cr.lowerKeywords))
	short := false
	for i, k := range cr.lowerKeywords {
		if k != "" {
			cr.kwFirst.add(rune(k[0]))
			cr.kwFirst.add(rune(upperASCII(k[0])))
		}
		cr.kwFoldsS = cr.kwFoldsS || strings.ContainsRune(k, 's')
		cr.kwFoldsK = cr.kwFoldsK || strings.ContainsRune(k, 'k')
		cr.allKeywords[i] = i
		short = short || len(k) < 2
	}
	if len(cr.lowerKeywords) < kwTailMin || short {
		return
	}
	cr.kwTail = map[uint16][]int{}
	for i, k := range cr.lowerKeywords {
		t := tailKey(k[len(k)-2], k[len(k)-1])
		cr.kwTail[t] = append(cr.kwTail[t], i) // ascending, as allKeywords
	}
}

// keywordsEndingAt returns the indexes, ascending, of the keywords that
// may end at data[i] (all of them for a rule without a tail index): the
// others do not match there.
func (cr *compiledRule) keywordsEndingAt(data []byte, i int) []int {
	if cr.kwTail == nil {
		return cr.allKeywords
	}
	if i < 1 {
		return nil // every keyword is two bytes or longer
	}
	return cr.kwTail[tailKey(data[i-1], data[i])]
}

// keywordStartsAt reports whether one of the rule's keywords starts at
// data[s] (ASCII case-insensitively: not spelt with ſ or K, which (?i)
// takes for s and k; searchAtKeywords leaves runs with those).
func (cr *compiledRule) keywordStartsAt(data []byte, s int) bool {
	if !cr.kwFirst.has(data[s]) {
		return false
	}
	for _, k := range cr.lowerKeywords {
		if len(data)-s >= len(k) && equalFoldASCII(data[s:s+len(k)], k) {
			return true
		}
	}
	return false
}

// sharedRegexps holds the expressions compiled for rules, by source: a
// process builds several scanners over the same rules (the secrets check,
// the records check, the redaction of findings), each preparing its rules
// on first use, and a *regexp.Regexp is safe for concurrent use. It grows
// by the distinct expressions a process compiles, which configuration
// bounds.
var sharedRegexps sync.Map // string -> *ruleRegexp

// compileShared returns expr compiled, once per process, folded and
// loosened (compileLoosened). Its callers' expressions are built from
// checked rules: failing is a defect.
func compileShared(expr string) *ruleRegexp {
	return compileSharedIn(&sharedRegexps, expr, compileFolded)
}

// sharedPlain holds the expressions compiled as written, by source (see
// foldAfter).
var sharedPlain sync.Map // string -> *ruleRegexp

// plainTakesFolded lets compilePlain serve a source another scanner has
// folded; the tests that compare the two forms turn it off, or they would
// compare the folded form with itself.
var plainTakesFolded = true

// compilePlain is compileShared without compileFolded's rewrite. Where
// a scanner has compiled expr folded, that serves: it finds the same
// matches, and its form as written has been let go (tieredExpr.get).
func compilePlain(expr string) *ruleRegexp {
	if plainTakesFolded {
		if re, ok := sharedRegexps.Load(expr); ok {
			return re.(*ruleRegexp)
		}
	}
	return compileSharedIn(&sharedPlain, expr, regexp.Compile)
}

func compileSharedIn(shared *sync.Map, expr string, compile func(string) (*regexp.Regexp, error)) *ruleRegexp {
	if re, ok := shared.Load(expr); ok {
		return re.(*ruleRegexp)
	}
	c, err := compileLoosened(expr, compile)
	if err != nil {
		panic(err)
	}
	re, _ := shared.LoadOrStore(expr, c)
	return re.(*ruleRegexp)
}

// sharedExact holds the expressions compileExact compiled, by source.
var sharedExact sync.Map // string -> *regexp.Regexp

// compileExact returns expr compiled as written, once per process: an
// expression a rule holds as its Regex, which any caller may run.
func compileExact(expr string) *regexp.Regexp {
	if re, ok := sharedExact.Load(expr); ok {
		return re.(*regexp.Regexp)
	}
	c, err := compileFolded(expr)
	if err != nil {
		panic(err)
	}
	re, _ := sharedExact.LoadOrStore(expr, c)
	return re.(*regexp.Regexp)
}

// searchExpr returns the compiled expression a rule searches its windows
// with, compiling it on first use.
func (cr *compiledRule) searchExpr() *ruleRegexp {
	if cr.search != nil {
		return cr.search // a caller's Regex
	}
	return cr.searchT.get(cr, cr.searchSrc)
}

// searchExprIn returns the expression that finds the rule's matches in
// window: searchExpr, or for a rule of forms the alternation of those
// that may match in it (nil when none may), compiled on first use.
func (cr *compiledRule) searchExprIn(window []byte) *ruleRegexp {
	if cr.formsIn == nil || cr.search != nil { // a caller's Regex has no forms
		return cr.searchExpr()
	}
	in := cr.formsIn(window)
	all := uint32(1)<<len(cr.forms) - 1
	switch in &= all; in {
	case all:
		return cr.searchExpr()
	case 0:
		return nil
	}
	v, ok := cr.formExprs.Load(in)
	if !ok {
		v, _ = cr.formExprs.LoadOrStore(in, &formVariant{src: formsExpr(cr.forms, in)})
	}
	fv := v.(*formVariant)
	return fv.expr.get(cr, fv.src) // folded as searchExpr is, past foldAfter
}

// formVariant is the expression of some of a rule's forms (searchExprIn).
type formVariant struct {
	src  string
	expr tieredExpr
}

// formsExpr is the alternation of forms with those not in in (bit i:
// forms[i]) made unmatchable: each is an empty class followed by its
// groups, empty, so that the expression numbers and names its groups as
// the whole one does and compiles none of its instructions.
func formsExpr(forms []string, in uint32) string {
	var b strings.Builder
	for i, f := range forms {
		if i > 0 {
			b.WriteByte('|')
		}
		if in&(1<<i) != 0 {
			b.WriteString(f)
			continue
		}
		b.WriteString(`[^\x00-\x{10FFFF}]`)
		re, err := syntax.Parse(f, syntax.Perl)
		if err != nil {
			panic(err) // TestKeyMaterialMayMatch compiles every combination
		}
		for _, name := range re.CapNames()[1:] {
			if name == "" {
				b.WriteString("()")
			} else {
				b.WriteString("(?P<" + name + ">)")
			}
		}
	}
	return b.String()
}

// anchoredAfterExpr returns the expression of a rule whose matches begin
// at its keywords anchored at its start after one byte (so that \b and the
// like see it), compiling it on first use.
func (cr *compiledRule) anchoredAfterExpr() *ruleRegexp {
	return cr.anchoredAfterT.get(cr, cr.afterSrc)
}

// searchAll returns the unanchored expression of a rule whose matches
// begin at its keywords, for a dense run of hits.
func (cr *compiledRule) searchAll() *ruleRegexp {
	return cr.searchAllT.get(cr, cr.anchoredSrc)
}

// anchoredAtStart returns the expression anchored at the start of the
// text, for a keyword hit at offset 0.
func (cr *compiledRule) anchoredAtStart() *ruleRegexp {
	return cr.anchoredT.get(cr, `^(?:`+cr.anchoredSrc+`)`) // once per text that starts with a keyword
}

// foldAfter is how many bytes a rule searches with its expressions
// compiled as written before it compiles them with their folded literals
// as classes (compileFolded): those run faster on a line dense with
// keywords, but cost twice as much to compile, and most rules a tree
// wakes search a few lines.
var foldAfter int64 = 64 << 10 // a variable: the tests fold at once

// tieredExpr is one of a rule's expressions, compiled on first use as
// written, and with its folded literals as classes once the rule has
// searched foldAfter bytes (compiledRule.read). Both find the same
// matches: the language and the order of preference are the same.
type tieredExpr struct {
	plainOnce sync.Once
	plain     atomic.Pointer[ruleRegexp]
	foldOnce  sync.Once
	folded    atomic.Pointer[ruleRegexp]
}

func (t *tieredExpr) get(cr *compiledRule, src string) *ruleRegexp {
	if f := t.folded.Load(); f != nil {
		return f
	}
	if cr.searched.Load() >= foldAfter {
		t.foldOnce.Do(func() {
			t.folded.Store(compileShared(src))
			cr.compiledNow()
			// A compile as written in flight finishes first, and none
			// starts after: its result would stay live beside this one.
			t.plainOnce.Do(func() {})
			// The folded form serves from now on: the one as written
			// would stay live beside it (on a tree that wakes every
			// rule on long lines, a third of the compiled programs).
			// The process lets it go too when this tier never compiled
			// it and another scanner did (compilePlain serves the folded
			// one from now on).
			t.plain.Store(nil)
			sharedPlain.Delete(src)
		})
		return t.folded.Load()
	}
	return t.asWritten(cr, src)
}

// asWritten returns the expression as written, compiling it on first use,
// or the folded one when another goroutine has folded it since get looked
// (and let the form as written go).
func (t *tieredExpr) asWritten(cr *compiledRule, src string) *ruleRegexp {
	t.plainOnce.Do(func() {
		t.plain.Store(compilePlain(src))
		cr.compiledNow()
	})
	if p := t.plain.Load(); p != nil {
		return p
	}
	return t.folded.Load()
}

// read counts n bytes the rule's expression is about to search.
func (cr *compiledRule) read(n int) {
	cr.searched.Add(int64(n))
	countWork(n)
}

// prepare works out, on a rule's first keyword hit, how the scanner runs
// its expression and indexes its groups, from one parse of the source. It
// compiles nothing: a woken rule reads its windows through its filter
// (see filterFor), and its expression is compiled once a window passes
// it. Of the ~30 rules a tree of planning notes wakes, 4 match anything,
// and compiling the expressions of the others was a fifth of a check run.
func (cr *compiledRule) prepare() {
	cr.once.Do(func() {
		var tree *syntax.Regexp // the source's parse, nil for a caller's Regex
		var src string
		switch {
		case cr.Regex == nil && cr.lazy != nil:
			src = cr.lazy.src
			full, err := syntax.Parse(src, syntax.Perl)
			var head string
			var pmax int
			var pset *[256]bool
			var rest *syntax.Regexp
			if err == nil { // else compiling it reports the error
				cr.preparePublic(full)
				head, pmax, pset, rest = stripNamePrefix(full)
			}
			if head != "" {
				cr.stripped, cr.prefixMax, cr.prefixSet = true, pmax, pset
				src, tree = head, rest
			} else {
				tree = rest
			}
			if cr.After <= 256 && tree != nil && beginsWithKeywordRe(tree, cr.Keywords) {
				cr.anchoredSrc = src
			} else {
				cr.searchSrc = src
			}
		case cr.Regex != nil:
			cr.search = wrapRegexp(cr.Regex) // the caller's, as compiled (it may be POSIX)
			src = cr.Regex.String()
			cr.searchSrc = src
			if cr.startsAtKeyword {
				cr.anchoredSrc = src
			} else {
				cr.compiled.Store(true) // nothing to spare: no filter first
			}
		default:
			src = cr.builtinRE.src
			t, err := syntax.Parse(src, syntax.Perl)
			if err != nil {
				panic(err) // TestBuiltinExpressions compiles them all
			}
			tree = t
			cr.preparePublic(t)
			cr.searchSrc = src
			if cr.startsAtKeyword {
				cr.anchoredSrc = src
			}
			if cr.startsAtKeyword && !cr.tokenAtKeyword {
				// The name around the keyword is widened back over key
				// characters, as the stripped prefix of an imported rule is.
				cr.prefixMax, cr.prefixSet = 256, &keyCharSet
			}
			if !cr.startsAtKeyword && cr.formsIn == nil {
				if cr.starts = newStartTable(tree); cr.starts != nil {
					cr.textStartOnce.Do(func() { cr.textStart = readsTextStart(tree) })
				}
			}
		}
		cr.matchMax = -1
		if cr.anchoredSrc != "" {
			if tree != nil {
				cr.kwAtWord = beginsAtWordBoundary(tree)
				cr.matchMax = maxMatchBytes(tree)
				// from this parse, not one more of anchoredSrc (a tenth
				// of the scan of a tree that wakes every rule)
				cr.textStartOnce.Do(func() { cr.textStart = readsTextStart(tree) })
			}
			cr.atHits = true
			cr.afterSrc = `^(?s:.)(?:` + cr.anchoredSrc + `)`
			for _, k := range cr.Keywords {
				// ASCII folded, as the keyword automaton and
				// equalFoldASCII fold: a keyword given capitalised in
				// another script ("Пароль") stays the one the text holds
				cr.lowerKeywords = append(cr.lowerKeywords, string(bytes.Map(asciiLowerRune, []byte(k))))
			}
			cr.indexKeywordTails()
			cr.indexHeads()
			// the follow automaton is built once the rule has had
			// followAfter hits (see mayFollow)
		}
		var names []string
		if tree != nil {
			names = tree.CapNames() // as regexp numbers them; the anchored forms add no group
			cr.tree = tree
		} else {
			names = cr.Regex.SubexpNames()
		}
		for i, n := range names {
			switch n {
			case "secret":
				cr.secretIdx = append(cr.secretIdx, i)
			case "key":
				cr.keyIdx = append(cr.keyIdx, i)
			case "":
				if i > 0 {
					cr.unnamedIdx = append(cr.unnamedIdx, i)
				}
			}
		}
	})
}

// matches returns the submatch indexes of every match of the rule's
// expression in ctx, as FindAllSubmatchIndex would. When the expression's
// name prefix is stripped, each match is widened left over the prefix's
// characters, as the whole expression's leftmost match would start (the
// prefix captures nothing, so the groups are the same).
func (cr *compiledRule) matches(ctx []byte) [][]int {
	re := cr.searchExprIn(ctx)
	if re == nil {
		return nil
	}
	ms := re.FindAllSubmatchIndex(ctx, -1)
	prev := 0
	for _, m := range ms {
		cr.widenStripped(ctx, m, prev)
		prev = m[1]
	}
	return ms
}

// widenStripped gives a match m of the search expression in ctx the name
// prefix the expression was stripped of, back to at most prev, the end of
// the match before it.
func (cr *compiledRule) widenStripped(ctx []byte, m []int, prev int) {
	if !cr.stripped {
		return
	}
	m[0] = nameStart(ctx, m[0], prev, cr.prefixMax, cr.prefixSet)
}

// stripNamePrefix returns expr without a leading optional repetition of
// an ASCII character class (gitleaks' [\w.-]{0,50}?), that repetition's
// maximum and its characters, when expr has one ("" otherwise), and the
// parse of what it returns (of expr when it strips nothing; nil when expr
// does not parse). The repetition holds no group, so the rest numbers its
// groups as expr does.
func stripNamePrefix(re *syntax.Regexp) (string, int, *[256]bool, *syntax.Regexp) {
	if re.Op != syntax.OpConcat || len(re.Sub) < 2 {
		return "", 0, nil, re
	}
	p := re.Sub[0]
	if p.Op != syntax.OpRepeat || p.Min != 0 || p.Max < 1 || p.Sub[0].Op != syntax.OpCharClass {
		return "", 0, nil, re
	}
	var set [256]bool
	rs := p.Sub[0].Rune
	for i := 0; i+1 < len(rs); i += 2 {
		// Case folding adds non-ASCII letters (the Kelvin sign for k);
		// a name is widened over ASCII only.
		for c := rs[i]; c <= min(rs[i+1], 0xff); c++ {
			set[c] = true
		}
	}
	rest := &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: re.Sub[1:]}
	return regexpString(rest), p.Max, &set, rest // not rest.String(): see writeRegexp
}

// builtinExpr is a built-in rule's expression, compiled on first use.
// TestBuiltinExpressions compiles them all.
func builtinExpr(src string) *lazyRegex { return &lazyRegex{src: src} }

// Expr returns the rule's regular expression: Regex, or for a built-in or
// an imported rule its expression compiled on first use (once per
// process).
func (r *Rule) Expr() *regexp.Regexp {
	switch {
	case r.Regex != nil:
		return r.Regex
	case r.builtinRE != nil:
		return r.builtinRE.exact()
	case r.lazy != nil:
		return r.lazy.exact()
	}
	return nil
}

// lazyRegex is an expression compiled on first use. Imported expressions
// are checked by TestGitleaksRulesCompile, so a failure is a build defect.
type lazyRegex struct {
	once      sync.Once
	src       string
	re        *regexp.Regexp
	exactOnce sync.Once
	exactRE   *regexp.Regexp
}

// get returns the expression compiled for matching (compileFolded).
func (l *lazyRegex) get() *regexp.Regexp {
	l.once.Do(func() {
		re, err := compileFolded(l.src)
		if err != nil {
			panic(err)
		}
		l.re = re
	})
	return l.re
}

// exact returns the expression compiled as written, for Expr.
func (l *lazyRegex) exact() *regexp.Regexp {
	l.exactOnce.Do(func() { l.exactRE = regexp.MustCompile(l.src) })
	return l.exactRE
}

// secretSpan returns the secret's offsets in a match m (from
// FindAllSubmatchIndex): the first "secret" group that took part; else
// group SecretGroup; else the first unnamed group that took part; else the
// whole match. An imported expression that captures its secret in each
// branch of an alternation (Kingfisher's aws.2: "AWS … (key)" or "AWS …
// SECRET … KEY … (key)") names the first branch's group: a match of
// another branch reports that branch's group, not the whole phrase.
func (cr *compiledRule) secretSpan(m []int) (int, int) {
	for _, gi := range cr.secretIdx {
		if m[2*gi] >= 0 {
			return m[2*gi], m[2*gi+1]
		}
	}
	if len(cr.secretIdx) > 0 {
		return m[0], m[1]
	}
	if g := cr.SecretGroup; g > 0 && 2*g+1 < len(m) && m[2*g] >= 0 {
		return m[2*g], m[2*g+1]
	}
	for _, gi := range cr.unnamedIdx {
		if m[2*gi] >= 0 && m[2*gi+1] > m[2*gi] {
			return m[2*gi], m[2*gi+1]
		}
	}
	return m[0], m[1]
}

// elidedAfter reports whether the text right after a match continues it
// with a mask or an ellipsis ("xoxp-...-####", "ops_eyJ...", "AKIA****"):
// the match is the visible part of a placeholder.
func elidedAfter(rest []byte) bool {
	if len(rest) > 0 && (rest[0] == '-' || rest[0] == '_' || rest[0] == '.') {
		rest = rest[1:]
	}
	for _, p := range []string{"**", "##", "..", "\u2026"} {
		if bytes.HasPrefix(rest, []byte(p)) {
			return true
		}
	}
	return false
}

// boldValue: ctx[ss:se] is set in markdown bold ("**…**", neither mark
// part of a longer run of asterisks): the "**" after it closes the bold,
// it does not stand for characters left out.
func boldValue(ctx []byte, ss, se int) bool {
	return ss >= 2 && ctx[ss-1] == '*' && ctx[ss-2] == '*' && (ss == 2 || ctx[ss-3] != '*') &&
		se+2 <= len(ctx) && ctx[se] == '*' && ctx[se+1] == '*' && (se+2 == len(ctx) || ctx[se+2] != '*')
}

// providerPrefixes are the prefixes of the provider token formats (the
// keywords of the specific rules that end in "_", "-" or "."). A value that
// starts with one belongs to that provider's rule: when that rule rejected
// it, the generic rules do not take it up ("xoxp-1234567890").
func providerPrefixes() []string {
	// Generated with the keyword automaton (kwtable_gen.go): computing
	// them reads every rule's expression.
	return kwTablePrefixes[:]
}

func computeProviderPrefixes() []string {
	var out []string
	for _, r := range append(slices.Clone(builtinCompiled()), GitleaksRules()...) {
		if r == nil || r.ID == RuleGenericSecret || r.ID == gitleaksGenericID {
			continue
		}
		src, _ := r.exprSource()
		src = strings.ToLower(src)
		for _, k := range r.Keywords {
			k = strings.ToLower(k)
			if len(k) < 4 {
				continue
			}
			// A keyword is a value prefix when it ends in a separator
			// ("xoxp-", "sm_pat_") or the expression starts a word with it
			// ("\\b(dapi").
			if strings.ContainsAny(k[len(k)-1:], "_-.") || strings.Contains(src, `\b(`+k) || strings.Contains(src, `\b`+k) || strings.Contains(src, `\b(?p<secret>`+k) || strings.HasPrefix(src, k) || strings.HasPrefix(src, "("+k) {
				out = append(out, k)
			}
		}
	}
	// The formats of peers' test suites declare their keywords as their
	// prefixes ("vcp_"); a rule of the long tail has one where its
	// keyword ends in a separator and starts the group it reports
	// ("\\b(ion_", not Dfuse's "\\bweb_(", a name before the value): a token
	// with such a prefix that the rule does not take (Vercel's of 40
	// characters, not 56) is the prefixed-token rule's.
	for _, r := range peerProviders() {
		for _, k := range r.Keywords {
			out = append(out, strings.ToLower(k))
		}
	}
	for _, r := range ThirdPartyRules() {
		src, _ := r.exprSource()
		src = strings.ToLower(src)
		for _, k := range r.Keywords {
			k = strings.ToLower(k)
			if len(k) >= 4 && strings.ContainsAny(k[len(k)-1:], "_-.") && strings.Contains(src, "("+k) {
				out = append(out, k)
			}
		}
	}
	return uniqueStrings(out)
}

// publicKeyPrefixes start public keys, which are often assigned to names
// ending in "key" and are no secret; and publishable keys (Stripe's, and
// Clerk's and Paystack's after it), which a web page ships to every visitor
// by design.
var publicKeyPrefixes = []string{"age1", "ssh-ed25519", "ssh-rsa", "ecdsa-sha2-", "sk-ssh-ed25519@", "npub1", "-----BEGIN PUBLIC KEY", "pk_live_", "pk_test_",
	// PostHog's project API key: public by design, written into web pages
	"phc_"}

func isPublicKey(v []byte) bool {
	for _, p := range publicKeyPrefixes {
		if bytes.HasPrefix(v, []byte(p)) {
			return true
		}
	}
	return false
}

// beginsWithKeyword reports whether every match of expr begins with one
// of keywords (ASCII case-insensitively): every literal a match can start
// with, past zero-width assertions, starts with a keyword. The scanner can
// then try expr anchored at each keyword hit.
func beginsWithKeyword(expr string, keywords []string) bool {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return false
	}
	return beginsWithKeywordRe(re, keywords)
}

// beginsWithKeywordRe is beginsWithKeyword of expr's parse.
func beginsWithKeywordRe(re *syntax.Regexp, keywords []string) bool {
	if len(keywords) == 0 {
		return false
	}
	var lower []string
	for _, k := range keywords {
		lower = append(lower, strings.ToLower(k))
	}
	return headLiterals(re, func(lit string) bool {
		lit = strings.ToLower(lit)
		for _, k := range lower {
			// The match starts with the keyword, or with the first 3+
			// letters of every keyword that starts with them
			// ("passw(?:or)?d" and passwd, password).
			if strings.HasPrefix(lit, k) || len(lit) >= 3 && strings.HasPrefix(k, lit) {
				return true
			}
		}
		return false
	})
}

// literalOf returns the text a literal, or a class of one letter in both
// cases, matches (lower case).
func literalOf(re *syntax.Regexp) (string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return strings.ToLower(string(re.Rune)), true
	case syntax.OpCharClass:
		r := re.Rune
		if len(r) == 4 && r[0] == r[1] && r[2] == r[3] && unicode.ToLower(r[0]) == unicode.ToLower(r[2]) {
			return string(unicode.ToLower(r[0])), true
		}
		if len(r) == 2 && r[0] == r[1] {
			return strings.ToLower(string(r[0])), true
		}
	}
	return "", false
}

// headLiterals reports whether ok holds for every literal a match of re
// can start with; false when a match can start otherwise (a class, an
// optional part).
func headLiterals(re *syntax.Regexp, ok func(string) bool) bool {
	heads, _, found := firsts(re)
	if !found || len(heads) == 0 {
		return false
	}
	for _, h := range heads {
		if h == "" || !ok(h) {
			return false
		}
	}
	return true
}

// firsts returns the literal texts (lower case) a match of re starts
// with, whether each is the whole of what re matches (so that what
// follows in a concatenation extends it), and false when some match can
// start with something else.
func firsts(re *syntax.Regexp) ([]string, bool, bool) {
	if l, ok := literalOf(re); ok {
		return []string{l}, true, true
	}
	switch re.Op {
	case syntax.OpCapture:
		return firsts(re.Sub[0])
	case syntax.OpAlternate:
		var out []string
		whole := true
		for _, a := range re.Sub {
			f, w, ok := firsts(a)
			if !ok {
				return nil, false, false
			}
			out = append(out, f...)
			whole = whole && w
		}
		return out, whole, true
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range re.Sub {
			switch sub.Op {
			case syntax.OpWordBoundary, syntax.OpBeginLine, syntax.OpBeginText, syntax.OpEmptyMatch:
				continue
			}
			f, w, ok := firsts(sub)
			if !ok {
				return out, false, out[0] != ""
			}
			if len(out)*len(f) > 256 {
				return out, false, out[0] != ""
			}
			var next []string
			for _, a := range out {
				for _, b := range f {
					next = append(next, a+b)
				}
			}
			out = next
			if !w {
				return out, false, true
			}
		}
		return out, true, true
	}
	return nil, false, false
}

// asciiLowerRune lowers an ASCII letter and keeps any other rune.
func asciiLowerRune(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}
