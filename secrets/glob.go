package secrets

import (
	"fmt"
	"path"
	"strings"
)

// globMatcher matches slash-separated paths against a pattern whose segments
// follow path.Match, plus "**", a whole segment that matches zero or more
// segments.
type globMatcher struct {
	pattern string
	segs    []string
	// literal holds the pattern's segments without a metacharacter: a
	// path the pattern matches has each as a whole segment, which is
	// looked for before the path is split and matched segment by segment
	// (scan matches every file's path against the vendored rule data's
	// "**/secrets/rules/third_party/*/rules/*.y*ml").
	literal []string
}

func compileGlob(pattern string) (*globMatcher, error) {
	p := strings.TrimPrefix(path.Clean(strings.ReplaceAll(pattern, `\`, "/")), "./")
	if pattern == "" || p == "." {
		return nil, fmt.Errorf("secrets: empty allow path pattern")
	}
	if strings.HasPrefix(p, "/") {
		p = strings.TrimPrefix(p, "/")
	}
	segs := strings.Split(p, "/")
	for _, s := range segs {
		if s == ".." {
			return nil, fmt.Errorf("secrets: allow path pattern %q: \"..\" is not allowed", pattern)
		}
		if strings.Contains(s, "**") && s != "**" {
			return nil, fmt.Errorf("secrets: allow path pattern %q: \"**\" must be a whole path segment", pattern)
		}
		if _, err := path.Match(s, ""); err != nil {
			return nil, fmt.Errorf("secrets: allow path pattern %q: %w", pattern, err)
		}
	}
	g := &globMatcher{pattern: pattern, segs: segs}
	for _, s := range segs {
		if s != "" && !strings.ContainsAny(s, `*?[\`) {
			g.literal = append(g.literal, s)
		}
	}
	return g, nil
}

// hasSegment reports whether seg is one of the slash-separated segments
// of p.
func hasSegment(p, seg string) bool {
	for i := 0; i+len(seg) <= len(p); {
		j := strings.Index(p[i:], seg)
		if j < 0 {
			return false
		}
		j += i
		if (j == 0 || p[j-1] == '/') && (j+len(seg) == len(p) || p[j+len(seg)] == '/') {
			return true
		}
		i = j + 1
	}
	return false
}

// cleanPath turns a file path into the form patterns are matched against:
// slash-separated, cleaned, relative, without a leading "./".
func cleanPath(p string) (string, bool) {
	p = path.Clean(strings.ReplaceAll(p, `\`, "/"))
	p = strings.TrimPrefix(p, "/")
	if p == "." || p == "" || p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

func (g *globMatcher) match(cleaned string) bool {
	for _, s := range g.literal {
		if !hasSegment(cleaned, s) {
			return false
		}
	}
	return matchSegs(g.segs, strings.Split(cleaned, "/"))
}

func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			// Collapse runs of "**".
			for len(pat) > 1 && pat[1] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 1 {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if matchSegs(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}
