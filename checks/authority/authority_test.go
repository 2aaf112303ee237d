package authority_test

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svrnty/sotvet/checks/authority"
	"github.com/svrnty/sotvet/checks/checktest"
)

const customClaims = `
- id: activation-mentioned
  pattern: runtime default activation
  scope: sentence
  message: activation mentioned
- id: production-deploy
  pattern: ['^deploy_target:\s*production']
  scope: [fact, frontmatter]
  message: production deploys are not planned here
`

func TestAuthority(t *testing.T) {
	for _, tc := range []struct {
		dir   string
		flags map[string]string
		cats  []string // the categories findings may have
	}{
		{dir: "clean"},
		{dir: "promotion-status", cats: []string{"promotion-status"}},
		{dir: "allowed-promotion", cats: []string{"promotion-status"}, flags: map[string]string{"allowed-promotion": "not-promoted, reviewed"}},
		{dir: "disclaimer", cats: []string{"disclaimer-missing", "disclaimer-misplaced"}},
		{dir: "disclaimer-kinds", cats: []string{"disclaimer-missing"}, flags: map[string]string{"disclaimer-kinds": "BRIEF,other", "disclaimer": "Local planning SOT only."}},
		{dir: "claims", cats: []string{"core-promotion", "core-authority", "runtime-default-activation", "default-backend"}},
		{dir: "negation", cats: []string{"default-backend"}},
		{dir: "custom-claims", cats: []string{"activation-mentioned", "production-deploy"}, flags: map[string]string{"claims": customClaims}},
		{dir: "approval", cats: []string{"approval-contradiction"}},
		{dir: "scope", cats: []string{"promotion-status", "disclaimer-missing", "default-backend"}, flags: map[string]string{"scope": ".sot/03-PROTOCOLS/**,ROOT-PRD.md", "exempt": ".sot/03-PROTOCOLS/core/**"}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			for name, v := range tc.flags {
				checktest.SetFlag(t, authority.Analyzer, name, v)
			}
			fs := checktest.Run(t, filepath.Join("testdata", tc.dir), authority.Analyzer)
			checktest.CheckFindings(t, fs, tc.cats...)
		})
	}
}

// TestClaimsOff checks that an empty -claims turns claim checking off.
func TestClaimsOff(t *testing.T) {
	checktest.SetFlag(t, authority.Analyzer, "claims", "")
	for _, f := range checktest.Findings(t, filepath.Join("testdata", "claims"), authority.Analyzer) {
		t.Errorf("unexpected finding with -claims='': %s:%d: %s", f.File, f.Line, f.Message)
	}
}

func TestClaimSetErrors(t *testing.T) {
	for _, tc := range []struct{ name, yaml, want string }{
		{"not a list", "id: x", "want a list of claim rules"},
		{"list of strings", "- a\n- b", "cannot"},
		{"unknown key", "- {id: x, pattern: a, scope: fact, message: m, severity: high}", "severity"},
		{"duplicate key", "- {id: x, id: y, pattern: a, scope: fact, message: m}", "id"},
		{"bad pattern", "- {id: x, pattern: 'a(', scope: fact, message: m}", "claim 1 (x): pattern: error parsing regexp"},
		{"bad unless", "- {id: x, pattern: a, unless: '[', scope: fact, message: m}", "claim 1 (x): unless: error parsing regexp"},
		{"empty pattern", "- {id: x, pattern: '', scope: fact, message: m}", "claim 1 (x): pattern is required"},
		{"no pattern", "- {id: x, scope: fact, message: m}", "claim 1 (x): pattern is required"},
		{"no id", "- {pattern: a, scope: fact, message: m}", `claim 1: id "" must be kebab-case`},
		{"bad id", "- {id: Not_Kebab, pattern: a, scope: fact, message: m}", `id "Not_Kebab" must be kebab-case`},
		{"no message", "- {id: x, pattern: a, scope: fact}", "message is required"},
		{"no scope", "- {id: x, pattern: a, message: m}", "scope is required"},
		{"bad scope", "- {id: x, pattern: a, scope: [fact, heading], message: m}", `unknown scope "heading"`},
		{"nested scope", "- {id: x, pattern: a, scope: [[fact]], message: m}", "scope: want a scope name"},
		{"bad contradicts", "- {id: x, pattern: a, scope: fact, message: m, contradicts: approval}", `contradicts: want "key: value"`},
		{"second rule", "- {id: x, pattern: a, scope: fact, message: m}\n- {id: y, pattern: '(', scope: fact, message: m}", "claim 2 (y): pattern"},
		{"yaml syntax", "- {id: x", "yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s authority.ClaimSet
			err := s.Set(tc.yaml)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Set(%q) = %v, want an error containing %q", tc.yaml, err, tc.want)
			}
		})
	}
}

// TestClaimSetStringFollowsSet: String renders the set last Set, not the
// one it rendered before.
func TestClaimSetStringFollowsSet(t *testing.T) {
	s := authority.NewClaimSet(authority.DefaultClaims)
	before := s.String()
	one := "- id: x\n  pattern: forbidden words\n  scope: sentence\n  message: says forbidden words\n"
	if err := s.Set(one); err != nil {
		t.Fatal(err)
	}
	if got := s.String(); got == before || !strings.Contains(got, "forbidden words") {
		t.Errorf("String after Set = %q", got)
	}
	if err := s.Set(""); err != nil {
		t.Fatal(err)
	}
	if got := s.String(); got != "" {
		t.Errorf("String of the empty set = %q", got)
	}
}

func TestClaimSetRoundTrip(t *testing.T) {
	s := authority.NewClaimSet(authority.DefaultClaims)
	text := s.String()
	var back authority.ClaimSet
	if err := back.Set(text); err != nil {
		t.Fatalf("Set(String()) = %v\n%s", err, text)
	}
	if back.String() != text {
		t.Errorf("round trip changed the set:\n%s\n---\n%s", text, back.String())
	}
	if got, want := len(back.Claims()), len(authority.DefaultClaims); got != want {
		t.Errorf("%d claims after the round trip, want %d", got, want)
	}
	// The default value the configuration starter prints is the set itself.
	if def := authority.Analyzer.Flags.Lookup("claims").DefValue; def != text {
		t.Errorf("DefValue of -claims is not the built-in set:\n%s", def)
	}
	// A scalar pattern and scope are accepted.
	var one authority.ClaimSet
	if err := one.Set("- {id: x, pattern: a, scope: sentence, message: m}"); err != nil {
		t.Fatal(err)
	}
}

// TestClone checks that validating a value on a clone leaves the flag alone,
// as config.Parse does.
func TestClone(t *testing.T) {
	checktest.SetOnClone(t, authority.Analyzer, "claims", customClaims)
}

func TestFlagErrors(t *testing.T) {
	for _, tc := range []struct{ flag, value string }{
		{"scope", "/abs/**"},
		{"scope", "../x/**"},
		{"exempt", "a/[b"},
		{"disclaimer-kinds", "PRD,NOTES"},
	} {
		if err := authority.Analyzer.Flags.Lookup(tc.flag).Value.Set(tc.value); err == nil {
			t.Errorf("-%s=%s: no error", tc.flag, tc.value)
		}
	}
	// Restore the defaults the failed Sets may have left.
	checktest.SetFlag(t, authority.Analyzer, "scope", strings.Join(authority.DefaultScope, ","))
	checktest.SetFlag(t, authority.Analyzer, "exempt", "")
	checktest.SetFlag(t, authority.Analyzer, "disclaimer-kinds", "PRD,ISSUES,EVIDENCE,CLOSEOUT,RECORD,CONTRACT,TEMPLATE,PACKET,GUARD,MATRIX,GATES,BLOCKER,ATTEMPT")
}

func TestDoc(t *testing.T) {
	rest := checktest.Doc(t, authority.Analyzer, "authority: check that local planning documents claim no Core authority",
		"scope", "exempt", "allowed-promotion", "disclaimer", "disclaimer-kinds", "claims")
	for _, id := range []string{"promotion-status", "disclaimer-missing", "disclaimer-misplaced", "core-promotion", "core-authority", "runtime-default-activation", "default-backend", "approval-contradiction"} {
		if !strings.Contains(rest, id) {
			t.Errorf("Doc does not name category %s", id)
		}
	}
}

// TestCorpus runs the check over the real corpus and logs the findings.
func TestCorpus(t *testing.T) {
	fs := checktest.Findings(t, checktest.BenchCorpusDir(t), authority.Analyzer)
	checktest.LogFindings(t, fs)
	for _, f := range fs {
		// The corpus makes no forbidden claim: any claim finding is a
		// false positive.
		if f.Category != "disclaimer-misplaced" {
			t.Errorf("unexpected corpus finding %s:%d: [%s] %s", f.File, f.Line, f.Category, f.Message)
		}
	}
}

func BenchmarkCorpus(b *testing.B) {
	checktest.BenchRun(b, checktest.BenchCorpusDir(b), cpuTime, authority.Analyzer)
}

// BenchmarkRun measures the check alone, on the corpus parsed once.
func BenchmarkRun(b *testing.B) {
	checktest.BenchPass(b, checktest.BenchCorpusDir(b), cpuTime, authority.Analyzer)
}

// cpuTime returns the user and system CPU time of the process, which a
// loaded machine disturbs less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
