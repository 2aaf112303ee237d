package authority_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/authority"
	"github.com/svrnty/sotvet/config"
)

// TestConfig checks that sotvet.yaml reaches the flags: a rule set as a
// YAML list, validated at its position, and the starter file round-trips.
func TestConfig(t *testing.T) {
	reg := []*analysis.Analyzer{authority.Analyzer}
	good := `checks:
  authority:
    allowed-promotion: [not-promoted, reviewed]
    claims:
      - id: custom
        pattern: 'Case rules'
        scope: [sentence]
        message: no
`
	c, err := config.Parse("sotvet.yaml", []byte(good), reg)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Settings) != 2 || !strings.Contains(c.Settings[1].Value, "id: custom") {
		t.Fatalf("settings = %+v", c.Settings)
	}
	for _, tc := range []struct{ yaml, want string }{
		{"checks:\n  authority:\n    claims:\n      - {id: x, pattern: 'a(', scope: fact, message: m}\n", "sotvet.yaml:4:7: checks.authority.claims: claim 1 (x): pattern: error parsing regexp"},
		{"checks:\n  authority:\n    claims:\n      - {id: x, pattern: a, scope: fact, message: m, level: 2}\n", "sotvet.yaml:4:7: checks.authority.claims:"},
		{"checks:\n  authority:\n    disclaimer-kinds: [PRD, NOTES]\n", `sotvet.yaml:3:23: checks.authority.disclaimer-kinds: unknown document kind "NOTES"`},
	} {
		_, err := config.Parse("sotvet.yaml", []byte(tc.yaml), reg)
		var ce *config.Error
		if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want %q...", tc.yaml, err, tc.want)
		}
	}
	starter := config.Starter(reg, nil, 1<<20)
	sc, err := config.Parse("sotvet.yaml", starter, reg)
	if err != nil {
		t.Fatalf("starter does not parse back: %v\n%s", err, starter)
	}
	n := 0
	for _, s := range sc.Settings {
		if s.Flag != "claims" {
			continue
		}
		n++
		var got authority.ClaimSet
		if err := got.Set(s.Value); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Claims(), authority.DefaultClaims) {
			t.Errorf("starter claims do not round-trip:\n%s", s.Value)
		}
	}
	if n != 1 {
		t.Errorf("starter has %d claims settings, want 1", n)
	}
}
