package secrets

import (
	"bytes"
	"encoding/base64"
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
	if _, err := base64.StdEncoding.DecodeString(string(c.Secret)); err != nil {
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

// indentOf counts the leading blanks of a line.
func indentOf(line []byte) int {
	n := 0
	for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
		n++
	}
	return n
}
