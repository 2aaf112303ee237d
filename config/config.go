// Package config reads sotvet.yaml, the per-workspace configuration, and
// validates it with positions against the registered checks.
package config

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	slashpath "path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v4"

	"github.com/svrnty/sotvet/internal/stage"
	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/internal/didyoumean"
	"github.com/svrnty/sotvet/internal/lazyre"
	"github.com/svrnty/sotvet/internal/safefs"
)

// FileName is the configuration file looked up at the workspace root.
const FileName = "sotvet.yaml"

// Config is the parsed sotvet.yaml.
type Config struct {
	Path        string
	Enable      []string          // when set, only these checks (or check/category codes) run
	Disable     []string          // checks (or check/category codes) that do not run
	FailOn      string            // "error" or "warning"
	Severity    map[string]string // "check" or "check/category" -> error|warning|off
	Statuses    []string          // extra status vocabulary
	MaxFileSize int64
	Settings    []Setting // per-check flag values, in file order
	Workspaces  []Place   // workspace directories, relative to the file's directory
	// Baseline is the baseline file (sotvet check --write-baseline),
	// relative to the file's directory; empty Value for none. BaselinePath
	// resolves it.
	Baseline Place
	// SeverityKeys are the keys under severity:, with positions, for the
	// caller to check categories against the checks (a claim rule's id is
	// known only once the settings are applied).
	SeverityKeys []Place
	// CodeKeys are the check/category entries of enable: and disable:,
	// with positions, checked as SeverityKeys are.
	CodeKeys []Place
	// TrustedKeys are the ed25519 public keys (standard base64 of the raw
	// 32 bytes, as report.json's signing.public_key) whose signature makes
	// a harness run trustworthy; verify and the evidence check require one.
	TrustedKeys []string
	// MaxFindingsPerFile and MaxFindings cap the findings reported (nil:
	// the defaults; 0: no cap).
	MaxFindingsPerFile, MaxFindings *int
}

// Place is a value of the file with its position, for errors found later
// (a named workspace directory that does not exist, say).
type Place struct {
	Value     string
	Line, Col int
}

// Errorf returns an error at p in the configuration file.
func (c *Config) Errorf(p Place, format string, args ...any) error {
	return &Error{Path: c.Path, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, args...)}
}

// Setting is one per-check flag value: checks.<check>.<flag>. A scalar is
// passed to the flag as is, a list of scalars comma-joined, and anything
// structured (a list of mappings, say) as YAML text, which the flag parses.
type Setting struct {
	Check, Flag, Value string
	Line, Col          int
}

func settingValue(data []byte, n *yaml.Node) (string, error) {
	switch n.Kind {
	case yaml.ScalarNode:
		return n.Value, nil
	case yaml.SequenceNode:
		var parts []string
		for _, e := range n.Content {
			// Structured entries, or entries that hold commas themselves
			// (regular expressions), go to the flag as YAML.
			if e.Kind != yaml.ScalarNode || strings.Contains(e.Value, ",") {
				return source(data, n), nil
			}
			parts = append(parts, e.Value)
		}
		return strings.Join(parts, ","), nil
	case yaml.MappingNode:
		return source(data, n), nil
	}
	return "", errors.New("want a scalar, a list or a mapping")
}

// source returns the text of a structured node as written in the file,
// dedented, so that "line N" in a flag's parse error is line N of the node
// (see settingError). The node runs from its first line while the following
// lines are blank, comments, or indented at least as far as it is (a
// sequence's items may sit at its key's indentation).
func source(data []byte, n *yaml.Node) string {
	lines := strings.Split(string(data), "\n")
	indent := n.Column - 1
	first := n.Line - 1
	if first < 0 || first >= len(lines) {
		b, _ := yaml.Dump(n, yaml.WithLineWidth(-1))
		return string(b)
	}
	out := []string{cut(lines[first], indent)}
	for _, l := range lines[first+1:] {
		t := strings.TrimLeft(l, " ")
		lead := len(l) - len(t)
		comment := strings.HasPrefix(t, "#")
		if t != "" && !comment && (lead < indent || lead == indent && !(n.Kind == yaml.SequenceNode && strings.HasPrefix(t, "-"))) {
			break
		}
		out = append(out, cut(l, min(lead, indent)))
	}
	return strings.Join(out, "\n") + "\n"
}

func cut(s string, n int) string {
	if n > len(s) {
		return ""
	}
	return s[n:]
}

var (
	lineRef   = lazyre.New(`\bline (\d+)(?:, column (\d+))?:? ?`)
	yamlNoise = lazyre.New(`yaml: (?:construct errors: |unmarshal errors:\n\s*)?`)
	typeName  = lazyre.New(` in type (?:struct \{[^}]*\}|[\w.*\[\]]+)`)
	noField   = lazyre.New(`field (\S+) not found`)
)

// settingError places an error about a structured setting's text (see
// source) at its line in sotvet.yaml and rewords the YAML decoder's message:
// no line numbers of the setting's own text, no Go type names.
func settingError(path string, data []byte, n *yaml.Node, prefix string, err error) *Error {
	msg := err.Error()
	line, col := n.Line, n.Column
	if m := lineRef.FindStringSubmatchIndex(msg); m != nil {
		// The first line reference is where the error is: it becomes the
		// position; later ones ("already defined at line 4") are mapped.
		k, _ := strconv.Atoi(msg[m[2]:m[3]])
		line = n.Line + k - 1
		col = 1
		if ls := strings.Split(string(data), "\n"); line-1 < len(ls) {
			col = len(ls[line-1]) - len(strings.TrimLeft(ls[line-1], " ")) + 1
		}
		rest := lineRef.ReplaceAllStringFunc(msg[m[1]:], func(r string) string {
			k, _ := strconv.Atoi(lineRef.FindStringSubmatch(r)[1])
			return fmt.Sprintf("line %d", k+n.Line-1)
		})
		msg = msg[:m[0]] + rest
	}
	msg = yamlNoise.ReplaceAllString(msg, "")
	msg = typeName.ReplaceAllString(msg, "")
	msg = noField.ReplaceAllString(msg, `unknown key "$1"`)
	return &Error{Path: path, Line: line, Col: col, Msg: prefix + ": " + msg}
}

// trySet checks that value is acceptable to the flag without changing the
// flag: flag.Values of a known shape are probed on a fresh copy; other
// values are checked when the configuration is applied.
func trySet(f *flag.Flag, value string) error {
	type cloner interface{ Clone() flag.Value }
	if c, ok := f.Value.(cloner); ok {
		return c.Clone().Set(value)
	}
	if g, ok := f.Value.(flag.Getter); ok {
		switch g.Get().(type) {
		case bool:
			_, err := strconv.ParseBool(value)
			return err
		case int, int64:
			_, err := strconv.ParseInt(value, 0, 64)
			return err
		}
	}
	return nil
}

// Error is a configuration error at a position.
type Error struct {
	Path      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg) }

// MaxSize caps the configuration file: it is read before any other limit is
// known, and a FIFO or a device in its place must not hang the run.
const MaxSize = 1 << 20

// LoadIn reads the configuration file FileName of the workspace root dir,
// resolved under dir (a link leading out of it is an error).
func LoadIn(dir string, registry []*analysis.Analyzer) (*Config, error) {
	data, err := safefs.ReadIn(dir, FileName, MaxSize)
	if err != nil {
		return nil, err
	}
	return Parse(filepath.Join(dir, FileName), data, registry)
}

// Load reads and validates the configuration at path against the checks in
// registry. A missing file is reported as an error wrapping os.ErrNotExist.
func Load(path string, registry []*analysis.Analyzer) (*Config, error) {
	data, err := safefs.ReadPath(path, MaxSize)
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
	if len(bytes.TrimSpace(stripComments(data))) == 0 {
		return c, nil // nothing set: the defaults
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
	names := make([]string, 0, len(registry)+1)
	for _, a := range registry {
		names = append(names, a.Name)
	}
	names = append(names, "suppression")
	checkName := func(n *yaml.Node) error {
		if n.Kind != yaml.ScalarNode {
			return errAt(n, "want a check name")
		}
		if _, ok := checkNames[n.Value]; !ok {
			return errAt(n, "unknown check %q%s", n.Value, didyoumean.Hint(n.Value, names))
		}
		return nil
	}
	// enable: and disable: take a check or a check/category code; the
	// caller checks the category, as for severity:.
	codeName := func(n *yaml.Node) error {
		if n.Kind != yaml.ScalarNode {
			return errAt(n, "want a check name or check/category")
		}
		name, _, hasCat := strings.Cut(n.Value, "/")
		if _, ok := checkNames[name]; !ok && !(hasCat && name == "suppression") {
			return errAt(n, "unknown check %q%s", name, didyoumean.Hint(name, names))
		}
		if hasCat {
			c.CodeKeys = append(c.CodeKeys, Place{Value: n.Value, Line: n.Line, Col: n.Column})
		}
		return nil
	}
	// Severities also apply to a check's category ("check/category") and to
	// the driver's suppression findings.
	severityKey := func(n *yaml.Node) error {
		if n.Kind != yaml.ScalarNode {
			return errAt(n, "want a check name")
		}
		name, _, _ := strings.Cut(n.Value, "/")
		if _, ok := checkNames[name]; !ok && name != "suppression" {
			return errAt(n, "unknown check %q%s", name, didyoumean.Hint(name, names))
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
			c.Enable, err = strList(v, codeName)
		case "disable":
			c.Disable, err = strList(v, codeName)
		case "statuses":
			c.Statuses, err = strList(v, nil)
		case "workspaces":
			var dirs []string
			if dirs, err = strList(v, workspaceDir(errAt)); err == nil {
				for i, d := range dirs {
					c.Workspaces = append(c.Workspaces, Place{Value: slashpath.Clean(d), Line: v.Content[i].Line, Col: v.Content[i].Column})
				}
			}
		case "baseline":
			// Inside the directory: check reads only the workspace, and
			// a workspace's configuration names its own baseline.
			if cl := slashpath.Clean(v.Value); v.Kind != yaml.ScalarNode || v.Value == "" || slashpath.IsAbs(v.Value) || strings.Contains(v.Value, "\\") || cl == ".." || strings.HasPrefix(cl, "../") {
				err = errAt(v, "baseline: want a slash path inside the directory of this file")
			} else {
				c.Baseline = Place{Value: slashpath.Clean(v.Value), Line: v.Line, Col: v.Column}
			}
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
		case "max-findings-per-file", "max-findings":
			n, perr := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || perr != nil || n < 0 {
				err = errAt(v, "want a number of findings (0: no cap)")
			}
			if k.Value == "max-findings" {
				c.MaxFindings = &n
			} else {
				c.MaxFindingsPerFile = &n
			}
		case "trusted-keys":
			c.TrustedKeys, err = strList(v, func(n *yaml.Node) error {
				if _, err := ParseKey(n.Value); err != nil {
					return errAt(n, "%v", err)
				}
				return nil
			})
		case "severity":
			if v.Kind != yaml.MappingNode {
				return nil, errAt(v, "want a mapping of check to error|warning|off")
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				if err := severityKey(v.Content[j]); err != nil {
					return nil, err
				}
				if sv := v.Content[j+1]; sv.Kind != yaml.ScalarNode || (sv.Value != "off" && sv.Value != "note") {
					if err := severity(sv); err != nil {
						return nil, errAt(sv, "want error, warning, note or off")
					}
				}
				c.Severity[v.Content[j].Value] = v.Content[j+1].Value
				c.SeverityKeys = append(c.SeverityKeys, Place{Value: v.Content[j].Value, Line: v.Content[j].Line, Col: v.Content[j].Column})
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
					val, err := settingValue(data, fv)
					if err != nil {
						return nil, errAt(fv, "%v", err)
					}
					// Validate now, on a scratch copy of the flag, so that a bad
					// value is reported at its position.
					if err := trySet(fl, val); err != nil {
						return nil, settingError(path, data, fv, fmt.Sprintf("checks.%s.%s", a.Name, fk.Value), err)
					}
					c.Settings = append(c.Settings, Setting{Check: a.Name, Flag: fk.Value, Value: val, Line: fv.Line, Col: fv.Column})
				}
			}
		case "harness":
			// The proof ladder's stage table, read by sotvet harness;
			// checked here so that a mistake is reported where it is.
			_, err = stage.ParseConfig(path, data)
		default:
			hint := ""
			if alt := strings.ReplaceAll(k.Value, "_", "-"); alt != k.Value && slices.Contains(keys, alt) {
				hint = fmt.Sprintf(": did you mean %q?", alt)
			}
			err = errAt(k, "unknown key %q%s (want %s or %s)", k.Value, hint, strings.Join(keys[:len(keys)-1], ", "), keys[len(keys)-1])
		}
		if err != nil {
			return nil, err
		}
	}
	return c, nil
}

// keys are the top-level keys of sotvet.yaml.
var keys = []string{"enable", "disable", "fail-on", "severity", "statuses", "max-file-size", "trusted-keys", "checks", "harness", "workspaces", "baseline"}

// BaselinePath returns the configured baseline file as a path (relative
// to the directory of the configuration file), or "" when none is set.
func (c *Config) BaselinePath() string {
	if c == nil || c.Baseline.Value == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(c.Path), filepath.FromSlash(c.Baseline.Value))
}

// workspaceDir accepts a workspace directory: a slash path relative to the
// configuration file's directory that stays inside it.
func workspaceDir(errAt func(*yaml.Node, string, ...any) error) func(*yaml.Node) error {
	return func(n *yaml.Node) error {
		d := n.Value
		if d == "" || slashpath.IsAbs(d) || strings.Contains(d, "\\") || slashpath.Clean(d) == ".." || strings.HasPrefix(slashpath.Clean(d), "../") {
			return errAt(n, "workspace %q: want a slash path inside the directory of this file", d)
		}
		return nil
	}
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
	for _, a := range registry {
		if len(c.TrustedKeys) > 0 && a.Flags.Lookup("trusted-keys") != nil && !explicit[a.Name+".trusted-keys"] {
			if err := a.Flags.Set("trusted-keys", strings.Join(c.TrustedKeys, ",")); err != nil {
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
					return &Error{Path: c.Path, Line: s.Line, Col: s.Col, Msg: fmt.Sprintf("checks.%s.%s: %v", s.Check, s.Flag, err)}
				}
			}
		}
	}
	return nil
}

// stripComments drops comment lines, to tell an empty file from one with
// content.
func stripComments(b []byte) []byte {
	var out []byte
	for _, line := range bytes.Split(b, []byte("\n")) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			out = append(out, t...)
		}
	}
	return out
}

// ParseKey decodes a trusted key: the standard base64 of a raw ed25519
// public key.
func ParseKey(s string) (ed25519.PublicKey, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("trusted key %q is not the base64 of a %d-byte ed25519 public key", s, ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}
