package secrets

import (
	"bytes"
	"regexp"
)

// RuleNameValueSecret reports the value of a name/value pair whose name
// is a secret's: the way container definitions, API collections and
// Terraform write a variable, its name on one line and its value on the
// next ("- name: DB_PASSWORD" then "value: …" in a Kubernetes or Compose
// env list; {"name": "API_TOKEN", "value": "…"} in an ECS task or a
// Postman collection; variable "vercel_token" { default = "…" }). The
// assignment rules read "NAME = value", which these never hold.
const RuleNameValueSecret = "name-value-secret"

func nameValueRule() *Rule {
	return &Rule{
		ID:          RuleNameValueSecret,
		Description: "value of a name/value pair (env list, task definition, API collection, Terraform variable) whose name is a secret's",
		builtinRE: builtinExpr(`(?i)(?:(?:^|[\s{,-])["']?(?:name|key)["']?[ \t]*[:=][ \t]*["']?(?P<key>[A-Za-z0-9_.-]{2,64})["']?[ \t]*,?` +
			`|\bvariable[ \t]+"(?P<key>[A-Za-z0-9_.-]{2,64})"[ \t]*\{)` +
			// the rest of the entry: the name's line, then up to four
			// lines that open no other entry (none starts with a name
			// or a key, so "- name: api" never pairs with the next
			// entry's value), then the value's line
			`(?:[^\n]{0,120}?\n(?:[ \t]*(?:-[ \t]+)?["']?(?:[^nNkK\s"'-][^\n]{0,120})?\n){0,4}?)?[^\n]{0,80}?` +
			`(?:^|[\s{,])["']?(?:value|default)["']?[ \t]*[:=][ \t]*(?:"(?P<secret>[^"\r\n]+)"|'(?P<secret>[^'\r\n]+)'|(?P<secret>[^\s"',}\]]+))`),
		Entropy:  3,
		MinLen:   12,
		Keywords: []string{"value", "default"},
		Gate:     AssignmentGate,
		Before:   1 << 10,
		Validate: validNameValue,
	}
}

// anotherEntry finds a second name between a pair's name and its value:
// the value is another entry's ("- name: API_TOKEN / valueFrom: … /
// - name: BUILD_SHA / value: …").
var anotherEntry = regexp.MustCompile(`(?i)(?:^|[\s{,-])["']?(?:name|key)["']?[ \t]*[:=]|\bvariable[ \t]+"`)

func validNameValue(c Candidate) bool {
	if c.Key == nil {
		return false
	}
	keyEnd := c.MatchOffset
	if i := bytes.Index(c.Match, c.Key); i >= 0 {
		keyEnd += i + len(c.Key)
	}
	if keyEnd < c.Offset && anotherEntry.Match(c.Context[keyEnd:c.Offset]) {
		return false
	}
	return validGeneric(c)
}
