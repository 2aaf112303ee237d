package harness_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/verify"
)

// TestForgedUnsigned: a forger who rewrites a run and drops its signature
// produces exactly what an unsigned run is. With a trusted key given, such a
// run is invalid; without one, verify says the run is unauthenticated.
func TestForgedUnsigned(t *testing.T) {
	pub, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	unsigned := run(t, options(t, "r1-string-slugify")).RunDir
	mustVerify(t, unsigned)
	if got := verify.Authenticity(report(t, unsigned), verify.Options{}); !strings.Contains(got, "unsigned: anyone can rewrite this run") {
		t.Errorf("unsigned run without a key: %q", got)
	}
	for _, opt := range []verify.Options{{PublicKey: pub}, {TrustedKeys: []ed25519.PublicKey{pub}}} {
		vs, _, err := verify.Dir(unsigned, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(joinViolations(vs), "not signed") {
			t.Errorf("unsigned run with a trusted key: violations %q, want not signed", joinViolations(vs))
		}
	}

	o := options(t, "r1-string-slugify")
	o.SignKey = key
	signed := run(t, o).RunDir
	other, _, _ := ed25519.GenerateKey(rand.Reader)
	if vs, _, _ := verify.Dir(signed, verify.Options{TrustedKeys: []ed25519.PublicKey{other, pub}}); len(vs) != 0 {
		t.Errorf("signed by one of the trusted keys: %v", vs)
	}
	if vs, _, _ := verify.Dir(signed, verify.Options{TrustedKeys: []ed25519.PublicKey{other}}); !strings.Contains(joinViolations(vs), "other than") {
		t.Errorf("signed by an untrusted key: %v", vs)
	}
	if got := verify.Authenticity(report(t, signed), verify.Options{}); !strings.Contains(got, "no trusted key") {
		t.Errorf("signed run without a key: %q", got)
	}
	if got := verify.Authenticity(report(t, signed), verify.Options{PublicKey: pub}); !strings.HasPrefix(got, "signed by trusted key") {
		t.Errorf("signed run with its key: %q", got)
	}
}

func joinViolations(vs []verify.Violation) string {
	var s []string
	for _, v := range vs {
		s = append(s, v.String())
	}
	return strings.Join(s, "\n")
}

func report(t *testing.T, dir string) *evidence.Report {
	t.Helper()
	_, rep, err := verify.Dir(dir, verify.Options{})
	if err != nil || rep == nil {
		t.Fatalf("verify %s: %v", dir, err)
	}
	return rep
}
