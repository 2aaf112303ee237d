package secrets

import (
	"bytes"
	"strings"
	"sync"
)

// Kinds of secret in notes that are no password as the password rules
// judge one (issue 33, the blind notes of round 19): a PIN or a door or
// alarm code (digits only), a passphrase of words (letters only), a
// Bearer token after "Authorization" in a sentence, a recovery key named
// by its sentence (hex, which the generic rules take for a digest), and
// one-time recovery codes under their label. Ranked after every older
// rule, so no finding changes its ID.
const (
	// RuleProsePIN reports a PIN or a door, alarm or keypad code that a
	// copula, a colon or "changed to" gives its digits.
	RuleProsePIN = "prose-pin"
	// RuleProsePassphraseWords reports a passphrase made of words: quoted,
	// joined by dashes or dots, or alone on the line below its label.
	RuleProsePassphraseWords = "prose-passphrase-words"
	// RuleProseBearer reports a Bearer token after "Authorization" on a
	// line of prose ("Authorization header → Bearer …").
	RuleProseBearer = "prose-bearer"
	// RuleProseRecoveryKey reports a recovery, unlock or escrow key that a
	// copula or a colon gives its hex or base32 value.
	RuleProseRecoveryKey = "prose-recovery-key"
	// RuleRecoveryCodes reports the first of the one-time codes listed
	// under a label that names them ("Backup codes for the 2FA:").
	RuleRecoveryCodes = "recovery-codes"
)

// noteKindRules returns fresh copies of the rules above.
func noteKindRules() []*Rule {
	rs := noteKindCompiled()
	out := make([]*Rule, len(rs))
	for i, r := range rs {
		c := *r
		out[i] = &c
	}
	return out
}

// a few words saying which one ("for the server room", "de la tarjeta
// corporativa", "for the laptop's disk"): no digits, no colon, no quote
// but an apostrophe
const noteKindFiller = "(?:[ \\t]+[^\\s\\d:：=*\x60\"]{1,24}){0,6}?"

var noteKindCompiled = sync.OnceValue(func() []*Rule {
	return []*Rule{
		{
			ID:          RuleProsePIN,
			Description: "PIN or door, alarm or keypad code given in a note (the door code … changed to 1592, Voicemail PIN … is 999590)",
			builtinRE: builtinExpr("(?i)(?P<key>\\bpin(?:[ \\t-]?code)?|\\b(?:door|alarm|disarm|keypad|gate|entry|safe|lock|alarmanlage)[ \\t-]*code|\\bgeheimzahl|\\bc[oó]digo[ \\t]+pin|\\bcodice[ \\t]+pin)\\b" +
				noteKindFiller +
				"(?:[ \\t]*[:：=][ \\t]*|[ \\t]+(?:is(?:[ \\t]+now)?|was|now|(?:is[ \\t]+|was[ \\t]+|has[ \\t]+been[ \\t]+)?(?:changed|set|reset|updated)[ \\t]+to|es|est|ist|lautet|è|é|é[ \\t]+agora|nu|wordt)[ \\t]+)" +
				"(?:\\*\\*|[\x60'\"*])?(?P<secret>\\d{4,8})(?:\\*\\*|[\x60'\"*])?(?:[\\s.,;:!?)]|$)"),
			MinLen:   4,
			Keywords: []string{"pin", "code", "geheimzahl", "código", "codigo", "codice"},
			Gate:     pinGate,
			Validate: validProsePIN,
			Path:     proseFiles,
		},
		{
			ID:          RuleProsePassphraseWords,
			Description: "passphrase of words in a note (its passphrase is \"lantern cobalt …\", LUKS passphrase orchid-falcon-…)",
			builtinRE: builtinExpr("(?i)(?P<key>\\bpass[ \\t-]?phrase|\\bphrase[ \\t]+secr[eè]te|\\bfrase[ \\t]+(?:secreta|de[ \\t]+(?:contraseña|paso))|\\bseed[ \\t]+phrase|\\bmnemonic|\\bkennsatz|\\bwachtzin)\\b" +
				"(?:[ \\t]+[^\\s\\d:：=*\x60'\"“]{1,24}){0,4}?" +
				"(?:" +
				// quoted words after a copula, a colon or nothing
				"(?:[ \\t]*[:：][ \\t]*|[ \\t]+(?:is|was|es|est|ist|lautet|è|é)[ \\t]+|[ \\t]+)" +
				"(?:[\"“'\x60](?P<secret>[a-z]{3,12}(?:[ ][a-z]{3,12}){3,11})[\"”'\x60]" +
				// words joined by dashes or dots
				"|(?P<secret>[a-z]{3,12}(?:[-.][a-z]{3,12}){3,11})(?:[\\s,;:!?)]|\\.(?:\\s|$)|$))" +
				// or alone on the line below the label
				"|[ \\t]*[:：][ \\t*_]*\\n(?:[ \\t]*\\n)?[ \\t>]*[\x60'\"]?(?P<secret>[a-z]{3,12}(?:[ -][a-z]{3,12}){3,11})[\x60'\"]?[ \\t]*(?:\\n|$))"),
			MinLen:   15,
			Keywords: []string{"phrase", "frase", "mnemonic", "kennsatz", "wachtzin"},
			After:    160,
			Validate: validPassphraseWords,
			Path:     proseFiles,
		},
		{
			ID:          RuleProseBearer,
			Description: "Bearer token after \"Authorization\" on a line of prose (Authorization header → Bearer …)",
			builtinRE:   builtinExpr("(?i)\\bauthorization\\b[^\\n]{0,48}?\\bbearer[ \\t]+[\x60'\"]?(?P<secret>[A-Za-z0-9._~+/-]{20,512}=*)(?:[\x60'\"\\s.,;)]|$)"),
			MinLen:      20,
			Keywords:    []string{"authorization"},
			Validate:    validProseBearer,
			Path:        proseFiles,
		},
		{
			ID:          RuleProseRecoveryKey,
			Description: "recovery, unlock or escrow key a sentence gives (the recovery key for the vault is …)",
			builtinRE: builtinExpr("(?i)(?P<key>\\b(?:recovery|unlock|escrow|bitlocker|filevault)[ \\t]+key)\\b" + noteKindFiller +
				"(?:[ \\t]*[:：=][ \\t]*|[ \\t]+(?:is|was|es|est|ist|lautet|è|é)[ \\t]+)" +
				"(?:\\*\\*|[\x60'\"])?(?P<secret>[0-9a-f]{32,128}|[A-Z2-7]{4,8}(?:-[A-Z2-7]{4,8}){3,11}|\\d{6}(?:-\\d{6}){7})(?:\\*\\*|[\x60'\"])?(?:[\\s.,;:!?)]|$)"),
			MinLen:   24,
			Keywords: []string{"recovery key", "unlock key", "escrow key", "bitlocker key", "filevault key"},
			Validate: validProseRecoveryKey,
			Path:     proseFiles,
		},
		{
			ID:          RuleRecoveryCodes,
			Description: "one-time recovery codes listed under their label (Backup codes for the 2FA: then xxxx-xxxx)",
			builtinRE: builtinExpr("(?i)\\b(?:backup|recovery|2fa|mfa)[ \\t]+codes\\b[^\\n]{0,96}?:[ \\t]*\\n(?:[ \\t]*\\n)?(?:[ \\t]*(?:\x60\x60\x60|~~~)[^\\n]{0,16}\\n)?" +
				"[ \\t]*(?:[-*][ \\t]+)?[\x60]?(?P<secret>[a-z0-9]{4,5}-[a-z0-9]{4,5}|\\d{8}|\\d{4,5}[ -]\\d{4,5})[\x60]?[ \\t]*\\n"),
			MinLen:   8,
			Keywords: []string{"codes"},
			After:    64,
			Validate: validRecoveryCode,
			Path:     proseFiles,
		},
	}
})

// pinGate passes "pin" that is a word of its own or "pincode" (not
// "spin", "pinned", "pipeline"), and "code" after a word that names a
// door or an alarm; it reads a few bytes around the hit.
func pinGate(data []byte, i int) bool {
	if i+1 < len(data) && isWordByte(data[i+1]) {
		return false
	}
	if bytes.HasSuffix(bytes.ToLower(data[max(0, i-2):i+1]), []byte("pin")) {
		st := i - 2
		return st == 0 || !isLetterByte(data[st-1])
	}
	if !bytes.HasSuffix(bytes.ToLower(data[max(0, i-3):i+1]), []byte("code")) {
		return true // geheimzahl, código, codice
	}
	w := bytes.ToLower(data[max(0, i-16) : i-3])
	w = bytes.TrimRight(w, " \t-")
	for _, p := range []string{"pin", "door", "alarm", "disarm", "keypad", "gate", "entry", "safe", "lock", "alarmanlage"} {
		if bytes.HasSuffix(w, []byte(p)) {
			return true
		}
	}
	return false
}

// pinOtherWords say the number after them is something else than a PIN:
// "PIN reset ticket: 4587", "PIN length: 6".
var pinOtherWords = map[string]bool{
	"ticket": true, "issue": true, "incident": true, "case": true, "request": true, "change": true, "pr": true, "jira": true,
	"length": true, "digits": true, "digit": true, "characters": true, "chars": true, "attempts": true, "tries": true, "retries": true,
	"policy": true, "version": true, "port": true, "extension": true, "ext": true, "number": true, "nummer": true, "numero": true,
	"número": true, "id": true, "ref": true, "step": true, "page": true, "count": true, "limit": true, "timeout": true, "expiry": true,
	"minimum": true, "maximum": true, "min": true, "max": true, "year": true, "since": true, "until": true, "lengte": true, "länge": true,
	"longitud": true, "longueur": true, "lunghezza": true, "gpio": true, "header": true, "board": true,
}

// pinUnitWords after the digits make them an amount: "1000 ms", "4096
// attempts".
var pinUnitWords = []string{"digits", "digit", "characters", "chars", "attempts", "tries", "times", "seconds", "minutes", "hours", "days", "ms", "mb", "kb", "bytes", "euros", "usd", "eur", "%",
	"series", "era", "model", "mm", "cm", "microns", "µm", "compliant", "rules", "firmware", "hardware", "edition", "rpm", "hz", "mhz", "dpi", "px"}

// pinWhoseWords open the words between the noun and its digits that say
// whose PIN it is ("for the server room", "de la tarjeta", "'s").
var pinWhoseWords = map[string]bool{
	"for": true, "of": true, "on": true, "to": true, "de": true, "del": true, "della": true, "dello": true, "des": true, "du": true,
	"da": true, "do": true, "di": true, "für": true, "fürs": true, "vom": true, "van": true, "voor": true, "pour": true, "per": true,
	"para": true, "dla": true,
}

// pinDeviceWords make the noun the name of a thing: "the PIN pad
// firmware is 2023 era", "the alarm code panel is 1200 mm …".
var pinDeviceWords = map[string]bool{
	"pad": true, "panel": true, "device": true, "model": true, "firmware": true, "system": true, "lock": true, "entry": true,
	"reader": true, "terminal": true, "hardware": true, "keypad": true, "module": true, "unit": true, "sensor": true,
	"type": true, "format": true, "field": true, "chip": true, "button": true, "screen": true, "prompt": true, "scheme": true,
	"generator": true, "mechanism": true, "layout": true, "series": true, "spacing": true, "pitch": true,
}

func validProsePIN(c Candidate) bool {
	v := c.Secret
	if placeholderDigits(v) {
		return false
	}
	key := c.Key
	at := subOffset(c.Context, key)
	between := strings.ToLower(string(c.Context[at+len(key) : c.Offset]))
	ws := strings.FieldsFunc(between, func(r rune) bool {
		return r == ' ' || r == '\t' || r == ':' || r == '=' || r == '*' || r == '(' || r == ')' || r == ','
	})
	// words that say whose PIN it is may name a thing ("for the door
	// panel"); without them, a thing named right after the noun makes the
	// noun its name ("PIN pad model: 8006")
	whose := len(ws) > 0 && (pinWhoseWords[ws[0]] || strings.HasPrefix(between, "'s") || strings.HasPrefix(between, "’s"))
	for _, w := range ws {
		if pinOtherWords[w] || !whose && pinDeviceWords[w] {
			return false
		}
	}
	// a PIN of a pin header or a GPIO: "pin 13", not digits a copula gives,
	// but "the pin count is 2048" is a word's
	rest := c.Context[c.Offset+len(v):]
	rest = bytes.TrimLeft(rest, "*`'\"")
	if len(rest) >= 2 && bytes.IndexByte([]byte(".,:/-"), rest[0]) >= 0 && isDigitByte(rest[1]) {
		return false // a version, a date, a time, a range: 2024.11, 4-8
	}
	r := strings.ToLower(string(rest[:min(len(rest), 16)]))
	r = strings.TrimLeft(r, " \t")
	// a year a word goes on from ("2024 compliant", "2019 and is now a
	// fingerprint"), a size ("1024 in the chart"), or a status code a dash
	// describes ("4587 - low battery")
	if len(r) > 0 && isLetterByte(r[0]) && (yearDigits(v) || powerOfTwo(v)) {
		return false
	}
	if len(r) > 2 && (strings.HasPrefix(r, "- ") || strings.HasPrefix(r, "– ") || strings.HasPrefix(r, "— ")) {
		return false
	}
	for _, u := range pinUnitWords {
		if strings.HasPrefix(r, u) && (len(r) == len(u) || !isLetterByte(r[len(u)])) {
			return false
		}
	}
	return true
}

// yearDigits: 1900 to 2099.
func yearDigits(v []byte) bool {
	return len(v) == 4 && (v[0] == '1' && v[1] == '9' || v[0] == '2' && v[1] == '0')
}

// powerOfTwo: 1024 to 65536, a size or a count.
func powerOfTwo(v []byte) bool {
	switch string(v) {
	case "1024", "2048", "4096", "8192", "16384", "32768", "65536":
		return true
	}
	return false
}

// placeholderDigits: digits that stand in for a PIN (0000, 1234, 123456,
// 9876, 1212, 112233): one digit repeated, a run up or down, a pair
// repeated, or each digit doubled.
func placeholderDigits(v []byte) bool {
	if allSame(v) {
		return true
	}
	up, down := true, true
	for i := 1; i < len(v); i++ {
		d := int(v[i]) - int(v[i-1])
		up = up && (d == 1 || d == -9)
		down = down && (d == -1 || d == 9)
	}
	if up || down {
		return true
	}
	pair := len(v)%2 == 0
	for i := 2; i < len(v) && pair; i++ {
		pair = v[i] == v[i-2]
	}
	doubled := len(v)%2 == 0
	for i := 0; i+1 < len(v) && doubled; i += 2 {
		doubled = v[i] == v[i+1]
	}
	return pair || doubled
}

// passphraseNonWords are words of the sentences that describe a
// passphrase, not of one, and the best-known published example (correct
// horse battery staple).
var passphraseNonWords = map[string]bool{
	"the": true, "and": true, "for": true, "with": true, "must": true, "should": true, "have": true, "has": true, "are": true,
	"was": true, "were": true, "will": true, "can": true, "not": true, "you": true, "your": true, "our": true, "their": true,
	"this": true, "that": true, "these": true, "those": true, "from": true, "into": true, "then": true, "than": true, "when": true,
	"where": true, "which": true, "what": true, "who": true, "how": true, "why": true, "use": true, "used": true, "using": true,
	"words": true, "word": true, "characters": true, "long": true, "least": true, "more": true, "less": true, "each": true,
	"every": true, "any": true, "all": true, "some": true, "three": true, "four": true, "five": true, "six": true, "seven": true,
	"eight": true, "two": true, "one": true, "random": true, "example": true, "correct": true, "horse": true, "battery": true,
	"staple": true, "passphrase": true, "password": true, "secret": true, "here": true, "there": true, "just": true, "only": true,
	"also": true, "like": true, "such": true, "about": true, "over": true, "under": true, "stored": true, "store": true,
	"vault": true, "keep": true, "kept": true, "rotate": true, "change": true, "enter": true, "type": true, "see": true,
	"set": true, "via": true, "per": true, "les": true, "des": true, "une": true, "pour": true, "avec": true, "der": true,
	"die": true, "das": true, "und": true, "mit": true, "los": true, "las": true, "una": true, "con": true, "het": true,
	"een": true, "voor": true, "met": true, "lorem": true, "ipsum": true, "dolor": true, "amet": true, "foo": true, "bar": true,
	"baz": true, "qux": true, "file": true, "key": true, "prompt": true, "protected": true, "format": true, "length": true,
}

// validPassphraseWords: four or more words, none of them a word of a
// sentence about passphrases, not one word repeated.
func validPassphraseWords(c Candidate) bool {
	ws := strings.FieldsFunc(strings.ToLower(string(c.Secret)), func(r rune) bool { return r == ' ' || r == '-' || r == '.' })
	if len(ws) < 4 {
		return false
	}
	seen := map[string]bool{}
	for _, w := range ws {
		if passphraseNonWords[w] || seen[w] {
			return false
		}
		seen[w] = true
	}
	return !passphraseExample(c)
}

// passphraseExampleWords, before the noun or between it and the words,
// make them an example of a passphrase: "Example passphrase: …", "e.g.
// passphrase: …", "should be something like …", "Bad passphrase examples:".
var passphraseExampleWords = map[string]bool{
	"example": true, "examples": true, "eg": true, "like": true, "such": true, "sample": true,
	"samples": true, "bad": true, "format": true, "generator": true, "instance": true, "demo": true, "dummy": true,
	"pattern": true, "template": true, "illustration": true, "ejemplo": true, "beispiel": true, "exemple": true,
	"voorbeeld": true, "esempio": true, "exemplo": true,
}

// passphraseExample reads the words from the start of the noun's line
// (at most 48 bytes before it) to the passphrase's words.
func passphraseExample(c Candidate) bool {
	if c.Key == nil {
		return false
	}
	at := subOffset(c.Context, c.Key)
	lo := max(0, at-48)
	if nl := bytes.LastIndexByte(c.Context[lo:at], '\n'); nl >= 0 {
		lo += nl + 1
	}
	text := strings.ToLower(string(c.Context[lo:c.Offset]))
	if strings.Contains(text, "e.g.") || strings.Contains(text, "i.e.") {
		return true
	}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r < 'a' || r > 'z' }) {
		if passphraseExampleWords[w] {
			return true
		}
	}
	return false
}

func validProseBearer(c Candidate) bool {
	v := c.Secret
	if referenceInValue(v) || isPlaceholder(v, true) || wordListRE.Match(v) || identifierValue(v) || allSame(v) {
		return false
	}
	return mixedClasses(v) && c.secretEntropy() >= 3.5
}

// recoveryKeyOtherWords say the value after them is no key but its
// digest, its fingerprint or a reference to it.
var recoveryKeyOtherWords = map[string]bool{
	"fingerprint": true, "hash": true, "digest": true, "checksum": true, "sha": true, "sha1": true, "sha256": true, "md5": true,
	"id": true, "identifier": true, "commit": true, "version": true, "ticket": true, "thumbprint": true,
}

func validProseRecoveryKey(c Candidate) bool {
	v := c.Secret
	key := c.Key
	at := subOffset(c.Context, key)
	for _, w := range strings.Fields(strings.ToLower(string(c.Context[at+len(key) : c.Offset]))) {
		if recoveryKeyOtherWords[strings.Trim(w, ":=*`'\"")] {
			return false
		}
	}
	if isPlaceholder(v, true) || allSame(v) {
		return false
	}
	return Entropy(v) >= 3
}

// validRecoveryCode: letters and digits both, or digits that are no
// placeholder (00000000, 12345678).
func validRecoveryCode(c Candidate) bool {
	v := c.Secret
	digits := bytes.Map(func(r rune) rune {
		if '0' <= r && r <= '9' {
			return r
		}
		return -1
	}, v)
	if len(digits) == len(v)-bytes.Count(v, []byte("-"))-bytes.Count(v, []byte(" ")) {
		return !placeholderDigits(digits)
	}
	return hasDigit(v) && (hasLower(v) || hasUpper(v)) && !isPlaceholder(v, true)
}
