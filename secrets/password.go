package secrets

import (
	"bytes"
	"strings"
)

// RulePasswordLiteral reports a password written out: a literal assigned
// to or compared with a password name, a Password= part of a connection
// string, or a password stated in prose ("the default password is
// '…'"). Passwords people choose have no entropy floor, so the
// rule leans on the form instead: the value is quoted, or ends a
// statement or a connection-string part, or the key is bound with "="
// as in .env and .ini files; prose after "password:" counts only when
// quoted.
const RulePasswordLiteral = "password-literal"

// passwordWords are the last words of a name that holds a password
// (keyWords splits camelCase, so dbPassword, PASSWORD, db.pwd all count).
var passwordWords = map[string]bool{"password": true, "passwd": true, "pwd": true, "pw": true, "pass": true, "passphrase": true, "passcode": true, "secret": true}

// passwordNonValues describe a password rather than being one.
var passwordNonValues = map[string]bool{
	"password": true, "passwd": true, "pwd": true, "pass": true, "secret": true, "none": true, "null": true,
	"nil": true, "true": true, "false": true, "required": true, "optional": true, "empty": true,
	"string": true, "str": true, "hidden": true, "unset": true, "not-set": true, "notset": true,
	"n/a": true, "tbd": true, "undefined": true, "masked": true, "secure": true, "prompt": true,
	"blank": true, "default": true, "same": true, "yes": true, "no": true, "env": true,
	"fail": true, "failed": true, "passed": true, "ok": true, "skip": true, "skipped": true,
	"value": true, "values": true, "text": true, "word": true, "words": true,
	// what a test types to be refused or to mismatch: {"password": "wrong"}
	"wrong": true, "incorrect": true, "invalid": true, "bad": true, "wrongpass": true, "badpass": true,
	"mismatch": true, "different": true, "another": true, "other": true,
}

// passwordTranslations are the word "password" in other languages: the
// value of a password key in a translation file (German's Passwort)
// is the label of a form field, not a password. Elsewhere such a value
// is someone's weak password (DB_PASSWORD=Kennwort), as before.
var passwordTranslations = map[string]bool{
	"passwort": true, "kennwort": true, "contraseña": true, "contrasena": true, "clave": true,
	"mot de passe": true, "senha": true, "palavra-passe": true, "wachtwoord": true, "hasło": true,
	"haslo": true, "lösenord": true, "losenord": true, "passord": true, "adgangskode": true,
	"salasana": true, "şifre": true, "sifre": true, "parola": true, "heslo": true, "jelszó": true,
	"parolă": true, "geslo": true, "lozinka": true, "пароль": true, "κωδικός": true, "סיסמה": true,
	"كلمة المرور": true, "密码": true, "密碼": true, "パスワード": true, "비밀번호": true, "mật khẩu": true,
	"kata sandi": true, "รหัสผ่าน": true, "पासवर्ड": true,
	"contrasenya": true, "contrasinal": true, "pasahitza": true, "parool": true, "parole": true,
	"slaptažodis": true, "lykilorð": true, "wagwoord": true, "cyfrinair": true, "pasfhocal": true,
	"fjalëkalimi": true, "лозинка": true, "парола": true, "kata laluan": true, "nenosiri": true,
	"رمز عبور": true, "گذرواژه": true, "পাসওয়ার্ড": true, "κωδικός πρόσβασης": true,
	"jelszo": true,
}

func passwordRule() *Rule {
	// quoted, also with escaped quotes inside a string literal (\"x\")
	q := "(?:\\\\?\"(?P<secret>[^\"\\s\\\\]{3,})\\\\?\"|\\\\?'(?P<secret>[^'\\s\\\\]{3,})\\\\?')"
	return &Rule{
		ID:          RulePasswordLiteral,
		Description: "password written out (assigned, compared, in a connection string or stated in prose)",
		// One key, then the forms that may follow it: a line of keywords
		// costs one pass over one set of key states, not one per form.
		builtinRE: builtinExpr("(?P<key>(?i:password|passwd|pwd|pass|passphrase|secret))(?:" +
			// prose: the password (for the user 'x') is 'y'
			"(?: for (?:the )?(?:user|username) [\"'][^\"'\\r\\n]+[\"'])? is " + q + "|" +
			// key = "value", key: 'value', key == "value"
			"[\x60\"']?[ \\t]*(?:=|:=|:|=>|==|!=|===|!==)[ \\t]*" + q + "|" +
			// key = "two words" in code
			"[ \\t]*=[ \\t]*(?:\"(?P<secret>[^\"\\s\\\\]+(?: [^\"\\s\\\\]+)+)\"|'(?P<secret>[^'\\s\\\\]+(?: [^'\\s\\\\]+)+)')|" +
			// <add key="SmtpPassword" value="…"/>
			"[\"'][ \\t]+(?i:value)[ \\t]*=[ \\t]*" + q + "|" +
			// key=value in .env/.ini, key = value; (a connection string, a
			// statement), key = value below a user = name line
			"[ \\t]*=[ \\t]*(?P<secret>[^\\s;\"'\x60<>]{3,})(?:[;\\s]|$)" +
			")"),
		MinLen:   5,
		Before:   256, // validPasswordLiteral reads a user = name line above
		Keywords: []string{"password", "passwd", "pwd", "pass", "passphrase", "secret"},
		Gate:     passwordGate,
		Validate: validPasswordLiteral,
		// Every match starts at its keyword: the scanner tries it there
		// (a line of keywords costs one pass) and widens the key back
		// over the name (DB_PASSWORD).
		startsAtKeyword: true,
	}
}

// passwordGate passes a keyword that ends a name and is followed by an
// operator, or a "password" followed by " is " or " for " (prose).
func passwordGate(data []byte, i int) bool {
	j := i + 1
	if j < len(data) && isWordByte(data[j]) && !(data[j] >= 'A' && data[j] <= 'Z') {
		// "passes", "passport", "secretary": not the end of a name
		// (a capital starts the next camelCase word, which AssignmentGate
		// reads as part of the name)
		return false
	}
	if bytes.HasPrefix(data[j:], []byte(" is ")) || bytes.HasPrefix(data[j:], []byte(" for ")) {
		return true
	}
	if AssignmentGate(data, i) || operatorAfter(data, j) {
		return true
	}
	for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '"' || data[j] == '\'') {
		j++
	}
	if j < len(data) && data[j] == '!' {
		return true // a comparison: secret != "..."
	}
	return bytes.HasPrefix(data[j:], []byte("value")) // <add key="…Password" value="…"/>
}

// passOwners are the accounts and services whose "pass" is a password
// (DB_PASS, redisPass, SMTP_PASS): a test's "testPass" or an
// "idOldPass" has none of them before it, nor nginx's proxy_pass.
var passOwners = map[string]bool{
	"db": true, "database": true, "redis": true, "mysql": true, "pg": true, "postgres": true, "mongo": true,
	"mongodb": true, "mssql": true, "oracle": true, "sql": true, "jdbc": true, "smtp": true, "mail": true,
	"imap": true, "ldap": true, "ftp": true, "sftp": true, "ssh": true, "admin": true, "root": true,
	"user": true, "become": true, "keystore": true, "truststore": true, "rabbit": true, "rabbitmq": true, "amqp": true, "mq": true, "kafka": true,
	"elastic": true, "es": true, "vault": true, "wifi": true, "vpn": true, "api": true, "app": true,
	"service": true, "svc": true, "bind": true, "auth": true, "login": true, "account": true,
}

func validPasswordLiteral(c Candidate) bool {
	words := keyWords(string(c.Key))
	if len(words) == 0 || !passwordWords[words[len(words)-1]] || genericMetaFirst[words[0]] {
		return false
	}
	if words[len(words)-1] == "pass" && len(words) > 1 && !passOwners[words[len(words)-2]] {
		return false // idOldPass, testPass: a test that passed, not a password
	}
	if concatenated(c) {
		return false // "prefix" + rest: code building a value, not a literal
	}
	if words[len(words)-1] == "secret" && (optionName(c) || words[0] == "existing") && wordListRE.Match(c.Secret) {
		// gcloud … --secret=api-key, a Helm chart's existingSecret:
		// "keycloak-db-credentials": the name of the secret
		return false
	}
	if bareAfterBlank(c) && commandOutput(c) {
		// $pass = Read-Host -Prompt 'SQL password': the value is what a
		// command returns (here, what the user types), not a literal
		return false
	}
	if bareAfterBlank(c) && !userAbove(c) {
		// password = word: in .ini and .env files keys and values are
		// glued (KEY=value); with blanks around the sign and no quotes,
		// a value only counts below the user's name, as a pair
		return false
	}
	if c.MatchOffset > 0 && c.Context[c.MatchOffset-1] == '/' {
		return false // a path such as /forgot-password, not a name
	}
	if labelInBundle(c) {
		return false // a form field's label in a translation file (bundle.go)
	}
	return plausiblePassword(c.Secret, wholeLiteral(c))
}

// localeDirs and localeExts name the files that hold an application's
// translations.
var (
	localeDirs = []string{"locales", "locale", "i18n", "l10n", "lang", "langs", "languages", "translations", "messages"}
	localeExts = []string{".po", ".pot", ".xlf", ".xliff", ".strings", ".arb", ".resx"}
)

// localePath reports whether path is a translation file: under a
// directory of translations, or of a translation format.
func localePath(path string) bool {
	for _, e := range localeExts {
		if strings.HasSuffix(path, e) {
			return true
		}
	}
	for _, d := range localeDirs {
		if strings.HasPrefix(path, d+"/") || strings.Contains(path, "/"+d+"/") {
			return true
		}
	}
	return false
}

// plausiblePasswordValue reports whether v, written where a password
// goes, can be one: not a word that names or describes a password, a
// reference, a path, a URL, code or a variable.
func plausiblePasswordValue(v []byte) bool { return plausiblePassword(v, false) }

// encryptedValue reports a value its tool keeps encrypted and decrypts
// when it runs: jasypt's ENC(…) (Spring Boot, Camel) and Spring Cloud
// Config's {cipher}…. Reading it needs a key kept elsewhere; Maven's
// {…} is judged where its rules read it (validPlainPassword).
func encryptedValue(v []byte) bool {
	return len(v) > len("ENC()") && bytes.HasPrefix(v, []byte("ENC(")) && v[len(v)-1] == ')' ||
		len(v) > len("{cipher}") && bytes.HasPrefix(v, []byte("{cipher}"))
}

// plausiblePassword is plausiblePasswordValue for a value that is, when
// whole is set, the whole of a literal (wholeLiteral): its brackets are
// code's only when they pair up (codeBrackets).
func plausiblePassword(v []byte, whole bool) bool {
	if len(v) > 100 || bytes.Count(v, []byte(" ")) > 2 {
		return false // longer than a chosen password, or a sentence
	}
	if encryptedValue(v) {
		return false // ciphertext a tool decrypts when it runs
	}
	s := strings.ToLower(string(v))
	if passwordNonValues[s] || passwordNonValues[strings.Trim(s, "_-.")] || passwordNonValues[strings.TrimRight(s, ")],;")] {
		return false // password=None) in a call's arguments: the call's ")" closes it
	}
	// myPassword: IsPlaceholder judges camelCase stand-ins.
	named := (strings.ContainsAny(s, "-_.") || s == string(v)) && anyValueWord(v, passwordWords)
	if named {
		return false // "azure-acr-password", "generic-secret": the name of one
	}
	switch {
	case strings.ContainsAny(s[:1], "\"'") || s[0] == '\x60' && strings.Count(s, "\x60") > 1:
		return false // shell quoting, a command substitution
	case s[0] == '#' && wordListRE.MatchString(s[1:]):
		return false // an anchor or a CSS selector: #add-password
	case strings.Contains(s, ":"):
		return false // a URN, a label, a time: passwords rarely hold one
	case isPublicKey(v):
		return false
	case strings.Contains(s, "://"), strings.HasPrefix(s, "/"), strings.HasPrefix(s, "./"), strings.HasPrefix(s, "~/"):
		return false // a URL or a path
	case whole && codeBrackets(v), !whole && strings.ContainsAny(s, "(){}[]"):
		return false // code: a call, an index, a format
	case s[0] == '$' || s[0] == '%' || s[0] == '@' || s[0] == '&':
		return false // a variable, a format verb, a file reference, an entity
	case envNameRE.MatchString(string(v)):
		return false // the name of the variable that holds it
	case memberChain(v):
		return false // a field reference: cfg.db.password, process.env.X
	}
	return true
}

// isHostname reports whether v is a DNS name (tenant.auth0.com,
// api.example.io): lower-case labels of letters, digits and hyphens, the
// last one a top-level domain of letters. An address, not a secret.
func isHostname(v []byte) bool {
	labels := bytes.Split(v, []byte("."))
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if len(l) == 0 || len(l) > 63 {
			return false
		}
		for _, c := range l {
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	tld := labels[len(labels)-1]
	if len(tld) < 2 || len(tld) > 12 {
		return false
	}
	for _, c := range tld {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// concatenated reports whether the quoted value is glued to code by a +
// on either side ("ghp_" + rest, "a: "+v+"\n").
func concatenated(c Candidate) bool {
	i, j := c.Offset-1, c.Offset+len(c.Secret)
	if i >= 0 && (c.Context[i] == '"' || c.Context[i] == '\'') {
		i--
		for i >= 0 && c.Context[i] == ' ' {
			i--
		}
		if i >= 0 && c.Context[i] == '+' {
			return true
		}
	}
	if j < len(c.Context) && (c.Context[j] == '"' || c.Context[j] == '\'') {
		j++
		for j < len(c.Context) && c.Context[j] == ' ' {
			j++
		}
		if j < len(c.Context) && c.Context[j] == '+' {
			return true
		}
	}
	if strings.HasPrefix(string(c.Secret), "+") {
		return true // "a: "+v+"\n" read as the literal "+v+"
	}
	// a + that ends a literal closed by its quote on both sides is one of
	// its characters ("sugar6349+"); unquoted, it joins the next operand
	return strings.HasSuffix(string(c.Secret), "+") && !quotedLiteral(c)
}

// quotedLiteral reports whether the secret is the whole of a literal: the
// same quote just before and just after it.
func quotedLiteral(c Candidate) bool {
	i, j := c.Offset-1, c.Offset+len(c.Secret)
	return i >= 0 && j < len(c.Context) && (c.Context[i] == '"' || c.Context[i] == '\'') && c.Context[j] == c.Context[i]
}

// valueToLineEnd reports whether the secret is a bare value that runs to
// the end of its line after "=" glued to its name (a .properties, .ini or
// .env file's spring.datasource.password=…), or after "=" or ":" and
// blanks (an .ini file's password = …, a YAML line): no blank can have
// cut it, so its brackets are judged as a literal's are (codeBrackets),
// and a call or a literal that goes on to the next line ("getpass(",
// "secret={") is none.
func valueToLineEnd(c Candidate) bool {
	i := lastNonBlank(c.Context, c.Offset-1)
	switch {
	case i < 0:
		return false
	case i < c.Offset-1: // blanks after the sign
		if c.Context[i] != '=' && c.Context[i] != ':' {
			return false
		}
	case c.Context[i] != '=' || i < 1 || isBlank(c.Context[i-1]):
		return false
	}
	if j := firstNonBlank(c.Context, c.Offset+len(c.Secret)); !lineEndAt(c.Context, j, len(c.Context)) {
		return false
	}
	return strings.IndexByte("([{,", c.Secret[len(c.Secret)-1]) < 0
}

// standaloneLiteral reports whether the secret is a quoted literal that
// stands alone as a value: its opening quote follows an assignment sign
// or a colon (blanks aside), and its closing quote ends the line or is
// followed by ";", "," or a comment. Text between the quotes of two
// literals ("a"+f("b")) has a quote glued to a word or a bracket.
func standaloneLiteral(c Candidate) bool {
	if !quotedLiteral(c) {
		return false
	}
	if i := lastNonBlank(c.Context, c.Offset-2); i < 0 || c.Context[i] != '=' && c.Context[i] != ':' {
		return false
	}
	j := firstNonBlank(c.Context, c.Offset+len(c.Secret)+1)
	return lineEndAt(c.Context, j, len(c.Context)) || strings.IndexByte(";,#", c.Context[j]) >= 0
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' }

// lastNonBlank returns the offset of the last byte of b at or before i
// that is no blank, or -1.
func lastNonBlank(b []byte, i int) int {
	for i >= 0 && isBlank(b[i]) {
		i--
	}
	return i
}

// firstNonBlank returns the offset of the first byte of b at or after j
// that is no blank, or len(b).
func firstNonBlank(b []byte, j int) int {
	for j < len(b) && isBlank(b[j]) {
		j++
	}
	return j
}

// optionName reports whether the key is a command's long option (--secret).
func optionName(c Candidate) bool {
	return bytes.HasPrefix(c.Key, []byte("--")) || c.MatchOffset > 1 && c.Context[c.MatchOffset-1] == '-' && c.Context[c.MatchOffset-2] == '-'
}

// wholeLiteral reports whether the secret is the whole of a value that
// its delimiters bound, so that no blank inside can have cut it in two:
// a quoted literal (quotedLiteral), or the text of an XML element, blanks
// aside (<password>…</password>). What holds a blank, or starts or ends
// with an operator, between two quotes is as often code between two
// literals ("-p" + pw(x) + "…", "a"+f("b"), "x")||g("y").
func wholeLiteral(c Candidate) bool {
	v := c.Secret
	const ops = "+,.&|"
	switch {
	case len(v) == 0, bytes.ContainsAny(v, " \t"):
		return false
	case standaloneLiteral(c):
		// DB_PASSWORD="qzqZJb!1X]gdV@Zg&": a generated password ends
		// with "&" or starts with "+" as often as with any symbol
		return true
	case strings.IndexByte(ops, v[0]) >= 0, strings.IndexByte(ops, v[len(v)-1]) >= 0:
		return false
	case len(v) > 1 && strings.IndexByte(")]}", v[0]) >= 0 && strings.IndexByte(ops, v[1]) >= 0:
		return false
	}
	if quotedLiteral(c) || valueToLineEnd(c) {
		return true
	}
	i, j := lastNonBlank(c.Context, c.Offset-1), firstNonBlank(c.Context, c.Offset+len(c.Secret))
	return i >= 0 && c.Context[i] == '>' && j+1 < len(c.Context) && c.Context[j] == '<' && c.Context[j+1] == '/'
}

// bareAfterBlank: the secret is unquoted, follows "= " and ends its
// statement without a ";".
func bareAfterBlank(c Candidate) bool {
	i, j := c.Offset-1, c.Offset+len(c.Secret)
	if i < 1 || !isBlank(c.Context[i]) {
		return false
	}
	if i = lastNonBlank(c.Context, i); i < 0 || c.Context[i] != '=' {
		return false
	}
	return j >= len(c.Context) || c.Context[j] != ';'
}

var userAssignRE = lazyRE.New(`(?i)\b(?:user|username|login)[ \t]*=[ \t]*\S`)

// userAbove: one of the lines above the match (the rule's Before) assigns
// a user name.
func userAbove(c Candidate) bool {
	start := c.MatchOffset
	for n := 0; n < 4 && start > 0; n++ {
		start = bytes.LastIndexByte(c.Context[:start-1], '\n') + 1
		if start == 0 {
			break
		}
	}
	return userAssignRE.Match(c.Context[start:c.MatchOffset])
}

// cmdletRE is a PowerShell command's name: Verb-Noun.
var cmdletRE = lazyRE.New(`^[A-Z][a-z]+-[A-Z][A-Za-z]+$`)

// commandOutput: an unquoted value that is a command's name followed on
// its line by the command's arguments.
func commandOutput(c Candidate) bool {
	j := c.Offset + len(c.Secret)
	return cmdletRE.MatchString(string(c.Secret)) && j+1 < len(c.Context) && c.Context[j] == ' ' && c.Context[j+1] != '#' && c.Context[j+1] != '\n'
}

func hasLetter(b []byte) bool {
	for _, c := range b {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			return true
		}
	}
	return false
}
