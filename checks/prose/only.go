package prose

import (
	"flag"
	"fmt"
	"path"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/svrnty/sotvet/sotparse"
)

// Limit keeps rules to the documents and sections the SOT model names:
// what Vale's globs cannot say.
type Limit struct {
	Rules    []string `yaml:"rules"`    // Style.Rule, or Style.* for a whole style
	Kinds    []string `yaml:"kinds"`    // document kinds: PRD, EVIDENCE, ISSUES…
	Statuses []string `yaml:"statuses"` // frontmatter status values
	Sections []string `yaml:"sections"` // heading texts an alert must sit under
}

type onlyFlag struct {
	text   string
	limits []Limit
}

func (f *onlyFlag) String() string { return f.text }

// Set reads the limits from YAML: a list of mappings.
func (f *onlyFlag) Set(v string) error {
	var limits []Limit
	dec := yaml.NewDecoder(strings.NewReader(v))
	dec.KnownFields(true)
	if err := dec.Decode(&limits); err != nil && strings.TrimSpace(v) != "" {
		return fmt.Errorf("prose only: %w", err)
	}
	for i, l := range limits {
		if len(l.Rules) == 0 {
			return fmt.Errorf("prose only: entry %d names no rules", i+1)
		}
		for _, r := range l.Rules {
			if _, err := path.Match(r, "x.y"); err != nil || !strings.Contains(r, ".") {
				return fmt.Errorf("prose only: entry %d: %q is not Style.Rule or Style.*", i+1, r)
			}
		}
	}
	f.text, f.limits = v, limits
	return nil
}

// Clone returns a copy, for validating a value.
func (f *onlyFlag) Clone() flag.Value {
	c := *f
	return &c
}

// allowed reports whether rule may report at offset off of d: true unless
// some limit names the rule and none of the limits naming it holds there.
func allowed(limits []Limit, rule string, d *sotparse.Doc, off int) bool {
	named := false
	for _, l := range limits {
		if !namesRule(l.Rules, rule) {
			continue
		}
		named = true
		if holds(l, d, off) {
			return true
		}
	}
	return !named
}

func namesRule(patterns []string, rule string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, rule); ok {
			return true
		}
	}
	return false
}

func holds(l Limit, d *sotparse.Doc, off int) bool {
	if len(l.Kinds) > 0 && !containsFold(l.Kinds, string(d.Kind)) {
		return false
	}
	if len(l.Statuses) > 0 {
		status := ""
		if d.Frontmatter != nil && d.Frontmatter.Status != nil {
			status = d.Frontmatter.Status.Value
		}
		if !containsFold(l.Statuses, status) {
			return false
		}
	}
	if len(l.Sections) > 0 && !underSection(l.Sections, d, off) {
		return false
	}
	return true
}

// underSection reports whether off lies under a heading (of any level
// above it) whose text one of names is, case aside.
func underSection(names []string, d *sotparse.Doc, off int) bool {
	pos := d.File.Pos(off)
	level := 7
	for i := len(d.Headings) - 1; i >= 0; i-- {
		h := d.Headings[i]
		if h.Pos > pos || h.Level >= level {
			continue
		}
		level = h.Level
		if containsFold(names, strings.TrimSpace(h.Text)) {
			return true
		}
	}
	return false
}

func containsFold(list []string, v string) bool {
	for _, x := range list {
		if strings.EqualFold(x, v) {
			return true
		}
	}
	return false
}
