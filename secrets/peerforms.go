package secrets

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"regexp"
	"strings"
	"sync"
)

// Forms of credentials that CredSweeper's test suite holds and that the
// rules above did not read (issue 33: measured on a peer's own samples).
// These rules rank after every other rule: where an older rule reports a
// value, its finding keeps its rule ID and fingerprint.
const (
	// RulePasswordPair reports a password written unquoted after its
	// name and a colon ("db_password: …" in YAML, "ID:admin PW:…" or
	// "P/W: …" in a document) or glued to "=" behind a name the
	// password-literal rule does not split (ANY_PASS=…, X3_PSWD=…).
	RulePasswordPair = "password-pair"
	// RuleSecretOption reports a password, token or secret given to a
	// command as an option: mysql --password …, -Password '…',
	// ConvertTo-SecureString "…".
	RuleSecretOption = "secret-option"
	// RuleEnvDefaultSecret reports a secret written as the fallback of an
	// environment lookup: os.getenv("DB_PASSWORD", "…"),
	// process.env.API_TOKEN || "…", ${DB_PASSWORD:-…}.
	RuleEnvDefaultSecret = "env-default-secret"
	// RuleSQLPassword reports the password a SQL statement sets:
	// IDENTIFIED BY '…', WITH PASSWORD '…', ROLE r PASSWORD '…'.
	RuleSQLPassword = "sql-password"
)

// peerRules returns fresh copies of the rules above and of the provider
// formats in peerProviders.
func peerRules() []*Rule {
	return freshCopies(peerCompiled())
}

var peerCompiled = sync.OnceValue(func() []*Rule {
	// a value ends at a blank, a separator of the text around it, or a
	// quote, or a backslash (an escape in a string: "Password: Required\n"
	// is a message); the key/value forms take no quotes (password-literal
	// reads quoted values). Printable ASCII only: bytes above 0x7F and
	// control bytes are binary data (an archive in testdata), and would
	// count as symbols in passwordShaped.
	const bare = `[!#$%*+\-./0-9:=?@A-Z^_a-z~]`
	rs := []*Rule{
		{
			ID:          RulePasswordPair,
			Description: "password written unquoted after its name and a colon, or glued to \"=\" (YAML, a document's \"ID:user PW:…\")",
			builtinRE: builtinExpr(`(?i)(?P<key>p(?:a?s{1,2})?w(?:o?r)?d|pw|p/w|pass(?:words?|wd|phrase|code)?)(?:` +
				// password: String = "…" (a typed declaration, a default
				// argument), Rust's PASSWORD: &str = "…"
				`[ \t]*:[ \t]*&?(?:'static[ \t]+)?[A-Za-z][A-Za-z0-9_.]*[ \t]*=[ \t]*(?:"(?P<secret>[^"\s\\]{4,64})"|'(?P<secret>[^'\s\\]{4,64})')|` +
				// key: value, key:=value, key=>value, key=value (glued)
				`(?:[ \t]*(?::=|=>|:)[ \t]*|=)(?P<secret>` + bare + `{6,64})(?:$|[\s,;&|)<>\]}"'])|` +
				// #define PASSWORD "…", %global PASSWORD "…", SET password "…"
				`(?:\\t|[ \t])+\\?"(?P<secret>[^"\s\\]{4,64})\\?")`),
			// "P/W", an abbreviation operations notes write ("P/W: …")
			Keywords: []string{"pw", "psw", "pssw", "pasw", "pass", "p/w"},
			Gate:     passwordPairGate,
			Validate: validPasswordPair,
			// Every match starts at its keyword: the scanner tries it
			// there (a line of keywords is not searched whole) and widens
			// the key back over the name (MYSQLPASS, X3_PSWD).
			startsAtKeyword: true,
		},
		{
			ID:          RuleSecretOption,
			Description: "password, token or secret given to a command as an option (--password …, ConvertTo-SecureString \"…\")",
			builtinRE: builtinExpr(`(?i)(?:(?:\B-{1,2}(?P<key>[a-z0-9]+(?:[_-][a-z0-9]+)*)` +
				`|convertto-securestring(?:[ \t]+-(?:string|force|asplaintext))*)[ \t]+` +
				`(?:\\?"(?P<secret>[^"\s\\]{6,128})\\?"|'(?P<secret>[^'\s]{6,128})'|(?P<secret>[^\s"'\x60;|&<>(){}\[\]$\\-][^\s"'\x60;|&<>(){}\[\]\\]{5,127}))(?:$|[\s;|&)"'\\])` +
				// curl_easy_setopt(h, CURLOPT_PASSWORD, "…"), CURLOPT_USERPWD, "user:…"
				`|CURLOPT_(?P<key>(?:PROXY)?(?:PASSWORD|KEYPASSWD|XOAUTH2_BEARER|TLSAUTH_PASSWORD)|(?:PROXY)?USERPWD)[ \t]*,[ \t]*L?"(?:[^":\s]*:)?(?P<secret>[^"\s]{4,128})")`),
			Keywords: []string{"password", "passwd", "passphrase", "token", "secret", "bearer", "convertto-securestring", "curlopt_"},
			Gate:     secretOptionGate,
			Validate: validSecretOption,
		},
		{
			ID:          RuleSQLPassword,
			Description: "password set in a SQL statement (IDENTIFIED BY '…', WITH PASSWORD '…')",
			// the gate has read the words before "password" (WITH, LOGIN,
			// USER u, …): the expression starts at the keyword
			builtinRE:       builtinExpr(sqlPasswordExpr),
			Keywords:        []string{"identified", "password"},
			Gate:            sqlPasswordGate,
			Validate:        validSQLPassword,
			startsAtKeyword: true,
		},
	}
	q := "(?:\"(?P<secret>[^\"\\s\\\\]{4,128})\"|'(?P<secret>[^'\\s\\\\]{4,128})')"
	rs = append(rs, &Rule{
		ID:          RuleEnvDefaultSecret,
		Description: "secret written as the fallback of an environment lookup (getenv(\"DB_PASSWORD\", \"…\"), ${DB_PASSWORD:-…})",
		builtinRE: builtinExpr(`(?:(?i:` + envLookupAlternatives() + `)\([ \t]*["']?(?P<key>[A-Za-z_][A-Za-z0-9_.-]*)["']?[ \t]*` +
			`(?:,[ \t]*b?` + q + `[ \t]*\)|\)[ \t]*(?:or|\|\||\?\?)[ \t]*` + q + `)` +
			`|process\.env\.(?P<key>[A-Za-z_][A-Za-z0-9_]*)[ \t]*(?:\|\||\?\?)[ \t]*` + q +
			`|\$\{(?P<key>[A-Za-z_][A-Za-z0-9_]*):?-(?P<secret>[^}\s"'$]{4,128})\})`),
		Keywords: append(append([]string(nil), envLookups...), "process.env.", "${"),
		Gate:     envDefaultGate,
		Validate: validEnvDefaultSecret,
		// every form starts with its keyword
		startsAtKeyword: true,
	})
	// the formats first: a token's own rule names it better than the
	// option or the name it is given to
	return append(peerProviders(), rs...)
})

// envLookups are the calls whose second argument or fallback is a default
// value for an environment variable: env-default-secret reports that value,
// and password-name-argument leaves it to it.
var envLookups = []string{"getenv", "environ.get", "env.fetch"}

func envLookupAlternatives() string {
	alts := make([]string, len(envLookups))
	for i, l := range envLookups {
		alts[i] = regexp.QuoteMeta(l)
	}
	return strings.Join(alts, "|")
}

// passwordVariant reports whether w is a spelling of "password" that
// password-pair reads in names (PSWD, PASWRD, …: the expression's key
// group).
func passwordVariant(w string) bool {
	switch w {
	case "pw", "p/w", "pwd", "pass", "password", "passwords", "passwd", "passphrase", "passcode":
		return true
	}
	// p, then a?s{1,2}, then w, then (o?r)?, then d
	if len(w) < 4 || w[0] != 'p' || w[len(w)-1] != 'd' {
		return false
	}
	s := w[1 : len(w)-1]
	s = strings.TrimPrefix(s, "a")
	n := len(s)
	s = strings.TrimLeft(s, "s")
	if n-len(s) < 1 || n-len(s) > 2 || !strings.HasPrefix(s, "w") {
		return false
	}
	switch s[1:] {
	case "", "r", "or":
		return true
	}
	return false
}

// passWords end in "pass" and are no password's name.
var passWords = map[string]bool{"bypass": true, "compass": true, "surpass": true, "trespass": true,
	"overpass": true, "underpass": true, "encompass": true, "impass": true, "multipass": true, "onepass": true,
	"firstpass": true, "secondpass": true, "renderpass": true, "subpass": true}

// definePrefix matches what stands before a name given a quoted value
// after a blank: a C or RPM macro, a SET statement; at a line's start, in
// a string too ("#pragma once\n#define PASSWORD \"…\"": a header
// written into a JSON or YAML value).
var definePrefix = lazyRE.New(`(?i)(?:^|[\s"]|\\n)(?:[#%](?:define|global)|set)(?:\\t|[ \t])+$`)

// passwordPairGate passes a keyword that ends a name followed by ":", ":=",
// "=>" or a glued "=".
func passwordPairGate(data []byte, i int) bool {
	j := i + 1
	for j < len(data) && (isAlnumByte(data[j])) && j-i < 8 {
		j++ // the rest of the name: pw|d, pass|word
	}
	if j < len(data) && data[j] == '=' {
		return true
	}
	for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
		j++
	}
	if j < len(data) && data[j] == '\\' && j+1 < len(data) && data[j+1] == 't' {
		j += 2 // "#define\tpassword\t\"…\"" in a string
	}
	return j < len(data) && (data[j] == ':' || data[j] == '"' || data[j] == '\\' || data[j] == '=' && j+1 < len(data) && data[j+1] == '>')
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

func isAlnumByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func validPasswordPair(c Candidate) bool {
	if !passwordPairName(c.Key) || testRunnerStatus(c) {
		return false
	}
	if q := c.Offset - 1; q >= 0 && c.Context[q] == '"' || q >= 0 && c.Context[q] == '\'' {
		// a quoted value: after a macro or SET, or typed (key: Type = "…")
		before := c.Context[:c.MatchOffset]
		after := c.Context[c.MatchOffset+len(c.Key) : c.Offset]
		if !bytes.ContainsRune(after, ':') && !definePrefix.Match(before) {
			return false
		}
		return plausiblePassword(c.Secret, wholeLiteral(c))
	}
	// "=" with blanks is password-literal's (which wants a user name
	// above a bare value); only the glued form is read here
	if c.Offset > 0 && c.Context[c.Offset-1] == '=' && c.Offset > 1 && (c.Context[c.Offset-2] == ' ' || c.Context[c.Offset-2] == '\t') {
		return false
	}
	if c.MatchOffset > 0 {
		switch c.Context[c.MatchOffset-1] {
		case '\\', '$', '%', '{', ']', '^', '@':
			return false // a path, a variable, a template: not a name
		}
	}
	v := c.Secret
	if len(v) > 0 && v[0] == '!' && isLetters(v[1:]) {
		return false // a YAML tag: !vault, !Ref
	}
	if graphQLType(v) {
		return false // a GraphQL argument's type: login(email: String!, password: String!)
	}
	return passwordShaped(v) && plausiblePassword(v, wholeLiteral(c))
}

// passwordPairName reports whether a name ends in a word for a password.
// The long spellings count glued to the name before them (ANYpassword,
// DBPASSWD); the short ones (pass, pw, pwd) end too many other words
// (lowpass, bandpass, AAMSWAPW) and count only as a word of their own:
// after "_", ".", "-", a blank or a change of case (DB_PASS, dbPwd,
// ANYpw), or glued to a service's name (MYSQLPASS, SMTPPWD).
func passwordPairName(name []byte) bool {
	k := bytes.LastIndexAny(name, "_.- \t") + 1
	last := string(name[k:])
	w := strings.ToLower(last)
	if passwordVariant(w) {
		return true
	}
	if passWords[w] {
		return false // bypass, compass
	}
	for _, v := range []string{"password", "passwd", "pswd"} {
		if strings.HasSuffix(w, v) {
			return true
		}
	}
	for _, v := range []string{"pass", "pwd", "pw"} {
		if n := len(last) - len(v); n > 0 && strings.HasSuffix(w, v) {
			// dbPass, ANYpw: the word starts where the case changes;
			// MYSQLPASS, SMTPPWD: glued to a service that has a password
			// (passOwners), which no word such as bypass or lowpass is
			return isLower(last[n-1]) && isUpper(last[n]) || isUpper(last[n-1]) && isLower(last[n]) || passOwners[w[:n]]
		}
	}
	return false
}

// testRunnerStatus reports whether the key is the status word of a test
// runner's report ("--- PASS: TestParse/empty (0.00s)" from go test,
// "PASS: test-suite-1" from automake), not a password's name: an upper-case
// PASS at the start of a line, a comment or a quotation, or after "--- "
// (the rule's keys are spellings of "password": FAIL and SKIP never reach
// it).
func testRunnerStatus(c Candidate) bool {
	if string(c.Key) != "PASS" {
		return false
	}
	before := c.Context[:c.MatchOffset]
	if nl := bytes.LastIndexByte(before, '\n'); nl >= 0 {
		before = before[nl+1:]
	}
	before = bytes.TrimRight(before, " \t")
	if bytes.HasSuffix(before, []byte("---")) {
		return true // go test's line, also inside test2json's "Output" strings
	}
	// the line's start, also behind a comment's marks, or the start of a
	// quotation ("prints \"PASS: suite-1\""): the report quoted
	return len(bytes.TrimLeft(before, " \t/#*>")) == 0 || bytes.HasSuffix(before, []byte(`"`)) || bytes.HasSuffix(before, []byte("'")) || bytes.HasSuffix(before, []byte("\x60"))
}

func isLetters(b []byte) bool {
	for _, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return len(b) > 0
}

// passwordShaped: a value written unquoted after a name counts as a
// password only when it mixes three of lower case, upper case, digits and
// symbols, as chosen passwords do; a word, a number, a hex digest, a
// kebab-case reference ("db-credentials") does not.
func passwordShaped(v []byte) bool {
	var lower, upper, digit, other int
	for _, c := range v {
		switch {
		case 'a' <= c && c <= 'z':
			lower = 1
		case 'A' <= c && c <= 'Z':
			upper = 1
		case '0' <= c && c <= '9':
			digit = 1
		default:
			other = 1
		}
	}
	return lower+upper+digit+other >= 3
}

// secretOptionGate passes a keyword that ends an option: "-" starts the
// word it is in and a blank follows it.
func secretOptionGate(data []byte, i int) bool {
	switch data[i] {
	case 'g', 'G', '_':
		return true // convertto-securestring, curlopt_: the expression reads on
	}
	j := i + 1
	if j < len(data) && data[j] != ' ' && data[j] != '\t' {
		return false
	}
	k := i
	for k >= 0 && (isAlnumByte(data[k]) || data[k] == '_' || data[k] == '-') {
		k--
	}
	k++
	return k < len(data) && data[k] == '-'
}

// optionSecretWords are the last words of an option that takes a secret.
var optionSecretWords = map[string]bool{"password": true, "passwd": true, "passphrase": true, "pass": true,
	"pwd": true, "token": true, "secret": true, "bearer": true}

func validSecretOption(c Candidate) bool {
	curlopt := len(c.Match) > 8 && strings.EqualFold(string(c.Match[:8]), "curlopt_")
	if len(c.Key) > 0 {
		words := keyWords(string(c.Key))
		if len(words) == 0 || genericMetaFirst[words[0]] {
			return false
		}
		last := words[len(words)-1]
		// an option's last word is the secret's name as a whole word
		// (--db-password, -Password); inside a glued option it is an
		// argument ("7za -ppassword": -p and its value)
		if !optionSecretWords[last] && !(curlopt && curlSecretSlot(last)) {
			return false
		}
	}
	v := c.Secret
	if v[0] == '-' || v[0] == '<' {
		return false // the next option, a <placeholder>
	}
	if curlopt {
		// a library's credential slot: the value is one, whatever its shape
		return plausiblePassword(v, wholeLiteral(c))
	}
	if q := c.Offset - 1; q >= 0 && c.Context[q] != '"' && c.Context[q] != '\'' && bytes.ContainsAny(v, "=/") {
		// unquoted: "--secret id=npm,src=…" (a BuildKit mount), "--secret
		// projects/p/secrets/db" (a resource path) name where a secret is
		return false
	}
	return passwordShaped(v) && plausiblePassword(v, wholeLiteral(c))
}

// curlSecretSlot: a libcurl option's name (after CURLOPT_) that takes a
// password: PROXYPASSWORD, KEYPASSWD, PROXYUSERPWD.
func curlSecretSlot(w string) bool {
	for _, s := range []string{"password", "passwd", "userpwd", "bearer"} {
		if strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}

// sqlPasswordGate passes "identified" followed by a blank, and a
// "password" with a blank on either side (the expression reads the words
// around it).
func sqlPasswordGate(data []byte, i int) bool {
	kw := len("password")
	identified := i+1 >= len("identified") && bytes.EqualFold(data[i+1-len("identified"):i+1], []byte("identified"))
	if identified {
		kw = len("identified")
	}
	if k := i - kw; k >= 0 && (isAlnumByte(data[k]) || data[k] == '_') {
		return false // hash_password, unidentified: not the keyword
	}
	j := i + 1
	if j >= len(data) || data[j] != ' ' && data[j] != '\t' && data[j] != '(' {
		return false
	}
	if identified {
		// "the type identified by remoteId": prose; SQL names the user first
		return sqlAccountContext.Match(lineBefore(data, i+1-kw))
	}
	if w, _ := blankWordBefore(data, i+1-kw); endsInWord(w, "set") && hasPrefixFold(data[j:], " for ") {
		return true // SET PASSWORD FOR 'u'@'h' = '…', also in a string: mysql -e "SET …"
	}
	k := j
	for k < len(data) && (data[k] == ' ' || data[k] == '\t') {
		k++
	}
	if k < len(data) && data[k] == '(' {
		// = PASSWORD('…'), VALUES(PASSWORD('…')); not a method call
		// (ssh.Password("…")): SQL writes the function in capitals or
		// after an assignment or VALUES(
		return string(data[i+1-kw:i+1]) == "PASSWORD" || sqlFunctionLeadIn(lineBefore(data, i+1-kw))
	}
	// WITH PASSWORD, LOGIN PASSWORD, ENCRYPTED PASSWORD; USER u PASSWORD,
	// ROLE r PASSWORD: the word before, or the one before that
	w1, at := blankWordBefore(data, i+1-len("password"))
	switch strings.ToLower(string(w1)) {
	case "with", "login", "encrypted", "unencrypted":
		return true
	}
	w2, _ := blankWordBefore(data, at)
	switch strings.ToLower(string(w2)) {
	case "user", "role":
		return true
	}
	return false
}

// sqlAccountContext matches a line's text before IDENTIFIED BY, or before
// an unquoted PASSWORD value, that makes it a SQL statement on an account.
var sqlAccountContext = lazyRE.New(`(?i)\b(?:(?:create|alter)[ \t]+(?:user|login|role)|grant|login|role)\b`)

// sqlFunctionLeadIn reports whether line ends with what stands before
// SQL's PASSWORD(…) written in small letters: an assignment, VALUES(,
// SET, and blanks (as (?i)(?:=|\bvalues[ \t]*\(|\bset)[ \t]*$ would).
// It reads the line from its end: a regexp ending in $ tried every
// start of the line, on each hit of a line of "password (" (4.7 s for
// 4 MB).
func sqlFunctionLeadIn(line []byte) bool {
	t := bytes.TrimRight(line, " \t")
	switch {
	case len(t) == 0:
		return false
	case t[len(t)-1] == '=':
		return true
	case t[len(t)-1] == '(':
		return endsWithWordFold(bytes.TrimRight(t[:len(t)-1], " \t"), "values")
	}
	return endsWithWordFold(t, "set")
}

// endsWithWordFold reports whether t ends with the ASCII word w, after a
// \b, with (?i)'s folds: ASCII case, and ſ (U+017F) for s.
func endsWithWordFold(t []byte, w string) bool {
	j, firstWord := len(t), true
	for k := len(w) - 1; k >= 0; k-- {
		switch {
		case j > 0 && lower(t[j-1]) == w[k]:
			j, firstWord = j-1, true
		case w[k] == 's' && j >= 2 && t[j-2] == 0xc5 && t[j-1] == 0xbf:
			j, firstWord = j-2, false
		default:
			return false
		}
	}
	// \b is ASCII's: before an ſ it wants a word byte
	return (j > 0 && isWordByte(t[j-1])) != firstWord
}

// namedAccountBefore reports whether "USER u" or "ROLE r" stands right
// before data[at] (the gate's second form: USER u PASSWORD).
func namedAccountBefore(data []byte, at int) bool {
	_, b := blankWordBefore(data, at)
	w, _ := blankWordBefore(data, b)
	return strings.EqualFold(string(w), "user") || strings.EqualFold(string(w), "role")
}

// lineBefore returns the text of data's line before data[end].
func lineBefore(data []byte, end int) []byte {
	// at most lineBeforeReach bytes: the gates read the words just before
	// a keyword, and a line of many keywords must not cost each hit the
	// whole line (.password(" repeated was quadratic)
	lo := max(0, end-lineBeforeReach)
	b := lo + bytes.LastIndexByte(data[lo:end], '\n') + 1
	return data[b:end]
}

const lineBeforeReach = 256

// blankWordBefore returns the run of non-blank bytes that ends before the
// blanks before data[end], on the same line, and where it starts.
func blankWordBefore(data []byte, end int) ([]byte, int) {
	e := end
	for e > 0 && (data[e-1] == ' ' || data[e-1] == '\t') {
		e--
	}
	b := e
	for b > 0 && b > e-64 && data[b-1] != ' ' && data[b-1] != '\t' && data[b-1] != '\n' {
		b--
	}
	return data[b:e], b
}

func validSQLPassword(c Candidate) bool {
	v := c.Secret
	if asHash(c) {
		// IDENTIFIED WITH mysql_native_password AS '*…', IDENTIFIED BY
		// PASSWORD '*…': the account's stored hash, an unsalted double
		// SHA-1 (cracked offline for a chosen password, and with one
		// captured handshake it gives what answers the challenge),
		// reported as .htpasswd lines are; AS before anything else names
		// an OS user (auth_socket) or a plugin's string
		return v[0] == '*' && mysqlNativeHash(v) && !IsPlaceholder(v[1:]) && Entropy(v[1:]) >= 3 && !commonPasswordHashes[strings.ToUpper(string(v))]
	}
	if wordListRE.Match(v) && bytes.ContainsAny(v, "_-.") {
		// words joined: the manual's 'auth_string', 'new_password'
		return false
	}
	switch v[0] {
	case ':', '?', '@', '$', '%', '*', '{':
		return false // a bind parameter, a variable, a hash (PASSWORD '*…')
	}
	quoted := c.Offset > 0 && (c.Context[c.Offset-1] == '\'' || c.Context[c.Offset-1] == '"')
	if !quoted {
		// unquoted: "identified by tenantId", "PASSWORD EXPIRE" are prose
		// and keywords; a password there mixes classes of characters, is
		// no sentence's last word ("with password Reset-Link.") and stands
		// in a statement on an account, or right after one (USER u PASSWORD)
		if !passwordShaped(v) || v[len(v)-1] == '.' {
			return false
		}
		if !sqlAccountContext.Match(lineBefore(c.Context, c.MatchOffset)) && !namedAccountBefore(c.Context, c.MatchOffset) {
			return false
		}
	}
	if m := c.Match; len(m) > 8 && bytes.EqualFold(m[:8], []byte("password")) && bytes.TrimLeft(m[8:], " \t")[0] == '(' && len(v) < 6 {
		return false // PASSWORD('…') with a short argument: a test's, not a chosen password
	}
	return plausiblePassword(v, wholeLiteral(c))
}

// endsInWord reports whether w ends in the word word (ASCII, any case),
// after no letter: SET, "SET, db.Exec("SET.
func endsInWord(w []byte, word string) bool {
	n := len(word)
	return len(w) >= n && bytes.EqualFold(w[len(w)-n:], []byte(word)) && (len(w) == n || !isAlnumByte(w[len(w)-n-1]))
}

// sqlPasswordExpr is sql-password's expression. SET PASSWORD FOR 'u'@'h'
// = '…' (MySQL 5.7 and later) comes first, before the bare form would read
// FOR as the password; BY PASSWORD '*…' is MySQL 5's form of AS, and WITH
// and AS may stand on lines of their own; then SET PASSWORD … =
// PASSWORD('…') and VALUES(PASSWORD('…')).
const sqlPasswordExpr = `(?i:password[ \t]+for[ \t]+[^=\n]{1,80}?=[ \t]*)(?:'(?P<secret>[^'\s]{3,64})'|"(?P<secret>[^"\s]{3,64})")|` +
	`(?i)(?:identified(?:\s+with\s+\S+)?\s+(?:by(?:[ \t]+password)?|as)|password)[ \t]+` +
	`(?:'(?P<secret>[^'\s]{3,64})'|"(?P<secret>[^"\s]{3,64})"|(?P<secret>[A-Za-z0-9_!#%^*+.~@-]{3,64})(?:$|[\s;\\"')]))` +
	`|(?i:password)[ \t]*\([ \t]*(?:'(?P<secret>[^'\s]{3,64})'|"(?P<secret>[^"\s]{3,64})")[ \t]*\)`

// mysqlNativeHash reports whether v is a mysql_native_password hash:
// "*" and 40 hex digits (SHA-1 of SHA-1 of the password).
func mysqlNativeHash(v []byte) bool { return len(v) == 41 && v[0] == '*' && allHex(v[1:]) }

// asHash: the match gives the value after IDENTIFIED … AS, or after
// IDENTIFIED BY PASSWORD (MySQL 5), where SQL writes an account's
// stored hash.
func asHash(c Candidate) bool {
	m := bytes.TrimRight(c.Context[c.MatchOffset:c.Offset-1], " \t")
	if len(m) >= 2 && bytes.EqualFold(m[len(m)-2:], []byte("as")) {
		return true
	}
	n := len("password")
	if len(m) > n && bytes.EqualFold(m[len(m)-n:], []byte("password")) && hasPrefixFold(m, "identified") {
		return true
	}
	// SET PASSWORD FOR u = '*…': a hash is set the way a password is
	return hasPrefixFold(m, "password") && len(m) > 0 && m[len(m)-1] == '=' && mysqlNativeHash(c.Secret)
}

// commonPasswordHashes are the mysql_native_password hashes of passwords
// the manuals and tutorials show (SHA-1 of SHA-1 of the password): a
// stand-in, no account's.
var commonPasswordHashes = func() map[string]bool {
	m := map[string]bool{}
	for _, pw := range []string{"password", "123456", "root", "admin", "secret", "changeme", "test", "mysql", "pass", "new_password", "auth_string"} {
		h1 := sha1.Sum([]byte(pw))
		h2 := sha1.Sum(h1[:])
		m["*"+strings.ToUpper(hex.EncodeToString(h2[:]))] = true
	}
	return m
}()

// peerProviders are provider token formats with a prefix of their own
// that no rule above knows (CredSweeper's config lists them): the prefix
// makes each a secret wherever it stands, with or without a name.
func peerProviders() []*Rule {
	type format struct{ id, desc, expr string }
	formats := []format{
		{"cloudflare-api-token", "Cloudflare account or user API token, or API key (cfat_, cfut_, cfk_)", `cf(?:at|ut|k)_[0-9A-Za-z]{48}`},
		{"docker-swarm-join-token", "Docker Swarm join token", `SWMTKN-1-[0-9a-z]{50}-[0-9a-z]{25}`},
		{"docker-swarm-unlock-key", "Docker Swarm unlock key", `SWMKEY-1-[0-9A-Za-z+/]{43}`},
		{"llamacloud-api-key", "LlamaCloud API key", `llx-[0-9A-Za-z_-]{48}`},
		{"together-api-key", "Together AI API key", `tgp_v1_[0-9A-Za-z_-]{43}`},
		{"vercel-token", "Vercel access token", `vc[pikar]_[0-9A-Za-z]{56}`},
		{"netlify-pat", "Netlify personal access token", `nfp_[0-9A-Za-z]{36}`},
		{"posthog-personal-api-key", "PostHog personal or project secret API key, or OAuth access or refresh token (phx_, phs_, pha_, phr_)", `ph[xsar]_[0-9A-Za-z]{40,60}`},
		{"postman-collection-token", "Postman collection access token", `PMAT-[0-9A-Z]{26}`},
		{"bitbucket-http-access-token", "Bitbucket Data Center HTTP access token", `BBDC-[MNO][ADQTgjwz][AEIMQUYcgk][012345wxyz][0-9A-Za-z+/_-]{40}`},
		{"akamai-client-token", "Akamai EdgeGrid client token", `akab-[0-9a-z]{16}-[0-9a-z]{16}`},
		{"figma-pat", "Figma personal access token", `figd_[0-9A-Za-z_-]{40}`},
		{"supabase-access-token", "Supabase personal access token (sbp_v0_)", `sbp_v0_[0-9a-f]{40}`},
		{"gitlab-runner-workspace-token", "GitLab runner registration or workspace token (glrtr-, glwt-)", `gl(?:rtr|wt)-[0-9A-Za-z_-]{20,64}`},
		{"heroku-hrku-key", "Heroku API key (HRKU- and 60 characters, any)", `HRKU-[0-9A-Za-z_-]{60}`},
		{"defined-networking-key", "Defined Networking API key (dnkey-, base32)", `dnkey-[A-Z2-7]{26}-[A-Z2-7]{52}`},
		{"instagram-access-token", "Instagram (Basic Display) access token", `IGQVJ[0-9A-Za-z_-]{100,}`},
		// found missing by drawing tokens of documented formats in
		// prose, where no SONAR_TOKEN or API_KEY name stands beside them
		{"openrouter-api-key", "OpenRouter API key (sk-or-v1- and 64 hex digits)", `sk-or-v1-[0-9a-f]{64}`},
		{"sonarqube-token", "SonarQube user, project or global analysis token (squ_, sqp_, sqa_ and 40 hex digits)", `sq[upa]_[0-9a-f]{40}`},
	}
	// keywords where the expression does not start with its prefix
	peerKeywords := map[string][]string{
		"cloudflare-api-token":          {"cfat_", "cfut_", "cfk_"},
		"vercel-token":                  {"vcp_", "vci_", "vck_", "vca_", "vcr_"},
		"posthog-personal-api-key":      {"phx_", "phs_", "pha_", "phr_"},
		"gitlab-runner-workspace-token": {"glrtr-", "glwt-"},
		"sonarqube-token":               {"squ_", "sqp_", "sqa_"},
	}
	out := make([]*Rule, len(formats))
	for i, f := range formats {
		kws := peerKeywords[f.id]
		if kws == nil {
			kws = []string{strings.ToLower(f.expr[:strings.IndexAny(f.expr, "[(")])}
		}
		out[i] = &Rule{
			ID:          f.id,
			Description: f.desc,
			// a token ends where a host name would not go on: "akab-….luna.akamaiapis.net" is a host
			builtinRE: builtinExpr(`\b(?P<secret>` + f.expr + `)(?:$|[^A-Za-z0-9_.-]|\.(?:$|[^A-Za-z0-9]))`),
			Keywords:  kws,
			Entropy:   3,
			Validate:  peerValidators[f.id],
		}
	}
	return out
}

// peerValidators judge the formats whose prefix also opens words: PostHog's
// ph?_ are healthcare code's prefixes too (phr_PatientHistoryService: a
// personal health record), and may stand inside a base64url run
// ("…5v-phx_Qw3…", a JWK's modulus).
var peerValidators = map[string]func(Candidate) bool{
	"posthog-personal-api-key": func(c Candidate) bool {
		body := c.Secret[len("phx_"):]
		return notAfterHyphen(c) && (hasDigit(body) || drawnLetters(body)) && !identifierValue(body)
	},
}

// envSecretWords are the last words of a variable whose fallback is a
// secret.
var envSecretWords = map[string]bool{"password": true, "passwd": true, "pwd": true, "pw": true, "pass": true,
	"passphrase": true, "passcode": true, "secret": true, "token": true, "apikey": true}

func validEnvDefaultSecret(c Candidate) bool {
	words := keyWords(string(c.Key))
	if len(words) == 0 || genericMetaFirst[words[0]] || !lastWordsNameSecret(words) {
		return false
	}
	v := c.Secret
	// a chosen password or a random token, not a word ("postgres", "dev")
	// nor a stand-in: a placeholder, or words that only name the value or
	// say it is missing ("Bearer-Token1", "Not-Set1")
	return passwordShaped(v) && plausiblePassword(v, wholeLiteral(c)) && !IsPlaceholder(v) && !namesMissingValue(v)
}

// missingValueWords say a value is not there ("not set", "none") or name
// it ("bearer token"): a fallback of these words alone is a stand-in.
var missingValueWords = map[string]bool{"not": true, "set": true, "unset": true, "none": true, "missing": true,
	"required": true, "empty": true, "default": true, "undefined": true, "value": true, "here": true,
	"your": true, "bearer": true, "change": true, "replace": true, "todo": true, "tbd": true}

// namesMissingValue reports whether v is words of standInWords or
// missingValueWords, each with digits or not ("Not-Set1", "Bearer-Token1").
func namesMissingValue(v []byte) bool {
	named := 0
	for _, w := range keyWords(string(v)) {
		w = strings.TrimRight(w, "0123456789")
		if w == "" {
			continue
		}
		if !standInWords[w] && !missingValueWords[w] {
			return false
		}
		named++
	}
	return named > 0
}

// envDefaultGate passes "${NAME:-" and "${NAME-", a lookup's "(" and
// process.env. (the expression reads the fallback after the name).
func envDefaultGate(data []byte, i int) bool {
	j := i + 1
	switch data[i] {
	case '{':
		for j < len(data) && (isAlnumByte(data[j]) || data[j] == '_') && j-i < 128 {
			j++
		}
		if j < len(data) && data[j] == ':' {
			j++
		}
		return j < len(data) && data[j] == '-'
	case '.':
		return true
	}
	return j < len(data) && data[j] == '('
}

// graphQLType reports whether v is a GraphQL type of a built-in scalar,
// non-null or a list (String!, [ID!]!): chosen passwords end in "!" too
// ("Summer2024!"), so only the scalars' names count.
func graphQLType(v []byte) bool {
	s := strings.Trim(string(v), "[]!")
	if len(s) == len(v) {
		return false // a bare name: password-pair's passwordShaped judges it
	}
	switch s {
	case "String", "ID", "Int", "Float", "Boolean":
		return true
	}
	return false
}
