package sandbox_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/harness/sandbox"
	"github.com/svrnty/sotvet/internal/raceexit"
)

// TestMain lets the test binary act as the shim: "<binary> sandbox-exec ...".
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "sandbox-exec" {
		os.Exit(sandbox.Main(os.Args[2:], os.Stderr))
	}
	raceexit.Set() // the shim it runs is this binary
	os.Exit(m.Run())
}

func TestDecide(t *testing.T) {
	for _, tc := range []struct {
		mode             string
		abi              int
		shim             bool
		confine, blocked bool
		reason           string
	}{
		{"", 7, true, true, false, "Landlock ABI 7 enforces"},
		{sandbox.Auto, 3, true, true, false, "ABI 3"},
		{sandbox.Auto, 0, true, false, false, "does not offer Landlock"},
		{sandbox.Auto, 2, true, false, false, "ruleset needs ABI 3"},
		{sandbox.Auto, 7, false, false, false, "no sandbox-exec command"},
		{sandbox.Landlock, 7, true, true, false, "enforces"},
		{sandbox.Landlock, 0, true, false, true, "required but unavailable: the kernel does not offer Landlock"},
		{sandbox.Landlock, 7, false, false, true, "no sandbox-exec"},
		{sandbox.None, 7, true, false, false, "turned off"},
	} {
		d := sandbox.Decide(tc.mode, tc.abi, tc.shim)
		if d.Confine != tc.confine || d.Blocked != tc.blocked || !strings.Contains(d.Reason, tc.reason) {
			t.Errorf("Decide(%q, %d, %t) = %+v", tc.mode, tc.abi, tc.shim, d)
		}
		if want := map[bool]string{true: "landlock", false: "none"}[tc.confine]; d.Kind() != want {
			t.Errorf("Decide(%q, %d, %t).Kind() = %s", tc.mode, tc.abi, tc.shim, d.Kind())
		}
	}
	if err := sandbox.CheckMode("bwrap"); err == nil {
		t.Error("CheckMode accepted bwrap")
	}
	for _, m := range append(slices.Clone(sandbox.Modes), "") {
		if err := sandbox.CheckMode(m); err != nil {
			t.Error(err)
		}
	}
}

func TestEffectiveABI(t *testing.T) {
	k := sandbox.KernelABI()
	if got := sandbox.EffectiveABI(nil); got != k {
		t.Errorf("EffectiveABI(nil) = %d, kernel %d", got, k)
	}
	if got := sandbox.EffectiveABI([]string{sandbox.ABICapEnv + "=0"}); got != 0 {
		t.Errorf("capped to 0: %d", got)
	}
	if got := sandbox.EffectiveABI([]string{sandbox.ABICapEnv + "=99"}); got != k {
		t.Errorf("the cap raised the ABI: %d, kernel %d", got, k)
	}
	t.Logf("kernel Landlock ABI: %d", k)
}

func TestArgs(t *testing.T) {
	p := sandbox.Policy{Dirs: []string{"/a", "/b c"}, Files: []string{"/dev/null"}, ConfineReads: true, ReadDirs: []string{"/usr"}, ReadFiles: []string{"/bin/x"}}
	argv := []string{"go", "test", "--", "-x"}
	w := sandbox.Wrap([]string{"/bin/sotvet", "harness", "sandbox-exec"}, p, "/usr/bin/go", argv)
	gp, prog, gargv, err := sandbox.ParseArgs(w[3:])
	if err != nil || prog != "/usr/bin/go" || !slices.Equal(gargv, argv) || !slices.Equal(gp.Dirs, p.Dirs) || !slices.Equal(gp.Files, p.Files) ||
		!gp.ConfineReads || !slices.Equal(gp.ReadDirs, p.ReadDirs) || !slices.Equal(gp.ReadFiles, p.ReadFiles) {
		t.Fatalf("round trip: %v %q %q %+v", err, prog, gargv, gp)
	}
	for _, bad := range [][]string{
		nil,
		{"--rw", "/a"},
		{"--rw", "/a", "--"},
		{"--rw"},
		{"--nope", "x", "--", "true"},
		{"--", "true"},
		{"--rw", "/a", "--prog", "rel", "--", "true"},
		{"--rw", "/a", "--", "true"}, // no --prog and argv[0] not absolute
	} {
		if _, _, _, err := sandbox.ParseArgs(bad); err == nil {
			t.Errorf("ParseArgs(%q) accepted", bad)
		}
	}
}

func TestPolicyCheck(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []sandbox.Policy{
		{Dirs: []string{"rel"}},
		{Dirs: []string{filepath.Join(dir, "missing")}},
		{Dirs: []string{"/dev/null"}},
		{Dirs: []string{dir}, Files: []string{dir}},
		{Dirs: []string{dir}, Files: []string{"dev/null"}},
	} {
		if err := p.Check(); err == nil {
			t.Errorf("Check(%+v) accepted", p)
		}
	}
}

// shim runs script under the shim with the policy and returns its output.
func shim(t *testing.T, p sandbox.Policy, script string) (string, error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	argv := sandbox.Wrap([]string{exe, "sandbox-exec"}, p, "/bin/sh", []string{"sh", "-c", script})
	cmd := exec.Command(argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	return out.String(), err
}

func needLandlock(t *testing.T) {
	t.Helper()
	if abi := sandbox.KernelABI(); abi < sandbox.RulesetABI {
		t.Skipf("kernel Landlock ABI %d < %d", abi, sandbox.RulesetABI)
	}
}

// TestConfinement proves the ruleset on this kernel: writes beneath the
// writable directory work; every kind of write elsewhere fails with EACCES
// and leaves no trace; reading and executing stay allowed.
func TestConfinement(t *testing.T) {
	needLandlock(t)
	root := t.TempDir()
	in, out := filepath.Join(root, "in"), filepath.Join(root, "out")
	for _, d := range []string{in, out, filepath.Join(out, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	keep := filepath.Join(out, "keep.txt")
	if err := os.WriteFile(keep, []byte("original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := sandbox.Policy{Dirs: []string{in}, Files: []string{"/dev/null"}}

	// Allowed: create, write, rename and remove beneath in; /dev/null; read anywhere.
	script := `set -e
echo hi > "$IN/a"; mkdir "$IN/d"; mv "$IN/a" "$IN/d/b"; ln -s b "$IN/d/l"; rm "$IN/d/l"
echo x > /dev/null; cat "$KEEP" > "$IN/copy"; ls / > /dev/null; echo done`
	got, err := shim(t, p, "IN="+in+" KEEP="+keep+"\n"+script)
	if err != nil || !strings.Contains(got, "done") {
		t.Fatalf("allowed writes failed: %v\n%s", err, got)
	}
	if b, _ := os.ReadFile(filepath.Join(in, "copy")); string(b) != "original\n" {
		t.Errorf("read outside failed: %q", b)
	}

	// Denied, each on its own.
	for name, cmd := range map[string]string{
		"create":   `echo x > "$OUT/new"`,
		"truncate": `: > "$OUT/keep.txt"`,
		"append":   `echo x >> "$OUT/keep.txt"`,
		"mkdir":    `mkdir "$OUT/dir"`,
		"remove":   `rm "$OUT/keep.txt"`,
		"rmdir":    `rmdir "$OUT/sub"`,
		"symlink":  `ln -s /etc/passwd "$OUT/link"`,
		"move-out": `echo x > "$IN/m" && mv "$IN/m" "$OUT/m"`,
		"move-in":  `mv "$OUT/keep.txt" "$IN/stolen"`,
		"fifo":     `mkfifo "$OUT/fifo"`,
		"tmp":      `echo x > "$TMPOUT"`,
	} {
		tmpOut := filepath.Join(os.TempDir(), "sotvet-sandbox-test-"+filepath.Base(root))
		got, err := shim(t, p, "IN="+in+" OUT="+out+" TMPOUT="+tmpOut+"\n"+cmd)
		if err == nil {
			t.Errorf("%s: allowed outside the policy\n%s", name, got)
		}
		if !strings.Contains(strings.ToLower(got), "permission denied") {
			t.Errorf("%s: want EACCES, got %s", name, got)
		}
		if _, err := os.Lstat(tmpOut); err == nil {
			os.Remove(tmpOut)
			t.Errorf("%s: %s was written", name, tmpOut)
		}
	}
	ents, _ := os.ReadDir(out)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"keep.txt", "sub"}) {
		t.Errorf("outside directory changed: %v", names)
	}
	if b, _ := os.ReadFile(keep); string(b) != "original\n" {
		t.Errorf("outside file changed: %q", b)
	}
}

func TestShimFailsClosed(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "missing")
	marker := filepath.Join(t.TempDir(), "ran")
	// A policy path that does not exist: the program must not run at all.
	cmd := exec.Command(exe, "sandbox-exec", "--rw", missing, "--prog", "/bin/sh", "--", "sh", "-c", "touch "+marker)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != sandbox.ExitRestrict {
		t.Errorf("exit %v, want %d: %s", err, sandbox.ExitRestrict, out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the program ran although the ruleset could not be applied")
	}
	cmd = exec.Command(exe, "sandbox-exec", "--", "true")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "usage") {
		t.Errorf("usage error: %v %s", err, out)
	}
}

// TestReadConfinement: with ConfineReads, reading and listing work beneath
// the writable and readable paths only; a secret beside them stays
// unreadable even when its path is known.
func TestReadConfinement(t *testing.T) {
	needLandlock(t)
	root := t.TempDir()
	in, ro, secret := filepath.Join(root, "in"), filepath.Join(root, "ro"), filepath.Join(root, "secret")
	for _, d := range []string{in, ro, secret} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(ro, "tool.txt"), filepath.Join(secret, "key.pem")} {
		if err := os.WriteFile(f, []byte("content\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Not /dev: where TMPDIR is a tmpfs under /dev/shm (.ci/run's), it
	// would hold the directories this test must find unreadable; the
	// harness grants single devices only (readpolicy.go), as here.
	sys := []string{"/usr", "/bin", "/lib", "/lib64", "/etc", "/proc"}
	var dirs []string
	for _, d := range sys {
		if _, err := os.Stat(d); err == nil {
			dirs = append(dirs, d)
		}
	}
	p := sandbox.Policy{Dirs: []string{in}, Files: []string{"/dev/null"}, ReadFiles: []string{"/dev/urandom"}, ConfineReads: true, ReadDirs: append(dirs, ro)}
	env := "IN=" + in + " RO=" + ro + " SECRET=" + secret + "\n"
	got, err := shim(t, p, env+`set -e; cat "$RO/tool.txt" > "$IN/copy"; ls "$RO" > /dev/null; echo done`)
	if err != nil || !strings.Contains(got, "done") {
		t.Fatalf("allowed reads failed: %v\n%s", err, got)
	}
	for name, cmd := range map[string]string{
		"read":   `cat "$SECRET/key.pem"`,
		"list":   `ls "$SECRET"`,
		"parent": `ls "$RO/.."`,
	} {
		got, err := shim(t, p, env+cmd)
		if err == nil || strings.Contains(got, "content") || !strings.Contains(got, "Permission denied") {
			t.Errorf("%s: allowed outside the policy\n%s", name, got)
		}
	}
}
