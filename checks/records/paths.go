package records

import (
	"bytes"
	"go/token"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-json-experiment/json/jsontext"
)

// element is one element of a JSON array member.
type element struct {
	off int // byte offset of the element in the member's value
	raw jsontext.Value
	s   string // the decoded string, for string elements
}

func isJSONSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// elements splits a JSON array into its elements with their offsets. It
// reports false when v is not a well-formed array.
func elements(v jsontext.Value) ([]element, bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(v))
	tok, err := dec.ReadToken()
	if err != nil || tok.Kind() != '[' {
		return nil, false
	}
	var out []element
	for {
		switch dec.PeekKind() {
		case ']':
			return out, true
		case 0:
			return out, false
		}
		off := int(dec.InputOffset())
		val, err := dec.ReadValue()
		if err != nil {
			return out, false
		}
		for off < len(v) && (isJSONSpace(v[off]) || v[off] == ',') {
			off++
		}
		out = append(out, element{off: off, raw: val.Clone()})
	}
}

// pathEntry is a well-formed entry of allowed_paths or forbidden_paths.
type pathEntry struct {
	raw      string
	clean    string // path.Clean of raw: no trailing slash
	glob     bool
	pos, end token.Pos
}

const globChars = "*?[{"

// paths validates the entries of a path list member and returns the
// well-formed ones.
func (c *checker) paths(name, category string, allowed bool) []pathEntry {
	m := c.r.Member(name)
	var out []pathEntry
	for _, e := range c.lists[name] {
		p := m.ValuePos + token.Pos(e.off)
		end := p + token.Pos(len(e.raw))
		if msg := pathProblem(e.s, allowed); msg != "" {
			c.report(p, end, category, "%s entry %s", name, msg)
			continue
		}
		out = append(out, pathEntry{raw: e.s, clean: path.Clean(e.s), glob: strings.ContainsAny(e.s, globChars), pos: p, end: end})
	}
	return out
}

// pathProblem says what is wrong with an entry of allowed_paths (allowed)
// or forbidden_paths, or returns "". Both must be relative, without ".."
// segments; allowed paths must be explicit: no globs, not ".".
func pathProblem(s string, allowed bool) string {
	glob := strings.ContainsAny(s, globChars)
	switch {
	case strings.TrimSpace(s) == "":
		return "is empty"
	case s != strings.TrimSpace(s):
		return quote(s) + " has leading or trailing white space"
	case strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~"):
		return quote(s) + " is absolute; paths are relative to the target repository"
	case strings.Contains(s, "\\"):
		return quote(s) + " contains a backslash; use / as the separator"
	case hasDotDot(s):
		return quote(s) + ` contains ".."`
	case allowed && glob:
		return quote(s) + " is a glob; allowed paths must be explicit file or directory paths"
	case allowed && path.Clean(s) == ".":
		return quote(s) + " is the whole repository; allowed paths must be explicit file or directory paths"
	case glob && !doublestar.ValidatePattern(s):
		return quote(s) + " is not a valid glob"
	}
	return ""
}

func hasDotDot(s string) bool {
	for _, seg := range strings.Split(s, "/") {
		if seg == ".." {
			return true
		}
	}
	return false
}

// overlap describes how the allowed path a overlaps the forbidden path f
// ("is", "is under", "contains", ...), or returns "".
func overlap(a, f pathEntry) string {
	if f.glob {
		if ok, _ := doublestar.Match(f.clean, a.clean); ok {
			return "matches forbidden pattern"
		}
		for d := path.Dir(a.clean); d != "." && d != "/"; d = path.Dir(d) {
			if ok, _ := doublestar.Match(f.clean, d); ok {
				return "is under a directory matching forbidden pattern"
			}
		}
		if lit := literalDir(f.clean); lit != "" && (lit == a.clean || strings.HasPrefix(lit, a.clean+"/")) {
			return "contains paths matching forbidden pattern"
		}
		return ""
	}
	switch {
	case a.clean == f.clean:
		return "is forbidden path"
	case f.clean == ".":
		return "is under forbidden path"
	case strings.HasPrefix(a.clean, f.clean+"/"):
		return "is under forbidden path"
	case strings.HasPrefix(f.clean, a.clean+"/"):
		return "contains forbidden path"
	}
	return ""
}

// literalDir returns the leading directories of a glob that have no glob
// characters ("src/gen/*.go" -> "src/gen"), or "".
func literalDir(pattern string) string {
	segs := strings.Split(pattern, "/")
	n := 0
	for n < len(segs)-1 && !strings.ContainsAny(segs[n], globChars) {
		n++
	}
	return strings.Join(segs[:n], "/")
}
