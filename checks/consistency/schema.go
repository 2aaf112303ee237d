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

// schemaCount is how many documents of a kind use a schema, and the first
// of them in path order.
type schemaCount struct {
	n     int
	first *sotparse.Doc
}

// schemaTally counts the documents of each kind by schema name.
type schemaTally map[sotparse.Kind]map[string]*schemaCount

// tallyKey keeps the tally of the documents a session keeps.
var tallyKey sotparse.MemoKey

// docSchema returns the identity schema of d, if d has one to compare.
func docSchema(d *sotparse.Doc) (schema, bool) {
	if d.Frontmatter == nil || d.Kind == sotparse.KindOther {
		return 0, false
	}
	return sotparse.Memo(d, &schemaKey, func(d *sotparse.Doc) schema { return schemaOf(d.Frontmatter) }), true
}

// tallySchemas counts docs (in path order) by kind and schema.
func tallySchemas(docs []*sotparse.Doc) schemaTally {
	t := schemaTally{}
	for _, d := range docs {
		s, ok := docSchema(d)
		if !ok {
			continue
		}
		byName := t[d.Kind]
		if byName == nil {
			byName = map[string]*schemaCount{}
			t[d.Kind] = byName
		}
		c := byName[schemaNames[s]]
		if c == nil {
			c = &schemaCount{first: d}
			byName[schemaNames[s]] = c
		}
		c.n++
	}
	return t
}

// schemas reports documents whose identity schema differs from the
// declared one, or, without one, from the strict majority of their kind.
// The documents a session keeps are counted once (sotparse.Aggregate), the
// others each run; those reported on are in focus, so parsed (Live).
func (c *checker) schemas() {
	live := c.ws.Live()
	if len(declared) > 0 {
		want := slices.Clone(declared)
		slices.SortFunc(want, func(a, b string) int { return slices.Index(identityKeys, a) - slices.Index(identityKeys, b) })
		for _, d := range live {
			s, ok := docSchema(d)
			if !ok || !c.ws.Focused(d.Path) || slices.Equal(s.keys(), want) {
				continue
			}
			c.diag(d.Frontmatter.Pos, d.Frontmatter.Pos, "schema-drift",
				fmt.Sprintf("frontmatter identifies the document with %s, but the workspace's schema (-schema) is %s", schemaNames[s], strings.Join(want, "+")), nil, nil)
		}
		return
	}
	kept := sotparse.Aggregate(c.ws, &tallyKey, tallySchemas)
	now := tallySchemas(live)
	for _, kind := range sotparse.Kinds {
		count := map[string]*schemaCount{}
		total := 0
		for _, t := range []schemaTally{kept, now} {
			for name, sc := range t[kind] {
				m := count[name]
				if m == nil {
					m = &schemaCount{first: sc.first}
					count[name] = m
				} else if sc.first.Path < m.first.Path {
					m.first = sc.first
				}
				m.n += sc.n
				total += sc.n
			}
		}
		if len(count) < 2 {
			continue
		}
		// The convention is the schema of a strict majority of the kind: a
		// tie, or a plurality (13, 13 and 6 of 32), is no convention, and
		// nothing is reported (-schema declares one).
		best := ""
		for name, m := range count {
			if 2*m.n > total {
				best = name
			}
		}
		if best == "" {
			continue
		}
		example := count[best].first
		for _, d := range live {
			if d.Kind != kind || !c.ws.Focused(d.Path) {
				continue
			}
			s, ok := docSchema(d)
			if !ok || schemaNames[s] == best {
				continue
			}
			c.diag(d.Frontmatter.Pos, d.Frontmatter.Pos, "schema-drift",
				fmt.Sprintf("frontmatter identifies the document with %s, but most %s documents (%d of %d) use %s", schemaNames[s], kind, count[best].n, total, best),
				related(example.Frontmatter.Pos, "a document of kind %s that uses %s", kind, best), nil)
		}
	}
}
