package harness_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/internal/plainbuild"
)

// plainChild is a plain (not race-built) build of this test package,
// made at most once per test process and removed when it ends (TestMain).
// go test -c would vet the package again; the parent run has.
var plainChild = plainbuild.New("harness-plain-", "harness.test", "test", "-c", "-vet=off")

// childExe returns the binary the runs of a test start as their fake
// backend, sandbox shim and GOCACHEPROG ("<exe> harness ..."). Without
// -race it is this test binary. Under -race it is the same test package
// built plain: each run starts a shim, a backend and a cache program per
// go command, and race-built they cost a quarter of the package's CPU while
// the race detector watches only their own goroutines, and their code
// (engine/fake, gocache, sandbox) starts none.
// The harness's own code (supervising, judging, writing evidence) runs in
// this process and stays race-built. raceChildren keeps one test's runs
// on the race-built binary end to end.
func childExe(t testing.TB) string {
	t.Helper()
	exe, err := childExePath()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// childExePath is childExe without a test to fail, for code that must
// not stop its goroutine (the shared runs' sync.Once).
func childExePath() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	if !raceEnabled || os.Getenv("SOTVET_RACE_CHILDREN") == "all" {
		return self, nil
	}
	return plainChild.Exe()
}

// raceChildren makes opt's runs start this (race-built, under -race)
// test binary, as the runs of a plain test do.
func raceChildren(t testing.TB, opt *harness.Options) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	opt.FakeCommand[0], opt.SandboxCommand[0] = self, self
}

// TestChildExe: under -race the runs' processes are a plain build of this
// test package, without it this very binary.
func TestChildExe(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe := childExe(t)
	if !raceEnabled || os.Getenv("SOTVET_RACE_CHILDREN") == "all" {
		if exe != self {
			t.Errorf("childExe = %s, want this binary %s", exe, self)
		}
		return
	}
	out, err := exec.Command("go", "version", "-m", exe).CombinedOutput()
	if err != nil {
		t.Fatalf("go version -m %s: %v\n%s", exe, err, out)
	}
	if strings.Contains(string(out), "-race=true") {
		t.Errorf("childExe %s is race-built:\n%s", exe, out)
	}
}
