// Package flagutil holds the flag.Value types several checks share: lists
// of workspace path globs and of document kinds. Each has Clone, so that the
// configuration can validate a value at its position without setting it.
package flagutil

import (
	"flag"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/svrnty/sotvet/sotparse"
)

// Globs is a comma-separated list of doublestar patterns over
// workspace-relative paths. A comma inside braces is part of a pattern.
type Globs []string

// Clone returns a copy.
func (g *Globs) Clone() flag.Value { c := slices.Clone(*g); return &c }

func (g *Globs) String() string { return strings.Join(*g, ",") }

// Set replaces the list; a pattern must be relative, free of "..", and a
// valid glob.
func (g *Globs) Set(v string) error {
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

// Match reports whether name matches any pattern.
func (g Globs) Match(name string) bool {
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

// Kinds is a comma-separated list of document kinds (PRD, ISSUES, ...,
// "other" for documents without a kind suffix), in any case.
type Kinds []sotparse.Kind

// Clone returns a copy.
func (k *Kinds) Clone() flag.Value { c := slices.Clone(*k); return &c }

func (k *Kinds) String() string {
	var s []string
	for _, x := range *k {
		s = append(s, string(x))
	}
	return strings.Join(s, ",")
}

// Set replaces the list; an unknown kind is an error.
func (k *Kinds) Set(v string) error {
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

// Has reports whether kind is in the list.
func (k Kinds) Has(kind sotparse.Kind) bool { return slices.Contains(k, kind) }

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

// Words is a comma-separated list of words or phrases, blanks dropped.
type Words []string

// Clone returns a copy.
func (w *Words) Clone() flag.Value { c := slices.Clone(*w); return &c }

func (w *Words) String() string { return strings.Join(*w, ",") }

// Set replaces the list.
func (w *Words) Set(v string) error {
	*w = nil
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*w = append(*w, s)
		}
	}
	return nil
}
