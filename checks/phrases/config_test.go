package phrases_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/phrases"
	"github.com/svrnty/sotvet/config"
)

// TestConfig checks that sotvet.yaml reaches the flags: the rules as a YAML
// list, validated at their position, and the starter file round-trips.
func TestConfig(t *testing.T) {
	reg := []*analysis.Analyzer{phrases.Analyzer}
	good := `checks:
  phrases:
    targets: [CLOSEOUT, EVIDENCE]
    rules:
      - docs: .sot/**/*-CLOSEOUT.md
        in: self
        phrases:
          - Do not activate Case as default backend.
      - item: CTO-WORK-077
        phrases: ["completion_status: complete"]
`
	c, err := config.Parse("sotvet.yaml", []byte(good), reg)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Settings) != 2 {
		t.Fatalf("settings = %+v", c.Settings)
	}
	var rs phrases.RuleSet
	if err := rs.Set(c.Settings[1].Value); err != nil {
		t.Fatal(err)
	}
	want := []phrases.Rule{
		{Docs: ".sot/**/*-CLOSEOUT.md", In: "self", Phrases: []string{"Do not activate Case as default backend."}},
		{Item: "CTO-WORK-077", Phrases: []string{"completion_status: complete"}},
	}
	if !reflect.DeepEqual(rs.Rules(), want) {
		t.Errorf("rules = %+v, want %+v", rs.Rules(), want)
	}
	for _, tc := range []struct{ yaml, want string }{
		{"checks:\n  phrases:\n    rules:\n      - {docs: a.md, phrases: [x], when: always}\n", "sotvet.yaml:4:7: checks.phrases.rules:"},
		{"checks:\n  phrases:\n    rules:\n      - {docs: a.md}\n", "sotvet.yaml:4:7: checks.phrases.rules: rule 1: phrases: want a non-empty list"},
		{"checks:\n  phrases:\n    targets: [EVIDENCE, NOTES]\n", `sotvet.yaml:3:14: checks.phrases.targets: unknown document kind "NOTES"`},
		{"checks:\n  phrases:\n    sections: Required Words\n", `sotvet.yaml:3:15: checks.phrases.sections: unknown phrase section "Required Words"`},
	} {
		_, err := config.Parse("sotvet.yaml", []byte(tc.yaml), reg)
		var ce *config.Error
		if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want %q...", tc.yaml, err, tc.want)
		}
	}
	starter := config.Starter(reg, nil, 1<<20)
	if _, err := config.Parse("sotvet.yaml", starter, reg); err != nil {
		t.Fatalf("starter does not parse back: %v\n%s", err, starter)
	}
}
