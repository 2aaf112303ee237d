package harness_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/engine"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/sandbox"
)

// wantSandbox is the sandbox a run with the default mode gets here.
func wantSandbox() string {
	if sandbox.KernelABI() >= sandbox.RulesetABI {
		return sandbox.KindLandlock
	}
	return sandbox.KindNone
}

func needLandlock(t *testing.T) {
	t.Helper()
	if abi := sandbox.KernelABI(); abi < sandbox.RulesetABI {
		t.Skipf("kernel Landlock ABI %d < %d: nothing to confine with", abi, sandbox.RulesetABI)
	}
}

// Exit codes of the escaping backend.
const (
	escapeAllWritten = 0
	escapeDenied     = 13 // at least one write failed with EACCES
	escapeOther      = 1
)

// escapeBackend writes a file inside its working directory (the
// workspace), then tries to write each target, which lies outside it.
func escapeBackend(targets []string) int {
	if err := os.WriteFile("inside-workspace.txt", []byte("a write the sandbox allows\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "escape backend: write inside the workspace:", err)
		return escapeOther
	}
	code := escapeAllWritten
	for _, p := range targets {
		err := os.WriteFile(p, []byte("written outside the workspace\n"), 0o644)
		fmt.Fprintf(os.Stderr, "escape backend: write %s: %v\n", p, err)
		switch {
		case err == nil:
		case errors.Is(err, syscall.EACCES):
			code = escapeDenied
		default:
			return escapeOther
		}
	}
	return code
}

// escapeEngine is a lane whose backend tries to write outside the workspace.
type escapeEngine struct {
	exe     string
	targets []string
}

func (e escapeEngine) Name() string     { return "escape" }
func (e escapeEngine) Provider() string { return "test" }
func (e escapeEngine) Invocation(engine.Job) (engine.Invocation, error) {
	return engine.Invocation{Argv: append([]string{e.exe, "harness", "escape-backend"}, e.targets...)}, nil
}
func (e escapeEngine) Terminal(_, stderr []byte, code int) engine.Signal {
	if code != 0 {
		return engine.Signal{Status: engine.StatusFailure, Detail: strings.TrimSpace(string(stderr))}
	}
	return engine.Signal{Status: engine.StatusSuccess}
}

// escapeOptions runs the escaping lane on a copy of a case; targets gets
// the options (case, runs root and run directory set) and names the paths
// the backend tries to write.
func escapeOptions(t *testing.T, targets func(harness.Options) []string) harness.Options {
	t.Helper()
	opt := options(t, "")
	opt.CaseDir = writeCase(t, "r1-string-slugify", func(s string) string { return s })
	opt.RunDir = filepath.Join(opt.RunsRoot, "escape-run")
	reg := harness.DefaultRegistry(opt.FakeCommand)
	if err := reg.Register(engine.Entry{Engine: escapeEngine{exe: opt.FakeCommand[0], targets: targets(opt)}, Enabled: true, Executable: true}); err != nil {
		t.Fatal(err)
	}
	opt.Registry, opt.Engine = reg, "escape"
	return opt
}

func randomName(t *testing.T) string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return "sotvet-escape-" + hex.EncodeToString(b[:])
}

// TestLandlockDeniesEscape: a backend that writes into the case's source
// directory, the runs root, the run directory's evidence area, the system
// temporary directory and $HOME fails with EACCES on every one under
// Landlock, none of the files appears, and the run says so.
func TestLandlockDeniesEscape(t *testing.T) {
	needLandlock(t)
	name := randomName(t)
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	var targets []string
	opt := escapeOptions(t, func(opt harness.Options) []string {
		targets = []string{
			filepath.Join(opt.CaseDir, name),                   // the case source
			filepath.Join(opt.RunsRoot, name),                  // beside the run
			filepath.Join(opt.RunDir, evidence.ReportJSON),     // the evidence
			filepath.Join(opt.RunDir, "backend", "forged.log"), // the backend's artifact directory
			filepath.Join(os.TempDir(), name),                  // the machine's temp dir
			filepath.Join(home, name),                          // $HOME outside the run
		}
		return targets
	})
	t.Cleanup(func() {
		for _, p := range []string{targets[4], targets[5]} {
			os.Remove(p)
		}
	})
	opt.Sandbox = sandbox.Landlock
	res := run(t, opt)
	r := res.Report
	if r.Sandbox != sandbox.KindLandlock || !slices.Contains(r.SandboxInfo.Confined, "backend") || r.SandboxInfo.RulesetABI != sandbox.RulesetABI || r.SandboxInfo.KernelABI < sandbox.RulesetABI {
		t.Fatalf("not confined: sandbox %s %+v", r.Sandbox, r.SandboxInfo)
	}
	if r.BackendExitCode == nil || *r.BackendExitCode != escapeDenied {
		t.Fatalf("backend exit %v, want %d (EACCES)", r.BackendExitCode, escapeDenied)
	}
	if r.Status != evidence.StatusFail || len(r.Blockers) != 1 || r.Blockers[0].Code != evidence.BackendFailed {
		t.Errorf("status %s blockers %+v", r.Status, r.Blockers)
	}
	stderr := readFile(t, filepath.Join(res.RunDir, "backend", "stderr.log"))
	for _, p := range targets {
		if !strings.Contains(stderr, "write "+p+": open "+p+": permission denied") {
			t.Errorf("no EACCES for %s in stderr.log:\n%s", p, stderr)
		}
		if p == targets[2] {
			continue // report.json is the harness's own, written after the backend
		}
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	if strings.Contains(readFile(t, targets[2]), "written outside the workspace") {
		t.Error("the backend wrote report.json")
	}
	// The write inside the workspace was allowed, and the harness saw it.
	if !slices.Contains(r.ChangedFiles, "inside-workspace.txt") {
		t.Errorf("changed files %v", r.ChangedFiles)
	}
	if !strings.Contains(readFile(t, filepath.Join(res.RunDir, evidence.ReportMD)), "sandbox: landlock (Landlock ABI") {
		t.Error("report.md does not name the sandbox")
	}
	mustVerify(t, res.RunDir)
}

// TestNoSandboxEscapes is the control: the same backend, unconfined,
// writes outside the workspace, and the harness's own checks cannot see it.
func TestNoSandboxEscapes(t *testing.T) {
	var target string
	opt := escapeOptions(t, func(opt harness.Options) []string {
		target = filepath.Join(opt.CaseDir, randomName(t))
		return []string{target}
	})
	opt.Sandbox = sandbox.None
	res := run(t, opt)
	if res.Report.Sandbox != sandbox.KindNone || len(res.Report.SandboxInfo.Confined) != 0 || !strings.Contains(res.Report.SandboxInfo.Reason, "turned off") {
		t.Errorf("sandbox %s %+v", res.Report.Sandbox, res.Report.SandboxInfo)
	}
	if _, err := os.Stat(target); err != nil {
		t.Fatalf("the unconfined backend could not write %s: %v", target, err)
	}
	if res.Report.BackendExitCode == nil || *res.Report.BackendExitCode != escapeAllWritten {
		t.Errorf("backend exit %v", res.Report.BackendExitCode)
	}
	mustVerify(t, res.RunDir)
}

// symlinkCase is a case whose fixture holds a symbolic link to the case's
// own directory, and whose fake solution writes through it: the fake lane,
// unchanged, writes outside the workspace.
func symlinkCase(t *testing.T) (caseDir, escaped string) {
	t.Helper()
	caseDir = writeCase(t, "r1-string-slugify", func(s string) string { return s })
	if err := os.Symlink(caseDir, filepath.Join(caseDir, "repo", "up")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(caseDir, "fake", "up"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(caseDir, "fake", "up", "ESCAPED.txt"), []byte("written through a link\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return caseDir, filepath.Join(caseDir, "ESCAPED.txt")
}

// TestLandlockSymlinkEscape: the fake lane would write through a link in
// the fixture that leads to the case directory. Unconfined, the write used
// to land in the case directory while the run passed (git sees only the
// unchanged link). Such a fixture is now refused before anything runs, in
// every sandbox mode.
func TestLandlockSymlinkEscape(t *testing.T) {
	for _, mode := range []string{sandbox.None, sandbox.Landlock} {
		t.Run(mode, func(t *testing.T) {
			if mode == sandbox.Landlock {
				needLandlock(t)
			}
			caseDir, escaped := symlinkCase(t)
			opt := options(t, "")
			opt.CaseDir, opt.Sandbox = caseDir, mode
			res := run(t, opt)
			r := res.Report
			if _, err := os.Stat(escaped); err == nil {
				t.Fatal("the write through the link happened")
			}
			if r.Status != evidence.StatusBlocked || len(r.Blockers) != 1 || r.Blockers[0].Code != evidence.InvalidContract || r.BackendProcessStarted {
				t.Fatalf("status %s blockers %+v started %v", r.Status, r.Blockers, r.BackendProcessStarted)
			}
			mustVerify(t, res.RunDir)
		})
	}
}

// TestSandboxModes: what each mode gives when Landlock is, or is made to
// look, unavailable.
func TestSandboxModes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		mode    string
		cap     string // ABICapEnv value
		noShim  bool
		status  string
		sandbox string
		reason  string
	}{
		{name: "auto-unsupported", mode: sandbox.Auto, cap: "0", status: "pass", sandbox: "none", reason: "does not offer Landlock"},
		{name: "auto-old-abi", mode: "", cap: "2", status: "pass", sandbox: "none", reason: "ruleset needs ABI 3"},
		{name: "auto-no-shim", mode: sandbox.Auto, noShim: true, status: "pass", sandbox: "none", reason: "no sandbox-exec"},
		{name: "landlock-unsupported", mode: sandbox.Landlock, cap: "0", status: "blocked", sandbox: "none", reason: "required but unavailable"},
		{name: "landlock-no-shim", mode: sandbox.Landlock, noShim: true, status: "blocked", sandbox: "none", reason: "no sandbox-exec"},
		{name: "none", mode: sandbox.None, status: "pass", sandbox: "none", reason: "turned off"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opt := options(t, "r1-string-slugify")
			opt.Sandbox = tc.mode
			if tc.cap != "" {
				opt.Environ = append(opt.Environ, sandbox.ABICapEnv+"="+tc.cap)
			}
			if tc.noShim {
				opt.SandboxCommand = nil
			}
			res := run(t, opt)
			r := res.Report
			if r.Status != tc.status || r.Sandbox != tc.sandbox || !strings.Contains(r.SandboxInfo.Reason, tc.reason) {
				t.Fatalf("status %s sandbox %s %+v", r.Status, r.Sandbox, r.SandboxInfo)
			}
			if want := tc.mode; (want == "" && r.SandboxInfo.Mode != sandbox.Auto) || (want != "" && r.SandboxInfo.Mode != want) {
				t.Errorf("mode %s", r.SandboxInfo.Mode)
			}
			if tc.status == "blocked" {
				if len(r.Blockers) != 1 || r.Blockers[0].Code != evidence.SandboxUnavailable || r.BackendProcessStarted || res.ExitCode != 3 {
					t.Errorf("blockers %+v started %t", r.Blockers, r.BackendProcessStarted)
				}
				if _, err := os.Stat(filepath.Join(res.RunDir, "workspace")); err == nil {
					t.Error("the workspace was copied before the sandbox gate")
				}
				if got := eventTypes(events(t, res.RunDir)); !slices.Contains(got, "backend.gate.blocked") {
					t.Errorf("events %v", got)
				}
			}
			mustVerify(t, res.RunDir)
		})
	}
	opt := options(t, "r1-string-slugify")
	opt.Sandbox = "chroot"
	if _, err := harness.Run(context.Background(), opt); !errors.Is(err, harness.ErrUsage) {
		t.Errorf("an unknown sandbox mode: %v", err)
	}
}

// TestLandlockVerification: under Landlock the verification commands run
// confined too, and go test works with the writes the policy allows.
func TestLandlockVerification(t *testing.T) {
	t.Parallel()
	needLandlock(t)
	opt := options(t, "r1-src-string-slugify")
	opt.Sandbox = sandbox.Landlock
	res := run(t, opt)
	r := res.Report
	if r.Status != evidence.StatusPass || !slices.Equal(r.SandboxInfo.Confined, []string{"backend", "verification"}) {
		t.Fatalf("status %s %+v %+v", r.Status, r.Blockers, r.SandboxInfo)
	}
	ws := filepath.Join(res.RunDir, "workspace")
	if len(r.SandboxInfo.Writable) < 4 || r.SandboxInfo.Writable[0] != ws || !slices.Contains(r.SandboxInfo.Writable, os.DevNull) {
		t.Errorf("writable %v", r.SandboxInfo.Writable)
	}
	for _, w := range r.SandboxInfo.Writable {
		if w == res.RunDir || w == filepath.Join(res.RunDir, "backend") {
			t.Errorf("the evidence area %s is writable", w)
		}
	}
	mustVerify(t, res.RunDir)
}
