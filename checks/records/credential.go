package records

import (
	"bytes"
	"go/token"
	"regexp"
	"strings"
	"unicode"

	"github.com/go-json-experiment/json/jsontext"
)

// credentialFormats are common secret formats, most specific first. A value
// containing a match looks like a credential unless the match is a
// placeholder.
var credentialFormats = []struct {
	name string
	re   *regexp.Regexp
}{
	{"private key block", regexp.MustCompile(`-----BEGIN[ A-Z0-9]{0,32}PRIVATE KEY( BLOCK)?-----`)},
	{"Anthropic API key", regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`)},
	{"OpenAI API key", regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`)},
	{"Stripe key", regexp.MustCompile(`\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}`)},
	{"GitHub token", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`)},
	{"GitLab token", regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}`)},
	{"AWS access key id", regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`)},
	{"Google API key", regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`)},
	{"Slack token", regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`)},
	{"Hugging Face token", regexp.MustCompile(`\bhf_[A-Za-z0-9]{30,}`)},
	{"JSON web token", regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)},
	{"bearer token", regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{20,}`)},
	{"URL with a password", regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]+:[^/\s@]+@`)},
}

// credentialFormat returns the name of the secret format s contains, or "".
func credentialFormat(s string) string {
	for _, f := range credentialFormats {
		for _, m := range f.re.FindAllString(s, -1) {
			if secretPlaceholder(m) {
				continue
			}
			if strings.HasPrefix(f.name, "OpenAI") && !mixedAlnum(m[3:]) {
				continue // "sk-" followed by words, not a key
			}
			return f.name
		}
	}
	return ""
}

// secretPlaceholder reports whether a would-be secret is an obvious
// placeholder or an already-redacted value.
func secretPlaceholder(s string) bool {
	l := strings.ToLower(s)
	for _, w := range []string{"<", "${", "{{", "****", "xxxx", "example", "placeholder", "redacted", "changeme", "dummy", "your_", "your-"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// mixedAlnum reports whether s has letters and digits: random keys do,
// hyphenated words do not.
func mixedAlnum(s string) bool {
	var letter, digit bool
	for _, r := range s {
		letter = letter || unicode.IsLetter(r)
		digit = digit || unicode.IsDigit(r)
	}
	return letter && digit
}

// secretWords name members whose value is a secret; secretPairs are two
// consecutive words that do.
var (
	secretWords = []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "bearer"}
	secretPairs = []string{"api_key", "access_key", "private_key", "secret_key", "auth_key", "client_secret", "session_key", "signing_key"}
	// refWords name members that refer to a secret rather than hold it:
	// "token_file", "credential_source_class", "api_key_env".
	refWords = []string{"file", "path", "env", "source", "class", "ref", "name", "id", "type", "kind", "url", "count", "required", "limit", "max", "budget"}
)

// keyWords splits a member name into lower-case words at underscores,
// hyphens, dots and camelCase boundaries.
func keyWords(name string) []string {
	var words []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			words = append(words, b.String())
			b.Reset()
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			flush()
		case unicode.IsUpper(r):
			if i > 0 && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))) {
				flush()
			}
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
		}
	}
	flush()
	return words
}

// secretName reports whether a member name names a secret value.
func secretName(name string) bool {
	words := keyWords(name)
	for _, w := range words {
		for _, r := range refWords {
			if w == r {
				return false
			}
		}
	}
	for i, w := range words {
		for _, s := range secretWords {
			if w == s {
				return true
			}
		}
		if i+1 < len(words) {
			pair := w + "_" + words[i+1]
			for _, s := range secretPairs {
				if pair == s {
					return true
				}
			}
		}
	}
	return false
}

// secretValue reports whether the value of a secret-named member holds a
// secret: a string that is not empty, not a placeholder or reference, and
// not prose.
func secretValue(s string) bool {
	t := strings.TrimSpace(s)
	if t == "" || isPlaceholder(t) || secretPlaceholder(t) || strings.ContainsAny(t, " \t\n") {
		return false
	}
	l := strings.ToLower(t)
	switch l {
	case "none", "null", "nil", "false", "true", "no", "n/a", "unset", "empty":
		return false
	}
	if strings.HasPrefix(t, "$") || strings.HasPrefix(l, "env:") || strings.HasPrefix(l, "vault:") || strings.HasPrefix(l, "op://") {
		return false
	}
	if strings.Trim(t, "*xX.-_#•") == "" {
		return false // a masked value
	}
	return true
}

// credentials reports members, at any depth, that look like credentials.
func (c *checker) credentials() {
	for _, m := range c.r.Members {
		if s, ok := c.strs[m.Name]; ok || m.Value.Kind() == '"' {
			if !ok {
				_ = jsonString(m.Value, &s)
			}
			c.credential(m.Name, s, m.Pos, m.ValuePos, m.End)
			continue
		}
		walk(m.Value, m.Name, func(name, s string, keyOff, valOff, valEnd int) {
			kp := m.Pos
			if keyOff >= 0 {
				kp = m.ValuePos + token.Pos(keyOff)
			}
			c.credential(name, s, kp, m.ValuePos+token.Pos(valOff), m.ValuePos+token.Pos(valEnd))
		})
	}
}

func (c *checker) credential(name, s string, keyPos, valPos, valEnd token.Pos) {
	if f := credentialFormat(s); f != "" {
		c.report(valPos, valEnd, "credential", "member %s looks like a credential (%s format); admission records must name a credential class, never a secret", quote(name), f)
		return
	}
	if secretName(last(name)) && secretValue(s) {
		c.report(keyPos, valEnd, "credential", "member %s looks like a credential: it is named like a secret and its value is not a placeholder; admission records must name a credential class, never a secret", quote(name))
	}
}

// last returns the last segment of a dotted member path.
func last(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

func jsonString(v jsontext.Value, s *string) error {
	tok, err := jsontext.NewDecoder(bytes.NewReader(v)).ReadToken()
	if err != nil {
		return err
	}
	*s = tok.String()
	return nil
}

// walk calls fn for every string value inside v (an object or array), with
// the dotted path of the member holding it, the offset of that member's name
// in v (-1 for array elements and v itself), and the value's extent.
func walk(v jsontext.Value, base string, fn func(name, s string, keyOff, valOff, valEnd int)) {
	type frame struct {
		obj      bool
		wantName bool
		name     string // the path of the frame
		key      string // the current member's path
		keyOff   int
	}
	dec := jsontext.NewDecoder(bytes.NewReader(v))
	stack := []*frame{{name: base, key: base, keyOff: -1}}
	skip := func(off int) int {
		for off < len(v) && (isJSONSpace(v[off]) || v[off] == ',' || v[off] == ':') {
			off++
		}
		return off
	}
	for {
		before := int(dec.InputOffset())
		tok, err := dec.ReadToken()
		if err != nil {
			return
		}
		off := skip(before)
		top := stack[len(stack)-1]
		switch k := tok.Kind(); k {
		case '{', '[':
			stack = append(stack, &frame{obj: k == '{', wantName: k == '{', name: top.key, key: top.key, keyOff: top.keyOff})
		case '}', ']':
			stack = stack[:len(stack)-1]
			if len(stack) == 1 {
				return
			}
			if p := stack[len(stack)-1]; p.obj {
				p.wantName = true
			}
		default:
			if top.obj && top.wantName {
				top.key, top.keyOff, top.wantName = top.name+"."+tok.String(), off, false
				continue
			}
			if k == '"' {
				fn(top.key, tok.String(), top.keyOff, off, int(dec.InputOffset()))
			}
			if top.obj {
				top.wantName = true
			}
		}
	}
}
