package evidence

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestChain(t *testing.T) {
	var c Chain
	now := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	c.Add(now, "run.started", "harness", nil)
	c.Add(now, "run.completed", "harness", map[string]any{"status": "pass"})
	lines := bytes.Split(bytes.TrimSpace(c.Bytes()), []byte("\n"))
	if len(lines) != 2 || c.Len() != 2 || c.Head() != LineHash(lines[1]) {
		t.Fatalf("chain %s", c.Bytes())
	}
	var e Event
	if err := DecodeStrict(lines[1], &e); err != nil || e.Seq != 2 || e.Prev != LineHash(lines[0]) || e.Time != "2026-01-02T03:04:05.000000006Z" {
		t.Errorf("%v %+v", err, e)
	}
	if err := DecodeStrict(lines[0], &e); err != nil || e.Prev != GenesisHash {
		t.Errorf("first prev %s", e.Prev)
	}
}

func TestWriter(t *testing.T) {
	dir := t.TempDir()
	w := NewWriter(dir, time.Now)
	if err := w.Write("backend/x.log", []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "backend", "x.log")); string(b) != "hello" {
		t.Errorf("content %q", b)
	}
	if w.Digests()["backend/x.log"] != Digest([]byte("hello")) || w.WrittenAt()["backend/x.log"] == "" {
		t.Error("digest or time not recorded")
	}
	for _, bad := range []string{"../x", "/x", "a//b", "a/./b", ""} {
		if err := w.Write(bad, nil); err == nil {
			t.Errorf("wrote %q", bad)
		}
	}
	w.Fault = func(rel string) error { return errors.New("disk full") }
	if err := w.Write("y", []byte("y")); err == nil {
		t.Error("fault ignored")
	}
	if _, err := os.Stat(filepath.Join(dir, "y")); err == nil {
		t.Error("a refused artifact exists")
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != "backend" {
			t.Errorf("left behind %s", e.Name())
		}
	}
}

func TestStatusOf(t *testing.T) {
	if StatusOf(nil) != StatusPass || StatusOf([]Blocker{{Code: NoDiff}}) != StatusFail ||
		StatusOf([]Blocker{{Code: NoDiff}, {Code: Timeout}}) != StatusBlocked {
		t.Error("StatusOf")
	}
	if ExitCode(StatusPass) != 0 || ExitCode(StatusFail) != 1 || ExitCode(StatusBlocked) != 3 {
		t.Error("ExitCode")
	}
}

func TestDSSE(t *testing.T) {
	pub, key, _ := ed25519.GenerateKey(rand.Reader)
	r := &Report{CaseID: "c", RunID: "r", Status: "pass", Backend: "fake"}
	st, err := BuildStatement(r, map[string]string{PatchFile: "aa", ReportJSON: "bb", TestLog: "cc"})
	if err != nil {
		t.Fatal(err)
	}
	env, err := Sign(st, key)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyEnvelope(env, st, pub); err != nil {
		t.Fatal(err)
	}
	other, _, _ := ed25519.GenerateKey(rand.Reader)
	if VerifyEnvelope(env, st, other) == nil {
		t.Error("verified with another key")
	}
	if VerifyEnvelope(env, append(st, ' '), pub) == nil {
		t.Error("verified another payload")
	}
	for i := range env {
		b := bytes.Clone(env)
		b[i] ^= 1
		if VerifyEnvelope(b, st, pub) == nil {
			t.Fatalf("byte %d flipped and still verified", i)
		}
	}
	// Keys round-trip through PEM files.
	dir := t.TempDir()
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	os.WriteFile(filepath.Join(dir, "k.pem"), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600)
	pder, _ := x509.MarshalPKIXPublicKey(pub)
	os.WriteFile(filepath.Join(dir, "k.pub"), pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pder}), 0o644)
	k2, err := LoadSigningKey(filepath.Join(dir, "k.pem"))
	if err != nil || !k2.Equal(key) {
		t.Errorf("LoadSigningKey: %v", err)
	}
	p2, err := LoadPublicKey(filepath.Join(dir, "k.pub"))
	if err != nil || !p2.Equal(pub) {
		t.Errorf("LoadPublicKey: %v", err)
	}
	if _, err := LoadSigningKey(filepath.Join(dir, "k.pub")); err == nil {
		t.Error("a public key loaded as private")
	}
}
