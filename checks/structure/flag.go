package structure

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// sectionList is the -prd-sections flag: groups of alternative section
// names. It accepts a comma-separated list ("Problem Statement|Problem,
// Scope") or a YAML list whose items are strings (with "|" alternatives) or
// lists of alternatives.
type sectionList struct {
	groups [][]string
}

func mustSections(v string) *sectionList {
	s := new(sectionList)
	if err := s.Set(v); err != nil {
		panic(err)
	}
	return s
}

func (s *sectionList) String() string {
	if s == nil {
		return ""
	}
	g := make([]string, len(s.groups))
	for i, alts := range s.groups {
		g[i] = strings.Join(alts, "|")
	}
	return strings.Join(g, ",")
}

// Clone returns an independent copy, so that a configuration can be
// validated without changing the flag.
func (s *sectionList) Clone() flag.Value {
	c := &sectionList{groups: make([][]string, len(s.groups))}
	for i, alts := range s.groups {
		c.groups[i] = append([]string(nil), alts...)
	}
	return c
}

// Set replaces the list.
func (s *sectionList) Set(v string) error {
	t := strings.TrimSpace(v)
	var items []any
	if strings.HasPrefix(t, "-") || strings.HasPrefix(t, "[") {
		if err := yaml.Unmarshal([]byte(v), &items); err != nil {
			return fmt.Errorf("prd-sections: %w", err)
		}
	} else if t != "" {
		for _, p := range strings.Split(t, ",") {
			if strings.TrimSpace(p) != "" {
				items = append(items, p)
			}
		}
	}
	var groups [][]string
	for _, it := range items {
		var alts []string
		switch it := it.(type) {
		case string:
			alts = strings.Split(it, "|")
		case []any:
			for _, a := range it {
				str, ok := a.(string)
				if !ok {
					return fmt.Errorf("prd-sections: want section names, got %v", a)
				}
				alts = append(alts, strings.Split(str, "|")...)
			}
		default:
			return fmt.Errorf("prd-sections: want a section name or a list of alternatives, got %v", it)
		}
		for i := range alts {
			alts[i] = strings.TrimSpace(alts[i])
			if alts[i] == "" {
				return errors.New("prd-sections: empty section name")
			}
		}
		if len(alts) == 0 {
			return errors.New("prd-sections: empty list of alternatives")
		}
		groups = append(groups, alts)
	}
	s.groups = groups
	return nil
}
