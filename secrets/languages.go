package secrets

import (
	"bytes"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Forms of secrets stated in prose that the English sentence rules do not
// read (issue 33: blind notes in other languages, abbreviations, and
// vendor tokens no provider rule took). They rank after every other rule,
// so no older finding changes its rule ID or fingerprint.
const (
	// RuleProseSecretIntl reports a password, key or token stated in a
	// sentence in German, Spanish, French, Portuguese, Italian or Dutch:
	// "Das neue Passwort lautet …", "la contraseña es …", "Mot de passe
	// : …", "A senha é …", "La password è …", "Het wachtwoord is …".
	RuleProseSecretIntl = "prose-secret-intl"
	// RuleProsePasswordShort reports a password stated after an
	// abbreviation of its name ("admin pw: …", "the pwd for the kiosk is
	// …") or with its user in an informal pair ("u/p: deploy / …",
	// "user / pass: ops / …", "creds = qa / …").
	RuleProsePasswordShort = "prose-password-short"
	// RuleVendorToken reports a token that starts with a vendor's
	// distinctive prefix which no provider rule reports: the provider's
	// rule wants its name on the line (Mailgun's "key-"), or a length
	// the token does not have (an Atlassian "ATATT3" one character
	// short). A warning: the value is likely, not surely, a live token.
	RuleVendorToken = "vendor-token"
)

// The grammar prose-secret-intl accepts, one sentence:
//
//	NOUN [WORDS] COPULA [ADVERB] [:] VALUE    das neue Passwort lautet jetzt …
//	NOUN [WORDS] : VALUE                      Kennwort für die Datenbank: …
//	, NOUN VALUE                              Benutzer `deploy`, Passwort …
//
// NOUN is a language's word for a password, passphrase, key, token or
// secret (German compounds count: "WLAN-Passwort", "Zugangstoken"); WORDS
// are up to six words that say which one ("de la base de datos", "für
// S3"); COPULA is the language's "is" or "reads" (ist, lautet, es, est, é,
// è, is, luidt). The English nouns (password, token, secret) count only
// with a COPULA or WORDS of the other languages ("La password è …", "Der
// Token lautet …"): in English prose-secret reads them. VALUE is as
// prose-secret's: quoted, or bare with letters and digits, ten or more.
//
// It rejects: a noun with no value after it ("liegt im Tresor", "está en
// el gestor", "muss 12 Zeichen lang sein"), a value that is a
// placeholder, a mask, a variable, a path or a version, a value that
// holds the noun itself ("IhrPasswort1"), and a "key" word that means a
// keyword ("palabra clave", "parola chiave", "mot-clé", "palavra-chave").
func proseSecretIntlRule() *Rule {
	// quoted, in bold ("senha do Redis: **…**") or bare
	val := "(?:[\x60'\"](?P<secret>[^\\s\x60'\"]{8,200})[\x60'\"]|\\*\\*(?P<secret>[^\\s*]{8,200})\\*\\*|(?P<secret>[^\\s\x60'\"<>]*[0-9](?:[^\\s\x60'\"<>]*[^\\s\x60'\".,;:!?)<>])?))(?:[\\s.,;:!?)]|$)"
	// Germanic nouns are the last part of a compound ("Datenbankpasswort",
	// "toegangstoken"); the others are whole words.
	germanic := `(?:[\p{L}0-9]+-)?[\p{L}]*(?:passwort|kennwort|wachtwoord|schl(?:ü|ue)ssel|sleutel|token)`
	romance := `\b(?:contrase(?:ñ|n)a|clave|mot[ \t]+de[ \t]+passe|mdp|jeton|cl(?:é|e)|senha|palavra[ \t-]passe|chave|chiave|password|parola[ \t]+d['’]ordine|secreto|segredo|segreto|secret|geheim|passphrase)`
	copula := `(?:ist|lautet|lautete|war|es|era|est|était|é|è|e'|is|luidt|was)`
	adverb := `(?:jetzt|nun|ahora|désormais|maintenant|agora|ora|adesso|nu|voortaan|übrigens|uebrigens|aktuell|derzeit|actualmente|atualmente|actuellement|attualmente|momenteel)`
	// a word may hold an apostrophe: "d'accès", "dell'admin", or be code
	// in backquotes: "für den Benutzer `orders_admin`"
	words := `(?:[ \t]+(?:[^\s:;,.!?<>\x60"]+|\x60[^\s\x60]+\x60)){0,6}?`
	return &Rule{
		ID:          RuleProseSecretIntl,
		Description: "password, key or token stated in a sentence in German, Spanish, French, Portuguese, Italian or Dutch",
		builtinRE: builtinExpr("(?i)(?:" +
			"(?P<key>" + germanic + "|" + romance + ")" + words +
			"(?:[ \\t]+" + copula + "(?:[ \\t]+" + adverb + ")?[ \\t]*:?|[ \\t]*:)[ \\t]+" + val +
			"|[,;][ \\t]*(?P<key>" + germanic + "|" + romance + ")[ \\t]+" + val + ")"),
		MinLen:   8,
		Keywords: intlNounKeywords,
		Gate:     proseSecretIntlGate,
		Validate: validProseSecretIntl,
		Path:     proseFiles,
	}
}

// intlNounKeywords are the nouns of prose-secret-intl, as the keyword
// filter finds them (ASCII-folded; "clé" and "schlüssel" in UTF-8).
var intlNounKeywords = []string{"passwort", "kennwort", "wachtwoord", "schlüssel", "schluessel", "sleutel", "token",
	"contraseña", "contrasena", "clave", "mot de passe", "mdp", "jeton", "clé", "senha", "palavra-passe", "palavra passe",
	"chave", "chiave", "password", "secreto", "segredo", "segreto", "secret", "geheim", "passphrase", "ordine"}

// englishNoun reports whether a noun ends in one that prose-secret reads
// in English sentences ("password", "Client-Secret", "accesstoken").
func englishNoun(n string) bool {
	for _, w := range []string{"password", "token", "secret", "passphrase"} {
		if strings.HasSuffix(n, w) {
			return true
		}
	}
	return false
}

// intlDeterminers, before an English noun, say the sentence is in another
// language ("Het token is …", "Der Token: …").
var intlDeterminers = map[string]bool{"het": true, "der": true, "die": true, "das": true, "den": true, "dem": true,
	"el": true, "la": true, "le": true, "il": true, "lo": true, "los": true, "las": true, "les": true, "os": true,
	"o": true, "sua": true, "seu": true, "su": true, "ihr": true, "dein": true, "votre": true, "ton": true, "uw": true,
	"je": true, "mijn": true, "mein": true, "mi": true, "mon": true, "meu": true, "mio": true, "neue": true,
	"nueva": true, "nuevo": true, "nouveau": true, "nouvelle": true, "nova": true, "novo": true, "nuova": true,
	"nuovo": true, "nieuwe": true}

// intlGlue are the words of the other languages that bind a noun to its
// value: copulas, adverbs and the prepositions of "which one" phrases.
var intlGlue = map[string]bool{"ist": true, "war": true, "lautet": true, "lautete": true, "es": true, "era": true, "est": true,
	"était": true, "é": true, "è": true, "e'": true, "luidt": true, "jetzt": true, "nun": true, "ahora": true,
	"désormais": true, "maintenant": true, "agora": true, "ora": true, "adesso": true, "nu": true, "voortaan": true,
	"für": true, "des": true, "der": true, "du": true, "de": true, "del": true, "della": true, "dello": true,
	"di": true, "do": true, "da": true, "dos": true, "das": true, "van": true, "voor": true, "per": true,
	"para": true, "pour": true, "vom": true, "zum": true, "zur": true, "al": true, "au": true, "het": true}

// keywordNouns: the word before a "key" noun that makes it a keyword
// ("palabra clave", "parola chiave", "mot clé").
var keywordNouns = map[string]bool{"palabra": true, "parola": true, "mot": true, "palavra": true, "punto": true, "ponto": true}

// proseSecretIntlGate passes a noun that ends its word and is followed,
// within a few words on its line, by a colon or a blank before a value:
// what every form needs. An English noun also needs one of the other
// languages' copulas after it ("is", which English and Dutch share, is
// not one): "The token is …" lines are prose-secret's, and cost this
// rule nothing.
func proseSecretIntlGate(data []byte, i int) bool {
	j := i + 1
	if j < len(data) && !(data[j] == ' ' || data[j] == '\t' || data[j] == ':') {
		return false
	}
	end := j
	for end < len(data) && end-j < 96 && data[end] != '\n' {
		end++
	}
	seg := data[j:end]
	english := false
	for _, w := range []string{"password", "token", "secret", "passphrase"} {
		if i+1 >= len(w) && equalFoldASCII(data[i+1-len(w):i+1], w) {
			english = w != "token" || i+1 == len(w) || !isLetterByte(data[i-len(w)])
		}
	}
	if !english {
		return true
	}
	// One pass over the words after an English noun, up to the
	// sentence's end: a copula of the other languages passes, and so does
	// one of their prepositions before a colon.
	prep := false
	var buf [12]byte
	for k := 0; k < len(seg); {
		for k < len(seg) && (seg[k] == ' ' || seg[k] == '\t') {
			k++
		}
		st := k
		for k < len(seg) && seg[k] != ' ' && seg[k] != '\t' && seg[k] != ':' {
			k++
		}
		if w := seg[st:k]; len(w) > 0 && len(w) <= len(buf) {
			for x, c := range w {
				buf[x] = lower(c)
			}
			switch intlGateWord(buf[:len(w)]) {
			case gateCopula:
				return true
			case gatePreposition:
				prep = true
			}
		}
		if k < len(seg) && seg[k] == ':' {
			return prep
		}
		if k > st && strings.IndexByte(".;!?", seg[k-1]) >= 0 {
			return false // the sentence ends
		}
	}
	return false
}

const (
	gateCopula = iota + 1
	gatePreposition
)

// intlGateWord tells the copulas an English noun needs after it in the
// other languages ("La password è …", "Der Token lautet …") and the
// prepositions that open what it is for ("password del wifi: …"). A
// switch, not a map: it runs at every word after every "token".
func intlGateWord(w []byte) int {
	switch string(w) {
	case "ist", "lautet", "lautete", "es", "est", "é", "è", "e'", "luidt", "era", "war":
		return gateCopula
	case "del", "della", "di", "de", "du", "des", "da", "für", "van", "voor", "para", "pour":
		// not "per" and "do": English words too ("password per policy")
		return gatePreposition
	}
	return 0
}

func isLetterByte(b byte) bool { return 'a' <= lower(b) && lower(b) <= 'z' || b >= 0x80 }

func validProseSecretIntl(c Candidate) bool {
	key := c.Key
	if key == nil || describesEncoding(c.Secret) {
		return false
	}
	at := subOffset(c.Context, key)
	noun := strings.ToLower(string(key))
	glue := strings.Fields(string(bytes.ToLower(c.Context[at+len(key) : c.Offset])))
	if englishNoun(noun) {
		// "La password è …", "Der Token lautet …", "Het toegangstoken is
		// …": the sentence is in another language; an English one is
		// prose-secret's.
		ok := intlDeterminers[strings.ToLower(wordBeforeUTF8(c.Context, max(0, at-1)))] && at > 0 && c.Context[at-1] == ' '
		for _, w := range glue {
			if intlGlue[strings.Trim(w, ":\x60'\"")] {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if i := strings.LastIndexAny(noun, " -"); i >= 0 && !strings.Contains(noun, " de ") {
		noun = noun[i+1:]
	}
	if keyNoun(noun) {
		// "palabra clave", "mot-clé": a keyword, not a key
		b := at
		if b > 0 && (c.Context[b-1] == '-' || c.Context[b-1] == ' ') {
			b--
		}
		if w := wordBeforeUTF8(c.Context, b); keywordNouns[strings.ToLower(w)] {
			return false
		}
	}
	if len(glue) == 0 || len(glue) == 1 && strings.Trim(glue[0], "\x60'\"") == "" {
		// ", Passwort …": the value directly after the noun
		if c.MatchOffset >= at || !bytes.ContainsAny(c.Context[c.MatchOffset:at], ",;") {
			return false
		}
	}
	if spellsPasswordName(c.Secret) {
		return false
	}
	return (proseValue(c) || passwordNounIntl(noun) && chosenPassword(c)) && bareProseValue(c)
}

// passwordNounIntl: the noun names a password, which people choose, not a
// key or a token, which are generated.
func passwordNounIntl(n string) bool {
	switch n {
	case "passwort", "kennwort", "contraseña", "contrasena", "mdp", "senha", "password", "wachtwoord", "passphrase", "d'ordine", "d’ordine":
		return true
	}
	if n == "passe" {
		return true // "mot de passe", "palavra-passe": the noun's last word
	}
	return strings.HasSuffix(n, "passwort") || strings.HasSuffix(n, "kennwort") || strings.HasSuffix(n, "wachtwoord") ||
		strings.HasPrefix(n, "mot") || strings.HasPrefix(n, "palavra")
}

// chosenPassword accepts, after a password's name, what tableValue reads
// as a description or a field reference but which mixes upper and lower
// case, digits and a symbol or separator, as the passwords people choose
// do ("Kazige.14276wu", "Linuno.39437SZ", "7Ru_wVQfwsW033+"); a
// description mixes at most two of the classes ("AES-256-GCM",
// "v2.14.3-rc1", "ed25519-2026"). Not a URL, a path, an address or a
// variable's name.
func chosenPassword(c Candidate) bool {
	v := c.Secret
	if len(v) < 10 || len(v) > 64 || !hasUpper(v) || !hasLower(v) || !hasDigit(v) || !hasPunct(v) {
		return false
	}
	if bytes.Contains(v, []byte("://")) || looksLikePath(v) || envNameRE.Match(v) || emailLike(v) || bytes.ContainsAny(v, "()[]{}") {
		return false
	}
	if describesEncoding(v) {
		return false
	}
	return c.secretEntropy() >= 3
}

// afterWord reports whether the candidate follows a word and blanks on
// its line ("cache key-…"), not an assignment, a quote or the line's start.
func afterWord(c Candidate) bool {
	w, b := blankWordBefore(c.Context, c.Offset)
	return len(w) > 0 && b+len(w) < c.Offset && isAlnumByte(w[len(w)-1])
}

// allLowerHex: lower-case hex digits only (what a hex token's gate and
// validator want; allHex takes either case).
func allLowerHex(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func allHex(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// describesEncoding reports a value that says how a password is kept or
// what it must be rather than being one: an encoding or an algorithm's
// name ("Base64-kodiert", "UTF-8-encodé", "PBKDF2-gehasht"), a participle
// after a hyphen ("…-codificada", "…-gecodeerd"), or a policy's list
// ("Min.12Zeichen,").
func describesEncoding(v []byte) bool {
	l := bytes.ToLower(v)
	for _, w := range []string{"base64", "base32", "utf-8", "utf8", "utf-16", "iso-8859", "ascii", "sha1", "sha2", "sha256", "sha512", "md5", "pbkdf2", "argon2", "bcrypt", "scrypt", "aes", "hmac", "min.", "max.", "mín.", "máx."} {
		if bytes.Contains(l, []byte(w)) {
			return true
		}
	}
	if bytes.HasSuffix(v, []byte(",")) {
		return true
	}
	// a hyphen, then four or more lower-case letters to the end
	if k := bytes.LastIndexByte(v, '-'); k >= 0 && len(v)-k-1 >= 4 {
		tail := v[k+1:]
		for len(tail) > 0 && (tail[len(tail)-1] == '.' || tail[len(tail)-1] == '!') {
			tail = tail[:len(tail)-1]
		}
		lowerWord := len(tail) >= 4
		for _, r := range string(tail) {
			if !unicode.IsLower(r) {
				lowerWord = false
				break
			}
		}
		if lowerWord {
			return true
		}
	}
	return false
}

// keyNoun: a language's word for "key", which also means "crucial" and,
// after "word", "keyword".
func keyNoun(n string) bool {
	switch n {
	case "clave", "chave", "chiave", "clé", "cle":
		return true
	}
	return false
}

// wordBeforeUTF8 returns the word of letters that ends at ctx[end].
func wordBeforeUTF8(ctx []byte, end int) string {
	b := end
	for b > 0 {
		r, n := utf8.DecodeLastRune(ctx[:b])
		if !unicode.IsLetter(r) {
			break
		}
		b -= n
	}
	return string(ctx[b:end])
}

// namedStandInWords are names of a password that a stand-in value spells
// ("IhrPasswort1", "tu_contraseña_123", "MotDePasse2024").
var namedStandInWords = []string{"passwort", "kennwort", "wachtwoord", "contrasena", "contraseña", "motdepasse", "senha",
	"palavrapasse", "password", "chiave", "clave", "sleutel", "secreto", "segredo", "segreto"}

// spellsPasswordName reports whether v spells a name of a password, its letters read
// apart from digits, blanks, dashes and underscores.
func spellsPasswordName(v []byte) bool {
	var b strings.Builder
	for _, r := range strings.ToLower(string(v)) {
		if unicode.IsLetter(r) {
			b.WriteRune(r)
		}
	}
	s := b.String()
	for _, w := range namedStandInWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// The grammar prose-password-short accepts:
//
//	(pw|pwd|passwd) [for|of|on WORDS] (is|was|:|=) VALUE   admin pw: …
//	(u/p|user/pass|login/pw|creds|credentials) (:|=|is|are) USER (/|:) VALUE
//
// It rejects "pass" on its own (a boarding pass, tests that pass), an
// abbreviation with no value ("pw reset link", "creds: ask ops"), a pair
// whose second half is a placeholder or a mask, and a path ("pwd:
// /home/deploy").
func prosePasswordShortRule() *Rule {
	val := "(?:[\x60'\"](?P<secret>[^\\s\x60'\"]{8,200})[\x60'\"]|(?P<secret>[^\\s\x60'\"<>]*[0-9](?:[^\\s\x60'\"<>]*[^\\s\x60'\".,;:!?)<>])?))(?:[\\s.,;:!?)]|$)"
	user := "[\x60'\"]?[A-Za-z0-9._@-]{1,64}[\x60'\"]?"
	return &Rule{
		ID:          RuleProsePasswordShort,
		Description: "password stated after an abbreviation (pw: …) or with its user in an informal pair (u/p: USER / …)",
		builtinRE: builtinExpr("(?i)(?:" +
			"\\b(?P<key>pw|pwd|passwd)(?:[ \\t]+(?:for|of|on)(?:[ \\t]+[A-Za-z0-9_./\x60-]+){1,6}?)?(?:[ \\t]+(?:is|was)(?:[ \\t]+now)?|[ \\t]*[:=]|[ \\t]+(?:->|\u2192))[ \\t]+" + val +
			"|\\b(?P<key>u/p|user(?:name)?[ \\t]*/[ \\t]*(?:pass(?:word)?|pwd?)|login[ \\t]*/[ \\t]*(?:pass(?:word)?|pwd?)|creds|credentials)" +
			"(?:[ \\t]*[:=]|[ \\t]+(?:are|is))[ \\t]+" + user + "[ \\t]*[/:][ \\t]*" + val + ")"),
		MinLen:   8,
		Keywords: []string{"pw", "passwd", "u/p", "creds", "credentials", "/pass", "/ pass", "/password", "/ password"},
		Gate:     prosePasswordShortGate,
		Validate: func(c Candidate) bool {
			return (proseValue(c) || chosenPassword(c)) && bareProseValue(c) && !describesEncoding(c.Secret)
		},
		Path: proseFiles,
	}
}

// prosePasswordShortGate passes an abbreviation that is a word of its own
// followed by what opens a value ("pw:", "pwd is", "pw for"), and a pair's
// word followed by ":", "=", " is" or " are" (for "user/pass", the "pw"
// or "pass" of it is not a keyword: "u/p", "creds" are, and "pw").
func prosePasswordShortGate(data []byte, i int) bool {
	j := i + 1
	// An arrow follows an abbreviation of its own ("pw -> …"), not a
	// pair's word or a label pair ("ID/PW -> …", login-label-pair's).
	arrow := false
	if lower(data[i]) == 'w' || lower(data[i]) == 'd' && i > 0 && lower(data[i-1]) == 'w' {
		// pw, pwd, passwd: a word of its own, judged on the bytes before
		// it alone (a walk back over a run of letters cost the run at
		// every hit: a line of "xpw" repeated was quadratic)
		word := func(w string) bool {
			st := i + 1 - len(w)
			ok := st >= 0 && equalFoldASCII(data[st:i+1], w) && (st == 0 || !isAlnumByte(data[st-1]))
			arrow = arrow || ok && (st == 0 || data[st-1] != '/')
			return ok
		}
		if !word("pw") && !word("passwd") {
			return false
		}
		if j < len(data) && lower(data[j]) == 'd' {
			j++ // pwd
		}
	}
	if j < len(data) && isAlnumByte(data[j]) {
		return false
	}
	after := data[j:min(len(data), j+8)]
	for _, w := range []string{":", " :", "=", " =", " is ", " was ", " are ", " for ", " of ", " on ", " /", "/"} {
		if hasPrefixFold(after, w) {
			return true
		}
	}
	return arrow && (hasPrefixFold(after, " -> ") || hasPrefixFold(after, " \u2192 "))
}

// vendorPrefix is a vendor's token prefix with the body its tokens carry.
type vendorPrefix struct {
	prefix         string // case-sensitive
	alphabet       string // the body's bytes
	minLen, maxLen int    // the body's length
	// the bodies the vendor's own rule reports, which vendor-token
	// leaves to it: of ruleLen bytes, or starting with ruleStart
	ruleLen   int
	ruleStart string
}

// vendorPrefixes are prefixes distinctive enough to name their vendor
// alone, whose provider rules leave tokens unreported (or that have no
// provider rule): Mailgun's rule
// wants "mailgun" on the line (key- then 32 of [0-9a-z]); Atlassian's
// takes ATATT3 and exactly 186 more. A body near the provider's length
// (Atlassian: 150 to 220) is a copy cut or padded by a character or two.
var vendorPrefixes = []vendorPrefix{
	{prefix: "ATATT3", alphabet: base64URLAlphabet + "=", minLen: 150, maxLen: 220},
	// An Atlassian organization's admin API key: the same body as an
	// API token's, after ATCTT3 (atlassian-admin-api-key reads one of
	// exactly 186).
	{prefix: "ATCTT3", alphabet: base64URLAlphabet + "=", minLen: 150, maxLen: 220, ruleLen: 186},
	{prefix: "key-", alphabet: "0123456789abcdefghijklmnopqrstuvwxyz", minLen: 32, maxLen: 32},
	// Sentry's organization auth token: base64 of a JSON header
	// ({"iat":…), "_" and the secret (docs.sentry.io, "Token and
	// Credential Formats"); gitleaks' rule wants the header's fields
	// in a fixed order. validVendorToken wants the 43 after the "_".
	{prefix: "sntrys_eyJ", alphabet: base64URLAlphabet + "=", minLen: 40, maxLen: 400},
	// Heroku's API keys since 2024: HRKU- then a body of 60 (its two
	// rules read those); another length is a copy cut, padded, or made
	// from an older key (HRKU- before a UUID).
	{prefix: "HRKU-", alphabet: base64URLAlphabet, minLen: 30, maxLen: 90, ruleLen: 60},
	// Amazon Bedrock's API keys: the short-term key is this prefix and
	// the base64 of a presigned URL, "bedrock.amazonaws.com/…"
	// (aws-amazon-bedrock-api-key-short-lived reads it whole; cut or
	// altered it is text, not a key); a body of another shape is still
	// the key.
	{prefix: "bedrock-api-key-", alphabet: base64URLAlphabet + "=", minLen: 24, maxLen: 4096, ruleStart: "YmVkcm9jay"},
}

const base64URLAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

func vendorTokenRule() *Rule {
	vendorTokenOnce.Do(func() {
		var alts []string
		var kws []string
		for _, p := range vendorPrefixes {
			alts = append(alts, `(?-i:`+strings.ReplaceAll(p.prefix, "-", `\-`)+`)`)
			kws = append(kws, strings.ToLower(p.prefix))
		}
		vendorTokenCompiled = &Rule{
			ID:          RuleVendorToken,
			Description: "token with a vendor's prefix that no provider rule reports (no provider name on the line, or an unexpected length)",
			builtinRE:   builtinExpr(`\b(?P<secret>(?:` + strings.Join(alts, "|") + `)[A-Za-z0-9_=-]+)`),
			Keywords:    kws,
			MinLen:      20,
			Validate:    validVendorToken,
			// every match starts with a prefix, a keyword
			startsAtKeyword: true,
			tokenAtKeyword:  true,
		}
	})
	c := *vendorTokenCompiled
	return &c
}

var (
	vendorTokenOnce     sync.Once
	vendorTokenCompiled *Rule
)

// validVendorToken: the body after the prefix is of the vendor's
// alphabet and length, mixes letters and digits, is random (no run of
// words, enough entropy), and the line does not call it a digest.
func validVendorToken(c Candidate) bool {
	if !notAfterHyphen(c) {
		return false
	}
	v := c.Secret
	for _, p := range vendorPrefixes {
		if !bytes.HasPrefix(v, []byte(p.prefix)) {
			continue
		}
		body := v[len(p.prefix):]
		if len(body) < p.minLen || len(body) > p.maxLen || !(hasUpper(body) || hasLower(body)) || !hasDigit(body) && !drawnLetters(body) {
			return false
		}
		for _, b := range body {
			if strings.IndexByte(p.alphabet, b) < 0 {
				return false
			}
		}
		if wordListRE.Match(body) || c.lineNamesDigest() {
			return false
		}
		if len(body) == p.ruleLen || p.ruleStart != "" && bytes.HasPrefix(body, []byte(p.ruleStart)) {
			return false // the vendor's own rule's: it reports it, or it is no key
		}
		if p.prefix == "sntrys_eyJ" && (len(body) < 45 || body[len(body)-44] != '_') {
			return false // the header, "_" and a secret of exactly 43
		}
		if p.prefix == "key-" && afterWord(c) && allHex(body) {
			// "key" is a word too: "cache key-<md5>", "stored under
			// key-<sha>" name a digest in a phrase; Mailgun's keys are
			// hex too, but stand as a value (after "=", ":", a quote,
			// or alone)
			return false
		}
		return Entropy(body) >= entropyFloor(3.3, body) // a random key of 32 hex digits falls under 3.3 one time in fifty
	}
	return false
}

// localizedSecretHeader reports whether a table's header (or a row's
// name under a "Wert"/"valor"/"valeur"/"valore"/"waarde" column) names a
// password or an API key in one of the languages prose-secret-intl reads:
// "Passwort", "Contraseña", "Mot de passe", "Senha", "Wachtwoord",
// "API-Schlüssel", "Clave de API". A key word alone ("Schlüssel",
// "clave") heads the names of a settings table as often as its secrets.
func localizedSecretHeader(name []byte) bool {
	n := strings.ToLower(string(name))
	for _, w := range localizedPasswordNames {
		if i := strings.LastIndex(n, w); i >= 0 && namesOnly(n[i+len(w):]) {
			return true
		}
	}
	if tableNounCell(n) {
		return true
	}
	if !strings.Contains(n, "api") {
		return false
	}
	for _, w := range []string{"schlüssel", "schluessel", "clave", "clé", "chave", "chiave", "sleutel"} {
		if i := strings.LastIndex(n, w); i >= 0 && namesOnly(n[i+len(w):]) {
			return true
		}
	}
	return false
}

// tableNounCell reports a cell (lower case) that ends in one of
// prose-password-intl's nouns, as a word of its own ("parolă", "Hasło
// roota", "κωδικός πρόσβασης"), or in "psk", the pre-shared key's
// abbreviation ("PSK", "Общий ключ (PSK)"); a word after it names
// something else ("PSK rotation", "Hasło – polityka").
func tableNounCell(n string) bool {
	n = strings.TrimRightFunc(n, func(r rune) bool { return !unicode.IsLetter(r) })
	last := n[strings.LastIndexAny(n, " \t(")+1:]
	if last == "psk" {
		return true
	}
	for _, l := range passwordNounLanguages {
		for _, w := range l.nouns {
			if strings.HasSuffix(n, w) && (len(n) == len(w) || n[len(n)-len(w)-1] == ' ') {
				return true
			}
		}
	}
	return false
}

// namesOnly reports whether what follows a password's word in a header
// qualifies nothing but the API ("API-Schlüssel", "clave de API"): a word
// after it names something else ("Passwort-Hash", "Passwortspeicher",
// "Contraseña (hash)", "Kennwortrichtlinie").
func namesOnly(tail string) bool {
	t := strings.TrimFunc(tail, func(r rune) bool { return !unicode.IsLetter(r) })
	switch t {
	case "", "api", "de api", "da api", "di api", "d'api", "de l'api", "der api":
		return true
	}
	return false
}

// localizedPasswordNames are the password words of localizedSecretHeader.
var localizedPasswordNames = []string{"passwort", "kennwort", "contraseña", "contrasena", "mot de passe", "senha",
	"palavra-passe", "palavra passe", "wachtwoord"}

// localizedHeaderKeywords find the tables localizedSecretHeader reads.
// Not prose-password-intl's nouns nor "psk" (tableNounCell): as keywords
// they made table-secret's validator read its megabyte of context at
// every cell of a file of such rows (TestScanCostLinear); a table they
// name is read when another keyword finds it.
var localizedHeaderKeywords = []string{"passwort", "kennwort", "contraseña", "contrasena", "mot de passe", "senha",
	"palavra-passe", "palavra passe", "wachtwoord", "schlüssel", "schluessel", "clave", "clé", "chave", "chiave", "sleutel"}
