package config

import (
	"flag"

	yaml "go.yaml.in/yaml/v4"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func registry() []*analysis.Analyzer {
	a := &analysis.Analyzer{Name: "frontmatter", Doc: "x", Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	a.Flags.String("today", "", "")
	a.Flags.String("extra-statuses", "", "")
	a.Flags.Bool("strict", false, "")
	a.Flags.String("rules", "", "")
	return []*analysis.Analyzer{a}
}

func TestParse(t *testing.T) {
	reg := registry()
	c, err := Parse("sotvet.yaml", []byte(`
enable: [frontmatter]
fail-on: warning
severity:
  frontmatter/unknown-key: error
statuses: [superseded, parked]
max-file-size: 1000
checks:
  frontmatter:
    today: 2026-07-01
    strict: true
    rules:
      - pattern: a
        message: b
`), reg)
	if err != nil {
		t.Fatal(err)
	}
	if c.FailOn != "warning" || c.Severity["frontmatter/unknown-key"] != "error" || c.MaxFileSize != 1000 || len(c.Statuses) != 2 {
		t.Errorf("config = %+v", c)
	}
	if err := c.Apply(reg, map[string]bool{"frontmatter.strict": true}); err != nil {
		t.Fatal(err)
	}
	fs := &reg[0].Flags
	if got := fs.Lookup("today").Value.String(); got != "2026-07-01" {
		t.Errorf("today = %q", got)
	}
	if got := fs.Lookup("extra-statuses").Value.String(); got != "superseded,parked" {
		t.Errorf("extra-statuses = %q", got)
	}
	if got := fs.Lookup("strict").Value.String(); got != "false" {
		t.Errorf("strict = %q: the command line's explicit flag must win", got)
	}
	if got := fs.Lookup("rules").Value.String(); !strings.Contains(got, "pattern: a") {
		t.Errorf("structured setting passed as %q", got)
	}
}

// A category is named as check/category in enable:, disable: and
// severity: (off silences it); the caller checks the category itself.
func TestCodes(t *testing.T) {
	c, err := Parse("sotvet.yaml", []byte("disable: [frontmatter/date]\nenable: [frontmatter]\nseverity:\n  frontmatter/unknown-key: off\n"), registry())
	if err != nil {
		t.Fatal(err)
	}
	if c.Disable[0] != "frontmatter/date" || c.Severity["frontmatter/unknown-key"] != "off" || len(c.CodeKeys) != 1 || c.CodeKeys[0].Line != 1 || c.CodeKeys[0].Col != 11 {
		t.Errorf("config = %+v", c)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"colour: red\n", `sotvet.yaml:1:1: unknown key "colour"`},
		{"disable: [nope]\n", `sotvet.yaml:1:11: unknown check "nope"`},
		{"disable: [frontmater/date]\n", `sotvet.yaml:1:11: unknown check "frontmater" (did you mean frontmatter?)`},
		{"severity:\n  frontmatter: fatal\n", "sotvet.yaml:2:16: want error, warning, note or off"},
		{"checks:\n  frontmatter:\n    colour: 1\n", `sotvet.yaml:3:5: check frontmatter has no setting "colour"`},
		{"checks:\n  frontmatter:\n    strict: maybe\n", "sotvet.yaml:3:13: checks.frontmatter.strict"},
		{"enable: [a\n", "sotvet.yaml:2:1:"},
		{"fail-on: error\nfail-on: warning\n", `sotvet.yaml:2:1: duplicate key "fail-on"`},
		{"max-file-size: -3\n", "sotvet.yaml:1:16: want a positive number"},
	} {
		_, err := Parse("sotvet.yaml", []byte(c.in), registry())
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want prefix %q", c.in, err, c.want)
		}
	}
}

func TestStarterRoundTrip(t *testing.T) {
	reg := registry()
	reg[0].Flags.Lookup("rules").DefValue = "- pattern: a\n  message: b\n"
	reg[0].Flags.Lookup("today").DefValue = strings.Repeat("a long default value, ", 8) // must not wrap
	data := Starter(reg, map[string]string{"frontmatter/unknown-key": "warning"}, 4096)
	c, err := Parse("sotvet.yaml", data, reg)
	if err != nil {
		t.Fatalf("starter does not parse: %v\n%s", err, data)
	}
	if c.FailOn != "error" || c.MaxFileSize != 4096 || c.Severity["frontmatter/unknown-key"] != "warning" {
		t.Errorf("starter config = %+v", c)
	}
	for _, s := range c.Settings {
		if s.Flag == "extra-statuses" {
			t.Errorf("starter spells out extra-statuses per check, overriding the top-level statuses")
		}
		if s.Flag == "rules" && !strings.Contains(s.Value, "pattern: a") {
			t.Errorf("structured default rendered as %q", s.Value)
		}
	}
}

// ruleFlag decodes its value strictly into rules, like the checks' rule sets.
type ruleFlag struct {
	rules []struct{ ID, Pattern string }
}

func (r *ruleFlag) String() string { return "" }
func (r *ruleFlag) Set(v string) error {
	return yaml.Load([]byte(v), &r.rules, yaml.WithKnownFields(true), yaml.WithUniqueKeys(true))
}
func (r *ruleFlag) Clone() flag.Value { return &ruleFlag{} }

// TestStructuredSettingErrors checks that an error inside a structured
// setting is reported at its line in sotvet.yaml, without the line numbers
// of the setting's own text or Go type names.
func TestStructuredSettingErrors(t *testing.T) {
	reg := registry()
	reg[0].Flags.Var(&ruleFlag{}, "claims", "")
	for _, c := range []struct{ in, want string }{
		{"checks:\n  frontmatter:\n    claims:\n      - id: a\n        pattern: x\n      - id: b\n        colour: red\n", `sotvet.yaml:7:9: checks.frontmatter.claims: unknown key "colour"`},
		{"checks:\n  frontmatter:\n    claims:\n    - id: a\n      id: b\n", `sotvet.yaml:5:7: checks.frontmatter.claims: mapping key "id" already defined at line 4`},
		{"checks:\n  frontmatter:\n    claims: [{id: a, colour: b}]\n", `sotvet.yaml:3:5: checks.frontmatter.claims: unknown key "colour"`},
	} {
		_, err := Parse("sotvet.yaml", []byte(c.in), reg)
		if err == nil || err.Error() != c.want {
			t.Errorf("Parse(%q) =\n  %v\nwant\n  %s", c.in, err, c.want)
		}
	}
}

// TestStructuredSettingSource checks that a structured setting reaches its
// flag whole: comments between entries do not end it, the next key does.
func TestStructuredSettingSource(t *testing.T) {
	reg := registry()
	c, err := Parse("sotvet.yaml", []byte(`checks:
  frontmatter:
    rules:
      # first
      - pattern: a
        message: b
      # second, at the items' indentation
      - pattern: c
        message: d

    today: 2026-01-01
`), reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Settings {
		if s.Flag == "rules" && (!strings.Contains(s.Value, "pattern: c") || strings.Contains(s.Value, "today")) {
			t.Errorf("rules setting = %q", s.Value)
		}
	}
}
