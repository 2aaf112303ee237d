package secrets

import (
	"bytes"
	"strings"
	"sync"
)

// Vendor formats and a code form found missing on the round-21 blind set
// (issue 33, "every major family >= 0.90"). They rank after every older
// rule (defaultRules), so no older finding changes its rule ID: an
// imported rule that reads "launchdarkly … key … sdk-…" keeps its ID.
const (
	// RuleLaunchDarklySDKKey reports a LaunchDarkly server-side SDK key:
	// "sdk-" and a UUID (docs.launchdarkly.com, "Keys": SDK keys begin
	// with sdk-; mobile keys, mob-, ship in apps and are not secret).
	RuleLaunchDarklySDKKey = "launchdarkly-sdk-key"
	// RuleBraintreeAccessToken reports a Braintree (PayPal) access token:
	// access_token$production$<merchant id>$<32 hex>, or $sandbox$.
	RuleBraintreeAccessToken = "braintree-access-token"
	// RuleSecretTypeLiteral reports a literal handed to a type whose only
	// job is to hold a secret: Algolia's APIKey("…") (Kotlin, Scala),
	// pydantic's SecretStr("…"), Rust secrecy's SecretString::new(…) and
	// Secret::new(…). The type names what the value is, so no name on the
	// left of an assignment is needed.
	RuleSecretTypeLiteral = "secret-type-literal"
	// RuleConfigDirectivePassword reports a password given to a server's
	// configuration directive, separated by blanks rather than "=":
	// Redis's requirepass and masterauth (also as redis-server flags),
	// keepalived's auth_pass, HAProxy's insecure-password and its
	// "stats auth user:password".
	RuleConfigDirectivePassword = "config-directive-password"
)

// typedRules returns fresh copies of the rules above, in rank order.
func typedRules() []*Rule {
	return freshCopies(typedCompiled())
}

// a Rust string conversion after a literal: "…".to_owned(), .into()
const rustConversion = `(?:\.(?:to_owned|to_string|into)\(\))?`

var typedCompiled = sync.OnceValue(func() []*Rule {
	return []*Rule{
		{
			ID:          RuleLaunchDarklySDKKey,
			Description: "LaunchDarkly server-side SDK key (sdk- and a UUID)",
			// not after "/": a path segment (…/sdks/sdk-<uuid>/…) names
			// an object; the key travels in a header
			builtinRE: builtinExpr(`(?:^|[^A-Za-z0-9_/-])(?P<secret>sdk-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[^A-Za-z0-9_-]|$)`),
			Entropy:   3,
			Keywords:  []string{"sdk-"},
		},
		{
			ID:          RuleBraintreeAccessToken,
			Description: "Braintree access token (access_token$production$…$…)",
			builtinRE:   builtinExpr(`(?P<secret>access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32})(?:[^0-9a-f]|$)`),
			Keywords:    []string{"access_token$"},
		},
		{
			ID:          RuleSecretTypeLiteral,
			Description: "literal handed to a type that holds a secret (APIKey(\"…\"), SecretStr(\"…\"), SecretString::new(\"…\".into()))",
			// rustfmt breaks a long call after "(": blanks and line
			// breaks, bounded, between the parts
			builtinRE: builtinExpr(`\b(?:(?P<key>(?i:apikey)|SecretStr|SecretString|SecretBox)(?:::(?:new|from))?|(?P<key>Secret)::(?:new|from))[ \t]*\(\s{0,32}(?:Box::new\([ \t]*)?(?:String::from\([ \t]*)?` +
				`(?:"(?P<secret>[^"\s\\]{8,})"|'(?P<secret>[^'\s\\]{8,})')` + rustConversion + `[ \t]*\)?[ \t]*\)?,?\s{0,32}\)`),
			MinLen:          8,
			After:           256,
			Keywords:        []string{"apikey", "secretstr", "secretbox", "secret::"},
			Gate:            typeCallGate,
			Validate:        validSecretTypeLiteral,
			startsAtKeyword: true,
		},
		{
			ID:          RuleConfigDirectivePassword,
			Description: "password of a server's configuration directive (requirepass, masterauth, auth_pass, insecure-password, stats auth)",
			// A directive starts its line and its value ends it (a
			// comment may follow after a blank: keepalived's # and !);
			// HAProxy's insecure-password follows a user's name; a
			// redis-server flag takes its value after a blank, "=", or
			// as the next item of an exec array. A sentence that names a
			// directive has more words after the one that follows it.
			builtinRE: builtinExpr(`(?m)(?:` +
				`(?:^[ \t]*(?P<key>(?i:requirepass|masterauth|auth_pass))[ \t]+|[ \t](?P<key>(?i:insecure-password))[ \t]+|^[ \t]*(?P<key>(?i:stats[ \t]+auth)[ \t]+[^:\s]+:))` +
				`(?:"(?P<secret>[^"\r\n]{4,})"|'(?P<secret>[^'\r\n]{4,})'|(?P<secret>[^\s"']{4,}))[ \t]*(?:[ \t][#!][^\r\n]*)?\r?$` +
				`|--(?P<key>(?i:requirepass|masterauth))(?:[ \t]+|=|["'],[ \t]*)` +
				`(?:"(?P<secret>[^"\r\n]{4,})"|'(?P<secret>[^'\r\n]{4,})'|(?P<secret>[^\s"',\]]{4,}))(?:[ \t"',\]]|\r?$))`),
			MinLen:   4,
			Keywords: []string{"requirepass", "masterauth", "auth_pass", "insecure-password", "stats auth", "stats\tauth"},
			Validate: validConfigDirectivePassword,
		},
	}
})

// directiveExamples are the values the servers' own documentation gives
// (redis.conf's "foobared", keepalived's "1111", Redis's ACL tutorial's
// "p1pp0"): copied samples.
var directiveExamples = map[string]bool{"foobared": true, "1111": true, "password": true, "yourpassword": true, "mypassword": true,
	"p1pp0": true, "mypass": true, "mypasswd": true, "somepassword": true}

func validConfigDirectivePassword(c Candidate) bool {
	v := c.Secret
	l := strings.ToLower(string(v))
	if directiveExamples[l] || passwordFixtures[l] || IsPlaceholder(v) || referenceInValue(v) {
		return false
	}
	// HAProxy's "user admin insecure-password admin": the password is the
	// user's name, a default (as getConnection(url, "postgres",
	// "postgres") is to password-argument)
	if u := directiveUser(c.Context, c.MatchOffset); u != nil && bytes.EqualFold(u, v) {
		return false
	}
	// a line that is a sentence ("requirepass changes." in a list)
	if sentenceWord(v) {
		return false
	}
	return plausiblePassword(v, wholeLiteral(c))
}

// sentenceWord reports whether v is a plain word of a sentence, closed by
// its punctuation: "changes." after requirepass, "failed:" and
// "Nevertheless-fails," after AUTH. Letters only: "Kestrel-Harbor-42!"
// is a chosen password.
func sentenceWord(v []byte) bool {
	w := bytes.TrimRight(v, ".,;:!?)")
	return len(w) < len(v) && sentenceWordRE.Match(bytes.ToLower(w))
}

var sentenceWordRE = lazyRE.New(`^[a-z]+(?:[-_.' ][a-z]+)*$`)

// directiveUser returns the word before the blank before offset in ctx on
// its line (the user a directive names before its password), nil when
// there is none.
func directiveUser(ctx []byte, offset int) []byte {
	line := ctx[:offset]
	if j := bytes.LastIndexByte(line, '\n'); j >= 0 {
		line = line[j+1:]
	}
	f := bytes.Fields(line)
	if len(f) < 2 {
		return nil
	}
	return f[len(f)-1]
}

// typeCallGate passes a type name called directly or through ::new or
// ::from; "secret::" is its own way in (Secret::new, SecretString::from
// reach it through "secretstr").
func typeCallGate(data []byte, i int) bool {
	if data[i] == ':' {
		return true
	}
	rest := data[i+1:]
	for _, via := range []string{"ing::new", "ing::from", "::new", "::from", "ing"} {
		if len(rest) >= len(via) && string(rest[:len(via)]) == via {
			rest = rest[len(via):]
			break
		}
	}
	rest = bytes.TrimLeft(rest, " \t")
	return len(rest) > 0 && rest[0] == '('
}

// validSecretTypeLiteral: Secret alone is a common class name (a
// Kubernetes or a cloud provider's Secret resource, whose argument is its
// name), so it counts only through ::new or ::from; a namespaced ApiKey
// (new aws.apigateway.ApiKey("…")) is such a resource too. An API key
// must read like a generated key; what a SecretStr or a SecretString holds
// is often a chosen password, judged as password-argument judges one. A
// value with "/" or ":" is a resource path or a URL.
func validSecretTypeLiteral(c Candidate) bool {
	// the scanner widens the key back over the name before it:
	// aws.apigateway.ApiKey, secrecy::SecretString
	if bytes.IndexByte(c.Key, '.') >= 0 {
		return false
	}
	v := c.Secret
	if bytes.ContainsAny(v, "/:") || envNameRE.Match(v) || wordListRE.Match(v) {
		return false
	}
	key := string(c.Key)
	if i := strings.LastIndex(key, "::"); i >= 0 {
		key = key[i+2:]
	}
	switch {
	case strings.EqualFold(key, "apikey"):
		return len(v) >= 12 && c.secretEntropy() >= entropyFloor(3.5, v) && hasDigit(v) && (hasLower(v) || hasUpper(v))
	}
	return passwordShaped(v) && hasLetter(v) && validPasswordArgument(c)
}
