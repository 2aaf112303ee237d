package secrets

import (
	"bytes"
	"encoding/xml"
	"strings"
	"sync"
	"unicode"
)

// Vendor credentials and code forms found missing on the round-18 blind
// set (issue 33, "every major family >= 0.90"). They rank after every
// older rule (defaultRules), so no older finding changes its rule ID.
const (
	// RuleBearerLiteral reports a token hard-coded as a whole Bearer
	// credential in a string literal: the value code hands to a header
	// setter ("Bearer …" in req.Header.Set, setValue(_:forHTTPHeaderField:),
	// setRequestProperty, new AuthenticationHeaderValue("Bearer", "…")),
	// whatever vendor issued it.
	RuleBearerLiteral = "bearer-literal"
	// RuleOktaToken reports an Okta API (SSWS) token, "00" and 40
	// characters, near a word naming Okta.
	RuleOktaToken = "okta-api-token"
	// RuleHerokuKeyNear reports a UUID assigned to an API key, token or
	// password name near a word naming Heroku (a YAML block, a PHP
	// array's index, a Ruby hash), which the imported rule, wanting the
	// name and the sign together, reads past.
	RuleHerokuKeyNear = "heroku-api-key-near"
	// RuleMailgunDomainKey reports a Mailgun private API key (32-8-8 hex)
	// near a Mailgun sending domain ("mg." and a domain, as Mailgun's
	// setup recommends) where the word mailgun is not.
	RuleMailgunDomainKey = "mailgun-api-key-domain"
	// RuleXMLPasswordElement reports a password written as the text of
	// an XML element named for it on one line: Maven's settings.xml
	// <server><password>, Ant's and Ivy's <password>, <keyPassword>.
	RuleXMLPasswordElement = "xml-password-element"
	// RuleMySQLGluedPassword reports the password given to a MySQL or
	// MariaDB client glued to -p (mysql -u root -p'…', mysqldump -p…), the
	// only way those clients take one on the command line.
	RuleMySQLGluedPassword = "mysql-glued-password"
)

// vendorContextRules returns fresh copies of the rules above, in rank
// order.
func vendorContextRules() []*Rule {
	return freshCopies(vendorContextCompiled())
}

const uuidExpr = `[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`

var vendorContextCompiled = sync.OnceValue(func() []*Rule {
	// a Bearer token: base64url, base64 or a JWT's alphabet
	tok := `[A-Za-z0-9._~+/-]{16,}=*`
	return []*Rule{
		{
			ID:          RuleBearerLiteral,
			Description: "token hard-coded as a whole Bearer credential in a string literal (\"Bearer …\")",
			builtinRE: builtinExpr(`"(?i:bearer)[ \t]+(?P<secret>` + tok + `)"|'(?i:bearer)[ \t]+(?P<secret>` + tok + `)'|\x60(?i:bearer)[ \t]+(?P<secret>` + tok + `)\x60` +
				// C#: new AuthenticationHeaderValue("Bearer", "…")
				`|"(?i:bearer)"[ \t]*,[ \t]*"(?P<secret>` + tok + `)"`),
			MinLen:   16,
			Keywords: []string{"bearer"},
			Gate:     bearerLiteralGate,
			Validate: validBearerLiteral,
		},
		{
			// developer.okta.com, "Create an API token": SSWS tokens are
			// 42 characters starting "00"; the shape alone is common, so
			// the word okta must be near (the paragraph, the block).
			ID:          RuleOktaToken,
			Description: "Okta API token (00 and 40 characters, near okta)",
			builtinRE:   builtinExpr(`(?:^|[^A-Za-z0-9_-])(?P<secret>00[A-Za-z0-9_-]{40})(?:[^A-Za-z0-9_-]|$)`),
			Entropy:     3.5,
			Keywords:    []string{"okta"},
			Gate:        oktaWordGate,
			Before:      256,
			After:       256,
			Validate:    func(c Candidate) bool { return mixedClasses(c.Secret[2:]) },
		},
		{
			ID:          RuleHerokuKeyNear,
			Description: "Heroku API key (a UUID assigned to a key, token or password name near heroku)",
			builtinRE: builtinExpr(`(?i)(?P<key>[A-Za-z0-9_.-]*(?:api[_.-]?key|token|password|secret))[\x60"'\]]{0,3}[ \t]*(?:=|:|=>)[ \t]*[\x60"']?` +
				`(?P<secret>` + uuidExpr + `)\b`),
			Keywords: []string{"heroku"},
			Before:   256,
			After:    256,
			Validate: validHerokuKeyNear,
		},
		{
			ID:          RuleMailgunDomainKey,
			Description: "Mailgun private API key (32-8-8 hex) near a Mailgun sending domain (mg.…)",
			builtinRE:   builtinExpr(`\b(?P<secret>[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})\b`),
			Entropy:     3,
			Keywords:    []string{"mg."},
			Gate:        mgDomainGate,
			Before:      256,
			After:       256,
		},
		{
			ID:          RuleXMLPasswordElement,
			Description: "password written as the text of an XML element named for it (<password>…</password>)",
			builtinRE: builtinExpr(`<(?P<key>[A-Za-z0-9_.:-]*(?i:password|passwd|passphrase))` + xmlAttributes + `>[ \t]*(?P<secret>[^<>\s]{4,128})[ \t]*</` +
				// round 27: an element named by its attribute, Hibernate's
				// <property name="hibernate.connection.password">…</property>,
				// Java properties' <entry key="db.password">…</entry>
				`|<(?:property|entry|setting|param|parameter|value|item)[ \t]+(?:name|key)[ \t]*=[ \t]*["'](?P<key>[A-Za-z0-9_.:-]*(?i:password|passwd|passphrase))["'][ \t]*>[ \t]*(?P<secret>[^<>\s]{4,128})[ \t]*</`),
			MinLen: 4,
			Keywords: []string{"password>", "passwd>", "passphrase>", "password\">", "passwd\">", "passphrase\">", "password'>", "password\" >",
				// a start tag with attributes (<password name="db">)
				"password ", "passwd ", "passphrase ", "password\t", "passwd\t", "passphrase\t"},
			Validate: validXMLPasswordElement,
		},
		{
			// dev.mysql.com, "Specifying Passwords on the Command Line":
			// -p takes its value with no space ("-pSECRET"); -p alone
			// prompts, -P is the port.
			ID:          RuleMySQLGluedPassword,
			Description: "password glued to -p of a MySQL or MariaDB client (mysql -u root -p'…')",
			builtinRE: builtinExpr(`(?i)\b(?:mysql(?:dump|admin|import|check|pump|slap|sh)?|mariadb(?:-?(?:dump|admin|import|check))?)(?:[ \t]|\.exe[ \t]|["'],)[^\n|;&]{0,160}?[ \t"'](?-i:-p)` +
				`(?:'(?P<secret>[^'\n]{4,128})'|"(?P<secret>[^"\n]{4,128})"|(?P<secret>[^\s'"\x60$-][^\s'"\x60;|&]{3,127}))`),
			MinLen:   4,
			Keywords: []string{"mysql", "mariadb"},
			Validate: validMySQLGluedPassword,
		},
	}
})

// validMySQLGluedPassword: a plain password, or words joined by dots with
// upper and lower case and digits ("Copper.ember890"), which glued to -p
// is no member chain.
func validMySQLGluedPassword(c Candidate) bool {
	v := c.Secret
	if memberChain(v) && mixedClasses(v) {
		// dotted words read as a member chain ("Schema.Version.V2") unless
		// in the shape a password is chosen in
		s := strings.ToLower(string(v))
		return wordsPassword(v) && !referenceInValue(v) && !isPlaceholder(v, true) && !passwordFixtures[s] && !namesFixture(s) && Entropy(v) >= 3
	}
	return validPlainPassword(c)
}

// validPlainPassword: a literal a person could have chosen as a password,
// not a reference, a placeholder, a fixture word or a short word
// (Maven's "{…}" is a password encrypted with the master password).
func validPlainPassword(c Candidate) bool {
	v := c.Secret
	if referenceInValue(v) || v[0] == '$' || v[0] == '%' || v[0] == '{' || !plausiblePassword(v, wholeLiteral(c)) || allSame(v) {
		return false
	}
	s := strings.ToLower(string(v))
	return !urlPasswordPlaceholders[s] && !passwordFixtures[s] && !namesFixture(s) && !shortWord(v)
}

// herokuOtherTokens name tokens an app keeps beside its Heroku
// settings that are not an API key (a form's, a lock's, a page's).
var herokuOtherTokens = []string{"csrf", "xsrf", "lock", "page", "idempotency", "request", "session"}

// validHerokuKeyNear: a random UUID, not a digest, under a name that is
// not another kind of token.
func validHerokuKeyNear(c Candidate) bool {
	if Entropy(c.Secret) < 3 || c.lineNamesDigest() {
		return false
	}
	k := strings.ToLower(string(c.Key))
	for _, w := range herokuOtherTokens {
		if strings.Contains(k, w) {
			return false
		}
	}
	return true
}

// xmlAttributes reads the attributes of a start tag after the element's
// name (<password name="db">, <secret id='deploy'>): quoted values on
// the tag's line, nothing that ends the tag.
const xmlAttributes = `(?:[ \t]+[A-Za-z_][A-Za-z0-9_.:-]*[ \t]*=[ \t]*(?:"[^"<>\n]*"|'[^'<>\n]*'))*[ \t]*`

// xmlAttributesSayNotPlain reports whether the start tag of m (a match
// that begins with it) says by an attribute that its text is no plain
// credential: encrypted="true" (not "false"), hashed, type="csrf", a
// salt or a hash algorithm named, xsi:nil; or an attribute whose name or
// value is one of notPlain's words (a stem of five letters or more may
// begin a longer one: "pagination" is no "pagerduty").
func xmlAttributesSayNotPlain(m []byte, notPlain []string) bool {
	end := bytes.IndexByte(m, '>')
	if end < 0 || bytes.IndexAny(m[:end], " \t") < 0 {
		return false // no attributes
	}
	d := xml.NewDecoder(bytes.NewReader(m[:end+1]))
	d.Strict = false
	tok, err := d.Token()
	start, ok := tok.(xml.StartElement)
	if err != nil || !ok {
		return false
	}
	said := func(w string, stems []string) bool {
		for _, p := range stems {
			if w == p || len(p) >= 5 && strings.HasPrefix(w, p) {
				return true
			}
		}
		return false
	}
	for _, a := range start.Attr {
		name, value := strings.ToLower(a.Name.Local), strings.ToLower(a.Value) // xsi:nil's Local is "nil"
		switch value {
		case "false", "no", "0", "none", "plain", "plaintext", "clear", "cleartext":
			continue // encrypted="false": the text is plain
		}
		if name == "nil" || said(name, []string{"encrypt", "hash", "hashed", "salt", "salted", "digest", "cipher", "crypt"}) || said(name, notPlain) {
			return true
		}
		for _, w := range strings.FieldsFunc(value, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			switch w {
			case "placeholder", "example", "sample", "dummy", "csrf", "xsrf", "bcrypt", "scrypt", "argon2", "argon2id", "pbkdf2", "md5", "sha1", "sha256", "sha512", "hash", "hashed", "encrypted":
				return true
			}
			if said(w, notPlain) {
				return true
			}
		}
	}
	return false
}

// xmlPasswordLabels begin the names of elements that hold a form's text
// about a password, or a password already protected, not the password
// (<LabelPassword>, <ForgotPassword>, <EncryptedPassword>).
var xmlPasswordLabels = []string{"label", "confirm", "forgot", "enter", "new", "remember", "save", "require", "prompt", "encrypted", "hashed"}

// validXMLPasswordElement: a plain password (validPlainPassword) in an
// element that holds one; a single word of letters is a label's text
// in some language (<Password>Passwort</Password>) unless it has a
// digit or a symbol.
func validXMLPasswordElement(c Candidate) bool {
	if xmlAttributesSayNotPlain(c.Match, xmlPasswordLabels) {
		return false
	}
	k := strings.ToLower(string(c.Key))
	if i := strings.LastIndexByte(k, ':'); i >= 0 {
		k = k[i+1:] // a namespace's prefix
	}
	for _, l := range xmlPasswordLabels {
		if strings.HasPrefix(k, l) {
			return false
		}
	}
	letters := true
	for _, r := range string(c.Secret) {
		if !unicode.IsLetter(r) {
			letters = false
			break
		}
	}
	return !letters && validPlainPassword(c)
}

// oktaWordGate passes "okta" that starts a word and is not the start of
// a longer lower-case one ("Okta", "okta_token", "oktaKey", "acme.okta.com";
// not "rookTable").
func oktaWordGate(data []byte, i int) bool {
	st := i + 1 - len("okta")
	if st > 0 && isLetterByte(data[st-1]) {
		return false
	}
	return i+1 >= len(data) || !('a' <= data[i+1] && data[i+1] <= 'z')
}

// bearerLiteralGate passes a "bearer" that opens a string literal (a
// quote just before it) and is followed by a blank, or, in C#'s
// AuthenticationHeaderValue("Bearer", …), by the closing quote.
func bearerLiteralGate(data []byte, i int) bool {
	st := i + 1 - len("bearer")
	if st < 1 || i+1 >= len(data) {
		return false
	}
	q := data[st-1]
	if q != '"' && q != '\'' && q != '`' {
		return false
	}
	n := data[i+1]
	return n == ' ' || n == '\t' || n == '"' && q == '"'
}

// validBearerLiteral: a random token, not a reference, a name or words: a
// mix of upper and lower case and digits, or 32 or more hex digits (a
// Mailgun key's groups joined by "-").
func validBearerLiteral(c Candidate) bool {
	v := c.Secret
	if referenceInValue(v) || wordListRE.Match(v) || identifierValue(v) || allSame(v) {
		return false
	}
	if bytes.HasPrefix(v, []byte("eyJ")) && bytes.Count(v, []byte(".")) == 2 {
		return false // a JWT: the jwt rules judge it (an unsigned one is no credential)
	}
	hex := 0
	for _, b := range v {
		switch {
		case '0' <= b && b <= '9' || 'a' <= b && b <= 'f':
			hex++
		case b == '-':
		default:
			hex = -1 << 30
		}
	}
	if hex >= 32 {
		return hasDigit(v) && !c.lineNamesDigest()
	}
	return mixedClasses(v) && Entropy(v) >= 3.5
}

// mgDomainGate passes "mg." that begins a host name's label and is
// followed by two more labels ("mg.acme.io",
// "https://api.mailgun.net/v3/mg.shop.example"): not "img.", "svg.",
// nor "mg.ci;" ending a sentence.
func mgDomainGate(data []byte, i int) bool {
	st := i + 1 - len("mg.")
	if st > 0 && (isAlnumByte(data[st-1]) || data[st-1] == '_' || data[st-1] == '-') {
		return false
	}
	// a label starting with a letter, ".", and a label
	label := func(j int) int {
		n := j
		for n < len(data) && n-j < 63 && (isAlnumByte(data[n]) || data[n] == '-') {
			n++
		}
		return n
	}
	if i+1 >= len(data) || !('a' <= lower(data[i+1]) && lower(data[i+1]) <= 'z') {
		return false
	}
	j := label(i + 1)
	return j+1 < len(data) && data[j] == '.' && isAlnumByte(data[j+1])
}
