package authority

import "testing"

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
