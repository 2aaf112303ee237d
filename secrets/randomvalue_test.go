package secrets

import (
	"regexp"
	"testing"
)

// TestIdentChain: identChain is the expression it replaced, written out.
func TestIdentChain(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+$`)
	for _, s := range []string{
		"", ".", "a", "a.", ".a", "a.b", "a..b", "a.b.", "a.1", "a1.b2", "_x.$y", "A.b.C.d9",
		"a.b-c", "a b.c", "a.bé", "1a.b", "a.b.c.d.e.f", "x.Y7zQ9", "cfg.db.password", "$.x",
	} {
		if got, want := identChain([]byte(s)), re.MatchString(s); got != want {
			t.Errorf("identChain(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestMemberChain: names joined by dots are a reference; a generated
// password with a dot between drawn letters and digits is not.
func TestMemberChain(t *testing.T) {
	for _, c := range []struct {
		v    string
		want bool
	}{
		{"cfg.db.password", true},
		{"process.env.DB_PASSWORD", true},
		{"settings.DATABASES.replica2", true},
		{"Schema.Version.V2", true},
		{"self.config.apiToken", true},
		{"A4lWM.dXdYLsJ5XMJM6ilEr62", false},
		{"ynDPi.dXJ7RorhcXlHiRe", false},
		{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0", false},
		{"not a chain", false},
		{"v1.2.3", false},
	} {
		if got := memberChain([]byte(c.v)); got != c.want {
			t.Errorf("memberChain(%q) = %v, want %v", c.v, got, c.want)
		}
	}
}
