package secrets

import (
	"bytes"
	"strings"
)

// RuleLoginLabelPair reports the password of a user and password pair
// written after a pair of labels that name both: "ID/PW: admin/…",
// "user / pass -> ops, …", "아이디/비번 master …". Operations notes write
// logins so, in English and in Korean above all; found missing on a
// peer's own test suite (CredSweeper's samples, doc mode, round
// forty-one), where password-pair read the forms whose pair follows a
// colon as one value and missed those after "->", "(", "-" or a blank.
const RuleLoginLabelPair = "login-label-pair"

// loginLabelPairRule reads a label pair, the separator after it, the
// user and the password. The pair's labels are joined by "/", "\", ":",
// "(" or blanks, and end with a separator ("->", ":", "=", "-", "(",
// a table's "|" or a blank); the user and the password, each quoted or
// not, are joined by "/", "//", ",", ":", ";", "|", "->", "(", " - " or
// blanks.
func loginLabelPairRule() *Rule {
	ids := `\bid|\buid|\buser(?:name|id)?|\blogin|\baccount|아이디|계정|사용자`
	pws := `pw|pwd|pass|passwd|password|비번|비밀번호|패스워드|암호`
	return &Rule{
		ID:          RuleLoginLabelPair,
		Description: "user and password after a pair of labels naming both (ID/PW: user/…, 아이디/비번 …)",
		builtinRE: builtinExpr(`(?i)(?P<key>(?:` + ids + `)[ \t]*(?:[/\\:(][ \t]*|[ \t]+)(?:` + pws + `)(?:은|는)?\)?)` +
			// a separator, or a copula after words saying whose ("ID/PW
			// for the printer panel is …")
			`(?:(?:[ \t]+(?:for|of|on|to)(?:[ \t]+[^\s:/]+){1,6}?)?[ \t]+(?:is|are)[ \t]+|[ \t]*(?:->|=>|→|[:=(|-]|[ \t])[ \t]*)` +
			// a "-" between the two only with blanks around it: glued,
			// it is part of a name ("db-replica-03")
			`[\x60"']?[A-Za-z0-9._@-]{1,64}?[\x60"']?(?:[ \t]*(?://?|->|→|[,:;|(])[ \t]*|[ \t]+-[ \t]+|[ \t]+)` +
			`(?:[\x60"'](?P<secret>[^\s\x60"']{4,64})[\x60"']|(?P<secret>[!#-&*-_a-~]{4,64}))\)?(?:[\s]|$)`),
		MinLen:   6,
		Keywords: []string{"pw", "pass", "비번", "비밀번호", "패스워드", "암호"},
		Gate:     loginLabelGate,
		Validate: validLoginLabelPair,
	}
}

// loginLabelGate passes a password label that a user's label comes
// right before: "ID/PW", "user pass", "아이디/비번", "ID(PW".
func loginLabelGate(data []byte, i int) bool {
	word := func(c byte) bool { return isAlnumByte(c) || c >= 0x80 }
	// Labels are short: a word longer than the longest ("비밀번호", 12
	// bytes) is none, and is not read further back (a line of base64
	// is one word).
	ws := i
	for ws > 0 && word(data[ws-1]) {
		if i-ws >= 16 {
			return false
		}
		ws--
	}
	j := ws
	blanks := func() {
		for j > 0 && (data[j-1] == ' ' || data[j-1] == '\t') {
			j--
		}
	}
	blanks()
	if j > 0 && strings.IndexByte(`/\:(`, data[j-1]) >= 0 {
		j--
		blanks()
	} else if j == ws {
		return false // glued: "bypass", "IDPW"
	}
	we := j
	for j > 0 && word(data[j-1]) {
		if we-j >= 12 {
			return false
		}
		j--
	}
	if j > 0 && (word(data[j-1]) || data[j-1] == '_') {
		return false // the end of a longer name: "valid pw", "SSID/PW"
	}
	return loginLabelWords[strings.ToLower(string(data[j:we]))]
}

// loginLabelWords label the user of a login.
var loginLabelWords = map[string]bool{
	"id": true, "uid": true, "user": true, "username": true, "userid": true, "login": true, "account": true,
	"아이디": true, "계정": true, "사용자": true,
}

// validLoginLabelPair: a password as people choose them (three of lower
// case, upper case, digits and symbols), not the user's name again (a
// default such as "wpasp/wpasp" says how to log in, not a secret), a
// placeholder or a reference.
func validLoginLabelPair(c Candidate) bool {
	v := bytes.TrimRight(c.Secret, ".,;")
	if !passwordShaped(v) || !plausiblePassword(v, false) || IsPlaceholder(v) || spellsPasswordName(v) {
		return false // "1Password", "KeePassXC": where the password is kept
	}
	user := loginLabelUser(c)
	return len(user) > 0 && !bytes.EqualFold(user, v) && !loginLabelNotUser[strings.ToLower(string(user))]
}

// loginLabelNotUser are words a sentence puts after the labels where a
// pair would have its user: "ID/PW: see …", "user/pass in …".
var loginLabelNotUser = map[string]bool{
	"see": true, "use": true, "in": true, "on": true, "at": true, "from": true, "via": true, "is": true,
	"are": true, "was": true, "were": true, "the": true, "your": true, "our": true, "my": true, "same": true,
	"ask": true, "check": true, "stored": true, "saved": true, "kept": true, "under": true, "and": true,
	"or": true, "to": true, "for": true, "with": true, "by": true, "of": true, "as": true,
}

// loginLabelUser returns the user the match names: the text between the
// separator after the labels and the one before the password.
func loginLabelUser(c Candidate) []byte {
	start := c.MatchOffset + len(c.Key)
	if start > c.Offset || c.Offset > len(c.Context) {
		return nil
	}
	mid := c.Context[start:c.Offset]
	if i := bytes.LastIndex(mid, []byte(" is ")); i >= 0 {
		mid = mid[i+len(" is "):]
	} else if i := bytes.LastIndex(mid, []byte(" are ")); i >= 0 {
		mid = mid[i+len(" are "):]
	}
	mid = bytes.TrimLeft(mid, " \t-:=>(|→")
	mid = bytes.TrimRight(mid, " \t/,:;|(->→`\"'")
	mid = bytes.Trim(mid, "`\"'")
	return mid
}
