package secrets

import (
	"encoding/base64"
	"testing"
)

// TestJWKPrivateKey: the private member of a JSON Web Key as key sets,
// configuration and source files write it, and the look-alikes the rule
// leaves alone: public keys, a "d" or "k" in an object with no key type,
// the wrong member for the type, and the RFCs' published examples.
func TestJWKPrivateKey(t *testing.T) {
	g := newFakeGen("jwk-private-key")
	b64url := func(n int) string { return base64.RawURLEncoding.EncodeToString(g.bytes(n)) }
	x, y := b64url(32), b64url(32)
	cases := []formCase{
		// a key set as an identity provider's export writes it
		{"config/jwks.json", "{\n  \"keys\": [\n    {\n      \"kty\": \"EC\",\n      \"crv\": \"P-256\",\n      \"x\": \"" + x + "\",\n      \"y\": \"" + y + "\",\n      \"d\": \"" + b64url(32) + "\",\n      \"kid\": \"sig-2026\"\n    }\n  ]\n}\n", RuleJWKPrivateKey},
		// "d" before "kty", on one line, an Ed25519 key
		{"deploy/signer.json", `{"d":"` + b64url(32) + `","crv":"Ed25519","kty":"OKP","x":"` + x + `"}` + "\n", RuleJWKPrivateKey},
		// an RSA key's private exponent
		{"keys/rsa.jwk", "{\"kty\":\"RSA\",\"n\":\"" + b64url(256) + "\",\"e\":\"AQAB\",\"d\":\"" + b64url(256) + "\",\"p\":\"" + b64url(128) + "\"}\n", RuleJWKPrivateKey},
		// a symmetric key, as a string inside a source file
		{"src/auth.go", "const hmacKey = `{\"kty\":\"oct\",\"alg\":\"HS256\",\"k\":\"" + b64url(32) + "\"}`\n", RuleJWKPrivateKey},
		{"src/Auth.java", "String jwk = \"{\\\"kty\\\":\\\"oct\\\",\\\"k\\\":\\\"" + b64url(32) + "\\\"}\";\n", RuleJWKPrivateKey},

		// a public key: no private member
		{"public/jwks.json", "{\"keys\":[{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"" + x + "\",\"y\":\"" + y + "\",\"use\":\"sig\"}]}\n", ""},
		// a "d" in an object that is no key, beside one that is
		{"data/points.json", "[{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"" + x + "\",\"y\":\"" + y + "\"},\n {\"d\":\"" + b64url(24) + "\",\"label\":\"delta\"}]\n", ""},
		// a symmetric key that is a typed sequence, encoded
		{"docs/keys.md", "{\"kty\":\"oct\",\"k\":\"" + base64.RawURLEncoding.EncodeToString([]byte("0123456789012345678901234567890123456789ABCDEF")) + "\"}\n", ""},
		// "k" is no member of an EC key
		{"data/odd.json", "{\"kty\":\"EC\",\"k\":\"" + b64url(32) + "\"}\n", ""},
		// RFC 7517's and RFC 8037's example keys, published
		{"docs/jose.md", "{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4\",\"y\":\"4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM\",\"d\":\"870MB6gfuTJ4HtUnUvYMyJpr5eUZNP4Bk43bVdj3eAE\",\"use\":\"enc\",\"kid\":\"1\"}\n", ""},
		{"docs/jose.md", "{\"kty\":\"oct\",\"k\":\"AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow\"}\n", ""},
		{"docs/jose.md", "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A\",\"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}\n", ""},
	}
	checkFormCases(t, cases)
}

// TestJWKRandomKeysFound: a key's private member is random bytes, and
// every such key is found, whatever its bytes decode to. The rule once
// judged the decoded bytes with the placeholder tests of text, and
// dropped one random key in 200 (a "<" and a ">" among its bytes).
func TestJWKRandomKeysFound(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("jwk-random")
	missed := 0
	const n = 3000
	for i := 0; i < n; i++ {
		k := base64.RawURLEncoding.EncodeToString(g.bytes(32))
		text := "const hmac = \"{\\\"kty\\\":\\\"oct\\\",\\\"k\\\":\\\"" + k + "\\\"}\";\n"
		if i%2 == 1 {
			text = "{\"kty\": \"EC\", \"crv\": \"P-256\", \"d\": \"" + k + "\"}\n"
		}
		fs := s.Scan("src/auth.js", []byte(text))
		if len(fs) != 1 || fs[0].RuleID != RuleJWKPrivateKey {
			if missed++; missed <= 5 {
				t.Errorf("%q: want one %s finding, got %d", text, RuleJWKPrivateKey, len(fs))
			}
		}
	}
	if missed > 0 {
		t.Errorf("%d of %d random keys missed", missed, n)
	}
}
