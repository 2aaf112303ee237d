package secrets

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"encoding/asn1"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestPKCS12OpenSSL: stores written by OpenSSL, the oracle (the test
// skips where it is not installed; CI installs it): a store holding a
// key under each known password, with each MAC digest, is reported; under
// a password of its own, with no MAC, or holding certificates only (a
// trust store under "changeit") it is not.
func TestPKCS12OpenSSL(t *testing.T) {
	openssl, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("openssl is not installed: the stores it writes are this test's oracle")
	}
	dir := t.TempDir()
	run := func(args ...string) error {
		cmd := exec.Command(openssl, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Logf("openssl %v: %v\n%s", args, err, out)
			return err
		}
		return nil
	}
	if err := run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "k.pem", "-out", "c.pem", "-subj", "/CN=sotvet-test", "-days", "1"); err != nil {
		t.Fatal(err)
	}
	s := defaultScanner(t)
	scan := func(name string) int {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range s.Scan(name, data) {
			if f.RuleID == RulePKCS12KnownPassword {
				n++
			}
		}
		return n
	}
	strong := randomPassword(t)
	cases := []struct {
		name   string
		args   []string
		report bool
	}{
		{"notasecret-sha256.p12", []string{"-passout", "pass:notasecret"}, true},
		{"notasecret-sha1.p12", []string{"-passout", "pass:notasecret", "-macalg", "sha1"}, true},
		{"notasecret-sha384.p12", []string{"-passout", "pass:notasecret", "-macalg", "sha384"}, true},
		{"notasecret-sha512.p12", []string{"-passout", "pass:notasecret", "-macalg", "sha512"}, true},
		{"changeit.pfx", []string{"-passout", "pass:changeit"}, true},
		{"empty.p12", []string{"-passout", "pass:"}, true},
		{"one-iteration.p12", []string{"-passout", "pass:notasecret", "-maciter", "-iter", "1"}, true},
		{"strong.p12", []string{"-passout", "pass:" + strong}, false},
		{"nomac.p12", []string{"-passout", "pass:notasecret", "-nomac"}, false},
		{"truststore.p12", []string{"-passout", "pass:changeit", "-nokeys"}, false},
	}
	for _, c := range cases {
		args := append([]string{"pkcs12", "-export", "-in", "c.pem", "-out", c.name}, c.args...)
		if !bytes.Contains([]byte(c.name), []byte("truststore")) {
			args = append(args, "-inkey", "k.pem")
		}
		if err := run(args...); err != nil {
			t.Errorf("%s: openssl could not write it", c.name)
			continue
		}
		if got := scan(c.name) > 0; got != c.report {
			t.Errorf("%s: reported %v, want %v", c.name, got, c.report)
		}
	}
	// A store renamed or inside no .p12 name is read all the same: the
	// rule reads content, not names.
	data, err := os.ReadFile(filepath.Join(dir, "notasecret-sha256.p12"))
	if err != nil {
		t.Fatal(err)
	}
	if fs := s.Scan("deploy/credentials.bin", data); len(fs) != 1 || fs[0].RuleID != RulePKCS12KnownPassword || fs[0].Redacted != MaskSuffix {
		t.Errorf("renamed store: %+v", fs)
	}
}

func randomPassword(t *testing.T) string {
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// testPFX writes a PFX in password integrity mode by this package's own
// key derivation (TestPKCS12OpenSSL checks that against OpenSSL): a key
// bag (its bytes a stand-in: the rule does not read the key) or a
// certificate bag only, under password, with the given iterations.
func testPFX(t testing.TB, password string, iterations int, withKey bool) []byte {
	t.Helper()
	der, err := buildTestPFX(password, iterations, withKey)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

func buildTestPFX(password string, iterations int, withKey bool) ([]byte, error) {
	bagID := oidShroudedKeyBag
	if !withKey {
		bagID = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 10, 1, 3}
	}
	inner, err := asn1.Marshal(asn1.RawValue{Class: asn1.ClassUniversal, Tag: asn1.TagOctetString, Bytes: []byte("stand-in bag")})
	if err != nil {
		return nil, err
	}
	safe, err := asn1.Marshal([]pkcs12SafeBag{{ID: bagID, Value: asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 0, IsCompound: true, Bytes: inner}}})
	if err != nil {
		return nil, err
	}
	dataInfo := func(b []byte) pkcs12ContentInfo {
		oct, _ := asn1.Marshal(b) // a []byte always marshals
		return pkcs12ContentInfo{ContentType: oidPKCS7Data, Content: asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 0, IsCompound: true, Bytes: oct}}
	}
	authSafe, err := asn1.Marshal([]pkcs12ContentInfo{dataInfo(safe)})
	if err != nil {
		return nil, err
	}
	salt := []byte("saltsalt")
	newHash := pkcs12HashByOID[oidSHA256.String()]
	key := pkcs12MACKey(newHash, salt, pkcs12Passwords(password)[0], iterations)
	m := hmac.New(newHash, key)
	m.Write(authSafe)
	var pfx pkcs12PFX
	pfx.Version = 3
	pfx.AuthSafe = dataInfo(authSafe)
	pfx.MacData.Mac.Algorithm.Algorithm = oidSHA256
	pfx.MacData.Mac.Digest = m.Sum(nil)
	pfx.MacData.MacSalt = salt
	pfx.MacData.Iterations = iterations
	return asn1.Marshal(pfx)
}

// TestPKCS12Hostile: a store that is cut short, flipped, padded, asks for
// more iterations than the bound, or is random bytes is no finding and
// no panic; past the iteration bound a store is not read at all.
func TestPKCS12Hostile(t *testing.T) {
	good := testPFX(t, "notasecret", 2048, true)
	if !pkcs12KnownPassword(good) {
		t.Fatal("the store testPFX writes is not read")
	}
	if pkcs12KnownPassword(testPFX(t, "notasecret", 2048, false)) {
		t.Error("a store of certificates only is reported")
	}
	if pkcs12KnownPassword(testPFX(t, randomPassword(t), 2048, true)) {
		t.Error("a store under a password of its own is reported")
	}
	for n := range len(good) {
		if pkcs12KnownPassword(good[:n]) {
			t.Errorf("cut to %d bytes: reported", n)
		}
	}
	for i := range good {
		b := bytes.Clone(good)
		b[i] ^= 0x40
		_ = pkcs12KnownPassword(b) // no panic; a flip in padding may still verify
	}
	if pkcs12KnownPassword(append(bytes.Clone(good), "trailing"...)) {
		t.Error("a store followed by other bytes is reported")
	}
	if pkcs12KnownPassword(testPFX(t, "notasecret", pkcs12MaxIterations+1, true)) {
		t.Error("a store past the iteration bound is read") // its cost would be the file's to choose
	}
	random := make([]byte, 4096)
	for range 200 {
		if _, err := rand.Read(random); err != nil {
			t.Fatal(err)
		}
		random[0] = 0x30
		if pkcs12KnownPassword(random) {
			t.Error("random bytes reported")
		}
	}
}

func FuzzPKCS12(f *testing.F) {
	f.Add(testPFX(f, "notasecret", 1, true))
	f.Add(testPFX(f, "", 3, true))
	f.Add([]byte{0x30, 0x03, 0x02, 0x01, 0x03})
	f.Fuzz(func(t *testing.T, data []byte) {
		findPKCS12(data, func(int, int) bool { return false }, func(start, end int) {
			if start != 0 || end != len(data) {
				t.Fatalf("span %d-%d of %d bytes", start, end, len(data))
			}
		})
	})
}
