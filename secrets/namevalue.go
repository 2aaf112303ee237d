package secrets

import "bytes"

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
		builtinRE: builtinExpr(`(?i)(?:(?:^|[\s{,-])["']?(?:name|key)["']?[ \t]*[:=][ \t]*["']?(?P<key>[A-Za-z0-9_.-]{2,64})["']?` +
			`|\bvariable[ \t]+"(?P<key>[A-Za-z0-9_.-]{2,64})"[ \t]*\{)` +
			// the rest of the entry: on the name's line first (the
			// compact {"name": …, "value": …}), else the name's line,
			// up to four lines that open no other entry (none starts
			// with a name or a key and its sign, so "- name: api" never
			// pairs with the next entry's value), and the value's line
			`(?:[^\n]{0,200}?\n(?:[ \t]*(?:-[ \t]+)?["']?(?:` + notEntryStart + `[^\n]{0,200})?\n){0,4}?)??[^\n]{0,80}?` +
			`(?:^|[\s{,])["']?(?:value|default)["']?[ \t]*[:=][ \t]*(?:"(?P<secret>[^"\r\n]+)"|'(?P<secret>[^'\r\n]+)'|(?P<secret>[^\s"',}\]]+))`),
		Entropy:  3,
		MinLen:   12,
		Keywords: []string{"value", "default"},
		Gate:     AssignmentGate,
		Before:   1 << 10,
		Validate: validNameValue,
	}
}

// notEntryStart matches the start of a line's text that is not "name" or
// "key" followed by a quote, a blank or a sign (RE2 has no lookahead, so
// it spells the words out): "nullable = false", "kms_key_id = …" and a
// description pass, "name: BUILD_ID" does not.
const notEntryStart = `(?:[^nNkK\s"'-]|[nN](?:[^aA\n]|[aA](?:[^mM\n]|[mM](?:[^eE\n]|[eE][^"':= \t\n])))|[kK](?:[^eE\n]|[eE](?:[^yY\n]|[yY][^"':= \t\n])))`

// anotherEntry finds a second name between a pair's name and its value:
// the value is another entry's ("- name: API_TOKEN / valueFrom: … /
// - name: BUILD_SHA / value: …").
var anotherEntry = lazyRE.New(`(?i)(?:^|[\s{,-])["']?(?:name|key)["']?[ \t]*[:=]|\bvariable[ \t]+"`)

func validNameValue(c Candidate) bool {
	if c.Key == nil {
		return false
	}
	if ls := bytes.LastIndexByte(c.Context[:c.MatchOffset], '\n') + 1; inInputTag(c.Context[ls:c.Offset]) {
		return false // a form's hidden field: an anti-forgery token (csrfmiddlewaretoken, __RequestVerificationToken, _token)
	}
	keyEnd := subOffset(c.Context, c.Key) + len(c.Key)
	if keyEnd < c.Offset && anotherEntry.Match(c.Context[keyEnd:c.Offset]) {
		return false
	}
	// a password's name: a password as people choose them, lower-case
	// words, digits and a symbol ("quiltwalnut52!"), which the generic
	// judge reads as a word
	return validGeneric(c) || namesPasswordKey(c.Key) && notesPasswordValue(c)
}

// inInputTag: an HTML <input tag opens in b (any case).
func inInputTag(b []byte) bool {
	for i := bytes.IndexByte(b, '<'); i >= 0; {
		if hasPrefixFold(b[i:], "<input") {
			return true
		}
		j := bytes.IndexByte(b[i+1:], '<')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}
