// Package config reads sotvet.yaml, the per-workspace configuration, and
// validates it with positions against the registered checks.
package config

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v4"
	"golang.org/x/tools/go/analysis"
)

// FileName is the configuration file looked up at the workspace root.
const FileName = "sotvet.yaml"

// Config is the parsed sotvet.yaml.
type Config struct {
	Path        string
	Enable      []string          // when set, only these checks run
	Disable     []string          // checks that do not run
	FailOn      string            // "error" or "warning"
	Severity    map[string]string // "check" or "check/category" -> error|warning
	Statuses    []string          // extra status vocabulary
	MaxFileSize int64
	Settings    []Setting // per-check flag values, in file order
}

// Setting is one per-check flag value: checks.<check>.<flag>.
type Setting struct {
	Check, Flag, Value string
}

// Error is a configuration error at a position.
type Error struct {
	Path      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg) }

// Load reads and validates the configuration at path against the checks in
// registry. A missing file is reported as an error wrapping os.ErrNotExist.
func Load(path string, registry []*analysis.Analyzer) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, registry)
}

// Parse is Load over bytes.
func Parse(path string, data []byte, registry []*analysis.Analyzer) (*Config, error) {
	c := &Config{Path: path, Severity: map[string]string{}}
	errAt := func(n *yaml.Node, format string, args ...any) error {
		return &Error{Path: path, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)}
	}
	var doc yaml.Node
	if err := yaml.Load(data, &doc); err != nil {
		var le *yaml.LoadError
		if errors.As(err, &le) {
			return nil, &Error{Path: path, Line: le.Mark.Line, Col: le.Mark.Column, Msg: le.Message}
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return c, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, errAt(root, "configuration must be a mapping")
	}
	checkNames := map[string]*analysis.Analyzer{}
	for _, a := range registry {
		checkNames[a.Name] = a
	}
	checkName := func(n *yaml.Node) error {
		if n.Kind != yaml.ScalarNode {
			return errAt(n, "want a check name")
		}
		name, _, _ := strings.Cut(n.Value, "/")
		if _, ok := checkNames[name]; !ok && name != "suppression" {
			return errAt(n, "unknown check %q", name)
		}
		return nil
	}
	strList := func(n *yaml.Node, each func(*yaml.Node) error) ([]string, error) {
		if n.Kind != yaml.SequenceNode {
			return nil, errAt(n, "want a list")
		}
		var out []string
		for _, e := range n.Content {
			if e.Kind != yaml.ScalarNode {
				return nil, errAt(e, "want a string")
			}
			if each != nil {
				if err := each(e); err != nil {
					return nil, err
				}
			}
			out = append(out, e.Value)
		}
		return out, nil
	}
	severity := func(n *yaml.Node) error {
		if n.Kind != yaml.ScalarNode || (n.Value != "error" && n.Value != "warning") {
			return errAt(n, "want error or warning")
		}
		return nil
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if seen[k.Value] {
			return nil, errAt(k, "duplicate key %q", k.Value)
		}
		seen[k.Value] = true
		var err error
		switch k.Value {
		case "enable":
			c.Enable, err = strList(v, checkName)
		case "disable":
			c.Disable, err = strList(v, checkName)
		case "statuses":
			c.Statuses, err = strList(v, nil)
		case "fail-on":
			if err = severity(v); err == nil {
				c.FailOn = v.Value
			}
		case "max-file-size":
			n, perr := strconv.ParseInt(v.Value, 10, 64)
			if v.Kind != yaml.ScalarNode || perr != nil || n <= 0 {
				err = errAt(v, "want a positive number of bytes")
			}
			c.MaxFileSize = n
		case "severity":
			if v.Kind != yaml.MappingNode {
				return nil, errAt(v, "want a mapping of check to error|warning")
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				if err := checkName(v.Content[j]); err != nil {
					return nil, err
				}
				if err := severity(v.Content[j+1]); err != nil {
					return nil, err
				}
				c.Severity[v.Content[j].Value] = v.Content[j+1].Value
			}
		case "checks":
			if v.Kind != yaml.MappingNode {
				return nil, errAt(v, "want a mapping of check to settings")
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				ck, cv := v.Content[j], v.Content[j+1]
				if err := checkName(ck); err != nil {
					return nil, err
				}
				a := checkNames[ck.Value]
				if cv.Kind != yaml.MappingNode {
					return nil, errAt(cv, "want a mapping of setting to value")
				}
				for m := 0; m+1 < len(cv.Content); m += 2 {
					fk, fv := cv.Content[m], cv.Content[m+1]
					fl := a.Flags.Lookup(fk.Value)
					if fl == nil {
						return nil, errAt(fk, "check %s has no setting %q", a.Name, fk.Value)
					}
					val := fv.Value
					if fv.Kind == yaml.SequenceNode {
						list, err := strList(fv, nil)
						if err != nil {
							return nil, err
						}
						val = strings.Join(list, ",")
					} else if fv.Kind != yaml.ScalarNode {
						return nil, errAt(fv, "want a scalar or a list")
					}
					c.Settings = append(c.Settings, Setting{Check: a.Name, Flag: fk.Value, Value: val})
				}
			}
		default:
			err = errAt(k, "unknown key %q (want enable, disable, fail-on, severity, statuses, max-file-size or checks)", k.Value)
		}
		if err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Apply sets the configured per-check flags and the extra statuses on the
// analyzers. Flags already set on the command line win: pass their names as
// "check.flag" in explicit.
func (c *Config) Apply(registry []*analysis.Analyzer, explicit map[string]bool) error {
	for _, a := range registry {
		if len(c.Statuses) > 0 && a.Flags.Lookup("extra-statuses") != nil && !explicit[a.Name+".extra-statuses"] {
			if err := a.Flags.Set("extra-statuses", strings.Join(c.Statuses, ",")); err != nil {
				return err
			}
		}
	}
	for _, s := range c.Settings {
		if explicit[s.Check+"."+s.Flag] {
			continue
		}
		for _, a := range registry {
			if a.Name == s.Check {
				if err := a.Flags.Set(s.Flag, s.Value); err != nil {
					return fmt.Errorf("%s: checks.%s.%s: %w", c.Path, s.Check, s.Flag, err)
				}
			}
		}
	}
	return nil
}
