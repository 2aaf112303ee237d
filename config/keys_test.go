package config

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TrustedKeysIn reads trusted-keys alone: the rest of the file (an
// unknown check here) is not its business; a bad key is an error at its
// position.
func TestTrustedKeysIn(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	key := base64.StdEncoding.EncodeToString(pub)
	dir := t.TempDir()
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(dir, FileName), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("enable: [no-such-check]\ntrusted-keys:\n  - " + key + "\n")
	keys, _, err := TrustedKeysIn(dir)
	if err != nil || len(keys) != 1 || keys[0] != key {
		t.Fatalf("keys %v, %v", keys, err)
	}
	write("trusted-keys:\n  - not-a-key\n")
	if _, _, err := TrustedKeysIn(dir); err == nil || !strings.Contains(err.Error(), "sotvet.yaml:2:5:") {
		t.Fatalf("err = %v, want one at 2:5", err)
	}
	write("trusted-keys: []\ntrusted-keys: []\n")
	if _, _, err := TrustedKeysIn(dir); err == nil || !strings.Contains(err.Error(), "duplicate key") {
		t.Fatalf("err = %v", err)
	}
	write("# nothing\n")
	if keys, _, err := TrustedKeysIn(dir); err != nil || keys != nil {
		t.Fatalf("keys %v, %v", keys, err)
	}
}

// The layers run one way: config imports nothing of the harness, and the
// harness's trust does not pull the checks in.
func TestLayers(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go tool")
	}
	for _, tc := range []struct{ pkg, banned string }{
		{"github.com/svrnty/sotvet/config", "github.com/svrnty/sotvet/harness"},
		{"github.com/svrnty/sotvet/harness/trust", "github.com/svrnty/sotvet/checks"},
	} {
		out, err := exec.Command("go", "list", "-deps", tc.pkg).Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep == tc.banned || strings.HasPrefix(dep, tc.banned+"/") {
				t.Errorf("%s depends on %s", tc.pkg, dep)
			}
		}
	}
}
