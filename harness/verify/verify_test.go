package verify

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/harness/evidence"
)

func TestPatchFiles(t *testing.T) {
	p := "diff --git a/x.go b/x.go\nindex 1..2\n--- a/x.go\n+++ b/x.go\ndiff --git a/d/y b/d/y\n"
	got, ok := patchFiles([]byte(p))
	if !ok || !slices.Equal(got, []string{"d/y", "x.go"}) {
		t.Errorf("%v %t", got, ok)
	}
	if _, ok := patchFiles([]byte("diff --git \"a/q\\tx\" \"b/q\\tx\"\n")); ok {
		t.Error("quoted path compared")
	}
	if got, ok := patchFiles(nil); !ok || len(got) != 0 {
		t.Error("empty patch")
	}
}

func TestNotARun(t *testing.T) {
	if _, _, err := Dir(filepath.Join(t.TempDir(), "nope"), Options{}); err == nil {
		t.Error("missing dir verified")
	}
	dir := t.TempDir()
	vs, _, err := Dir(dir, Options{})
	if err != nil || len(vs) != 1 || vs[0].String() != "report.json: missing" {
		t.Errorf("%v %v", vs, err)
	}
	os.WriteFile(filepath.Join(dir, "report.json"), []byte(`{"status": 3}`), 0o644)
	vs, _, _ = Dir(dir, Options{})
	var msgs []string
	for _, v := range vs {
		msgs = append(msgs, v.String())
	}
	all := strings.Join(msgs, "\n")
	if !strings.Contains(all, "required field case_id is missing") || !strings.Contains(all, "field status is number, want string") {
		t.Errorf("%s", all)
	}
}

// TestSandboxConsistency holds report.json's account of confinement
// together.
func TestSandboxConsistency(t *testing.T) {
	landlock := func() evidence.Report {
		return evidence.Report{Sandbox: "landlock", BackendProcessStarted: true, SandboxInfo: evidence.SandboxInfo{
			Mode: "auto", KernelABI: 7, RulesetABI: 3, Writable: []string{"/w"}, Confined: []string{"backend", "verification"}}}
	}
	none := func(mode string) evidence.Report {
		return evidence.Report{Sandbox: "none", BackendProcessStarted: true, SandboxInfo: evidence.SandboxInfo{Mode: mode, Writable: []string{}, Confined: []string{}}}
	}
	for _, tc := range []struct {
		name string
		edit func(*evidence.Report)
		base func() evidence.Report
		want string
	}{
		{"landlock ok", func(*evidence.Report) {}, landlock, ""},
		{"none ok", func(*evidence.Report) {}, func() evidence.Report { return none("auto") }, ""},
		{"required, blocked", func(r *evidence.Report) {
			r.BackendProcessStarted = false
			r.Blockers = []evidence.Blocker{{Code: evidence.SandboxUnavailable}}
		}, func() evidence.Report { return none("landlock") }, ""},
		{"unknown kind", func(r *evidence.Report) { r.Sandbox = "bwrap" }, landlock, `sandbox "bwrap"`},
		{"unknown mode", func(r *evidence.Report) { r.SandboxInfo.Mode = "maybe" }, landlock, "sandbox_info.mode"},
		{"old kernel", func(r *evidence.Report) { r.SandboxInfo.KernelABI = 2 }, landlock, "Landlock ABI 2"},
		{"nothing writable", func(r *evidence.Report) { r.SandboxInfo.Writable = nil }, landlock, "writable is empty"},
		{"backend not confined", func(r *evidence.Report) { r.SandboxInfo.Confined = []string{"verification"} }, landlock, "did not run confined"},
		{"mode none", func(r *evidence.Report) { r.SandboxInfo.Mode = "none" }, landlock, "mode is none"},
		{"none but confined", func(r *evidence.Report) { r.SandboxInfo.Confined = []string{"backend"} }, func() evidence.Report { return none("auto") }, "ran confined"},
		{"required, ran unconfined", func(*evidence.Report) {}, func() evidence.Report { return none("landlock") }, "ran unconfined"},
		{"unavailable, started", func(r *evidence.Report) {
			r.Blockers = []evidence.Blocker{{Code: evidence.SandboxUnavailable}}
		}, func() evidence.Report { return none("auto") }, "but the backend started"},
	} {
		rep := tc.base()
		tc.edit(&rep)
		v := &verifier{rep: &rep}
		v.sandbox()
		var msgs []string
		for _, x := range v.out {
			msgs = append(msgs, x.Message)
		}
		got := strings.Join(msgs, "\n")
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: violations %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestVerificationSurvivors: a verification command whose group outlived
// the kill cannot be recorded as passed.
func TestVerificationSurvivors(t *testing.T) {
	rep := evidence.Report{Sandbox: "none", SandboxInfo: evidence.SandboxInfo{Mode: "none", Writable: []string{}, Confined: []string{}}}
	rep.Verification.Commands = []evidence.CommandResult{{Argv: []string{"go", "test"}, Passed: true, Survivors: []int{4242}}}
	v := &verifier{rep: &rep, files: map[string][]byte{}}
	v.consistency()
	var msgs []string
	for _, x := range v.out {
		msgs = append(msgs, x.Message)
	}
	if !strings.Contains(strings.Join(msgs, "\n"), "passed although processes of its group survived: [4242]") {
		t.Errorf("violations %q", msgs)
	}
}
