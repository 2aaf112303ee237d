package authority

import (
	"flag"
	"os"
	"testing"

	yaml "go.yaml.in/yaml/v4"
)

// TestKeyIs checks keyIs against normKey.
func TestKeyIs(t *testing.T) {
	keys := []string{"approval_granted", "status", "approval granted", "", "a_b"}
	for _, k := range []string{
		"approval_granted", "Approval Granted", " `approval-granted` ", "**Approval_Granted**",
		"approval_granted_", "approvalgranted", "APPROVAL GRANTED\t", "Status", "stat us",
		"", " ", "`", "A-B", "a b", "ﬁ", "Approval\u00a0granted", "\u212Aey", "approval_grantEd",
	} {
		for _, key := range keys {
			if got, want := keyIs(k, key), normKey(k) == key; got != want {
				t.Errorf("keyIs(%q, %q) = %v, normKey gives %q", k, key, got, normKey(k))
			}
		}
	}
}

var updateClaimsYAML = flag.Bool("update", false, "rewrite default_claims.yaml from DefaultClaims")

// TestDefaultClaimsYAML: the kept rendering of the built-in set is what
// String renders, so that the flag's default and `sotvet init` show it.
func TestDefaultClaimsYAML(t *testing.T) {
	b, err := yaml.Dump(DefaultClaims, yaml.WithLineWidth(-1))
	if err != nil {
		t.Fatal(err)
	}
	if *updateClaimsYAML {
		if err := os.WriteFile("default_claims.yaml", b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if string(b) != defaultClaimsYAML {
		t.Errorf("default_claims.yaml is not DefaultClaims rendered; run go test ./checks/authority -run TestDefaultClaimsYAML -update")
	}
	if got := newLazyClaimSet(DefaultClaims).String(); got != string(b) {
		t.Errorf("the built-in set renders as\n%s", got)
	}
	if got := NewClaimSet(DefaultClaims).String(); got != string(b) {
		t.Errorf("a set of the built-in claims renders as\n%s", got)
	}
}
