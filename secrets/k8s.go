package secrets

import (
	"bytes"
	"encoding/base64"
	"strings"
)

// k8sSecretRule finds the values of a Kubernetes Secret's data map: base64
// text, reported as found (the finding points at the encoded value), in any
// file, since manifests are pasted into notes and .env files as often as
// they sit in .yaml ones. A value counts when it decodes as base64, the
// YAML document it is in says kind: Secret, and its key sits directly
// under data:.
func k8sSecretRule() *Rule {
	return &Rule{
		ID:          RuleK8sSecretData,
		Description: "value of a Kubernetes Secret's data map (base64)",
		builtinRE: builtinExpr(`(?m)^[ \t]*["']?[A-Za-z0-9_.-]+["']?[ \t]*:[ \t]*(?:[|>][-+]?[ \t]*\r?\n[ \t]+)?` +
			`["']?(?P<secret>[A-Za-z0-9+/]{8,}={0,2})["']?[ \t]*\r?$`),
		Entropy:  2.5,
		MinLen:   8,
		Keywords: []string{"data:"},
		Before:   4 << 10,
		After:    4 << 10,
		Validate: validK8sSecretData,
	}
}

var k8sKindSecretRE = lazyRE.New(`(?im)^[ \t]*kind:[ \t]*["']?secret["']?[ \t]*\r?$`)

func validK8sSecretData(c Candidate) bool {
	if len(c.Secret)%4 != 0 {
		return false
	}
	dec, err := base64.StdEncoding.DecodeString(string(c.Secret))
	if err != nil {
		return false // base64 of a placeholder never gets here: IsPlaceholder decodes it
	}
	if (wordListRE.Match(dec) || isDigits(dec)) && !secretKeyName(dataKey(c)) {
		return false // LOG_LEVEL: info, REGION: eu-west-1, APP_ID: 123456: settings kept beside the secrets
	}
	if k8sNoSecret(dec) {
		return false
	}
	// The YAML document around the match: between "---" lines.
	ctx := c.Context
	ds, de := 0, len(ctx)
	if i := bytes.LastIndex(ctx[:c.MatchOffset], []byte("\n---")); i >= 0 {
		ds = i + 4
	}
	if i := bytes.Index(ctx[c.MatchOffset:], []byte("\n---")); i >= 0 {
		de = c.MatchOffset + i
	}
	if !k8sKindSecretRE.Match(ctx[ds:de]) {
		return false
	}
	// The key's parent: the nearest line above with less indentation.
	ls := bytes.LastIndexByte(ctx[:c.MatchOffset+1], '\n') + 1
	if c.MatchOffset < len(ctx) && ctx[c.MatchOffset] == '\n' {
		ls = c.MatchOffset + 1
	}
	ind := indentOf(ctx[ls:])
	for end := ls - 1; end > ds; {
		start := bytes.LastIndexByte(ctx[:end], '\n') + 1
		line := ctx[start:end]
		end = start - 1
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		if indentOf(line) < ind {
			return bytes.Equal(t, []byte("data:")) || bytes.Equal(t, []byte("binaryData:"))
		}
	}
	return false
}

// k8sNoSecret reports a Secret's value that decodes to what is not a
// secret itself: the name of the variable or the reference that holds one
// (POSTGRES_PASSWORD, vault:secret/data/app#password, an ARN, ${VAR}), a
// path, a certificate or a public key; or a document (lines of a config
// file, a JSON object), which the scanner reads decoded, line by line,
// where its rules judge what each line assigns (decode.go) and a config
// of placeholders or of settings is no finding.
func k8sNoSecret(dec []byte) bool {
	v := bytes.TrimSpace(dec)
	if bytes.Contains(v, []byte(`"auths"`)) {
		return !registryCredential(v) // a registry's config: its auth entries say
	}
	return len(v) == 0 || standsForSecret(v) || k8sDocument(v)
}

// registryAuthRE matches an entry of a registry config (.dockercfg,
// .dockerconfigjson) that holds a credential: an auth or a password.
var registryAuthRE = lazyRE.New(`"(?:auth|password|identitytoken)"\s*:\s*"([^"]+)"`)

// registryCredential reports a registry config with a credential in it:
// an auth that is no user alone ("ci-pull:" in base64), or a password.
// A config of a credentials store or of users alone holds none.
func registryCredential(v []byte) bool {
	for _, m := range registryAuthRE.FindAllSubmatchIndex(v, -1) {
		dec, err := base64.StdEncoding.DecodeString(string(v[m[2]:m[3]]))
		if err != nil || !standsForSecret(bytes.TrimSpace(dec)) {
			return true
		}
	}
	return false
}

// standsForSecret reports decoded text that names a secret, or what is
// public, rather than being one: the variable or the reference that holds
// it, a path, a certificate or a public key, a user and a colon with no
// password after it (a registry's "auth" of "ci-pull:").
func standsForSecret(v []byte) bool {
	switch {
	case envNameRE.Match(v), looksLikePath(v), isPublicKey(v):
		return true
	case bytes.HasPrefix(v, []byte("-----BEGIN CERTIFICATE")), bytes.HasPrefix(v, []byte("-----BEGIN PUBLIC KEY")):
		return true
	case secretReferenceRE.Match(v):
		return true
	case bytes.IndexByte(v, ':') == len(v)-1 && len(v) > 1 && bytes.IndexAny(v, " \t\n") < 0:
		return true
	}
	return false
}

// secretReferenceRE matches a value that names where a secret is kept:
// every rule leaves one (the scanner's judgement of each match), as a
// Secret's decoded data does here.
var secretReferenceRE = lazyRE.New(`^(?:(?i:vault|arn|ref\+[a-z]+|secretsmanager|awssm|azurekv|gcpsm|op|doppler|env|file)://?|vault:|arn:aws|\$\{|\{\{|\$\(|projects/[^/]+/secrets/)`)

// k8sDocument reports decoded text that is a document, printable: two
// lines or more that are not one PEM block, or a JSON object.
func k8sDocument(v []byte) bool {
	if !allPrintable(v) || bytes.HasPrefix(v, []byte("-----BEGIN")) {
		return false
	}
	if v[0] == '{' && v[len(v)-1] == '}' {
		return true
	}
	return bytes.Count(v, []byte("\n")) >= 1
}

// indentOf counts the leading blanks of a line.
func indentOf(line []byte) int {
	n := 0
	for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
		n++
	}
	return n
}

// dataKey is the key of the data entry the match is on (the text before
// its colon, on the match's first line).
func dataKey(c Candidate) string {
	line := c.Context[c.MatchOffset:]
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		line = line[:i]
	}
	return string(bytes.Trim(line, " \t\r\n\"'"))
}

// secretKeyWords are the words of a key that says its value is a
// credential: the names of a password (passwordWords), the generic
// rule's key words (genericKeyWords) and what only a Secret's keys say.
var secretKeyWords = func() map[string]bool {
	m := map[string]bool{}
	for w := range passwordWords {
		m[w] = true
	}
	for _, w := range genericKeyWords {
		m[w] = true
	}
	for _, w := range []string{"key", "auth", "credential", "credentials", "cred", "creds", "private",
		"cert", "crt", "pem", "jwt", "pin", "dsn", "url", "uri", "connection", "htpasswd", "cookie",
		"session", "salt", "signing"} {
		m[w] = true
	}
	return m
}()

func secretKeyName(key string) bool {
	for _, w := range keyWords(key) {
		if secretKeyWords[w] || strings.HasSuffix(w, "password") || strings.HasSuffix(w, "token") || strings.HasSuffix(w, "secret") {
			return true
		}
	}
	return false
}
