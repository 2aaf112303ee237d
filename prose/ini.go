package prose

import (
	"bufio"
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Level is an alert level, as Vale names them.
type Level int

const (
	Suggestion Level = iota
	Warning
	Error
)

func (l Level) String() string {
	switch l {
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "suggestion"
}

// ParseLevel reads a level name.
func ParseLevel(s string) (Level, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "suggestion":
		return Suggestion, true
	case "warning":
		return Warning, true
	case "error":
		return Error, true
	}
	return 0, false
}

// Config is what a .vale.ini says, before its styles are read.
type Config struct {
	Path          string // the .vale.ini, as given
	StylesPath    string // absolute, or relative to Path's directory
	MinAlertLevel Level
	Vocab         []string
	Sections      []Section // in file order; later sections win, as in Vale
}

// Section is one `[glob]` section.
type Section struct {
	Glob          string
	Line          int
	BasedOnStyles []string
	Rules         []RuleSetting // Style.Rule = NO|YES|level, and Style = NO
	Vocab         []string
	globs         []string
}

// RuleSetting turns one rule (Name has a dot) or a whole style off or on,
// or sets its level.
type RuleSetting struct {
	Name  string
	On    bool
	Level Level
	Set   bool // Level was given
	Line  int
}

// ConfigError is a problem in a configuration file, at a line.
type ConfigError struct {
	Path string
	Line int
	Col  int
	Msg  string
}

func (e *ConfigError) Error() string {
	if e.Col > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
}

// knownGlobal are the core settings sotvet reads or knowingly ignores
// (they change what Vale fetches or how it prints, not what a rule finds).
var knownGlobal = map[string]bool{
	"StylesPath": true, "MinAlertLevel": true, "Vocab": true,
	"Packages": true, "IgnoredScopes": true, "SkippedScopes": true, "IgnoredClasses": true,
	"WordTemplate": true, "NLPEndpoint": true,
}

// ParseConfig reads a .vale.ini.
func ParseConfig(name string, data []byte) (*Config, error) {
	c := &Config{Path: name, MinAlertLevel: Suggestion}
	var sec *Section
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := strings.TrimSpace(sc.Text())
		if lineNo == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.LastIndexByte(line, ']')
			if end < 0 {
				return nil, &ConfigError{name, lineNo, 1, "section header without a closing ]"}
			}
			glob := strings.TrimSpace(line[1:end])
			globs, err := expandBraces(glob)
			if err != nil {
				return nil, &ConfigError{name, lineNo, 2, err.Error()}
			}
			c.Sections = append(c.Sections, Section{Glob: glob, Line: lineNo, globs: globs})
			sec = &c.Sections[len(c.Sections)-1]
			continue
		}
		eq := strings.IndexByte(line, '=')
		if eq < 0 {
			return nil, &ConfigError{name, lineNo, 1, fmt.Sprintf("%q is not a key = value line", line)}
		}
		key := strings.TrimSpace(line[:eq])
		val := strings.TrimSpace(line[eq+1:])
		// valCol is the column of the value in the line as written.
		valCol := strings.Index(sc.Text(), "=") + 2
		if i := strings.Index(sc.Text()[valCol-1:], val); i >= 0 && val != "" {
			valCol += i
		}
		if sec == nil {
			switch key {
			case "StylesPath":
				c.StylesPath = val
			case "MinAlertLevel":
				l, ok := ParseLevel(val)
				if !ok {
					return nil, &ConfigError{name, lineNo, valCol, fmt.Sprintf("MinAlertLevel %q is not suggestion, warning or error", val)}
				}
				c.MinAlertLevel = l
			case "Vocab":
				c.Vocab = splitList(val)
			default:
				if !knownGlobal[key] {
					return nil, &ConfigError{name, lineNo, 1, fmt.Sprintf("unknown core setting %q", key)}
				}
			}
			continue
		}
		switch key {
		case "BasedOnStyles":
			sec.BasedOnStyles = splitList(val)
		case "Vocab":
			sec.Vocab = splitList(val)
		case "BlockIgnores", "TokenIgnores", "Transform", "Lang", "View", "CommentDelimiters", "IgnorePatterns":
			// Syntax settings sotvet does not apply; the check says so once.
		default:
			s := RuleSetting{Name: key, Line: lineNo}
			switch strings.ToUpper(val) {
			case "NO":
			case "YES":
				s.On = true
			default:
				l, ok := ParseLevel(val)
				if !ok {
					return nil, &ConfigError{name, lineNo, valCol, fmt.Sprintf("%s = %q: want YES, NO, suggestion, warning or error", key, val)}
				}
				s.On, s.Level, s.Set = true, l, true
			}
			sec.Rules = append(sec.Rules, s)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &ConfigError{name, lineNo + 1, 1, err.Error()}
	}
	return c, nil
}

// StylesDir returns StylesPath resolved against the .vale.ini's directory.
func (c *Config) StylesDir() string {
	if c.StylesPath == "" || filepath.IsAbs(c.StylesPath) {
		return c.StylesPath
	}
	return filepath.Join(filepath.Dir(c.Path), c.StylesPath)
}

// Matches reports whether the section applies to a file: its glob is
// matched against the path relative to the .vale.ini and, like Vale, against
// the base name for globs without a slash.
func (s *Section) Matches(rel string) bool {
	for _, g := range s.globs {
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
		if !strings.Contains(g, "/") {
			if ok, _ := doublestar.Match(g, path.Base(rel)); ok {
				return true
			}
		}
	}
	return false
}

// sectionsMatching returns which sections apply to a file, as a key.
func (c *Config) sectionsMatching(rel string) string {
	b := make([]byte, len(c.Sections))
	for i := range c.Sections {
		b[i] = '0'
		if c.Sections[i].Matches(rel) {
			b[i] = '1'
		}
	}
	return string(b)
}

// Styles returns, for a file, the styles and rule settings that apply: every
// matching section in order, a later one overriding an earlier one.
func (c *Config) Styles(rel string) (styles []string, settings map[string]RuleSetting) {
	settings = map[string]RuleSetting{}
	seen := map[string]bool{}
	for i := range c.Sections {
		s := &c.Sections[i]
		if !s.Matches(rel) {
			continue
		}
		if s.BasedOnStyles != nil {
			styles, seen = nil, map[string]bool{}
			for _, st := range s.BasedOnStyles {
				if !seen[st] {
					seen[st] = true
					styles = append(styles, st)
				}
			}
		}
		for _, r := range s.Rules {
			settings[r.Name] = r
		}
	}
	return styles, settings
}

// VocabFor returns the vocabularies that apply to a file.
func (c *Config) VocabFor(rel string) []string {
	out := append([]string(nil), c.Vocab...)
	for i := range c.Sections {
		if c.Sections[i].Matches(rel) && c.Sections[i].Vocab != nil {
			out = append(out, c.Sections[i].Vocab...)
		}
	}
	sort.Strings(out)
	return compact(out)
}

func compact(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// expandBraces expands one level of `{a,b}` alternatives, as Vale's globs
// take them (`[*.{md,txt}]`), into plain doublestar patterns.
func expandBraces(g string) ([]string, error) {
	if !doublestar.ValidatePattern(strings.NewReplacer("{", "", "}", "").Replace(g)) {
		return nil, fmt.Errorf("invalid glob %q", g)
	}
	open := strings.IndexByte(g, '{')
	if open < 0 {
		return []string{g}, nil
	}
	closing := strings.IndexByte(g[open:], '}')
	if closing < 0 {
		return nil, fmt.Errorf("glob %q has { without }", g)
	}
	closing += open
	var out []string
	for _, alt := range strings.Split(g[open+1:closing], ",") {
		rest, err := expandBraces(g[:open] + alt + g[closing+1:])
		if err != nil {
			return nil, err
		}
		out = append(out, rest...)
	}
	return out, nil
}
