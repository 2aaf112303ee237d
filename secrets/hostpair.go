package secrets

import (
	"bytes"
)

// RuleHostLoginPair reports the password of a user/password pair written
// after a host's IPv4 address: "192.168.0.1 master/…", "98.76.54.32
// (admin/…)", "10.0.4.12:22, root/…". Operations notes list machines so;
// found missing on a peer's own test suite (CredSweeper's samples, doc
// mode, round forty-three), where no rule read a pair with no label.
const RuleHostLoginPair = "host-login-pair"

// hostOctet is one of an IPv4 address's numbers, 0 to 255.
const hostOctet = `(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])`

// hostLoginPairRule reads the address, an optional port, a separator
// ("(", ",", ";", ":", a table's "|", "->", a blank, "login", "as",
// German "als"), the user, "/" and the password. The keyword is the
// "/": a gate reads back from it over the user and the separator to the
// address, so the expression runs only where an address may be. Blanks
// are bounded (32 either side of a separator: a padded table's cells),
// so that the gate knows how far back the address may end
// (hostPairReach).
func hostLoginPairRule() *Rule {
	return &Rule{
		ID:          RuleHostLoginPair,
		Description: "user/password pair after a host's address (192.168.0.1 admin/…, 10.0.0.5 (root/…))",
		builtinRE: builtinExpr(`(?P<key>` + hostOctet + `(?:\.` + hostOctet + `){3})(?::[0-9]{1,5})?` +
			`\)?(?:[ \t]{0,32}(?:[,;(:|]|->|=>)[ \t]{0,32}|[ \t]{1,32})(?:(?i:login|user|as|als)[ \t:]{1,8})?` +
			`[A-Za-z][A-Za-z0-9._-]{0,31}/(?P<secret>[^\s/(),;"'\x60<>]{6,64})(?:[),;]|\s|$)`),
		MinLen:   6,
		Keywords: []string{"/"},
		Gate:     hostLoginGate,
		Validate: validHostLoginPair,
	}
}

// hostLoginGate passes a "/" that ends a user's name (1 to 32 bytes of
// letters, digits, ".", "_", "-", starting with a letter) which a blank
// or a separator comes before, with four numbers joined by dots (the
// address) before that, the last of them within hostPairReach bytes.
// Paths ("src/x", "/usr"), URLs and comments ("//") fail within a few
// bytes, and so do a command's ("python3 tools/run.py", "node18 app/"),
// which asking only for a digit in the 24 bytes before let through: on a
// workspace of development notes the expression ran on most of them, a
// third of its scan's CPU.
func hostLoginGate(data []byte, i int) bool {
	j := i
	for j > 0 && i-j <= 32 && (isAlnumByte(data[j-1]) || data[j-1] == '.' || data[j-1] == '_' || data[j-1] == '-') {
		j--
	}
	if j == i || i-j > 32 || !isLetterByte(data[j]) || j == 0 {
		return false
	}
	switch data[j-1] {
	case ' ', '\t', '(', ',', ';', '>', ':', '|':
	default:
		return false
	}
	return dottedQuadBefore(data, j, hostPairReach)
}

// hostPairReach is the most bytes the expression reads between an
// address's last digit and the user: a port (":" and five digits), ")",
// 32 blanks, a separator of two bytes, 32 blanks, "login" and eight
// blanks or colons.
const hostPairReach = 6 + 1 + 32 + 2 + 32 + 5 + 8

// dottedQuadBefore reports whether four runs of digits joined by single
// dots (an IPv4 address, or the end of a longer dotted number the
// expression may read one in) end before j with only what the
// expression reads between an address and a user after them, at most
// reach bytes: blanks, a port, ")", a separator, a login word. A line
// break is none of it: an address on the line before ("BASE_URL=
// http://10.40.1.5:8000/v1" above "python3 tools/x.py") is not this
// line's.
func dottedQuadBefore(data []byte, j, reach int) bool {
	from := j // the start of the bytes between: the address ends just before
	for from > 0 && j-from < reach+3 && hostPairBetween(data[from-1]) {
		from-- // (+3: the address's last number is digits too)
	}
	lo := max(0, from-16) // an address is at most 15 bytes
	runs := 0             // the runs of digits of the dotted number at hand
	for k := lo; k < j; k++ {
		b := data[k]
		switch {
		case b >= '0' && b <= '9':
			if k == lo || data[k-1] < '0' || data[k-1] > '9' {
				runs++
			}
			if runs >= 4 && k+1 >= from && j-(k+1) <= reach {
				return true
			}
		case b == '.' && k > lo && data[k-1] >= '0' && data[k-1] <= '9':
			// joins the run before to the next one
		default:
			runs = 0
		}
	}
	return false
}

// hostPairBetween reports whether the expression may read b between an
// address and a user: a blank, a port's ":" and digits, ")", a
// separator ("(", ",", ";", ":", "|", "->", "=>"), or a letter of
// "login", "user", "as" or "als".
func hostPairBetween(b byte) bool {
	switch b | 0x20 {
	case 'l', 'o', 'g', 'i', 'n', 'u', 's', 'e', 'r', 'a':
		return true
	}
	switch b {
	case ' ', '\t', ':', ')', '(', ',', ';', '|', '-', '>', '=':
		return true
	}
	return b >= '0' && b <= '9'
}

// validHostLoginPair: an address that is not part of a longer dotted
// number (a version 1.2.3.4.5) and a password of three kinds of
// character (letters, digits, symbols) that reads as one.
func validHostLoginPair(c Candidate) bool {
	if k := c.MatchOffset; k > 0 {
		switch b := c.Context[k-1]; {
		case b == '.' || isAlnumByte(b) || b == '_' || b == '-' || b == '/':
			return false // a longer number, a name, a path
		}
	}
	// a release's number read as an address: "version 1.4.0.2 docs/…"
	before := bytes.TrimRight(c.Context[:c.MatchOffset], " \t")
	w := len(before)
	for w > 0 && isLetterByte(before[w-1]) {
		w--
	}
	switch string(bytes.ToLower(before[w:])) {
	case "v", "ver", "version", "release", "build", "rev", "revision", "tag":
		return false
	}
	v := c.Secret
	if !passwordShaped(v) || allSame(v) || versionRE.Match(v) || fileNameRE.Match(v) || nameOfWords(v) {
		return false // a file or a name after its directory: "docs/Getting-Started2.md", "k8s/Deploy-v2"
	}
	// After an address a slash also joins a namespace and a name
	// ("library/Redis7", "svc/OrderSvc-v3", "vlan/Mgmt-10"): without a
	// symbol, the value must change case or kind at every other byte or
	// more, as a drawn password does ("IhqSb1Gg") and a name does not.
	// ("~", "+" and "=" are hasSymbol's token separators, but a
	// password's symbols here: a name holds none)
	if !hasSymbol(v) && !bytes.ContainsAny(v, "~+=") && !alternating(v) {
		return false
	}
	return validPlainPassword(c)
}

// nameOfWords reports whether v reads as a name made of words, as a
// directory's entry is ("Deploy-v2", "Web-API2", "HelloWorld2"): no
// symbol, words and numbers as identifierValue reads them (valueWords),
// at most one number, and two words or one with a separator. A chosen
// password of one word and a number ("Summer2024") is not one.
func nameOfWords(v []byte) bool {
	if hasSymbol(v) {
		return false
	}
	words, nums, ok := valueWords(v)
	return ok && nums <= 1 && (words >= 2 || words == 1 && bytes.ContainsAny(v, "-_."))
}

// fileNameRE matches a file's name: an extension of one to five letters
// after a dot.
var fileNameRE = lazyRE.New(`\.[A-Za-z][A-Za-z0-9]{0,4}$`)
