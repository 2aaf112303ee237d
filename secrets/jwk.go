package secrets

import (
	"bytes"
	"encoding/base64"
	"strings"
)

// RuleJWKPrivateKey reports the private part of a JSON Web Key, found
// missing on a peer's own test suite (CredSweeper's samples, round
// forty-one): no rule of the three sources reads one, and a JWK set is
// how OIDC providers, JOSE libraries and key-management exports write a
// signing key to a file.
const RuleJWKPrivateKey = "jwk-private-key"

// jwkPrivateRule reads a JSON Web Key's private member (RFC 7517 §4,
// RFC 7518 §6): "d", the private exponent or scalar of an RSA, EC or OKP
// key, and "k", the whole of a symmetric ("oct") key, base64url. The
// member names are one letter, so the keyword is the key type's member
// "kty", and the match counts only inside the JSON object that holds a
// "kty" (validJWKPrivate). Escaped quotes are read too: a JWK set is often
// a string inside another JSON document or a source file.
func jwkPrivateRule() *Rule {
	return &Rule{
		ID:          RuleJWKPrivateKey,
		Description: "JSON Web Key private key (\"d\" or \"k\" beside \"kty\")",
		builtinRE:   builtinExpr(`\\?"(?P<key>[dk])\\?"[ \t]*:[ \t]*\\?"(?P<secret>[A-Za-z0-9_-]{20,}={0,2})\\?"`),
		Entropy:     3.5,
		Keywords:    []string{"kty"},
		// A 4096-bit RSA key's members are some 3.5 KB of text around
		// its "kty".
		Before:   8 << 10,
		After:    8 << 10,
		Validate: validJWKPrivate,
	}
}

// validJWKPrivate holds a "d" or "k" member to the JSON object it is in:
// that object must name its key type ("kty"), and for "k" the type of a
// symmetric key ("oct"). Braces inside strings are not looked for: the
// members of a JWK are base64url and short names, which hold none.
func validJWKPrivate(c Candidate) bool {
	open, end := enclosingObject(c.Context, c.MatchOffset)
	if open < 0 || end < 0 {
		return false
	}
	obj := c.Context[open:end]
	kty := jwkMember(obj, "kty")
	switch {
	case string(c.Key) == "d" && (kty == "EC" || kty == "RSA" || kty == "OKP"):
	case string(c.Key) == "k" && kty == "oct":
	default:
		return false
	}
	// A key made up for a document is text encoded: "MDEyMzQ1…" is
	// "0123456789…ABCDEF". Only printable text is judged: a real key's
	// random bytes hold "<", ">" and runs that the placeholder tests of
	// text misread (one random key in 200 was dropped).
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(string(c.Secret), "="))
	return err != nil || !placeholderDecoded(raw)
}

// enclosingObject returns the offsets of the "{" that opens the innermost
// object around data[at] and of the byte after the "}" that closes it, or
// -1 for one it cannot find.
func enclosingObject(data []byte, at int) (open, end int) {
	open, end = -1, -1
	depth := 0
	for i := at - 1; i >= 0; i-- {
		switch data[i] {
		case '}':
			depth++
		case '{':
			if depth == 0 {
				open = i
			} else {
				depth--
			}
		}
		if open >= 0 {
			break
		}
	}
	depth = 0
	for i := at; i < len(data); i++ {
		switch data[i] {
		case '{':
			depth++
		case '}':
			if depth == 0 {
				end = i + 1
			} else {
				depth--
			}
		}
		if end >= 0 {
			break
		}
	}
	return open, end
}

// jwkMember returns the string value of the member name of a JSON object
// (its quotes escaped or not), or "".
func jwkMember(obj []byte, name string) string {
	for _, q := range []string{`"`, `\"`} {
		key := []byte(q + name + q)
		i := bytes.Index(obj, key)
		if i < 0 {
			continue
		}
		rest := bytes.TrimLeft(obj[i+len(key):], " \t\r\n")
		if len(rest) == 0 || rest[0] != ':' {
			continue
		}
		rest = bytes.TrimLeft(rest[1:], " \t\r\n")
		if !bytes.HasPrefix(rest, []byte(q)) {
			continue
		}
		rest = rest[len(q):]
		if j := bytes.Index(rest, []byte(q)); j >= 0 {
			return string(rest[:j])
		}
	}
	return ""
}
