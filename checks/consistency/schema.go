package consistency

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/svrnty/sotvet/sotparse"
)

// identityKeys are the frontmatter keys a document identifies itself with;
// documents of one kind should agree on them.
var identityKeys = []string{"name", "title", "tier", "description", "route"}

// isSlug reports whether s is a slug: [a-z0-9][a-z0-9._-]*.
func isSlug(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || i > 0 && (c == '.' || c == '_' || c == '-')) {
			return false
		}
	}
	return s != ""
}

// schemaFlag is -schema: the identity keys every document must have.
type schemaFlag []string

func (s *schemaFlag) String() string { return strings.Join(*s, ",") }

// Set replaces the keys; each must be an identity key.
func (s *schemaFlag) Set(v string) error {
	var out []string
	for _, k := range strings.Split(v, ",") {
		k = strings.TrimSpace(k)
		if k == "" {
			continue
		}
		if !slices.Contains(identityKeys, k) {
			return fmt.Errorf("unknown identity key %q (want some of %s)", k, strings.Join(identityKeys, ", "))
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	*s = out
	return nil
}

// Clone returns a copy, so that the configuration can validate a value.
func (s *schemaFlag) Clone() flag.Value { c := slices.Clone(*s); return &c }

var declared schemaFlag

// schema is the identity keys of a frontmatter: bit i for identityKeys[i],
// and titleName for a name that is not a slug.
type schema uint8

const titleName schema = 1 << 7

// schemaOf returns the identity schema of fm.
// schemaKey keeps the schema of a document a session keeps.
var schemaKey sotparse.MemoKey

func schemaOf(fm *sotparse.Frontmatter) schema {
	var s schema
	for i, k := range identityKeys {
		f := fm.Get(k)
		if f == nil {
			continue
		}
		s |= 1 << i
		if k == "name" && f.Scalar && !isSlug(strings.TrimSpace(f.Value)) {
			s |= titleName
		}
	}
	return s
}

// keys returns the schema's identity keys in identityKeys order.
func (s schema) keys() []string {
	var keys []string
	for i, k := range identityKeys {
		if s&(1<<i) != 0 {
			keys = append(keys, k)
		}
	}
	return keys
}

// schemaNames holds the name of every schema: its keys joined by "+",
// "name (a title)" for a name that is not a slug. Every document has one:
// they share these strings.
var schemaNames = func() (names [256]string) {
	for s := range names {
		var parts []string
		for i, k := range identityKeys {
			switch {
			case s&(1<<i) == 0:
			case k == "name" && schema(s)&titleName != 0:
				parts = append(parts, "name (a title)")
			default:
				parts = append(parts, k)
			}
		}
		names[s] = "no identity key"
		if len(parts) > 0 {
			names[s] = strings.Join(parts, "+")
		}
	}
	return names
}()

// schemas reports documents whose identity schema differs from the
// declared one, or, without one, from the strict majority of their kind.
func (c *checker) schemas() {
	type entry struct {
		d      *sotparse.Doc
		keys   schema
		schema string
	}
	all := make([]entry, 0, len(c.ws.Docs))
	for _, d := range c.ws.Docs {
		if d.Frontmatter == nil || d.Kind == sotparse.KindOther {
			continue
		}
		s := sotparse.Memo(d, &schemaKey, func(d *sotparse.Doc) schema { return schemaOf(d.Frontmatter) })
		all = append(all, entry{d, s, schemaNames[s]})
	}
	if len(declared) > 0 {
		want := slices.Clone(declared)
		slices.SortFunc(want, func(a, b string) int { return slices.Index(identityKeys, a) - slices.Index(identityKeys, b) })
		for _, e := range all {
			if !c.ws.Focused(e.d.Path) || slices.Equal(e.keys.keys(), want) {
				continue
			}
			c.diag(e.d.Frontmatter.Pos, e.d.Frontmatter.Pos, "schema-drift",
				fmt.Sprintf("frontmatter identifies the document with %s, but the workspace's schema (-schema) is %s", e.schema, strings.Join(want, "+")), nil, nil)
		}
		return
	}
	byKind := map[sotparse.Kind][]entry{}
	for _, e := range all {
		byKind[e.d.Kind] = append(byKind[e.d.Kind], e)
	}
	for _, kind := range sotparse.Kinds {
		es := byKind[kind]
		count := map[string]int{}
		for _, e := range es {
			count[e.schema]++
		}
		if len(count) < 2 {
			continue
		}
		// The convention is the schema of a strict majority of the kind: a
		// tie, or a plurality (13, 13 and 6 of 32), is no convention, and
		// nothing is reported (-schema declares one).
		best := ""
		for s, n := range count {
			if 2*n > len(es) {
				best = s
			}
		}
		if best == "" {
			continue
		}
		var example *sotparse.Doc
		for _, e := range es {
			if e.schema == best {
				example = e.d
				break
			}
		}
		for _, e := range es {
			if e.schema == best || !c.ws.Focused(e.d.Path) {
				continue
			}
			c.diag(e.d.Frontmatter.Pos, e.d.Frontmatter.Pos, "schema-drift",
				fmt.Sprintf("frontmatter identifies the document with %s, but most %s documents (%d of %d) use %s", e.schema, kind, count[best], len(es), best),
				related(example.Frontmatter.Pos, "a document of kind %s that uses %s", kind, best), nil)
		}
	}
}
