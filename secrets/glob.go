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
	return &globMatcher{pattern: pattern, segs: segs}, nil
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
