package secrets

import (
	"bytes"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"strings"
	"sync"
)

// Secrets written in code rather than assigned to a name (issue 33): a
// password handed to a setter or a constructor, a signing key handed to
// the signer, a Basic credential in a proxy's header. These rules rank
// after every other rule: where an older rule reports a value, its finding
// keeps its rule ID and fingerprint.
const (
	// RulePasswordArgument reports a password literal passed as an
	// argument whose parameter is a password: a setter or builder
	// (setPassword("…"), .password("…"), withPassword("…")), the password
	// position of a constructor or a connect call (new PDO(dsn, user, "…"),
	// DriverManager.getConnection(url, user, "…"), new
	// NetworkCredential(user, "…"), smtp.PlainAuth("", user, "…", host)),
	// and the password of a Go MySQL DSN (user:…@tcp(host)/db).
	RulePasswordArgument = "password-argument"
	// RuleSigningSecret reports a signing key written as a literal: the
	// key argument of jwt.sign/jwt.encode, Algorithm.HMAC256("…"), a Go
	// []byte("…") given to an HMAC or a JWT signer, and a framework's
	// application key (Django's SECRET_KEY, Rails' secret_key_base,
	// Laravel's APP_KEY=base64:…).
	RuleSigningSecret = "signing-secret"
	// RuleBasicAuthHeader reports a Basic credential a proxy or a client
	// sets in an Authorization header (nginx proxy_set_header, Apache
	// RequestHeader, req.Header.Set) when it decodes to user:password.
	RuleBasicAuthHeader = "basic-auth-header"
	// RulePasswordNameArgument reports a password passed with its quoted
	// name as the argument before it, or in a tuple: PHP's
	// define('DB_PASSWORD', '…'), Java's setProperty("mail.smtp.password",
	// "…"), ("password", "…").
	RulePasswordNameArgument = "password-name-argument"
)

// passwordNameArgumentRule builds password-name-argument. It ranks after
// every rule of round 19: where gitleaks' generic rule reports such a
// value (one without a symbol it stops at) it still does. Every match
// starts at its keyword and the name is widened back over the text before
// it, so a line of quoted names costs one anchored attempt per name.
func passwordNameArgumentRule() *Rule {
	return &Rule{
		ID:              RulePasswordNameArgument,
		Description:     "password passed with its quoted name (define('DB_PASSWORD', '…'), setProperty(\"mail.smtp.password\", \"…\"))",
		builtinRE:       builtinExpr(`(?P<key>(?i:password|passwd|passphrase))["'][ \t]*,[ \t]*` + codeQuoted(3) + `[ \t]*[,)]`),
		MinLen:          5,
		Keywords:        []string{"password", "passwd", "passphrase"},
		Gate:            quotedNameGate,
		Validate:        validPasswordNameArgument,
		startsAtKeyword: true,
	}
}

// quotedNameGate passes a keyword that ends a quoted name followed by a
// comma.
func quotedNameGate(data []byte, i int) bool {
	j := i + 1
	if j >= len(data) || data[j] != '"' && data[j] != '\'' {
		return false
	}
	for j++; j < len(data) && (data[j] == ' ' || data[j] == '\t'); j++ {
	}
	return j < len(data) && data[j] == ','
}

// validPasswordNameArgument: the name is quoted like a string (the same
// quote opens it) and the value can be a chosen password that mixes
// letters with digits or symbols, as validPasswordArgument judges it; a
// field name and an error code or a label ('password', 'too_short';
// "password", "invalid") are not. The fallback of an envLookups call is
// env-default-secret's (it reports those); Laravel's
// env('DB_PASSWORD', '…') fallback, which no older rule reads, is
// reported here.
func validPasswordNameArgument(c Candidate) bool {
	end := c.MatchOffset + len(c.Key)
	if c.MatchOffset == 0 || end >= len(c.Context) || c.Context[c.MatchOffset-1] != c.Context[end] {
		return false
	}
	call := bytes.ToLower(bytes.TrimRight(c.Context[:c.MatchOffset-1], " \t"))
	for _, lookup := range envLookups {
		if bytes.HasSuffix(call, []byte(lookup+"(")) {
			return false
		}
	}
	return passwordShaped(c.Secret) && hasLetter(c.Secret) && validPasswordArgument(c)
}

// codeRules returns fresh copies of the rules above.
func codeRules() []*Rule {
	return freshCopies(codeCompiled())
}

// An argument before the one that holds the password: a string literal or
// a name (a variable, a field, a PHP $var), nothing that nests. No counted
// repetition in these expressions: a bound such as {0,200} multiplies the
// states of the filter automaton the scanner runs before an expression.
const codeArg = `(?:"[^"\n]*"|'[^'\n]*'|[$A-Za-z_][\w.$>-]*)[ \t]*,[ \t]*`

// a quoted literal that holds no blank and no escape
func codeQuoted(min int) string {
	n := "{" + itoa(min) + ",}"
	return `(?:"(?P<secret>[^"\s\\]` + n + `)"|'(?P<secret>[^'\s\\]` + n + `)')`
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

var codeCompiled = sync.OnceValue(func() []*Rule {
	return []*Rule{
		{
			ID:          RulePasswordArgument,
			Description: "password passed as an argument (setPassword(\"…\"), new PDO(dsn, user, \"…\"), user:…@tcp(host)/db)",
			builtinRE: builtinExpr(
				// setPassword("…"), withPassword("…"), set_password("…"), .password("…")
				`(?:\b(?P<key>(?:set|with)_?(?i:password|passwd|passphrase))|\.(?P<key>password|passwd|passphrase))[ \t]*\([ \t]*` + codeQuoted(3) + `[ \t]*[,)]` +
					// the second argument: new NetworkCredential(user, "…"), .credentials(user, "…")
					`|\b(?P<key>NetworkCredential|UsernamePasswordCredentials|PasswordAuthentication|credentials)[ \t]*\([ \t]*` + codeArg + codeQuoted(3) + `[ \t]*[,)]` +
					// round 27: an HTTP client's basic or digest credentials,
					// the password second (requests' HTTPBasicAuth(user, "…"),
					// Go's req.SetBasicAuth(user, "…"), aiohttp's
					// BasicAuth(user, "…"), Spring's
					// UsernamePasswordAuthenticationToken(user, "…")), and
					// requests' auth=(user, "…") tuple
					`|(?P<key>(?i:\b|[a-z])(?i:basic_?auth|digest_?auth|proxy_?auth)|\bUsernamePasswordAuthenticationToken|\bPasswordCredential)[ \t]*\([ \t]*` + codeArg + codeQuoted(3) + `[ \t]*[,)]` +
					`|\b(?P<key>auth)[ \t]*=[ \t]*\([ \t]*` + codeArg + codeQuoted(3) + `[ \t]*\)` +
					// Rust: Credentials::new(user, "…".to_owned()) (lettre), String::from("…")
					`|\b(?P<key>Credentials)::new[ \t]*\([ \t]*(?:"[^"\n]*"` + rustConversion + `|String::from\([ \t]*"[^"\n]*"[ \t]*\)|[A-Za-z_][\w.]*(?:\(\))?(?:\.[a-z_]+\(\))*)[ \t]*,[ \t]*` +
					`(?:String::from\([ \t]*)?"(?P<secret>[^"\s\\]{3,})"` + rustConversion + `(?:[ \t]*\))?[ \t]*[,)]` +
					// the third: new PDO(dsn, user, "…"), getConnection(url, user, "…"), mysqli_connect(host, user, "…")
					`|\b(?P<key>PDO|getConnection|PlainAuth|mysqli_connect|mysqli|ftp_login|Sequelize)[ \t]*\([ \t]*` + codeArg + codeArg + codeQuoted(3) + `[ \t]*[,)]` +
					// Go's MySQL DSN: user:password@tcp(host:port)/db, a whole
					// value (it starts a string, or follows "=" or a blank)
					`|(?:^|[\s"'\x60=])(?P<key>[A-Za-z0-9_.-]+):(?P<secret>[^\s"'\x60@:/%]{3,})@(?:tcp6?|unix|udp)\(`),
			MinLen: 5,
			Keywords: []string{"password", "passwd", "passphrase", "networkcredential", "usernamepasswordcredentials", "passwordauthentication", "credentials", "pdo", "getconnection", "plainauth", "mysqli", "ftp_login", "@tcp(", "@tcp6(", "@unix(", "@udp(",
				"sequelize", "basicauth", "basic_auth", "digestauth", "digest_auth", "proxyauth", "proxy_auth", "usernamepasswordauthenticationtoken", "passwordcredential", "auth=(", "auth =("},
			Gate:     callGate,
			Validate: validPasswordArgument,
		},
		{
			ID:          RuleSigningSecret,
			Description: "signing key written as a literal (jwt.sign(p, \"…\"), []byte(\"…\") given to HMAC, SECRET_KEY = \"…\", APP_KEY=base64:…)",
			builtinRE: builtinExpr(
				// jwt.sign(payload, "…"), JWT.encode(payload, "…", "HS256"),
				// PHP's JWT::encode($payload, '…', 'HS256'): the
				// payload is a name or one object literal
				`(?i:\bjwt|\bjsonwebtoken)(?:\.|::)(?:sign|encode)[ \t]*\([ \t]*(?:\{[^{}\n]*\}|[$A-Za-z_][\w.$\[\]]*)[ \t]*,[ \t]*` +
					`(?:"(?P<secret>[^"\s\\]{8,})"|'(?P<secret>[^'\s\\]{8,})'|\x60(?P<secret>[^\x60\s\\$]{8,})\x60)[ \t]*[,)]` +
					// Algorithm.HMAC256("…") (java-jwt)
					`|\bAlgorithm\.HMAC(?:256|384|512)\([ \t]*"(?P<secret>[^"\s\\]{8,})"[ \t]*\)` +
					// Go: []byte("…"), read with the line's words (validSigningSecret)
					`|\[\]byte\([ \t]*(?:"(?P<secret>[^"\s\\]{16,})"|\x60(?P<secret>[^\x60\s]{16,})\x60)[ \t]*\)` +
					// SECRET_KEY = "…", secret_key_base: "…", app.config["SECRET_KEY"] = "…"
					`|\b(?P<key>(?i:secret_key(?:_base)?))[\x60"'\]]*[ \t]*(?:=|:|=>)[ \t]*(?:"(?P<secret>[^"\s\\]{16,})"|'(?P<secret>[^'\s\\]{16,})')` +
					// Laravel: APP_KEY=base64:…
					`|\b(?P<key>APP_KEY)[\x60"']?[ \t]*(?:=|:|=>|,)[ \t]*["']?(?P<secret>base64:[A-Za-z0-9+/]{20,}={0,2})` +
					// round 27: its config/app.php, 'key' => 'base64:…'
					`|(?P<key>['"]key['"])[ \t]*=>[ \t]*['"](?P<secret>base64:[A-Za-z0-9+/]{20,}={0,2})['"]`),
			MinLen:   8,
			Keywords: []string{"jwt.", "jwt::", "jsonwebtoken.", "algorithm.hmac", "[]byte(", "secret_key", "app_key", "'key'", "\"key\""},
			Validate: validSigningSecret,
		},
		{
			ID:          RuleBasicAuthHeader,
			Description: "Basic credential (user:password) set in an Authorization header",
			// proxy_set_header Authorization "Basic …"; RequestHeader set
			// Authorization "Basic …"; Header.Set("Authorization", "Basic …")
			builtinRE: builtinExpr(`(?i)\b(?:proxy-)?authorization\b[\x60"']?(?:[ \t]*[:=,][ \t]*|[ \t]+)[\x60"']?basic[ \t]+(?P<secret>[A-Za-z0-9+/]{8,}={0,2})(?:$|[^A-Za-z0-9+/=])`),
			MinLen:    8,
			Keywords:  []string{"authorization"},
			Gate:      basicSchemeGate,
			Validate:  func(c Candidate) bool { return basicPairVerdict(c.Secret) == basicSecret },
		},
	}
})

// callGate passes a name followed by "(" (a call) or "::new(" (Rust), or a
// DSN's "@tcp(".
func callGate(data []byte, i int) bool {
	if data[i] == '(' {
		return true
	}
	j := i + 1
	if bytes.HasPrefix(data[j:], []byte("::new")) {
		j += len("::new")
	}
	for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
		j++
	}
	return j < len(data) && data[j] == '('
}

// basicSchemeGate passes an Authorization followed closely by "Basic".
func basicSchemeGate(data []byte, i int) bool {
	for j := i + 1; j < len(data) && j <= i+24; j++ {
		if hasPrefixFold(data[j:], "basic") {
			return true
		}
	}
	return false
}

// validPasswordArgument: the literal can be a chosen password (not a
// reference, a placeholder or a fixture), and a DSN's password does not
// repeat its user name.
func validPasswordArgument(c Candidate) bool {
	v := c.Secret
	if !plausiblePassword(v, wholeLiteral(c)) || allSame(v) {
		return false
	}
	s := strings.ToLower(string(v))
	if urlPasswordPlaceholders[s] || passwordFixtures[s] || namesFixture(s) || shortWord(v) {
		return false
	}
	if bytes.HasSuffix(c.Match, []byte("(")) {
		// a DSN: the password repeats the user name
		return !bytes.EqualFold(c.Key, v)
	}
	// a constructor's password that repeats the user before it
	// (getConnection(url, "postgres", "postgres")): a default
	if u := literalBefore(c.Context, c.Offset); u != nil && bytes.EqualFold(u, v) {
		return false
	}
	return true
}

// fixtureWords name what a value stands in for: a value that holds one
// ("newpassword", "wrongpassword", "dev-secret-key-2024",
// "insecure-key-for-testing-only") is a test's or a sample's, as a
// chosen or generated secret never does.
var fixtureWords = []string{"password", "passwd", "secret", "wrong", "test", "insecure", "dummy", "sample", "example", "fake", "mock"}

func namesFixture(lower string) bool {
	for _, w := range fixtureWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// shortWord: eight or fewer lower-case letters and digits ("admin",
// "mysql", "bar123", "s3cr3t"): what a test passes, not a secret anyone
// keeps.
func shortWord(v []byte) bool {
	if len(v) > 8 {
		return false
	}
	for _, b := range v {
		if !('a' <= b && b <= 'z' || '0' <= b && b <= '9') {
			return false
		}
	}
	return true
}

// literalBefore returns the quoted literal that is the argument before
// the one at off (its opening quote just before off): nil if the
// argument before is no literal.
func literalBefore(ctx []byte, off int) []byte {
	i := off - 1 // the opening quote
	if i < 1 {
		return nil
	}
	j := i - 1
	for j >= 0 && (ctx[j] == ' ' || ctx[j] == '\t') {
		j--
	}
	if j < 0 || ctx[j] != ',' {
		return nil
	}
	j--
	for j >= 0 && (ctx[j] == ' ' || ctx[j] == '\t') {
		j--
	}
	if j < 1 || ctx[j] != '"' && ctx[j] != '\'' {
		return nil
	}
	q, end := ctx[j], j
	for j--; j >= 0 && ctx[j] != q && ctx[j] != '\n'; j-- {
	}
	if j < 0 || ctx[j] != q {
		return nil
	}
	return ctx[j+1 : end]
}

// passwordFixtures are the passwords tests and samples write: nobody's
// secret.
var passwordFixtures = map[string]bool{
	"changeme": true, "changeit": true, "letmein": true, "hunter2": true, "testing": true,
	"testpass": true, "testpassword": true, "test123": true, "secret123": true, "password1": true, // sotvet:allow-secret -- fixtures the rule knows, not credentials
	"password123": true, "admin123": true, "qwerty": true, "123456": true, "12345678": true, // sotvet:allow-secret -- as above
}

// validSigningSecret: the value is random enough to be a key (not a word
// or a sentence), and a Go []byte literal counts only on a line that
// names an HMAC, a JWT, a signature or a secret.
// devMarkedKey: a key that says of itself that it is for development
// only: Django's startproject writes "django-insecure-" before the key it
// draws, and check --deploy refuses it. sotvet's own rules of a named
// secret (signing-secret, generic-secret) leave it; Nosey Parker's
// np.django.1, which reads the startproject template whole, reports it
// as its authors chose.
func devMarkedKey(v []byte) bool { return bytes.HasPrefix(v, []byte("django-insecure-")) }

func validSigningSecret(c Candidate) bool {
	v := c.Secret
	if len(v) > 512 {
		return false // data, not a key
	}
	if bytes.HasPrefix(v, []byte("base64:")) {
		dec, err := base64.StdEncoding.DecodeString(string(v[len("base64:"):]))
		return err == nil && len(dec) >= 16 && !allSame(dec)
	}
	if namesFixture(strings.ToLower(string(v))) || devMarkedKey(v) {
		// "dev-secret-key-2024", jwt.io's
		// "a-string-secret-at-least-256-bits-long"
		return false
	}
	if bytes.IndexByte(v, ':') >= 0 {
		return false // a reference (vault:secret/data/app#key): no key's alphabet has ':'
	}
	if referenceInValue(v) || Entropy(v) < 3.2 || !hasDigit(v) && !hasSymbol(v) {
		return false
	}
	if bytes.HasPrefix(c.Match, []byte("[]byte(")) {
		// The line up to its first literal, which is at the match or
		// before it: found first, and only that much lowered (a line of
		// 200,000 such literals spent half its scan lowering the rest).
		s, _ := c.lineSpan()
		pre := c.Context[s:c.MatchOffset]
		if i := firstByteLiteral(pre); i >= 0 {
			pre = pre[:i]
		}
		line := strings.ToLower(string(pre))
		if !strings.Contains(line, "hmac.new(") && !strings.Contains(line, "signedstring(") && !keyNamed(line) {
			// a key is what an HMAC or a signer is handed, or what a
			// name of a key holds; not a signature, a message, a
			// signing input ("HexSignature: []byte(…)", "Sign(priv,
			// []byte(…))")
			return false
		}
	}
	return true
}

// firstByteLiteral returns where b's first "[]byte(" starts, in any
// letter case, or -1: as in the lowered line, since no letter outside
// ASCII lowers to one of "byte".
func firstByteLiteral(b []byte) int {
	for i := 0; ; i++ {
		j := bytes.Index(b[i:], []byte("[]"))
		if j < 0 {
			return -1
		}
		if i += j; len(b)-i >= len("[]byte(") && equalFoldBytes(b[i+2:i+len("[]byte(")], []byte("byte(")) {
			return i
		}
	}
}

// keyNamed reports whether line (lower case, up to a []byte literal)
// assigns it to a name of a key or a secret: the last word before ":=",
// "=" or ":" holds "key" or "secret" and no "sig" (but "signing"), "hex",
// "input" or "message".
func keyNamed(line string) bool {
	line = strings.TrimRight(line, " \t")
	for _, op := range []string{":=", "=", ":"} {
		if strings.HasSuffix(line, op) {
			line = strings.TrimRight(line[:len(line)-len(op)], " \t")
			break
		}
	}
	i := len(line)
	for i > 0 && (isAlnumByte(line[i-1]) || line[i-1] == '_' || line[i-1] == '.') {
		i--
	}
	name := line[i:]
	if !strings.Contains(name, "key") && !strings.Contains(name, "secret") {
		return false
	}
	// a signing key is a key; "sig" below means a signature
	name = strings.ReplaceAll(name, "signing", "")
	for _, w := range []string{"sig", "hex", "input", "message", "msg", "public", "pub"} {
		if strings.Contains(name, w) {
			return false
		}
	}
	return true
}

// basicVerdict is what a Basic credential decodes to.
type basicVerdict int

const (
	basicOpaque      basicVerdict = iota // not base64 of printable text
	basicSecret                          // user:password with a real password
	basicPlaceholder                     // no pair, or a pair that stands in for one
)

// basicPairVerdict decodes a Basic credential: user:password with a
// password that is not a placeholder, that does not name itself
// ("username:password", "user:pass") and that does not repeat the user
// name ("admin:admin", a default) is a secret; base64 of other printable
// text is no credential.
func basicPairVerdict(v []byte) basicVerdict {
	dec, err := base64.StdEncoding.DecodeString(string(v))
	if err != nil {
		if dec, err = base64.RawStdEncoding.DecodeString(string(bytes.TrimRight(v, "="))); err != nil {
			return basicOpaque
		}
	}
	for _, b := range dec {
		if b < 0x20 || b > 0x7e {
			return basicOpaque
		}
	}
	user, pw, ok := bytes.Cut(dec, []byte(":"))
	if !ok || len(pw) < 3 {
		return basicPlaceholder
	}
	p := strings.ToLower(string(pw))
	if urlPasswordPlaceholders[p] || passwordNonValues[p] || passwordFixtures[p] || namesFixture(p) || bytes.EqualFold(user, pw) || IsPlaceholder(pw) || allSame(pw) {
		return basicPlaceholder
	}
	return basicSecret
}

// validBearer: a Basic credential in an Authorization header is reported
// unless it decodes to text that is no user:password pair or to a
// placeholder pair (base64 of "username:password" in a how-to).
func validBearer(c Candidate) bool {
	scheme := c.Context[c.MatchOffset:c.Offset]
	if !bytes.Contains(bytes.ToLower(scheme), []byte("basic")) {
		return true
	}
	return basicPairVerdict(c.Secret) != basicPlaceholder
}

// publicKeyBase64 reports whether v is the base64 of a DER public key,
// a SubjectPublicKeyInfo (a browser extension's manifest "key", a key a
// config pins): it is published by design. The header decides (an outer
// SEQUENCE, the key's algorithm, then the key's BIT STRING), so that a
// key cut short or wrapped is still known for one; a PKCS #8 private key
// starts with a version INTEGER instead.
// base64Run returns ctx[ss:se] grown to the end of the base64 run it
// starts: a rule whose value stops at "/" or "+" must not make a public
// key followed by more DER look like a key cut short.
func base64Run(ctx []byte, ss, se int) []byte {
	if se-ss < 40 || ctx[ss] != 'M' {
		return ctx[ss:se] // no public key's start: nothing to grow
	}
	// at most 4 KB: longer than any public key's base64 (RSA-4096: 736
	// characters), so a longer run is judged "more than a key" all the
	// same, and a blob of base64 costs each candidate in it no more
	end := min(len(ctx), ss+4096)
	for se < end && (isAlnumByte(ctx[se]) || ctx[se] == '+' || ctx[se] == '/' || ctx[se] == '=') {
		se++
	}
	return ctx[ss:se]
}

func publicKeyBase64(v []byte) bool {
	// DER's SEQUENCE tag 0x30 encodes as 'M'; a key is longer than 40
	if len(v) < 40 || v[0] != 'M' {
		return false
	}
	head := v[:min(len(v), 64)&^3] // the header is in the first 48 bytes
	der, err := base64.StdEncoding.DecodeString(string(head))
	if err != nil || len(der) < 2 || der[0] != 0x30 {
		return false
	}
	i, outer := 2, int(der[1])
	if der[1] >= 0x80 {
		n := int(der[1] & 0x7f)
		if n == 0 || n > 3 || 2+n > len(der) {
			return false
		}
		outer = 0
		for _, b := range der[2 : 2+n] {
			outer = outer<<8 | int(b)
		}
		i += n
	}
	if i >= len(der) {
		return false
	}
	// A key cut short is still a public key; one followed by more DER
	// (another structure, a private key) is not this key alone.
	if total := i + outer; base64.StdEncoding.DecodedLen(len(bytes.TrimRight(v, "="))) > total+2 {
		return false
	}
	var alg pkix.AlgorithmIdentifier
	rest, err := asn1.Unmarshal(der[i:], &alg)
	if err != nil || len(rest) == 0 || rest[0] != 0x03 {
		return false
	}
	for _, o := range publicKeyAlgorithms {
		if alg.Algorithm.Equal(o) {
			return true
		}
	}
	return false
}

// publicKeyAlgorithms are the algorithms of SubjectPublicKeyInfo: RSA,
// DSA, EC, X25519, X448, Ed25519, Ed448.
var publicKeyAlgorithms = []asn1.ObjectIdentifier{
	{1, 2, 840, 113549, 1, 1, 1}, {1, 2, 840, 10040, 4, 1}, {1, 2, 840, 10045, 2, 1},
	{1, 3, 101, 110}, {1, 3, 101, 111}, {1, 3, 101, 112}, {1, 3, 101, 113},
}

// referenceInValue: the value names another (an interpolation, a
// template, a format verb, a <placeholder>), Django's key alphabet's
// symbols ($, %, &, (, …) aside.
func referenceInValue(v []byte) bool {
	for _, r := range []string{"${", "{{", "%s", "%(", "%v", "<", ">"} {
		if bytes.Contains(v, []byte(r)) {
			return true
		}
	}
	return false
}
