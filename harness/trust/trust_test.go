package trust_test

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/harness/trust"
)

func TestWorkspaceAndKey(t *testing.T) {
	pub, _, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// No configuration: no key, no error.
	if opt, err := trust.Workspace(dir); err != nil || len(opt.Keys()) != 0 {
		t.Fatalf("no config: %v %v", opt, err)
	}
	if opt, err := trust.ConfigFile(filepath.Join(dir, "sotvet.yaml")); err != nil || len(opt.Keys()) != 0 {
		t.Fatalf("missing file: %v %v", opt, err)
	}
	cfg := "trusted-keys:\n  - " + base64.StdEncoding.EncodeToString(pub) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "sotvet.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := trust.Workspace(dir)
	if err != nil || len(ws.Keys()) != 1 || !ws.Keys()[0].Equal(pub) {
		t.Fatalf("workspace keys: %v %v", ws.Keys(), err)
	}
	if f, err := trust.ConfigFile(filepath.Join(dir, "sotvet.yaml")); err != nil || f.Fingerprint() != ws.Fingerprint() {
		t.Fatalf("config file: %v %v", f, err)
	}
	// An explicit key replaces the workspace's.
	other, _, _ := ed25519.GenerateKey(nil)
	der, _ := x509.MarshalPKIXPublicKey(other)
	pemFile := filepath.Join(dir, "pub.pem")
	os.WriteFile(pemFile, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o644)
	ex, err := trust.WithPublicKey(ws, pemFile)
	if err != nil || len(ex.Keys()) != 1 || !ex.Keys()[0].Equal(other) {
		t.Fatalf("explicit key: %v %v", ex.Keys(), err)
	}
	// A broken key is an error at its position.
	os.WriteFile(filepath.Join(dir, "sotvet.yaml"), []byte("trusted-keys:\n  - bm90IGEga2V5\n"), 0o644)
	if _, err := trust.Workspace(dir); err == nil || !strings.Contains(err.Error(), "sotvet.yaml") {
		t.Fatalf("broken key: %v", err)
	}
}
