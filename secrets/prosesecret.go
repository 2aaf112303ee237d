package secrets

import "bytes"

// RuleProseSecret reports a secret stated in a sentence rather than
// assigned: "I set DB_PASSWORD to … on the box", "Use '…' as the auth
// token", "Here is the client secret for staging: '…'". A reader takes
// the named value as the secret as surely as after an "=", and a
// workspace of notes states more than it assigns.
const RuleProseSecret = "prose-secret"

// proseSecretName is a name of a secret in a sentence: a word, and one
// word before it that says which ("the auth token", "the secret access
// key"). More words before cost every position of a dense line a thread
// of the expression's machine per word, and add nothing to the judgement.
const proseSecretName = `(?:[A-Za-z0-9-]+[ \t]+)?(?:password|passphrase|secret|token|api[ _-]?key|access[ _-]?key|key)`

func proseSecretRule() *Rule {
	// A value quoted, or bare up to the sentence's punctuation
	// (validProseSecret asks more of a bare one).
	val := "(?:[\x60'\"](?P<secret>[^\\s\x60'\"]{8,200})[\x60'\"]|(?P<secret>[^\\s\x60'\"<>]{9,199}[^\\s\x60'\".,;:!?)<>]))(?:[\\s.,;:!?)]|$)"
	return &Rule{
		ID:          RuleProseSecret,
		Description: "password, secret, token or API key stated in a sentence (set NAME to …, use … as the NAME, the NAME is …, the NAME for X: …)",
		builtinRE: builtinExpr("(?i)(?:" +
			// set DB_PASSWORD to value: the name is a variable's
			"\\bset[ \\t]+(?P<key>[A-Za-z0-9_.-]*(?:password|passwd|secret|token|api[_.-]?key|access[_.-]?key)[A-Za-z0-9_.-]*)[ \\t]+to[ \\t]+" + val +
			// use value as the auth token
			"|\\buse[ \\t]+" + val + "[ \\t]*as[ \\t]+(?:(?:the|your|our|a|an|my)[ \\t]+)?(?P<key>" + proseSecretName + ")\\b" +
			// the client secret (for the staging tenant) is (now) | : value
			"|\\b(?P<key>" + proseSecretName + ")" +
			// what it is for: "for the `helm-charts` repo", "(prod)"
			"(?:[ \\t]+(?:for|of|on|in|to|with)(?:[ \\t]+[\x60A-Za-z0-9_./-]+){1,6}?)?(?:[ \\t]*\\([^()\\n]{1,40}\\))?" +
			// is (now) | was set to | has been rotated to | :
			"(?:[ \\t]+(?:is|was)(?:[ \\t]+(?:now|still|currently|(?:set|changed|reset|rotated)[ \\t]+to))?|[ \\t]+has[ \\t]+been[ \\t]+(?:set|changed|reset|rotated)[ \\t]+to|[ \\t]*:)[ \\t]+" + val +
			")"),
		MinLen:   8,
		Keywords: []string{"password", "passphrase", "passwd", "secret", "token", "api key", "api_key", "apikey", "api-key", "access key", "access_key", "key"},
		Gate:     proseSecretGate,
		Validate: validProseSecret,
		Path:     proseFiles,
	}
}

// proseSecretGate passes a keyword that one of the forms can hold: the
// name's last word followed (after the rest of a variable's name) by
// " is", " was", " has", " to", " (" or a preposition that opens what it
// is for ("the API key for the relay: …"), or preceded by " as" within a
// few words ("use … as the auth token"). A name and a colon alone
// ("api_key: …") is an assignment, which generic-secret and the
// providers' rules read: the sentence's expression, run over a line dense
// with them, cost more than the rest of the scan. It reads a few dozen
// bytes either side, so a line dense with keywords costs each hit a
// bounded look.
func proseSecretGate(data []byte, i int) bool {
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
	before := data[max(0, i-40):i]
	return bytes.Contains(before, []byte(" as ")) || bytes.HasPrefix(before, []byte("as "))
}

// proseAfter are what follows a name in the forms proseSecretRule reads.
var proseAfter = [][]byte{[]byte(" is "), []byte(" was "), []byte(" has "), []byte(" to "), []byte(" ("),
	[]byte(" for "), []byte(" of "), []byte(" on "), []byte(" in "), []byte(" with ")}

func validProseSecret(c Candidate) bool {
	// The name's words, as validGeneric judges a name ("the API key",
	// "the client secret"; not "the key id"), or a key that says what it
	// opens ("the encryption key").
	k := c.Key
	if !namesSecret(k) || !tableValue(c) {
		return false
	}
	if q := c.Context[c.Offset-1]; q != '`' && q != '\'' && q != '"' {
		// Bare in a sentence: only what no word is, letters and digits
		// both, ten or more ("The password is now VC~eQr^~6Bgqtb";
		// not "The token is Bearer-formatted").
		v := c.Secret
		return len(v) >= 10 && hasDigit(v) && (hasUpper(v) || hasLower(v))
	}
	return true
}

// namesSecret judges a name written in words or as an identifier ("the
// API key", "Bind password", "DB_PASSWORD"; not "the key id") as
// validGeneric does, and a key that says what it opens ("the signing
// key", "Ingest key").
func namesSecret(name []byte) bool {
	k := bytes.ReplaceAll(name, []byte(" "), []byte("_"))
	if genericKeyNamesSecret(k) {
		return true
	}
	words := keyWords(string(k))
	n := len(words)
	return n > 1 && words[n-1] == "key" && keyOpeners[words[n-2]]
}

// keyOpeners, before "key", say the key is a secret one.
var keyOpeners = map[string]bool{"encryption": true, "signing": true, "private": true, "master": true, "hmac": true,
	"decryption": true, "ingest": true, "server": true, "license": true, "deploy": true, "shared": true, "admin": true}
