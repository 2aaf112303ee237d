package secrets

import (
	"bytes"
	"math"
)

// RuleProseSecret reports a secret stated in a sentence rather than
// assigned: "I set DB_PASSWORD to … on the box", "Use '…' as the auth
// token", "Here is the client secret for staging: '…'", "Ops gave us the
// token … for the sandbox", and a value on a "New value:" line below or
// after the sentence naming it. A reader takes the
// named value as the secret as surely as after an "=", and a workspace
// of notes states more than it assigns.
const RuleProseSecret = "prose-secret"

// proseSecretNoun is the word that names a secret in a sentence.
const proseSecretNoun = `(?:password|passphrase|secret|token|api[ _-]?key|access[ _-]?key|key)`

// proseSecretName is a name of a secret in a sentence: a word, and one
// word before it that says which ("the auth token", "the secret access
// key"). More words before cost every position of a dense line a thread
// of the expression's machine per word, and add nothing to the judgement.
const proseSecretName = `(?:[A-Za-z0-9-]+[ \t]+)?` + proseSecretNoun

// proseDeterminers open a noun phrase: "Ops gave us the token …", "enter
// your API key …". A name with one before it is read as naming the value
// directly after it; without one ("token v3 endpoint", "API key abc in
// the logs") a word after a name is as often a word of the sentence.
var proseDeterminers = map[string]bool{"the": true, "a": true, "an": true, "our": true, "your": true, "my": true,
	"their": true, "this": true, "that": true, "its": true}

func proseSecretRule() *Rule {
	// A value quoted, or bare up to the sentence's punctuation with a
	// digit (validProseSecret asks more of a bare one, and bounds its
	// length): a word after a name ("the secret passphrase is …") is no
	// value whose match would hide the name of the next one, and an
	// unbounded run is some 400 instructions fewer than one of 9 to 199.
	val := "(?:[\x60'\"](?P<secret>[^\\s\x60'\"]{8,200})[\x60'\"]|(?P<secret>[^\\s\x60'\"<>]*[0-9](?:[^\\s\x60'\"<>]*[^\\s\x60'\".,;:!?)<>])?))(?:[\\s.,;:!?)]|$)"
	// A phrase that says what the secret is for: "for the `helm-charts`
	// repo", "for the site-to-site tunnel with the Lisbon office": a
	// preposition and up to ten words. Two phrases of up to six words
	// cost a line of "The token for the staging tenant is …" a third
	// more; one of ten costs about what one of six did.
	pp := "(?:[ \\t]+(?:for|of|on|in|to|with|by|at|from)(?:[ \\t]+[\x60A-Za-z0-9_./@-]+){1,10}?)"
	return &Rule{
		ID: RuleProseSecret,
		// The description is the one of the first forms: it is in every
		// finding's message, which the new forms would change.
		Description: "password, secret, token or API key stated in a sentence (set NAME to …, use … as the NAME, the NAME is …, the NAME for X: …)",
		// The forms that end in their value share one copy of it: each
		// copy is two capture groups and some 400 instructions more.
		builtinRE: builtinExpr("(?i)(?:" +
			// use value as the auth token
			"\\buse[ \\t]+" + val + "[ \\t]*as[ \\t]+(?:(?:the|your|our|a|an|my)[ \\t]+)?(?P<key>" + proseSecretName + ")\\b" +
			"|(?:" +
			// set DB_PASSWORD to value: the name is a variable's
			"\\bset[ \\t]+(?P<key>[A-Za-z0-9_.-]*(?:password|passwd|secret|token|api[_.-]?key|access[_.-]?key)[A-Za-z0-9_.-]*)[ \\t]+to[ \\t]+" +
			// the client secret (for the staging tenant) is (now) | : value.
			// The expression matches the noun, and validProseSecret reads the words
			// before it (proseNameAt): a word before the noun in the
			// expression started a thread of its machine at every word of
			// a text, which cost a line of "The token is …" a fifth more.
			// "value" is one of the nouns: "New value: …" below or after
			// the sentence that names the secret (validProseSecret reads
			// the label and the sentence). An alternative of its own, from
			// the start of a line or a sentence, cost every position of a
			// text the machine's look at it.
			"|\\b(?P<key>" + proseSecretNoun + "|value)(?:(?:" +
			pp + "?(?:[ \\t]*\\([^()\\n]{1,40}\\))?" +
			// is (now) | was set to | has been rotated to | : | , it's (now)
			"(?:[ \\t]+(?:is|was)(?:[ \\t]+(?:now|still|currently|(?:set|changed|reset|rotated)[ \\t]+to))?|[ \\t]+has[ \\t]+been[ \\t]+(?:set|changed|reset|rotated)[ \\t]+to|[ \\t]*:|[ \\t]+(?:->|\u2192)|[ \\t]*[,;][ \\t]*it(?:'|’|[ \\t]+i)s(?:[ \\t]+now)?)" +
			")[ \\t]+" +
			// or nothing: the token value (for the sandbox tenant)
			"|[ \\t]+)" +
			")" + val +
			")"),
		MinLen:   8,
		Keywords: []string{"password", "passphrase", "passwd", "secret", "token", "api key", "api_key", "apikey", "api-key", "access key", "access_key", "key", "value"},
		Gate:     proseSecretGate,
		Validate: validProseSecret,
		Path:     proseFiles,
	}
}

// RuleProseLogin reports a password stated with its user in a sentence:
// "You can login with admin / … until SSO is wired up", "Credentials
// are deploy / …". A rule of its own, read around its words only: as a
// form of prose-secret's expression it cost every line of "The token is
// …" a fifth more.
const RuleProseLogin = "prose-login"

func proseLoginRule() *Rule {
	return &Rule{
		ID:          RuleProseLogin,
		Description: "password stated with its user in a sentence (login with USER / …)",
		builtinRE: builtinExpr("(?i)\\b(?:" + proseLoginNoun + ")(?:[ \\t]+(?:with|as|using|are|is)|[ \\t]*:)[ \\t]+[\x60'\"]?[A-Za-z0-9._@-]{1,64}[\x60'\"]?[ \\t]*/[ \\t]*" +
			"(?:[\x60'\"](?P<secret>[^\\s\x60'\"]{8,200})[\x60'\"]|(?P<secret>[^\\s\x60'\"<>]*[0-9](?:[^\\s\x60'\"<>]*[^\\s\x60'\".,;:!?)<>])?))(?:[\\s.,;:!?)]|$)"),
		MinLen:   8,
		Keywords: proseLoginWords,
		Gate:     proseLoginGate,
		Validate: func(c Candidate) bool { return proseValue(c) && bareProseValue(c) },
		Path:     proseFiles,
	}
}

// proseLoginGate passes a login word followed by what opens a pair.
func proseLoginGate(data []byte, i int) bool {
	after := data[i+1 : min(len(data), i+8)]
	for _, w := range proseLoginAfter {
		if hasPrefixFold(after, w) {
			return true
		}
	}
	return false
}

// proseLoginWords open a user and password pair: "login with admin / …",
// "credentials are deploy / …".
var proseLoginWords = []string{"login", "log in", "log on", "signin", "sign in", "credentials", "creds"}

// proseLoginNoun is proseLoginWords in the expression.
const proseLoginNoun = `log[ \t]?in|log[ \t]+on|sign[ \t]?in|credentials|creds`

// proseSecretGate passes a keyword that one of the forms can hold: the
// name's last word followed (after the rest of a variable's name) by
// " is", " was", " has", " to", " (", ", it" or a preposition that opens
// what it is for ("the API key for the relay: …"), or by a run that may
// be a value ("the token v3Hn…"); preceded by " as" within a few words
// ("use … as the auth token"); "value" labelling its line or sentence. A name and a colon alone ("api_key:
// …") is an assignment, which generic-secret and the providers' rules
// read: the sentence's expression, run over a line dense with them, cost
// more than the rest of the scan. It reads a few dozen bytes either
// side, so a line dense with keywords costs each hit a bounded look.
func proseSecretGate(data []byte, i int) bool {
	if lower(data[i]) == 'e' && valueLabelAt(data, i) {
		return true
	}
	j := i + 1
	for k := 0; j < len(data) && k < 48 && isKeyChar(data[j]); k++ {
		j++
	}
	after := data[j:min(len(data), j+8)]
	for _, w := range proseAfter {
		if bytes.HasPrefix(after, w) {
			return true
		}
	}
	if valueFollows(data, j) {
		return true
	}
	before := data[max(0, i-40):i]
	return bytes.Contains(before, []byte(" as ")) || bytes.HasPrefix(before, []byte("as "))
}

// proseAfter are what follows a name in the forms proseSecretRule reads.
var proseAfter = [][]byte{[]byte(" is "), []byte(" was "), []byte(" has "), []byte(" to "), []byte(" ("),
	[]byte(" for "), []byte(" of "), []byte(" on "), []byte(" in "), []byte(" with "), []byte(", it"), []byte("; it"),
	[]byte(" -> "), []byte(" \u2192 ")}

// proseLoginAfter are what follows a login word before its pair.
var proseLoginAfter = []string{" with ", " as ", " using ", " are ", " is ", ":"}

// valueFollows reports whether data[j:] is a blank and a run of ten or
// more non-blank bytes with a digit among the first 32: what a value
// directly after its name looks like.
func valueFollows(data []byte, j int) bool {
	if j >= len(data) || data[j] != ' ' && data[j] != '\t' {
		return false
	}
	j++
	if j < len(data) && (data[j] == '`' || data[j] == '\'' || data[j] == '"') {
		j++
	}
	n, digit := 0, false
	for ; j < len(data) && n < 32 && data[j] > ' '; j++ {
		n++
		digit = digit || isDigitByte(data[j])
	}
	return n >= 10 && digit
}

// valueLabelAt reports whether the "value" ending at data[i] labels its
// line or sentence, after at most a list marker, "new" or "the new" and
// the like, and before a colon or " is ": "New value: …".
func valueLabelAt(data []byte, i int) bool {
	st := i + 1 - len("value")
	if st < 0 || !equalFoldASCII(data[st:i+1], "value") {
		return false
	}
	after := data[i+1 : min(len(data), i+6)]
	if !bytes.HasPrefix(bytes.TrimLeft(after, " \t"), []byte(":")) && !bytes.HasPrefix(after, []byte(" is ")) {
		return false
	}
	_, ok := labelStart(data, st)
	return ok
}

// labelStart reports whether the words before the "value" at data[st]
// are a label's ("New", "- the current") that opens its line or follows
// a sentence's end on it ("Rotated the webhook secret. New value: …"),
// and returns where the line or the sentence ends before it: the
// newline, the "." or ";" or "!", or -1 at the text's start.
func labelStart(data []byte, st int) (int, bool) {
	lo := max(0, st-24)
	cut := bytes.LastIndexAny(data[lo:st], "\n.;!")
	if cut < 0 && lo > 0 {
		return 0, false // further than a label's words from the line's start
	}
	seg := data[lo+cut+1 : st]
	if cut >= 0 {
		cut += lo
		if data[cut] != '\n' && (len(seg) == 0 || seg[0] != ' ' && seg[0] != '\t') {
			return 0, false // "v1.value:", not a sentence's end
		}
	}
	label := bytes.Fields(bytes.TrimLeft(seg, " \t>*+-"))
	switch len(label) {
	case 0:
		return cut, true
	case 1:
		return cut, valueLabelWords[string(bytes.ToLower(label[0]))]
	case 2:
		return cut, bytes.EqualFold(label[0], []byte("the")) && valueLabelWords[string(bytes.ToLower(label[1]))]
	}
	return 0, false
}

// valueLabelWords say a "value" label gives a new or current value.
var valueLabelWords = map[string]bool{"new": true, "current": true, "updated": true, "rotated": true}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && equalFoldASCII(b[:len(prefix)], prefix)
}

func validProseSecret(c Candidate) bool {
	key := c.Key
	atMatch := key != nil && subOffset(c.Context, key) == c.MatchOffset
	switch {
	case atMatch && len(key) == len("value") && equalFoldASCII(key, "value"):
		// "New value: …": a label, and a sentence naming the secret
		// before it on its line or on the line above.
		between := bytes.TrimSpace(c.Context[c.MatchOffset+len(key) : c.Offset])
		if len(between) > 0 && between[len(between)-1] == c.Context[c.Offset-1] {
			between = bytes.TrimSpace(between[:len(between)-1]) // the value's quote
		}
		if !bytes.Equal(between, []byte(":")) && !bytes.EqualFold(between, []byte("is")) || !namedBeforeLabel(c) {
			return false
		}
	case atMatch:
		// The noun of "the client secret is …", "the token …": the
		// name is the noun and the words before it.
		name, det := proseNameAt(c.Context, c.MatchOffset, len(key))
		if !namesSecret(name) {
			return false
		}
		between := bytes.Trim(c.Context[c.MatchOffset+len(key):c.Offset], " \t\x60'\"")
		if len(between) == 0 && !det {
			return false // the value directly after a name without a determiner
		}
	case !namesSecret(key):
		// The name's words, as validGeneric judges a name ("the API
		// key", "the client secret"; not "the key id"), or a key that
		// says what it opens ("the encryption key").
		return false
	}
	return proseValue(c) && bareProseValue(c)
}

// bareProseValue asks more of a value bare in a sentence: only what no
// word is, letters and digits both, ten or more ("The password is now
// VC~eQr^~6Bgqtb"; not "The token is Bearer-formatted"); or, named a
// password, eight or nine as a chosen one is (shortProsePassword).
func bareProseValue(c Candidate) bool {
	if q := c.Context[c.Offset-1]; q == '`' || q == '\'' || q == '"' {
		return true
	}
	v := c.Secret
	if len(v) < 10 {
		switch lastKeyWord(c.Key) {
		case "password", "passwd", "passphrase":
			return len(v) >= 8 && shortProsePassword(v)
		}
		return false
	}
	return len(v) <= 200 && hasDigit(v) && (hasUpper(v) || hasLower(v)) && !emailLike(v)
}

// shortProsePassword: a password of eight or nine bytes stated bare after
// its name ("Password for admin: IhqSb1Gg"), the length most sites
// ask for. So short a value is read as a password only when it has the
// three kinds a chosen or drawn one has (capitals, small letters,
// digits) and reads as typed rather than written: a symbol, or a change
// of case or kind at every other byte (alternating: "IhqSb1Gg", not
// "NIST800b"); not words and numbers as a name is ("getPass2",
// "Policy7B"), a version or an address.
func shortProsePassword(v []byte) bool {
	if !mixedClasses(v) || nameOfWords(v) || identifierValue(v) || versionRE.Match(v) || emailLike(v) {
		return false
	}
	return hasSymbol(v) || alternating(v)
}

// subOffset returns the offset of sub in s, a slice of s's array that
// ends with s's (so that their capacities differ by the offset).
func subOffset(s, sub []byte) int { return cap(s) - cap(sub) }

// proseNameAt returns the name of a secret whose noun is ctx[at:at+n],
// as the expression once read it with the noun: the noun and the word
// before it ("client secret"; letters, digits and dashes from a word
// boundary, then blanks; "min-api key" is "key" after "min-api"). det
// reports whether a determiner ("the", "our") is the word before the
// noun, or the one before that, a word and a slash before the noun
// counting as one ("the unlock PIN/secret").
func proseNameAt(ctx []byte, at, n int) (name []byte, det bool) {
	if sp := bytes.IndexByte(ctx[at:at+n], ' '); sp >= 0 && at > 0 && ctx[at-1] == '-' {
		at, n = at+sp+1, n-sp-1
	}
	prev := func(end int) (int, int) {
		b := end
		for b > 0 && (ctx[b-1] == ' ' || ctx[b-1] == '\t') {
			b--
		}
		if b == end {
			return end, end
		}
		return wordBefore(ctx, b), b
	}
	st := at
	if ws, we := prev(at); ws < we {
		st = ws
	}
	name = ctx[st : at+n]
	w := at
	if w > 0 && ctx[w-1] == '/' {
		if sw := wordBefore(ctx, w-1); sw < w-1 {
			w = sw
		}
	}
	for range 2 {
		ws, we := prev(w)
		if ws == we {
			break
		}
		if proseDeterminers[string(bytes.ToLower(ctx[ws:we]))] {
			return name, true
		}
		w = ws
	}
	return name, false
}

// wordBefore returns where the word of letters, digits and dashes that
// ends at ctx[end] starts: its first byte after a word boundary (none:
// end).
func wordBefore(ctx []byte, end int) int {
	b := end
	for b > 0 && (isAlnumLower(lower(ctx[b-1])) || ctx[b-1] == '-') {
		b--
	}
	for ; b < end; b++ {
		// \b: a word byte after a non-word one or the start, or a
		// non-word byte ("-") after a word byte
		before := b > 0 && isWordByte(ctx[b-1])
		if before != isWordByte(ctx[b]) {
			return b
		}
	}
	return end
}

// proseValue is tableValue with a floor on entropy that a short value
// can reach: a value of n bytes carries at most log2(n) bits a byte
// (3.32 at ten), so a random ten-character password with two letters
// repeated ("yMGuXz&z9z", 2.85) falls under the floor of 3 that tells a
// longer random value from a repetitive one. A short value that mixes
// upper and lower case, digits and punctuation is a chosen password; it
// is held to half a bit under its length's maximum instead.
func proseValue(c Candidate) bool {
	v := c.Secret
	if len(v) < 16 && hasUpper(v) && hasLower(v) && hasDigit(v) && (hasPunct(v) || len(v) < 10) {
		// a floor of 3 bits asks eight bytes for eight symbols: all
		// different
		return tableValueAbove(c, math.Min(3, math.Log2(float64(len(v)))-0.5))
	}
	return tableValue(c)
}

func hasPunct(v []byte) bool {
	for _, b := range v {
		if b > ' ' && b < 0x7f && !isAlnumLower(lower(b)) {
			return true
		}
	}
	return false
}

// emailLike reports whether v reads as an address: a local part, "@" and
// a dotted domain ending in letters.
func emailLike(v []byte) bool {
	at := bytes.LastIndexByte(v, '@')
	if at <= 0 {
		return false
	}
	dom := v[at+1:]
	dot := bytes.LastIndexByte(dom, '.')
	if dot <= 0 || len(dom)-dot-1 < 2 {
		return false
	}
	for _, b := range dom[dot+1:] {
		if !('a' <= lower(b) && lower(b) <= 'z') {
			return false
		}
	}
	return true
}

// namedBeforeLabel reports, for a "New value:" label, whether it opens
// its line or follows a sentence's end (valueLabelAt), and whether the
// sentence before it on its line, or else the line above, names a
// secret ("Rotated the webhook secret this morning.") and nothing there
// says the value is a digest or an id ("Bumped the token service to the
// new commit.").
func namedBeforeLabel(c Candidate) bool {
	if c.memo == nil {
		return false
	}
	data := c.memo.data
	at := c.base + c.MatchOffset // "value"
	cut, ok := labelStart(data, at)
	if !ok {
		return false
	}
	var before []byte
	if cut >= 0 && data[cut] != '\n' {
		ls, ok := lineStart(data, cut)
		if !ok {
			return false
		}
		before = data[ls : cut+1]
	} else {
		if cut < 0 {
			return false
		}
		ps, ok := lineStart(data, cut)
		if !ok {
			return false
		}
		before = data[ps:cut]
	}
	return !namesDigest(before) && namesSecretInWords(before)
}

// namesSecretInWords reports whether a sentence names a secret: a noun of
// proseSecretNoun with the word before it judged as namesSecret judges
// a name ("the webhook secret", "the signing key"), not followed by a
// word that says what about it ("the token TTL", "the key rotation").
func namesSecretInWords(line []byte) bool {
	words := keyWords(string(line))
	for j, w := range words {
		if w != "password" && w != "passphrase" && w != "secret" && w != "token" && w != "key" {
			continue
		}
		if j+1 < len(words) && (genericMetaWords[words[j+1]] && !proseVerbs[words[j+1]] || words[j+1] == "key" || words[j+1] == "token" || words[j+1] == "secret") {
			continue
		}
		name := w
		if j > 0 {
			name = words[j-1] + "_" + w
		}
		if namesSecret([]byte(name)) {
			return true
		}
	}
	return false
}

// proseVerbs are the words of genericMetaWords that after a noun in a
// sentence are its verb ("the key used by the backup job"), not what about
// it the sentence names ("the key usage").
var proseVerbs = map[string]bool{"used": true, "required": true, "enabled": true, "present": true, "expires": true, "at": true}

// namesSecret judges a name written in words or as an identifier ("the
// API key", "Bind password", "DB_PASSWORD"; not "the key id") as
// validGeneric does, a passphrase, and a key that says what it opens
// ("the signing key", "Ingest key").
func namesSecret(name []byte) bool {
	k := bytes.ReplaceAll(name, []byte(" "), []byte("_"))
	if genericKeyNamesSecret(k) {
		return true
	}
	words := keyWords(string(k))
	n := len(words)
	return n > 0 && words[n-1] == "passphrase" || n > 1 && words[n-1] == "key" && keyOpeners[words[n-2]]
}

// keyOpeners, before "key", say the key is a secret one.
var keyOpeners = map[string]bool{"encryption": true, "signing": true, "private": true, "master": true, "hmac": true,
	"decryption": true, "ingest": true, "server": true, "license": true, "deploy": true, "shared": true, "admin": true}
