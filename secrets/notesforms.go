package secrets

import (
	"bytes"
	"slices"
	"strings"
	"sync"
)

// Forms of passwords in notes that the sentence rules do not read (issue
// 33, blind notes of round 19): a password named by a noun the value
// follows with no copula ("passphrase …", "la contraseña `…`", "parola
// d'ordine …", "пароль: …"; the Japanese, Chinese and Korean forms are
// prose-secret-cjk's), a value set with a verb ("update the
// pre-shared key to …"), a user and password pair after words that say
// whose they are ("creds for staging rabbit -> `u` / `…`", "default creds
// … are admin:…"), and a value alone on the line below its label or
// below a question about it ("Wachtwoord:" then the value, a definition
// list's "**Password**" then ": …", "what's the pw for …?" then "ops /
// …"). They rank after every older rule, so no finding changes its ID, and
// after the sentence forms of proseplain.go.
const (
	// RuleProsePasswordPhrase reports a password a noun names and the
	// value follows, directly, after "to" with a verb before the noun, or
	// after a colon following a noun the older rules do not read.
	RuleProsePasswordPhrase = "prose-password-phrase"
	// RuleProseLoginPair reports a user and password pair after a word
	// that names credentials and a few words saying whose they are.
	RuleProseLoginPair = "prose-login-pair"
	// RuleProsePasswordBelow reports a password alone on the line below
	// its label, or below a question that asks for it.
	RuleProsePasswordBelow = "prose-password-below"
)

// notesRules returns fresh copies of the rules above.
func notesRules() []*Rule {
	return freshCopies(append(slices.Clip(notesCompiled()), notesCodeCompiled()...))
}

// notesPasswordNouns name a password (not a key or a token, which are
// generated and which the vendor and generic rules read): English, the
// languages prose-secret-intl reads, and scripts no other rule reads. The
// expression's alternation is built from the same list.
var notesPasswordNouns = []string{
	"password", "passphrase", "passcode", "pre-shared key", "preshared key", "psk", "shared secret",
	// a Wi-Fi network's key, which its sentence names by the protocol
	"wpa key", "wpa2 key", "wpa3 key",
	// round 20: the pre-shared key in the languages of the other nouns
	"chave pré-partilhada", "chave pré-compartilhada", "clé pré-partagée", "clave precompartida", "chiave precondivisa",
	"passwort", "kennwort", "wachtwoord", "contraseña", "contrasena", "clave", "senha", "mot de passe",
	"parola d'ordine", "hasło", "haslo", "heslo", "lösenord", "losenord", "salasana", "adgangskode", "passord",
	"パスワード", "暗証番号", "密码", "密碼", "口令", "비밀번호", "패스워드", "пароль",
}

// notesVal is a value: bold, quoted (a code span, quotes), or bare up to a blank
// or a sentence's punctuation. A bare value is printable ASCII: in a
// script written without blanks it would run on into the sentence
// ("Windows10のログオンと同じです"), and a CJK bracket is no part of it.
// No counted repetition: lengths are the validator's.
const notesVal = "(?:\\*\\*(?P<secret>[^\\s*\x60'\"]+)\\*\\*|[\x60'\"](?P<secret>[^\\s\x60'\"「」『』]+)[\x60'\"]|(?P<secret>[!#-&(-;=?-_a-~]*?[#-&(*+\\-/-9=@-_a-~]))(?:[.,;:!?)]*(?:[\\s]|$))"

// notesPhraseNouns are the nouns of the phrase rule: not the Japanese,
// Chinese and Korean ones, whose forms with は, が, 是, 는 or a colon
// prose-secret-cjk reads (one rule owns them).
func notesPhraseNouns() []string {
	var out []string
	for _, n := range notesPasswordNouns {
		if !strings.ContainsFunc(n, func(r rune) bool { return r >= 0x3000 }) {
			out = append(out, n)
		}
	}
	return out
}

func notesNounAlt(nouns []string) string {
	alts := make([]string, len(nouns))
	for i, n := range nouns {
		alts[i] = strings.NewReplacer(" ", "[ \\t-]", "-", "[ \\t-]", "'", "['’]").Replace(n)
	}
	return strings.Join(alts, "|")
}

var notesCompiled = sync.OnceValue(func() []*Rule {
	nouns := notesNounAlt(notesPasswordNouns)
	return []*Rule{
		{
			ID:          RuleProsePasswordPhrase,
			Description: "password named by a noun and followed by its value in a note (passphrase …, update the pre-shared key to …, пароль: …)",
			builtinRE: builtinExpr("(?i)(?P<key>" + notesNounAlt(notesPhraseNouns()) + "|\\bpwd?|\\bpass|\\bkey)" +
				// round 20: an adjective the Romance languages put after
				// the noun ("mot de passe provisoire **…**")
				"(?:[ \\t]+(?:" + strings.Join(passwordAdjectives, "|") + "))?" +
				// "to" (validProsePasswordPhrase wants a verb before the
				// noun), a colon or は in the scripts only this rule reads,
				// or nothing
				"(?:(?:[ \\t]+(?:to|is|è|é|es|est|ist|lautet|luidt|är|er|jest)[ \\t]+|[ \\t]*[:：][ \\t]*|は[ \\t]*|[ \\t]+)" + notesVal +
				// round 20: a quoted value in parentheses after the noun
				// ("the admin password (`…`) from a file")
				"|[ \\t]*\\([ \\t]*[\x60'\"](?P<secret>[^\\s\x60'\"()]+)[\x60'\"][ \\t]*\\))"),
			MinLen:   8,
			Keywords: append(notesNounKeywords(notesPhraseNouns()), "pw", "pwd", "pass", "key"),
			Gate:     notesPhraseGate,
			Validate: validProsePasswordPhrase,
			Path:     proseFiles,
		},
		{
			ID:          RuleProseLoginPair,
			Description: "user and password pair after words naming credentials in a note (creds for X -> user / …, default creds are admin:…)",
			builtinRE:   loginPairExpr,
			MinLen:      8,
			Keywords:    []string{"creds", "credentials", "login"},
			Gate:        digitOnLineGate,
			Validate:    validProseLoginPair,
			Path:        proseFiles,
		},
		{
			ID:          RuleProsePasswordBelow,
			Description: "password alone on the line below its label or below a question asking for it",
			builtinRE: builtinExpr("(?i)(?P<key>" + nouns + "|pw|pwd)(?:" +
				// a label ending its line ("Wachtwoord:", "Password (do not
				// change):"), a blank line, the value indented or not
				// only a parenthesis, a word saying whose or a copula may
				// come between: "Password manager:" labels something else
				"[*_]*(?:[ \\t]*\\([^\\n()]*\\)|[ \\t]+(?:(?:for|of|on|to|für|fürs|zum|zur|voor|van|de|del|della|di|do|da|du|des|der|pour|per|dla|för|til|на|от|для|к|is|was|è|é|es|est|ist|lautet|luidt|är|er|jest)(?:[ \\t][^\\n:：?()]*)?|dell['’][^\\n:：?()]*)(?:\\([^\\n()]*\\))?)?[*_]*[ \\t]*[:：][ \\t*_]*\\n(?:[ \\t]*\\n)?[ \\t>]*" + notesVal +
				// a definition list: "**Password**" then ": value"
				"|[*_]*[ \\t]*\\n[ \\t]*:[ \\t]+" + notesVal +
				// a bold label alone on its line: "**Keystore password**"
				// then the value alone on a line
				"|(?:\\*\\*|__)[ \\t]*\\n(?:[ \\t]*\\n)?[ \\t>]*" + notesVal +
				// a question, then its answer: "ops / value", "A: It's value"
				"|[^\\n?]*\\?[^\\n]*\\n" + chatSpeakerLine + "[ \\t>]*(?:\\*\\*[^\\n*]*\\*\\*[ \\t]*|A[ \\t]*:[ \\t]*)?" +
				"(?:(?:it(?:'|’)s|it[ \\t]+is|that(?:'|’)s)[ \\t]+|[\x60'\"]?[A-Za-z0-9._@-]+[\x60'\"]?[ \\t]*/[ \\t]*" +
				// "here you go, it's" ending its line, the value below
				"|[^\\n]{0,48}?\\b(?:it(?:'|’)s|it[ \\t]+is|that(?:'|’)s|here[ \\t]+it[ \\t]+is)[ \\t]*:?[ \\t]*\\n[ \\t>]*)" + notesVal + ")" +
				// a question for a login, answered by a user and its password
				"|(?P<key>\\blogin|\\bcreds|\\bcredentials)[^\\n?]*\\?[^\\n]*\\n" + chatSpeakerLine + "[ \\t>]*(?:\\*\\*[^\\n*]*\\*\\*[ \\t]*|A[ \\t]*:[ \\t]*)?" +
				"(?:(?:it(?:'|’)s|it[ \\t]+is|that(?:'|’)s)[ \\t]+)?[\x60'\"]?[A-Za-z0-9._@-]+[\x60'\"]?[ \\t]*/[ \\t]*" + notesVal),
			MinLen:   8,
			Keywords: append(notesNounKeywords(notesPasswordNouns), "pw", "pwd", "login", "creds", "credentials"),
			// the next two lines: a blank one and the value's
			After:    256,
			Gate:     notesBelowGate,
			Validate: validProsePasswordBelow,
			Path:     proseFiles,
		},
	}
})

// chatSpeakerLine is what a chat export writes between a question and
// its answer when the answer is another message (round 20): a blank
// line, the speaker's bold name and the time on a line of their own
// ("**marek** 08:41"), each optional.
const chatSpeakerLine = "(?:[ \\t]*\\n)?(?:[ \\t>]*\\*\\*[^\\n*]{1,40}\\*\\*[^\\n]{0,24}\\n)?"

// notesNounKeywords are the nouns as the keyword filter finds them (the
// ASCII ones lower-case; a blank or a dash inside may be either, so the
// keyword is the word before it).
func notesNounKeywords(nouns []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range nouns {
		// the longest word of the noun: "passe" of "mot de passe",
		// "shared" of "pre-shared key"
		k := ""
		for _, w := range strings.FieldsFunc(strings.ToLower(n), func(r rune) bool { return r == ' ' || r == '-' || r == '\'' || r == '’' }) {
			if len(w) > len(k) {
				k = w
			}
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// notesPhraseGate passes a noun that ends its word and is followed by a
// blank, a colon or は and then what may start a value, with a digit
// within the next words (notesPasswordValue wants one). It reads a few
// bytes after the hit, so a line of nouns costs no run of the expression.
func notesPhraseGate(data []byte, i int) bool {
	j := i + 1
	if j < len(data) && isWordByte(data[j]) {
		return false
	}
	// a bare "key": a Wi-Fi network's, named before it on its line
	if i >= 2 && bytes.EqualFold(data[i-2:i+1], []byte("key")) && (!wifiBefore(data, i-2) || keyKindBefore(data, i-2)) {
		return false
	}
	if rest := data[j:min(len(data), j+3)]; string(rest) == "は" || string(rest) == "：" {
		return digitInWords(data, j+3)
	}
	end := min(len(data), j+24)
	for j < end && (data[j] == ' ' || data[j] == '\t' || data[j] == ':') {
		j++
	}
	return j > i+1 && j < end && data[j] != '\n' && data[j] != '\r' && digitInWords(data, j)
}

// digitInWords reports, among the three words from data[j] on its line
// ("key to Xk9…" after "pre-shared", "ist `…`"), within notesValueReach
// bytes, one a value could be: a digit in it and at least
// notesValueMinLen bytes long ("wpa2 key wpa2 key …" passes no hit).
func digitInWords(data []byte, j int) bool {
	end := min(len(data), j+notesValueReach)
	words, start, digit := 0, j, false
	for k := j; k <= end; k++ {
		c := byte('\n')
		if k < end {
			c = data[k]
		}
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c == '\n' || c == ' ' || c == '\t':
			if k > start {
				if digit && k-start >= notesValueMinLen || k == end && digit {
					return true
				}
				if words++; words == 3 {
					return false
				}
			}
			if c == '\n' {
				return false
			}
			start, digit = k+1, false
		}
	}
	return false
}

// digitOnLineGate passes a hit whose line holds a digit within
// loginPairReach bytes: the pair's password has one (notesPasswordValue),
// so a line of "creds (currently `u:" costs no expression run.
func digitOnLineGate(data []byte, i int) bool {
	end := min(len(data), i+1+loginPairReach)
	for k := i + 1; k < end; k++ {
		switch c := data[k]; {
		case c >= '0' && c <= '9':
			return true
		case c == '\n':
			return false
		}
	}
	return false
}

// loginPairReach bounds the look for a digit after creds, credentials or
// login: eight words of filler, a user and a password.
const loginPairReach = 256

// notesValueMinLen is the shortest value the notes rules take.
const notesValueMinLen = 8

// digitOnNextLine reports a digit on the line after the one that ends at
// or after data[k] (past one blank line), within notesValueReach bytes of
// that line's start: the value of a label, a definition or a question.
func digitOnNextLine(data []byte, k int) bool {
	nl := bytes.IndexByte(data[k:min(len(data), k+notesValueReach)], '\n')
	if nl < 0 {
		return false
	}
	start := k + nl + 1
	line := data[start:min(len(data), start+notesValueReach)]
	if e := bytes.IndexByte(line, '\n'); e >= 0 && len(bytes.TrimSpace(line[:e])) == 0 {
		start += e + 1
		line = data[start:min(len(data), start+notesValueReach)]
	}
	if e := bytes.IndexByte(line, '\n'); e >= 0 {
		line = line[:e]
	}
	return bytes.ContainsAny(line, "0123456789")
}

// notesValueReach bounds the gates' look for a value's digit.
const notesValueReach = 64

// notesBelowGate passes a noun whose line, within notesBelowReach bytes,
// ends in a colon (a label), or holds a question mark that ends it, or
// which a definition list's ": " line follows. A line of nouns thus costs
// each hit a bounded look, and the expression then reads at most the
// next two lines.
func notesBelowGate(data []byte, i int) bool {
	j := i + 1
	if j < len(data) && isWordByte(data[j]) {
		return false
	}
	end := min(len(data), j+notesBelowReach)
	for k := j; k < end; k++ {
		switch data[k] {
		case '\n':
			// the line ended without a colon or a question: a bold
			// label ("**Keystore password**"), or a definition list's
			// ": " must open the next one
			if l := bytes.TrimRight(data[j:k], " \t\r"); bytes.HasSuffix(l, []byte("**")) || bytes.HasSuffix(l, []byte("__")) {
				return digitOnNextLine(data, k)
			}
			r := data[k+1 : min(len(data), k+4)]
			return bytes.HasPrefix(bytes.TrimLeft(r, " \t"), []byte(":")) && digitOnNextLine(data, k)
		case '?':
			// a question, which may go on after its mark ("the pw for
			// the jump host? bastion-legacy"), ending within reach
			nl := bytes.IndexByte(data[k:end], '\n')
			if nl < 0 {
				return false
			}
			if digitOnNextLine(data, k+nl) {
				return true
			}
			// or the answer's "sure, it's" ends its line, the value below
			a := k + nl + 1
			e := bytes.IndexByte(data[a:min(len(data), a+notesValueReach)], '\n')
			return e >= 0 && digitOnNextLine(data, a+e)
		case ':':
			rest := k + 1
			for rest < end && (data[rest] == ' ' || data[rest] == '\t' || data[rest] == '*' || data[rest] == '_') {
				rest++
			}
			if rest < len(data) && (data[rest] == '\n' || data[rest] == '\r') {
				return digitOnNextLine(data, rest)
			}
		}
	}
	return false
}

const notesBelowReach = 96

// passwordAdjectives follow a password's noun in the Romance languages
// (and a few Germanic ones, in parentheses or not): temporary, initial,
// new, default.
var passwordAdjectives = []string{
	"provisoire", "temporaire", "initial", "initiale", "nouveau", "temporal", "provisional", "inicial", "nueva", "nuevo",
	"provisória", "provisoria", "temporária", "temporaria", "nova", "temporanea", "provvisoria", "iniziale", "nuova",
	"tymczasowe", "początkowe", "nowe", "tijdelijk", "tijdelijke", "nieuwe", "vorläufiges", "neues", "temporário", "temporario",
}

// passwordVerbs set a value: "update the pre-shared key to …".
var passwordVerbs = []string{"set", "change", "changed", "reset", "update", "updated", "rotate", "rotated", "switch", "switched"}

func validProsePasswordPhrase(c Candidate) bool {
	key := c.Key
	if key == nil {
		return false
	}
	at := subOffset(c.Context, key)
	if at > 0 && isWordByte(c.Context[at-1]) && c.Context[at-1] < 0x80 {
		return false // "mypassword …": part of a name
	}
	// "palabra clave" is a keyword, with a colon too ("Palabra clave:
	// …"); "clave:" alone labels a password in Spanish notes
	// (the last seven bytes, not the kilobyte before the key lowered per
	// candidate: no rune outside ASCII lowers to a letter of "palabra")
	if before := bytes.TrimRight(c.Context[:at], " \t"); bytes.EqualFold(key, []byte("clave")) && len(before) >= 7 && equalFoldASCII(before[len(before)-7:], "palabra") {
		return false
	}
	glue := strings.TrimSpace(string(c.Context[at+len(key) : c.Offset]))
	glue = strings.Trim(glue, "\x60'\"*")
	if adj, rest, ok := strings.Cut(glue, " "); ok && slices.Contains(passwordAdjectives, strings.ToLower(adj)) {
		glue = strings.TrimSpace(rest)
	} else if slices.Contains(passwordAdjectives, strings.ToLower(glue)) {
		glue = ""
	}
	noun := strings.ToLower(string(key))
	switch noun {
	case "pw", "pwd", "pass":
		// a pair prose-login-pair reads ("username ops, pw …", "creds
		// for the NAS: user ops, pass …") stays its finding
		if loginPairReads(c) {
			return false
		}
	}
	switch noun {
	case "pw", "pwd":
		// "pw: …" and "pw is …" are prose-password-short's; the value
		// right after the abbreviation is this rule's ("… pw Lisbon#…")
		if glue != "" {
			return false
		}
	case "key":
		// "the guest network is **…** and the key is …": a Wi-Fi
		// network's key, named on its line before it, given by a copula
		// or a colon
		if g := strings.ToLower(glue); g != "is" && g != ":" || !wifiBefore(c.Context, at) || keyKindBefore(c.Context, at) {
			return false
		}
	case "pass":
		// a verb and a noun of many senses: only "the pass is …" or
		// "pass …" after the user it goes with on its line ("the login
		// … is ops and the pass is …", "user ops pass …") and a value
		// with a symbol
		if glue != "" && !strings.EqualFold(glue, "is") || !userBefore(c.Context, at) || !bytes.ContainsAny(c.Secret, "!#$%&*+=?@^~") {
			return false
		}
		// with no copula, only "user NAME pass VALUE": "each user must
		// pass …" and "user accounts pass …" are the verb's
		if glue == "" && !userNameBefore(c.Context, at) {
			return false
		}
	}
	switch strings.ToLower(strings.TrimSpace(glue)) {
	case "(":
		// a quoted value in parentheses right after the noun gives it:
		// a word and digits in mixed case ("Bananarama_88") is the
		// password there, a name would be in one case; and the form
		// names it so plainly that a word's repeated letters do not make
		// it a word ("Bananarama_88" is of 2.5 bits a byte)
		return notesPasswordValueOf(c, true)
	case "to":
		// "update the pre-shared key to …": a verb within the few words
		// before the noun; "the password to the vault" is no value
		if !verbBefore(c.Context, at) {
			return false
		}
	case ":", "：", "は":
		// "password: …" is an assignment the name/value rules read, and
		// "Passwort: …" prose-secret-intl; "hasło: …", "パスワード: …"
		// no other rule reads
		if nounReadWithColon(string(bytes.ToLower(key))) {
			return false
		}
		if productName(c) {
			return false
		}
	case "", "is", "è", "é", "es", "est", "ist", "lautet", "luidt", "är", "er", "jest":
		// "Zmień hasło Windows10 …": with no word between, a capital
		// word and digits is what the noun is for, not its value
		if glue == "" && productName(c) {
			return false
		}
		// "with password …", "the password is …": prose-password-plain's,
		// which ranks before and reads this sentence (the stricter rule
		// names the finding)
		if noun == "password" && plainReads(c.Secret) && validProsePasswordPlain(c) {
			return false
		}
	default:
		return false
	}
	return notesPasswordValue(c)
}

// wordsPassword: the shape people choose a password in, a capitalised
// word, lower-case words joined by '.', '-' or '_' and two or more digits
// glued to the last ("Copper.ember890", "Mosaic-copper737"), where a
// sentence or a column names one. Mixed case, digits and a dot alone are
// also a release, a product or a note ("Release-v2.3x", "Stored-in-Vault2",
// "Azure.KeyVault.Ref1"): the shape is strict and its words are none a
// note is written in.
func wordsPassword(v []byte) bool {
	if len(v) < 10 || len(v) > 64 || !chosenWordsRE.Match(v) || Entropy(v) < 3 {
		return false
	}
	for _, w := range bytes.FieldsFunc(bytes.ToLower(v), func(r rune) bool { return r < 'a' || r > 'z' }) {
		if noteWords[string(w)] {
			return false
		}
	}
	return true
}

var chosenWordsRE = lazyRE.New(`^[A-Z][a-z]{2,}(?:[._-][a-z]{2,})+[0-9]{2,}$`)

// noteWords: words that say where a password is or what a value is, not
// words one is made of ("Same-as-prod12", "See-confluence42").
var noteWords = map[string]bool{
	"see": true, "same": true, "as": true, "in": true, "on": true, "at": true, "stored": true, "store": true, "reset": true,
	"changed": true, "change": true, "release": true, "vault": true, "keyvault": true, "page": true, "server": true,
	"version": true, "prod": true, "production": true, "staging": true, "login": true, "password": true, "secret": true,
	"ref": true, "entry": true, "confluence": true, "wiki": true, "ticket": true, "windows": true, "kubernetes": true,
	"schema": true, "spring": true, "datasource": true, "azure": true, "build": true, "test": true, "example": true,
}

// plainReads: v is a value prose-password-plain's expression takes whole
// (12 to 64 bytes, none of its stops).
func plainReads(v []byte) bool {
	return len(v) >= 12 && len(v) <= 64 && !bytes.ContainsAny(v, "*,;()<>[]\"'\x60") && !bytes.ContainsAny(v[len(v)-1:], ".:!?")
}

// productName: an unquoted value of capitalised words and then digits,
// with no symbol ("Windows10", "ActiveDirectory2019").
func productName(c Candidate) bool {
	before := c.Context[:c.Offset]
	if q := before[len(before)-1]; q == '`' || q == '\'' || q == '"' || bytes.HasSuffix(before, []byte("「")) || bytes.HasSuffix(before, []byte("『")) {
		return false
	}
	// "Pierogi2024!": the mark glued to the digits is the password's, as
	// people choose them; a product's name is not written so
	if e := c.Offset + len(c.Secret); e < len(c.Context) && c.Context[e] == '!' {
		return false
	}
	return productNameRE.Match(c.Secret)
}

var productNameRE = lazyRE.New(`^(?:[A-Z][a-z]+)+[0-9]+$`)

// nounReadWithColon: the nouns whose "NOUN: value" an older rule reads.
func nounReadWithColon(noun string) bool {
	for _, n := range []string{"password", "passphrase", "passcode", "passwort", "kennwort", "wachtwoord", "contraseña", "contrasena", "senha", "passe"} {
		if strings.HasSuffix(noun, n) {
			return true
		}
	}
	return false
}

// loginPairExpr is prose-login-pair's expression, which
// validProsePasswordPhrase asks too (loginPairReads).
var loginPairExpr = builtinExpr("(?i)\\b(?:creds|credentials|logins?)\\b(?:[ \\t]+[^\\s:/\x60'\"]+){0,8}?" +
	"(?:[ \\t]*(?:->|→|=>|:)|[ \\t]+(?:are|is|were|was)|[ \\t]+\\(?(?:currently|now))[ \\t]*:?[ \\t]+" +
	"(?:" +
	// a pair with the host it opens: "ops:…@db.corp.local"
	"(?P<key>[A-Za-z0-9._-]+):(?P<secret>[^\\s@/\x60'\"]+)@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)+(?:[\\s.,;:!?)]|$)" +
	// a pair: "admin:…", "u / …", the value closed by its quote
	"|[\x60'\"]?(?P<key>[A-Za-z0-9._@-]+)[\x60'\"]?(?:[ \\t]*/[ \\t]*|:)(?:" + notesVal + "|(?P<secret>[^\\s\x60'\"<>]+)[\x60'\"])" +
	// named: "username root, pw …"
	"|(?:user(?:name)?|login)[ \\t:]+[\x60'\"]?(?P<key>[A-Za-z0-9._@-]+)[\x60'\"]?[ \\t]*[,;/][ \\t]*(?:and[ \\t]+)?(?:pw|pwd|pass|password)[ \\t]*[:=]?[ \\t]+" + notesVal + ")")

// loginNounBefore reports whether b holds "cred" or "login" in any
// ASCII case: the start of each noun loginPairExpr opens with (creds,
// credentials, login, logins; (?i) folds none of their letters outside
// ASCII).
func loginNounBefore(b []byte) bool {
	for i := 0; i+4 <= len(b); i++ {
		switch b[i] | 0x20 {
		case 'c':
			if equalFoldASCII(b[i:i+4], "cred") {
				return true
			}
		case 'l':
			if i+5 <= len(b) && equalFoldASCII(b[i:i+5], "login") {
				return true
			}
		}
	}
	return false
}

// loginMemo indexes where a text says "cred" and "login", ASCII case
// aside, once loginNounBetween has been asked loginMemoAfter times of
// it: on a line of 280,000 values after pw each asked of the kilobyte of
// line before it ("pw Lisbon#2023 " repeated, a fifth of its scan).
type loginMemo struct {
	asked       int
	cred, login []int // offsets in the text, ascending
}

const loginMemoAfter = 64

// loginNounBetween reports whether c.Context[from:to] holds "cred" or
// "login", as loginNounBefore does.
func (c Candidate) loginNounBetween(from, to int) bool {
	tm := c.memo
	if tm == nil || c.base+len(c.Context) > len(tm.data) {
		return loginNounBefore(c.Context[from:to])
	}
	m := &tm.login
	if m.asked++; m.asked < loginMemoAfter {
		return loginNounBefore(c.Context[from:to])
	}
	if m.asked == loginMemoAfter {
		d := tm.data
		for i := 0; i+4 <= len(d); i++ {
			switch d[i] | 0x20 {
			case 'c':
				if equalFoldASCII(d[i:i+4], "cred") {
					m.cred = append(m.cred, i)
				}
			case 'l':
				if i+5 <= len(d) && equalFoldASCII(d[i:i+5], "login") {
					m.login = append(m.login, i)
				}
			}
		}
	}
	lo, hi := c.base+from, c.base+to
	for _, l := range []struct {
		at []int
		n  int
	}{{m.cred, 4}, {m.login, 5}} {
		k, _ := slices.BinarySearch(l.at, lo)
		if k < len(l.at) && l.at[k]+l.n <= hi {
			return true
		}
	}
	return false
}

// loginPairReads reports whether prose-login-pair, which ranks after
// this rule, takes c's value on its line.
func loginPairReads(c Candidate) bool {
	ls := bytes.LastIndexByte(c.Context[:c.Offset], '\n') + 1
	le := c.Offset + len(c.Secret)
	if nl := bytes.IndexByte(c.Context[le:], '\n'); nl >= 0 {
		le += nl
	} else {
		le = len(c.Context)
	}
	line := c.Context[ls:le]
	// Each of its matches begins with one of its nouns, before c's value:
	// without one there, the expression has no match to run (per value on
	// a long line of pairs, a search of the value's whole context).
	if !c.loginNounBetween(c.Offset-len(line[:c.Offset-ls]), c.Offset) {
		return false
	}
	re := loginPairExpr.get()
	names := re.SubexpNames()
	for _, m := range re.FindAllSubmatchIndex(line, -1) {
		var pc Candidate
		pc.Context, pc.Match, pc.MatchOffset = line, line[m[0]:m[1]], m[0]
		for i, n := range names {
			if m[2*i] < 0 {
				continue
			}
			switch n {
			case "secret":
				pc.Secret, pc.Offset = line[m[2*i]:m[2*i+1]], m[2*i]
			case "key":
				pc.Key = line[m[2*i]:m[2*i+1]]
			}
		}
		if pc.Secret != nil && ls+pc.Offset == c.Offset && validProseLoginPair(pc) {
			return true
		}
	}
	return false
}

// wifiWords name a wireless network: a bare "key" after one is its key.
// Each is read as a word (or its plural), not inside another ("shared",
// "concrete"); "red", "rede" and "rete" are colours and verbs too, so
// only in a network's name ("red inalámbrica").
var wifiWords = []string{"wi-fi", "wifi", "wlan", "wireless", "ssid", "network", "réseau", "netzwerk", "netz",
	"red inalámbrica", "red de invitados", "rede sem fio", "rede de convidados", "rete senza fili", "rete ospiti", "rete degli ospiti"}

// wifiNotNetWords after a network's word make it another network: "the
// network graph", "network table".
var wifiNotNetWords = []string{"graph", "table", "diagram", "topology", "model", "layer", "map", "effect", "analysis", "flow", "policy", "policies"}

// wifiBefore reports one of wifiWords among the line's 96 bytes before
// data[at].
func wifiBefore(data []byte, at int) bool {
	lo := max(0, at-96)
	if nl := bytes.LastIndexByte(data[lo:at], '\n'); nl >= 0 {
		lo += nl + 1
	}
	l := data[lo:at]
	for _, b := range l {
		if b >= 0x80 {
			return wordsIn(bytes.ToLower(l), wifiWords) // réseau; Unicode's case
		}
	}
	// ASCII: the words' first letters, each a look at the words it starts
	// (no copy: the passphrase gate asks at each hit of a line of them)
	for p, b := range l {
		c := lower(b)
		if c != 'w' && c != 's' && c != 'n' && c != 'r' || p > 0 && wordLetter(l[p-1]) {
			continue
		}
		for _, w := range wifiWords {
			if w[0] == c && len(l)-p >= len(w) && equalFoldASCII(l[p:p+len(w)], w) && wifiWordEnds(l, p+len(w)) {
				return true
			}
		}
	}
	return false
}

// wordLetter: b is a letter's byte, a UTF-8 one's too.
func wordLetter(b byte) bool {
	return isLetterByte(b) || b >= 0x80
}

// wifiWordEnds: a network's word ends at l[e], alone or plural, and no
// word of wifiNotNetWords follows it.
func wifiWordEnds(l []byte, e int) bool {
	if e < len(l) && lower(l[e]) == 's' {
		e++
	}
	if e < len(l) && wordLetter(l[e]) {
		return false
	}
	next := bytes.TrimLeft(l[e:], " \t")
	for _, w := range wifiNotNetWords {
		if len(next) >= len(w) && equalFoldASCII(next[:len(w)], w) && (len(next) == len(w) || !wordLetter(next[len(w)])) {
			return false
		}
	}
	return true
}

// wordsIn reports whether lowered holds one of words as a word
// (wifiWordEnds).
func wordsIn(lowered []byte, words []string) bool {
	for _, w := range words {
		for k := 0; ; {
			i := bytes.Index(lowered[k:], []byte(w))
			if i < 0 {
				break
			}
			i += k
			if (i == 0 || !wordLetter(lowered[i-1])) && wifiWordEnds(lowered, i+len(w)) {
				return true
			}
			k = i + 1
		}
	}
	return false
}

// bareKeyKinds before a bare "key" make it a table's, a signer's or a
// licence's, not a Wi-Fi network's: "network table, primary key is
// user_id#2024", "Netzwerk: the sort key is …".
var bareKeyKinds = map[string]bool{
	"primary": true, "sort": true, "foreign": true, "partition": true, "hash": true, "api": true, "signing": true, "ssh": true,
	"public": true, "private": true, "license": true, "licence": true, "composite": true, "unique": true, "index": true,
}

// keyKindBefore: the word right before data[at] is one of bareKeyKinds.
func keyKindBefore(data []byte, at int) bool {
	ws := strings.Fields(strings.ToLower(string(data[max(0, at-24):at])))
	return len(ws) > 0 && at > 0 && (data[at-1] == ' ' || data[at-1] == '\t') && bareKeyKinds[ws[len(ws)-1]]
}

// userBefore reports a word naming the user or the login among the
// line's 96 bytes before ctx[at].
func userBefore(ctx []byte, at int) bool {
	lo := max(0, at-96)
	if nl := bytes.LastIndexByte(ctx[lo:at], '\n'); nl >= 0 {
		lo += nl + 1
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(string(ctx[lo:at])), func(r rune) bool { return r < 'a' || r > 'z' }) {
		switch w {
		case "user", "username", "login", "account", "usr", "userid":
			return true
		}
	}
	return false
}

// passNotNames follow a user's word and are no user's name: a verb
// ("the user must pass …") or a group ("user accounts pass …").
var passNotNames = map[string]bool{
	"must": true, "will": true, "can": true, "to": true, "should": true, "may": true, "shall": true, "need": true, "needs": true,
	"cannot": true, "could": true, "would": true, "might": true, "does": true, "did": true, "who": true, "that": true,
	"then": true, "accounts": true, "account": true, "group": true, "groups": true, "users": true, "members": true, "roles": true,
	"role": true, "tests": true, "checks": true, "records": true, "data": true,
}

// userNameBefore: the two words before ctx[at] are a user's word and
// a name ("user ops pass …", "login: jdoe pass …").
func userNameBefore(ctx []byte, at int) bool {
	lo := max(0, at-64)
	if nl := bytes.LastIndexByte(ctx[lo:at], '\n'); nl >= 0 {
		lo += nl + 1
	}
	ws := strings.FieldsFunc(string(ctx[lo:at]), func(r rune) bool { return r == ' ' || r == '\t' || r == ':' || r == '=' || r == ',' })
	if len(ws) < 2 || passNotNames[strings.ToLower(ws[len(ws)-1])] {
		return false
	}
	switch strings.ToLower(ws[len(ws)-2]) {
	case "user", "username", "login", "account", "usr", "userid":
		return true
	}
	return false
}

// verbBefore reports whether one of passwordVerbs is among the four words
// before ctx[at] on its line (bounded: the line's last 64 bytes).
func verbBefore(ctx []byte, at int) bool {
	lo := max(0, at-64)
	if nl := bytes.LastIndexByte(ctx[lo:at], '\n'); nl >= 0 {
		lo += nl + 1
	}
	ws := strings.Fields(strings.ToLower(string(ctx[lo:at])))
	for k := len(ws) - 1; k >= 0 && k >= len(ws)-4; k-- {
		for _, v := range passwordVerbs {
			if ws[k] == v {
				return true
			}
		}
	}
	return false
}

func validProseLoginPair(c Candidate) bool {
	if bytes.EqualFold(c.Key, c.Secret) {
		return false
	}
	// "admin:…" glued: not a time, a port or a URL's scheme
	if c.Offset > 0 && c.Context[c.Offset-1] == ':' && (bytes.HasPrefix(c.Secret, []byte("//")) || isDigits(c.Key)) {
		return false
	}
	return notesPasswordValue(c)
}

func validProsePasswordBelow(c Candidate) bool {
	key := c.Key
	if key == nil {
		return false
	}
	at := subOffset(c.Context, key)
	if at > 0 && isWordByte(c.Context[at-1]) && c.Context[at-1] < 0x80 {
		return false
	}
	// the value must end its line: a sentence below a label is no value
	e := c.Offset + len(c.Secret)
	rest := c.Context[e:]
	if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[:nl]
	}
	q := c.Context[c.Offset-1]
	rest = bytes.TrimLeft(rest, "\x60'\"")
	if q != '`' && q != '\'' && q != '"' {
		if len(bytes.TrimSpace(bytes.TrimRight(rest, ".,;:!?) \t"))) > 0 && !answerRest(rest) {
			return false
		}
	} else if len(bytes.TrimSpace(rest)) > 0 && !answerRest(rest) {
		return false
	}
	return notesPasswordValue(c)
}

// answerRest accepts what may follow an answer's value on its line: a
// comma and a clause ("It's …, same as last year"), or a dash between
// blanks and one ("… — we changed it after the audit").
func answerRest(rest []byte) bool {
	r := bytes.TrimLeft(rest, " \t")
	if len(r) > 0 && len(r) < len(rest) {
		for _, d := range []string{"— ", "– ", "- "} {
			if bytes.HasPrefix(r, []byte(d)) {
				return true
			}
		}
	}
	return len(r) > 0 && (r[0] == ',' || r[0] == '(' || r[0] == ';')
}

// notesPasswordValue judges a value these rules read: a password as
// people choose them, letters and digits with a symbol or mixed case
// ("emberlantern66*", "Saffron&2014Pioneer"), or a generated one; not a
// word, a placeholder, a mask, a variable, a path, an address or a URL.
func notesPasswordValue(c Candidate) bool { return notesPasswordValueOf(c, false) }

// notesPasswordValueOf is notesPasswordValue; given, the form gives the
// value plainly (quoted in parentheses after the noun), which takes a
// name's shape in mixed case and a lower entropy floor.
func notesPasswordValueOf(c Candidate, given bool) bool {
	v := c.Secret
	if len(v) < 8 || len(v) > 128 {
		return false
	}
	for _, b := range v {
		if b >= 0x80 {
			return false // the sentence runs on in its script ("「…」です。"): prose-secret-cjk reads it
		}
	}
	if !hasDigit(v) || !(hasUpper(v) || hasLower(v)) {
		return false
	}
	if !hasPunct(v) && !(hasUpper(v) && hasLower(v)) {
		return false
	}
	if isoDateRE.Match(v) {
		return false // "2025-01-31T00:00Z": when, not what
	}
	chosen := wordsPassword(v)
	if bytes.Contains(v, []byte("://")) || looksLikePath(v) || envNameRE.Match(v) || emailLike(v) || memberChain(v) && !chosen ||
		bytes.ContainsAny(v, "()[]{}<>") || v[0] == '$' || v[0] == '%' || v[0] == '-' {
		return false
	}
	if isPlaceholder(v, true) || spellsPasswordName(v) || describesEncoding(v) {
		return false
	}
	// in parentheses, a lower-to-upper step with no symbol is a setting's
	// name ("MinLength8", "SaltRounds12"); "Bananarama_88" is a value
	if given && camelStep(v) && !hasPunct(v) {
		return false
	}
	mixed := given && hasUpper(v) && hasLower(v)
	if (identifierValue(v) || described(v)) && !chosen && !mixed && !bytes.ContainsAny(v, "!#$%&*+=?@^~") {
		return false // "ssh_key_2024", "v2.14.3-rc1", "WPA2-PSK-2024": a name or a version
	}
	if mixed {
		return c.secretEntropy() >= 2.3
	}
	return c.secretEntropy() >= 2.8
}

// camelStep: a lower-case letter followed by an upper-case one in v.
func camelStep(v []byte) bool {
	for i := 1; i < len(v); i++ {
		if v[i-1] >= 'a' && v[i-1] <= 'z' && v[i] >= 'A' && v[i] <= 'Z' {
			return true
		}
	}
	return false
}

var isoDateRE = lazyRE.New(`^[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[T ][0-9:.]+(?:Z|[+-][0-9:]+)?)?$`)

// Forms in code and commands the round-19 blind set held and no rule
// read: a password given to a command's password flag, a key literal
// turned into bytes for a signing key, and a URL whose password holds a
// raw "#".
const (
	// RulePasswordFlag reports a password given on a command line to a
	// flag that takes the password itself: sshpass -p '…', redis-cli -a
	// '…' (OpenSSL's
	// -passin pass:… is password-pair's).
	RulePasswordFlag = "password-flag"
	// RuleSigningKeyBytes reports a string literal turned into bytes for
	// a signing key: new SymmetricSecurityKey(Encoding.UTF8.GetBytes("…"))
	// (the type may be on the line before), Keys.hmacShaKeyFor("…".getBytes()),
	// new SecretKeySpec("…".getBytes(), "HmacSHA256").
	RuleSigningKeyBytes = "signing-key-bytes"
	// RuleURLPasswordHash reports a URL whose userinfo password holds a
	// raw "#" (postgres://app:pa#ss@db:5432/app): a strict parser reads a
	// fragment there, so url-credentials, which parses, passes it.
	RuleURLPasswordHash = "url-password-hash"
)

var notesCodeCompiled = sync.OnceValue(func() []*Rule {
	return []*Rule{
		{
			ID:          RulePasswordFlag,
			Description: "password given on a command line to a flag that takes it (sshpass -p '…', redis-cli -a '…', sqlcmd -P '…')",
			builtinRE: builtinExpr(`\bsshpass[ \t]+(?:-[A-Za-oq-z][^\s]*[ \t]+)*-p[ \t]*(?:'(?P<secret>[^'\n]+)'|"(?P<secret>[^"\n]+)"|(?P<secret>[^\s'"]+))` +
				// redis-cli's -a takes the password (--pass too), and
				// valkey-cli's and keydb-cli's; redis-cli.exe on Windows;
				// the flags may go on after a line's "\" continuation
				`|\b(?:redis|valkey|keydb)-cli(?:\.exe)?(?:` + cliSep + `+-{1,2}[A-Za-z][A-Za-z-]*(?:` + cliSep + `+[^\s'"|;&,\\-][^\s'"|;&,]*)?){0,8}?` + cliSep + `+(?:-a|--pass)` + cliSep + `+(?:'(?P<secret>[^'\n]+)'|"(?P<secret>[^"\n]+)"|(?P<secret>[^\s'"|;&]+))` +
				// an exec array's items: ["redis-cli", "-h", "x", "-a", "…"]
				`|\b(?:redis|valkey|keydb)-cli["'](?:[ \t]*,[ \t]*["'][^"'\n]*["']){0,8}?[ \t]*,[ \t]*["'](?:-a|--pass)["'][ \t]*,[ \t]*["'](?P<secret>[^"'\n]+)["']` +
				// SQL Server's sqlcmd and osql take the password to -P
				// (-S tcp:host,1433: a server's value holds a comma)
				`|\b(?:sqlcmd|osql)(?:\.exe)?(?:` + cliSep + `+-{1,2}[A-Za-z][A-Za-z-]*(?:` + cliSep + `+[^\s'"|;&\\-][^\s'"|;&]*)?){0,12}?` + cliSep + `+-P` + cliSep + `*(?:'(?P<secret>[^'\n]+)'|"(?P<secret>[^"\n]+)"|(?P<secret>[^\s'"|;&]+))`),
			MinLen:   6,
			Keywords: []string{"sshpass", "redis-cli", "valkey-cli", "keydb-cli", "sqlcmd", "osql"},
			// the lines a "\" continues the command onto
			After:    400,
			Validate: validPasswordFlag,
			// every match starts at its keyword
			startsAtKeyword: true,
		},
		{
			ID:          RuleSigningKeyBytes,
			Description: "string literal turned into bytes for a signing key (SymmetricSecurityKey(Encoding.UTF8.GetBytes(\"…\")), Keys.hmacShaKeyFor(\"…\".getBytes()))",
			builtinRE: builtinExpr(`\bEncoding\.(?:UTF8|ASCII|Unicode|Default)\.GetBytes\([ \t]*"(?P<secret>[^"\s\\]+)"[ \t]*\)` +
				`|\b(?:hmacShaKeyFor|SecretKeySpec)\([ \t]*"(?P<secret>[^"\s\\]+)"[ \t]*\.getBytes\(`),
			MinLen:   16,
			Keywords: []string{"getbytes("},
			// the line before, which may name the key's type
			Before:   256,
			Validate: validSigningKeyBytes,
		},
		{
			ID:          RuleURLPasswordHash,
			Description: "URL whose password holds a raw '#' (scheme://user:pa#ss@host)",
			builtinRE:   builtinExpr(`\b[A-Za-z][A-Za-z0-9+.-]*://(?P<key>[^\s/:@#'"\x60]+):(?P<secret>[^\s/@'"\x60]*#[^\s/@'"\x60]*)@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?:[:/]|[\s'"\x60]|$)`),
			MinLen:      6,
			Keywords:    []string{"://"},
			Gate:        urlHashGate,
			Validate:    validURLPasswordHash,
		},
	}
})

// cliSep is what stands between a command's arguments: blanks, or a
// line's "\" continuation. One class, which also takes a line break
// without the backslash: as an alternation of the two, an attempt on a
// line of "redis-cli -a " repeated cost 1.7 s for 4 MB against 1.1.
const cliSep = `[ \t\\\r\n]`

func validPasswordFlag(c Candidate) bool {
	v := c.Secret
	// a quote inside, a blank at an end or a "+" between blanks is
	// code assembling the command ('" + pw + "', ' + opts.secret + ')
	if v[0] == '$' || v[0] == '%' || bytes.ContainsAny(v, "{}<>`\"'") || isPlaceholder(v, true) || spellsPasswordName(v) ||
		bytes.EqualFold(v, []byte("redis-cli")) || bytes.EqualFold(v, []byte("sshpass")) {
		return false
	}
	if v[0] == ' ' || v[0] == '\t' || v[len(v)-1] == ' ' || v[len(v)-1] == '\t' || plusBetweenBlanksRE.Match(v) {
		return false
	}
	return c.secretEntropy() >= 2.5
}

var plusBetweenBlanksRE = lazyRE.New(`[ \t]\+[ \t]`)

// signingKeyWords name what the bytes become, on the literal's line or
// the line before ("SymmetricSecurityKey Key =" then "new(Encoding…").
var signingKeyWords = []string{"symmetricsecuritykey", "signingkey", "signing_key", "hmacsha", "hmacshakeyfor", "secretkeyspec", "jwtsecret", "jwt_secret", "secretkey", "secret_key"}

func validSigningKeyBytes(c Candidate) bool {
	v := c.Secret
	if len(v) > 512 || isPlaceholder(v, true) || namesFixture(strings.ToLower(string(v))) || Entropy(v) < 3.2 || !hasDigit(v) && !hasSymbol(v) {
		return false
	}
	if bytes.HasPrefix(c.Match, []byte("hmacShaKeyFor")) || bytes.HasPrefix(c.Match, []byte("SecretKeySpec")) {
		return true
	}
	ls := bytes.LastIndexByte(c.Context[:c.MatchOffset], '\n') + 1
	around := strings.ToLower(string(c.Context[ls:c.MatchOffset]))
	// the bytes go into another call first: hmac.ComputeHash(Encoding…)
	if p := strings.LastIndexByte(around, '('); p >= 0 {
		callee := around[:p]
		callee = callee[strings.LastIndexFunc(callee, func(r rune) bool { return !isWordByte(byte(r)) && r != '.' })+1:]
		if callee != "" && callee != "new" && !containsAny(strings.ReplaceAll(callee, ".", ""), signingKeyWords) {
			return false
		}
	}
	// the line before, only when its statement goes on onto this one
	// ("SymmetricSecurityKey Signing =" then "new(Encoding…")
	if ls > 0 {
		prev := bytes.TrimRight(lineBefore(c.Context, ls-1), " \t\r")
		if n := len(prev); n > 0 && (prev[n-1] == '=' || prev[n-1] == '(' || prev[n-1] == ',') && bytes.IndexByte(prev, ';') < 0 {
			around = strings.ToLower(string(prev)) + " " + around
		}
	}
	return containsAny(strings.ReplaceAll(around, ".", ""), signingKeyWords)
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// urlHashGate passes a "://" whose userinfo, within urlHashReach bytes,
// holds a "#" before its "@".
func urlHashGate(data []byte, i int) bool {
	end := min(len(data), i+1+urlHashReach)
	hash := false
	for k := i + 1; k < end; k++ {
		switch data[k] {
		case '#':
			hash = true
		case '@':
			return hash
		case '/', ' ', '\t', '\n', '\r', '"', '\'', '`':
			return false
		}
	}
	return false
}

const urlHashReach = 128

func validURLPasswordHash(c Candidate) bool {
	v := c.Secret
	ss := c.Offset
	if bytes.EqualFold(c.Key, v) || sampleURLPassword(c.Context, ss, ss+len(v)) || urlUserRepeated(c.Context, ss, ss+len(v)) {
		return false
	}
	if v[0] == '$' || bytes.ContainsAny(v, "{}<>") || isPlaceholder(v, true) {
		return false
	}
	// "localhost:3000#email=jane@…": a host, its port and a fragment
	if h := bytes.IndexByte(v, '#'); h <= 5 && isDigits(v[:h]) {
		return false
	}
	return hasDigit(v) || hasUpper(v) && hasLower(v)
}

// namesPasswordKey: a name/value pair's name is a password's ("password",
// "DB_PASSWORD", "smtpPasswd"), not a token's or a key's.
func namesPasswordKey(k []byte) bool {
	l := strings.ToLower(string(k))
	return strings.HasSuffix(l, "password") || strings.HasSuffix(l, "passwd") || strings.HasSuffix(l, "passphrase") || l == "pwd" || strings.HasSuffix(l, "_pwd")
}

// fakeBody reports a token whose body after its vendor's prefix is made
// of nothing but the words that stand in for a value, one a test's mark,
// run together three or more times ("sk_live_" then "FAKEFAKEFAKE…",
// "npm_" then "TESTTOKENTESTTOKEN…", a webhook's "fakefakefakefake"):
// what a fixture writes so that no scanner takes it for a key. A random
// body is no run of these words. l is the value in lower case.
func fakeBody(l []byte) bool {
	if len(l) < 12 {
		return false
	}
	body := l
	if i := bytes.LastIndexAny(l[:min(len(l), 16)], "_-"); i >= 0 {
		body = l[i+1:]
	}
	if len(body) < 12 {
		return false
	}
	words, marked := 0, false
	for i := 0; i < len(body); {
		n := 0
		for _, w := range standInWordsAt[body[i]] { // the longest first
			if len(body)-i >= len(w) && string(body[i:i+len(w)]) == w {
				n = len(w)
				break
			}
		}
		if n == 0 {
			return false
		}
		marked = marked || testMarks[string(body[i:i+n])]
		words++
		i += n
	}
	return marked && words >= 3
}

// cutShortPrefixes are vendors' token prefixes that end in a separator,
// as the vendors write them: a word such as "curl", "api-" or "test_"
// opens random values too, which stay the generic rules' findings.
var cutShortPrefixes = []string{
	"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "sk-ant-", "sk-proj-",
	"xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-", "xoxe-", "sk_live_", "rk_live_", "sk_test_", "rk_test_",
	"npm_", "pypi-", "shpat_", "shpss_", "dop_v1_", "hvs.", "glsa_", "SG.",
}

// cutShort reports a value that is a provider's prefix and fewer than
// twelve letters and digits after it ("sk_live_" and six, "xoxb-" and
// nine): no format of those providers is that short, so it is a token cut
// down or made up for a sample, not one that opens anything (the
// prefixed-token rule still warns of a value of sixteen and more).
func cutShort(v []byte) bool {
	for _, p := range cutShortPrefixes {
		if len(v) > len(p) && len(v)-len(p) < 12 && string(v[:len(p)]) == p {
			for _, c := range v[len(p):] {
				if !isAlnumLower(lower(c)) {
					return false
				}
			}
			return true
		}
	}
	return false
}
