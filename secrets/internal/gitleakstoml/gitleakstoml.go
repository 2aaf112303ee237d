// Package gitleakstoml converts gitleaks' rule file (TOML) to the data the
// secrets engine compiles. Only the generator and the tests use it, so the
// engine itself links no TOML parser.
package gitleakstoml

import (
	"fmt"

	"github.com/BurntSushi/toml"

	"github.com/svrnty/sotvet/secrets/internal/gitleaksrules"
)

type tomlFile struct {
	Allowlist  tomlAllowlist   `toml:"allowlist"`
	Allowlists []tomlAllowlist `toml:"allowlists"`
	Rules      []struct {
		ID          string          `toml:"id"`
		Description string          `toml:"description"`
		Regex       string          `toml:"regex"`
		SecretGroup int             `toml:"secretGroup"`
		Entropy     any             `toml:"entropy"` // TOML writes 4 as an integer
		Keywords    []string        `toml:"keywords"`
		Path        string          `toml:"path"`
		Allowlist   *tomlAllowlist  `toml:"allowlist"`
		Allowlists  []tomlAllowlist `toml:"allowlists"`
	} `toml:"rules"`
}

type tomlAllowlist struct {
	Description string   `toml:"description"`
	Condition   string   `toml:"condition"`
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	StopWords   []string `toml:"stopwords"`
	Paths       []string `toml:"paths"`
	Commits     []string `toml:"commits"`
}

func (a tomlAllowlist) conv() gitleaksrules.Allowlist {
	return gitleaksrules.Allowlist{Description: a.Description, Condition: a.Condition, RegexTarget: a.RegexTarget,
		Regexes: a.Regexes, StopWords: a.StopWords, Paths: a.Paths, Commits: a.Commits}
}

// FromTOML converts a gitleaks rule file. Global allowlists given as
// [[allowlists]] are merged into one only when there is a single one;
// several are an error, since the engine keeps one global list.
func FromTOML(src []byte) (*gitleaksrules.Set, error) {
	var f tomlFile
	if _, err := toml.Decode(string(src), &f); err != nil {
		return nil, fmt.Errorf("gitleaks.toml: %v", err)
	}
	set := &gitleaksrules.Set{Allowlist: f.Allowlist.conv()}
	switch len(f.Allowlists) {
	case 0:
	case 1:
		if len(f.Allowlist.Regexes)+len(f.Allowlist.Paths)+len(f.Allowlist.StopWords) > 0 {
			return nil, fmt.Errorf("gitleaks.toml: both [allowlist] and [[allowlists]]")
		}
		set.Allowlist = f.Allowlists[0].conv()
	default:
		return nil, fmt.Errorf("gitleaks.toml: %d global [[allowlists]], want at most 1", len(f.Allowlists))
	}
	seen := map[string]bool{}
	for _, r := range f.Rules {
		if r.ID == "" {
			return nil, fmt.Errorf("gitleaks.toml: a rule without an id")
		}
		if seen[r.ID] {
			return nil, fmt.Errorf("gitleaks.toml: duplicate rule id %q", r.ID)
		}
		seen[r.ID] = true
		var entropy float64
		switch e := r.Entropy.(type) {
		case nil:
		case int64:
			entropy = float64(e)
		case float64:
			entropy = e
		default:
			return nil, fmt.Errorf("gitleaks.toml: rule %s: entropy %v is not a number", r.ID, e)
		}
		out := gitleaksrules.Rule{ID: r.ID, Description: r.Description, Regex: r.Regex, SecretGroup: r.SecretGroup,
			Entropy: entropy, Keywords: r.Keywords, Path: r.Path}
		if r.Allowlist != nil {
			out.Allowlists = append(out.Allowlists, r.Allowlist.conv())
		}
		for _, a := range r.Allowlists {
			out.Allowlists = append(out.Allowlists, a.conv())
		}
		set.Rules = append(set.Rules, out)
	}
	return set, nil
}
