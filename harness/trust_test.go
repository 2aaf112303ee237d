package harness_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/engine"

	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/sandbox"
	"github.com/svrnty/sotvet/harness/verify"
	"github.com/svrnty/sotvet/secrets"
)

// TestForgedUnsigned: a forger who rewrites a run and drops its signature
// produces exactly what an unsigned run is. With a trusted key given, such a
// run is invalid; without one, verify says the run is unauthenticated.
// It reads the shared runs, signed and unsigned.
func TestForgedUnsigned(t *testing.T) {
	unsigned, _ := unsignedRun.get(t)
	signed, key := signedRun.get(t)
	pub := key.Public().(ed25519.PublicKey)
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

// replaceEngine is a backend that solves the task, edits a forbidden file,
// and then tells git, through a replace ref, that the baseline already had
// the edited content, so that git's diff omits it.
type replaceEngine struct{ objects bool }

// replaceScript and objectScript are the two attacks: a replace ref for
// the baseline tree, and the baseline blob's loose object overwritten
// with the edited content (git does not check a loose object's hash when
// it reads it).
const (
	replaceScript = `set -e
printf '\n// forged\n' >> slugify_test.go
git add slugify_test.go
forged=$(git write-tree)
git replace "$(git rev-parse HEAD^{tree})" "$forged"
git reset -q
cp "$SOL/slugify.go" slugify.go
`
	objectScript = `set -e
old=$(git rev-parse HEAD:slugify_test.go)
printf '\n// forged\n' >> slugify_test.go
new=$(git hash-object -w slugify_test.go)
o=".git/objects/$(echo $old | cut -c1-2)/$(echo $old | cut -c3-)"
n=".git/objects/$(echo $new | cut -c1-2)/$(echo $new | cut -c3-)"
chmod u+w "$o"
cp "$n" "$o"
cp "$SOL/slugify.go" slugify.go
`
)

func (e replaceEngine) Name() string   { return "replacer" }
func (replaceEngine) Provider() string { return "test" }
func (e replaceEngine) Invocation(job engine.Job) (engine.Invocation, error) {
	script := replaceScript
	if e.objects {
		script = objectScript
	}
	return engine.Invocation{Argv: []string{"/bin/sh", "-c", script}, Env: []string{"SOL=" + job.FakeSolution}}, nil
}
func (replaceEngine) Terminal(_, stderr []byte, code int) engine.Signal {
	if code != 0 {
		return engine.Signal{Status: engine.StatusFailure, Detail: strings.TrimSpace(string(stderr))}
	}
	return engine.Signal{Status: engine.StatusSuccess, Events: []engine.Event{{Type: "plan.updated"}, {Type: "patch.applied"}}}
}

// TestReplaceRefsCannotHideAChange: git's view of what changed must not be
// something the backend can rewrite.
func TestReplaceRefsCannotHideAChange(t *testing.T) {
	t.Parallel()
	t.Run("replace-ref", func(t *testing.T) { hiddenChange(t, replaceEngine{}) })
	t.Run("loose-object", func(t *testing.T) { hiddenChange(t, replaceEngine{objects: true}) })
}

func hiddenChange(t *testing.T, e replaceEngine) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	opt := options(t, "r1-string-slugify")
	reg := harness.DefaultRegistry(opt.FakeCommand)
	if err := reg.Register(engine.Entry{Engine: e, Enabled: true, Executable: true}); err != nil {
		t.Fatal(err)
	}
	opt.Registry, opt.Engine = reg, "replacer"
	res := run(t, opt)
	r := res.Report
	if r.BackendExitCode == nil || *r.BackendExitCode != 0 {
		t.Fatalf("the backend failed: %+v\n%s", r.BackendRun, readFile(t, filepath.Join(res.RunDir, "backend", "stderr.log")))
	}
	if r.Status == evidence.StatusPass {
		t.Errorf("a change to a forbidden file hidden by a replace ref passed")
	}
	if !slices.Contains(r.ChangedFiles, "slugify_test.go") {
		t.Errorf("changed files %v omit slugify_test.go", r.ChangedFiles)
	}
	if !strings.Contains(readFile(t, filepath.Join(res.RunDir, evidence.PatchFile)), "slugify_test.go") {
		t.Error("patch.diff omits the change to slugify_test.go")
	}
	mustVerify(t, res.RunDir)
}

// TestVerificationArgvRedacted: a token in a verification command's argv
// is stored nowhere in clear: not in test.log, the report, the events or
// the trace. The key is assembled at run time, so no file holds it.
func TestVerificationArgvRedacted(t *testing.T) {
	t.Parallel()
	key := "gh" + "p_" + "u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d"
	dir := writeCase(t, "r1-string-slugify", func(s string) string {
		return strings.Replace(s, "verification:\n  - go test -count=1 ./...\n",
			"verification:\n  - go test -count=1 ./...\n  - env SOTVET_PROBE_TOKEN="+key+" true\n  - true --token "+key+"\n", 1)
	})
	sc, err := secrets.NewScanner(secrets.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	opt := options(t, "")
	opt.CaseDir, opt.Redactor = dir, sc
	res := run(t, opt)
	if res.Report.Status != evidence.StatusPass {
		t.Fatalf("status %s %+v", res.Report.Status, res.Report.Blockers)
	}
	for _, a := range []string{evidence.TestLog, evidence.ReportJSON, evidence.ReportMD, evidence.EventsFile, evidence.TraceFile, evidence.Attestation} {
		if s := readFile(t, filepath.Join(res.RunDir, a)); strings.Contains(s, key[4:20]) {
			t.Errorf("%s holds the token", a)
		}
	}
	if !strings.Contains(readFile(t, filepath.Join(res.RunDir, evidence.TestLog)), "SOTVET_PROBE_TOKEN=ghp_****") {
		t.Errorf("test.log does not show the redacted command:\n%s", readFile(t, filepath.Join(res.RunDir, evidence.TestLog)))
	}
	mustVerify(t, res.RunDir)
}

// tokenEngine hands its backend a token of no shape the secrets scanner
// knows; the backend prints it.
type tokenEngine struct{}

func (tokenEngine) Name() string     { return "token" }
func (tokenEngine) Provider() string { return "test" }
func (tokenEngine) Invocation(job engine.Job) (engine.Invocation, error) {
	return engine.Invocation{
		Argv: []string{"/bin/sh", "-c", `echo "token: $LANE_TOKEN"; echo "token: $LANE_TOKEN" >&2; cp "$SOL/slugify.go" slugify.go`},
		Env:  []string{"LANE_TOKEN=plain-looking-value-42", "SOL=" + job.FakeSolution},
	}, nil
}
func (tokenEngine) Terminal(_, _ []byte, code int) engine.Signal {
	return engine.Signal{Status: engine.StatusSuccess, Events: []engine.Event{{Type: "plan.updated"}, {Type: "patch.applied"}}}
}

// keyDumpEngine's backend prints private key material it found, hex- and
// base64-encoded, and a provider token, as a hostile backend would (issue
// 18); none of it was handed out by the harness.
type keyDumpEngine struct{ dumps []string }

func (keyDumpEngine) Name() string     { return "keydump" }
func (keyDumpEngine) Provider() string { return "test" }
func (e keyDumpEngine) Invocation(job engine.Job) (engine.Invocation, error) {
	script := `for v in "$@"; do echo "found: $v"; echo "found: $v" >&2; done; cp "$SOL/slugify.go" slugify.go`
	return engine.Invocation{
		Argv: append([]string{"/bin/sh", "-c", script, "keydump"}, e.dumps...),
		Env:  []string{"SOL=" + job.FakeSolution},
	}, nil
}
func (keyDumpEngine) Terminal(_, _ []byte, code int) engine.Signal {
	return engine.Signal{Status: engine.StatusSuccess, Events: []engine.Event{{Type: "plan.updated"}, {Type: "patch.applied"}}}
}

// TestKeyMaterialRedacted: a signing key a backend prints hex-encoded, a
// PEM body without its armor, and a token of a format from the imported
// rule set are stored nowhere in clear in the run.
func TestKeyMaterialRedacted(t *testing.T) {
	t.Parallel()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	pemText := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	b := make([]byte, 16)
	rand.Read(b)
	dumps := []string{
		hex.EncodeToString([]byte(pemText)),        // the key file, hex-encoded
		base64.StdEncoding.EncodeToString(der),     // a PEM body without armor
		hex.EncodeToString(der),                    // DER in hex
		"shp" + "at_" + hex.EncodeToString(b),      // an imported provider format
		"signing_seed=" + hex.EncodeToString(priv), // a raw key under a key-like name
	}
	opt := options(t, "r1-string-slugify")
	reg := harness.DefaultRegistry(opt.FakeCommand)
	if err := reg.Register(engine.Entry{Engine: keyDumpEngine{dumps}, Enabled: true, Executable: true}); err != nil {
		t.Fatal(err)
	}
	sc, err := secrets.NewScanner(secrets.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	opt.Registry, opt.Engine, opt.Redactor = reg, "keydump", sc
	res := run(t, opt)
	var files []string
	filepath.Walk(res.RunDir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 5 {
		t.Fatalf("run dir holds %d files", len(files))
	}
	for _, f := range files {
		s := readFile(t, f)
		for i, d := range dumps {
			// 24 characters from the middle of the key material: its
			// start may be a fixed public header (an Ed25519 PKCS #8
			// DER's 302e0201…0420 in hex, -----BEGIN in hex), which a
			// mask shows as its rule's literal prefix.
			d = strings.TrimPrefix(d, "signing_seed=")
			if strings.Contains(s, d[len(d)/2-12:len(d)/2+12]) {
				t.Errorf("%s holds dump %d", f, i)
			}
		}
	}
	// The mask shows the hex of "-----BEGIN ", the rule's literal, and
	// nothing of the key.
	if s := readFile(t, filepath.Join(res.RunDir, "backend/stderr.log")); !strings.Contains(s, "found: 2d2d2d2d2d424547494e20****") {
		t.Errorf("backend/stderr.log does not show the masked key: %.400s", s)
	}
}

// TestHandedOutValuesRedacted: what the harness gave a backend is masked
// in the backend's logs whatever its shape.
func TestHandedOutValuesRedacted(t *testing.T) {
	t.Parallel()
	opt := options(t, "r1-string-slugify")
	reg := harness.DefaultRegistry(opt.FakeCommand)
	if err := reg.Register(engine.Entry{Engine: tokenEngine{}, Enabled: true, Executable: true}); err != nil {
		t.Fatal(err)
	}
	opt.Registry, opt.Engine = reg, "token"
	res := run(t, opt)
	for _, a := range []string{"backend/stdout.log", "backend/stderr.log"} {
		s := readFile(t, filepath.Join(res.RunDir, a))
		if strings.Contains(s, "plain-looking-value-42") || !strings.Contains(s, "token: [handed-out value redacted]") {
			t.Errorf("%s: %q", a, s)
		}
	}
	mustVerify(t, res.RunDir)
}

// TestPrivateGoCache: nothing outside the run directory is writable to a
// confined run, the host's build cache included; the run's go commands
// build through a cache of the run's own that reads the host's.
func TestPrivateGoCache(t *testing.T) {
	t.Parallel()
	needLandlock(t)
	opt := options(t, "")
	opt.CaseDir = writeCase(t, "r1-string-slugify", func(s string) string { return s })
	// Source no cache has seen: the build must put its outputs somewhere.
	unique := fmt.Sprintf("package slugify\n\nconst probe = %q\n", randomName(t))
	if err := os.WriteFile(filepath.Join(opt.CaseDir, "repo", "probe.go"), []byte(unique), 0o644); err != nil {
		t.Fatal(err)
	}
	opt.Sandbox = sandbox.Landlock
	res := run(t, opt)
	r := res.Report
	if r.Status != evidence.StatusPass {
		t.Fatalf("status %s %+v\n%s", r.Status, r.Blockers, readFile(t, filepath.Join(res.RunDir, evidence.TestLog)))
	}
	for _, w := range r.SandboxInfo.Writable {
		if w != os.DevNull && !strings.HasPrefix(w, res.RunDir+string(filepath.Separator)) {
			t.Errorf("writable outside the run directory: %s", w)
		}
	}
	// The verification's go test built the unique package through the
	// run's GOCACHEPROG (puts included): had it failed, the run would have.
	if !strings.Contains(readFile(t, filepath.Join(res.RunDir, evidence.TraceFile)), `"GOCACHEPROG"`) {
		t.Error("the run's processes were not given the run's GOCACHEPROG")
	}
}
