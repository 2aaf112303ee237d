package phrases

import (
	"errors"
	"flag"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	yaml "go.yaml.in/yaml/v4"

	"github.com/svrnty/sotvet/sotparse"
)

// Rule is one configured phrase requirement of the -rules set.
type Rule struct {
	// Docs is a doublestar glob of the documents the rule applies to.
	Docs string `yaml:"docs,omitempty"`
	// Item is a work item id: the rule applies to the documents that
	// define the item (its heading).
	Item string `yaml:"item,omitempty"`
	// In names the document the phrases must appear in: "self" (the
	// document the rule applies to), "route" (the route's target, the
	// default) or a workspace-relative document path.
	In string `yaml:"in,omitempty"`
	// Phrases must each appear in that document.
	Phrases []string `yaml:"phrases"`
}

// Where a rule's phrases are looked for.
const (
	InSelf  = "self"
	InRoute = "route"
)

func (r *Rule) in() string {
	if r.In == "" {
		return InRoute
	}
	return r.In
}

func validateRules(rs []Rule) error {
	for i, r := range rs {
		where := fmt.Sprintf("rule %d", i+1)
		switch {
		case r.Docs == "" && r.Item == "":
			return fmt.Errorf("%s: want docs (a glob) or item (a work item id)", where)
		case r.Docs != "" && r.Item != "":
			return fmt.Errorf("%s: docs and item exclude each other", where)
		}
		if r.Docs != "" {
			if strings.HasPrefix(r.Docs, "/") || slices.Contains(strings.Split(r.Docs, "/"), "..") {
				return fmt.Errorf("%s: docs pattern %q must be relative to the workspace root and must not contain ..", where, r.Docs)
			}
			if !doublestar.ValidatePattern(r.Docs) {
				return fmt.Errorf("%s: docs pattern %q is not a valid glob", where, r.Docs)
			}
		}
		if r.Item != "" && strings.ContainsAny(r.Item, " \t\n") {
			return fmt.Errorf("%s: item %q is not a work item id", where, r.Item)
		}
		if in := r.in(); in != InSelf && in != InRoute {
			if strings.HasPrefix(in, "/") || slices.Contains(strings.Split(in, "/"), "..") || path.Clean(in) != in {
				return fmt.Errorf("%s: in %q: want self, route or a clean workspace-relative document path", where, in)
			}
			if !strings.HasSuffix(in, ".md") {
				return fmt.Errorf("%s: in %q: want self, route or the path of a markdown document", where, in)
			}
		}
		if len(r.Phrases) == 0 {
			return fmt.Errorf("%s: phrases: want a non-empty list", where)
		}
		for j, p := range r.Phrases {
			if sotparse.PlainText(p) == "" {
				return fmt.Errorf("%s: phrase %d is empty", where, j+1)
			}
		}
	}
	return nil
}

// RuleSet is the -rules flag: a YAML list of Rule mappings.
type RuleSet struct{ rules []Rule }

// String renders the set as YAML, the form Set reads ("" when empty).
func (s *RuleSet) String() string {
	if s == nil || len(s.rules) == 0 {
		return ""
	}
	b, err := yaml.Dump(s.rules, yaml.WithLineWidth(-1))
	if err != nil {
		return ""
	}
	return string(b)
}

// Set parses a YAML list of rules, replacing the set.
func (s *RuleSet) Set(v string) error {
	if strings.TrimSpace(v) == "" {
		s.rules = nil
		return nil
	}
	var n yaml.Node
	if err := yaml.Load([]byte(v), &n); err != nil {
		return err
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = *n.Content[0]
	}
	if n.Kind != yaml.SequenceNode {
		return errors.New("want a list of phrase rules (mappings with docs or item, in, phrases)")
	}
	var rs []Rule
	if err := yaml.Load([]byte(v), &rs, yaml.WithKnownFields(), yaml.WithUniqueKeys(true)); err != nil {
		return err
	}
	if err := validateRules(rs); err != nil {
		return err
	}
	s.rules = rs
	return nil
}

// Clone returns an independent copy, so that a configuration can be
// validated without changing the flag.
func (s *RuleSet) Clone() flag.Value { return &RuleSet{rules: slices.Clone(s.rules)} }

// Rules returns the rules of the set.
func (s *RuleSet) Rules() []Rule { return slices.Clone(s.rules) }
