package records

import (
	"bytes"
	"go/token"
	"strings"
	"sync"
	"unicode"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/svrnty/sotvet/internal/warmup"
	engine "github.com/svrnty/sotvet/secrets"
)

// scanner is the secrets engine, the same one the secrets check and the
// harness use: one definition of what a credential looks like.
var scanner = sync.OnceValue(func() *engine.Scanner {
	sc, err := engine.NewScanner(engine.DefaultConfig())
	if err != nil {
		panic("records: default secrets rules do not compile: " + err.Error())
	}
	return sc
})

func init() { warmup.Register(Analyzer.Name, func() { scanner() }) }

// credentialFormat returns the description of the credential format s
// contains, or "".
func credentialFormat(s string) string {
	for _, f := range scanner().Scan("", []byte(s)) {
		if !f.Allowed && f.RuleID != "endpoint-value" {
			return f.Description
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
