package verify

import (
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/harness/ledger"
)

// A ledger record is held to the workspace's trusted keys as a run is: an
// unsigned record, or one signed by another key, is invalid once a trusted
// key is known, whether given by --pub-key or by sotvet.yaml.
func TestRecordTrustedKeys(t *testing.T) {
	trustedPub, trustedKey, _ := ed25519.GenerateKey(rand.Reader)
	_, otherKey, _ := ed25519.GenerateKey(rand.Reader)
	write := func(key ed25519.PrivateKey) string {
		t.Helper()
		const id = "appr-20260601T000000Z-0123abcd"
		a := &ledger.Approval{SchemaVersion: 1, ApprovalID: id, CaseID: "c", Stage: 4, Decision: ledger.Granted,
			Actor: "jp", AllowedPaths: []string{}, BlockedActions: []string{}}
		data, err := ledger.Marshal(a, key)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), id+".json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name string
		key  ed25519.PrivateKey
		opt  Options
		want string // a violation's text, or "" for none
	}{
		{"unsigned, no key", nil, Options{}, ""},
		{"unsigned, workspace key", nil, Options{TrustedKeys: []ed25519.PublicKey{trustedPub}}, "is not signed"},
		{"unsigned, --pub-key", nil, Options{PublicKey: trustedPub}, "is not signed"},
		{"signed by the trusted key", trustedKey, Options{TrustedKeys: []ed25519.PublicKey{trustedPub}}, ""},
		{"signed by another key", otherKey, Options{TrustedKeys: []ed25519.PublicKey{trustedPub}}, "other than the trusted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vs, err := Record(write(tc.key), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			wantViolation(t, vs, tc.want)
		})
	}
}

// wantViolation fails t unless vs is empty (want "") or one of its
// messages says want.
func wantViolation(t *testing.T, vs []Violation, want string) {
	t.Helper()
	var got []string
	for _, v := range vs {
		got = append(got, v.Message)
	}
	switch {
	case want == "" && len(vs) > 0:
		t.Fatalf("violations %q, want none", got)
	case want != "" && !strings.Contains(strings.Join(got, "\n"), want):
		t.Fatalf("violations %q, want one saying %q", got, want)
	}
}
