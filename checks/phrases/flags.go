package phrases

import (
	"flag"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/svrnty/sotvet/sotparse"
)

// globList is a comma-separated list of doublestar patterns. A comma inside
// braces is part of a pattern.
type globList []string

// Clone returns a copy, so that a configuration can be validated without
// changing the flag.
func (x *globList) Clone() flag.Value { c := slices.Clone(*x); return &c }

func (g *globList) String() string { return strings.Join(*g, ",") }

func (g *globList) Set(v string) error {
	var out []string
	for _, p := range splitOutsideBraces(v) {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if strings.HasPrefix(p, "/") || slices.Contains(strings.Split(p, "/"), "..") {
			return fmt.Errorf("pattern %q must be relative to the workspace root and must not contain ..", p)
		}
		if !doublestar.ValidatePattern(p) {
			return fmt.Errorf("pattern %q is not a valid glob", p)
		}
		out = append(out, path.Clean(p))
	}
	*g = out
	return nil
}

func (g globList) match(name string) bool {
	for _, p := range g {
		if ok, _ := doublestar.Match(p, name); ok {
			return true
		}
	}
	return false
}

func splitOutsideBraces(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// kindList is a comma-separated list of document kinds (PRD, ISSUES, ...,
// "other" for documents without a kind suffix).
type kindList []sotparse.Kind

// Clone returns a copy, so that a configuration can be validated without
// changing the flag.
func (x *kindList) Clone() flag.Value { c := slices.Clone(*x); return &c }

func (k *kindList) String() string {
	var s []string
	for _, x := range *k {
		s = append(s, string(x))
	}
	return strings.Join(s, ",")
}

func (k *kindList) Set(v string) error {
	var out []sotparse.Kind
	for _, s := range strings.Split(v, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		kind, ok := parseKind(s)
		if !ok {
			return fmt.Errorf("unknown document kind %q (want one of %s, other)", s, kindNames())
		}
		out = append(out, kind)
	}
	*k = out
	return nil
}

func (k kindList) has(kind sotparse.Kind) bool { return slices.Contains(k, kind) }

func parseKind(s string) (sotparse.Kind, bool) {
	if strings.EqualFold(s, string(sotparse.KindOther)) {
		return sotparse.KindOther, true
	}
	for _, k := range sotparse.Kinds {
		if strings.EqualFold(s, string(k)) {
			return k, true
		}
	}
	return "", false
}

func kindNames() string {
	var s []string
	for _, k := range sotparse.Kinds {
		s = append(s, string(k))
	}
	return strings.Join(s, ", ")
}

// sectionList is a comma-separated list of phrase section headings, each one
// of sotparse.PhraseSections (any case).
type sectionList []string

// Clone returns a copy, so that a configuration can be validated without
// changing the flag.
func (x *sectionList) Clone() flag.Value { c := slices.Clone(*x); return &c }

func (l *sectionList) String() string { return strings.Join(*l, ",") }

func (l *sectionList) Set(v string) error {
	var out []string
	for _, s := range strings.Split(v, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		i := slices.IndexFunc(sotparse.PhraseSections, func(p string) bool { return strings.EqualFold(p, s) })
		if i < 0 {
			return fmt.Errorf("unknown phrase section %q (want %s)", s, strings.Join(sotparse.PhraseSections, ", "))
		}
		out = append(out, sotparse.PhraseSections[i])
	}
	*l = out
	return nil
}
