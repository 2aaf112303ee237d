package secrets

import (
	"strings"
	"sync"
)

// Forms and vendor formats found missing on a labelled set of detector
// test cases nobody here wrote (issue 33, round thirty). They rank after
// every older rule, so no older finding changes its rule ID.
const (
	// RuleXMLSecretElement reports a token written as the text of an XML
	// element named for a secret, a token or an API key on one line:
	// Jenkins' credentials.xml (<secret>{…}</secret>, whose braces may
	// hold words before the token), <apiToken>, <clientSecret>, <apiKey>;
	// and a chosen secret of 8 to 15 characters in an element named for a
	// secret (<sharedSecret>).
	RuleXMLSecretElement = "xml-secret-element"
	// RuleLangSmithAPIKey reports a LangSmith personal access token or
	// service key: lsv2_pt_ or lsv2_sk_, 32 hex, "_", 10 hex
	// (docs.smith.langchain.com, "Create an API key").
	RuleLangSmithAPIKey = "langsmith-api-key"
	// RulePineconeAPIKey reports a Pinecone API key: pcsk_, the key's ID,
	// "_" and its secret (docs.pinecone.io, "Manage API keys").
	RulePineconeAPIKey = "pinecone-api-key"
	// RuleRootlyAPIKey reports a Rootly API key: rootly_ and 64 hex
	// (docs.rootly.com, "API Keys").
	RuleRootlyAPIKey = "rootly-api-key"
	// RuleIndexedSecret reports a high-entropy value assigned to an
	// index named for a secret, judged as generic-secret judges a name:
	// os.environ["OPENAI_API_KEY"] = "…", $config['api_token'] = '…',
	// settings["client_secret"] = "…".
	RuleIndexedSecret = "indexed-secret"
)

// roundThirtyRules returns fresh copies of the rules above, in rank
// order.
func roundThirtyRules() []*Rule {
	return freshCopies(roundThirtyCompiled())
}

var roundThirtyCompiled = sync.OnceValue(func() []*Rule {
	return []*Rule{
		{
			ID:          RuleIndexedSecret,
			Description: "high-entropy value assigned to an index named for a password, secret, token or API key ([\"api_key\"] = \"…\")",
			builtinRE: builtinExpr("(?i)\\[[ \\t]*[\"'](?P<key>[A-Za-z0-9_.-]*(?:password|passwd|secret|token|api[_.-]?key|access[_.-]?key)[A-Za-z0-9_.-]*)[\"'][ \\t]*\\][ \\t]*(?:=|:=|\\|\\|=|\\?\\?=)[ \\t]*" +
				"(?:b?\"(?P<secret>[^\"\\r\\n]+)\"|b?'(?P<secret>[^'\\r\\n]+)'|\x60(?P<secret>[^\x60\\r\\n]+)\x60)"),
			Entropy:  3, // 3.5 but for hex: validGeneric
			MinLen:   12,
			Keywords: []string{"password\"]", "passwd\"]", "secret\"]", "token\"]", "key\"]", "password']", "passwd']", "secret']", "token']", "key']"},
			Validate: validGeneric,
		},
		{
			ID:          RuleXMLSecretElement,
			Description: "token written as the text of an XML element named for a secret, a token or an API key (<secret>…</secret>, <apiToken>…</apiToken>)",
			// The braces are Jenkins' (hudson.util.Secret); words before
			// the token inside them are skipped, shortest first.
			builtinRE: builtinExpr(`<(?P<key>[A-Za-z0-9_.:-]*(?i:secret|token|api_?key|access_?key))` + xmlAttributes + `>[ \t]*\{?(?:[^<>{}\n]{0,64}?[ \t])?` +
				`(?P<secret>[A-Za-z0-9+/=_.~:%#*@!^?-]{8,512})\}?[ \t]*</`),
			MinLen: 8,
			Keywords: []string{"secret>", "token>", "key>",
				// a start tag with attributes (<secret id="deploy">)
				"secret ", "token ", "key ", "secret\t", "token\t", "key\t"},
			Validate: validXMLSecretElement,
		},
		{
			ID:              RuleLangSmithAPIKey,
			Description:     "LangSmith API key (lsv2_pt_… or lsv2_sk_…)",
			builtinRE:       builtinExpr(`\b(?P<secret>lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10})\b`),
			Keywords:        []string{"lsv2_pt_", "lsv2_sk_"},
			Entropy:         3,
			startsAtKeyword: true,
			tokenAtKeyword:  true,
		},
		{
			ID:              RulePineconeAPIKey,
			Description:     "Pinecone API key (pcsk_…)",
			builtinRE:       builtinExpr(`\b(?P<secret>pcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,90})\b`),
			Keywords:        []string{"pcsk_"},
			Entropy:         3.5,
			Validate:        func(c Candidate) bool { return mixedClasses(c.Secret[5:]) },
			startsAtKeyword: true,
			tokenAtKeyword:  true,
		},
		{
			ID:              RuleRootlyAPIKey,
			Description:     "Rootly API key (rootly_ and 64 hex)",
			builtinRE:       builtinExpr(`\b(?P<secret>rootly_[0-9a-f]{64})\b`),
			Keywords:        []string{"rootly_"},
			Entropy:         3,
			startsAtKeyword: true,
			tokenAtKeyword:  true,
		},
	}
})

// xmlTokenNotCredential are the starts of element names whose token is
// no credential: a page's or a list's cursor (AWS's <NextToken>,
// <ContinuationToken>), a form's anti-forgery token, a lock's or a
// request's identifier, a claim a token carries.
var xmlTokenNotCredential = []string{"next", "continuation", "page", "pagination", "csrf", "xsrf", "sync", "resum", "idempot", "request", "lock", "cancel", "upload", "marker", "session", "public", "encrypted", "hashed",
	// a claim read from a token (AWS STS's <SubjectFromWebIdentityToken>)
	"subject", "issuer", "audience"}

// versionRE matches a release's version (v1.2.3-rc1, 2.0.1.Final).
var versionRE = lazyRE.New(`^[vV]?[0-9]+(?:\.[0-9]+)+(?:[-+._][0-9A-Za-z.]+)?$`)

// validXMLSecretElement: a token (letters and digits, 3 bits a byte, or
// 32+ hex digits) in an element that holds a credential, or in one named
// for a secret a password of 8 to 15 characters.
func validXMLSecretElement(c Candidate) bool {
	if xmlAttributesSayNotPlain(c.Match, xmlTokenNotCredential) {
		return false
	}
	k := strings.ToLower(string(c.Key))
	if i := strings.LastIndexAny(k, ":."); i >= 0 {
		k = k[i+1:] // a namespace's prefix, a dotted property's path
	}
	for _, p := range xmlTokenNotCredential {
		if strings.HasPrefix(k, p) {
			return false
		}
	}
	v := c.Secret
	if len(v) < 16 {
		// shorter than a token: a chosen secret (RADIUS's shared secret,
		// a client's), read as a password is
		return strings.HasSuffix(k, "secret") && passwordShaped(v) && hasDigit(v) && !versionRE.Match(v) && validPlainPassword(c)
	}
	if referenceInValue(v) || identifierValue(v) || allSame(v) || !hasDigit(v) || !hasLetter(v) {
		return false
	}
	return c.secretEntropy() >= 3.0
}
