package harness_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/svrnty/sotvet/harness"
)

// plainChild holds a plain (not race-built) build of this test binary,
// made at most once per test process and removed when it ends (TestMain).
var plainChild = struct {
	once sync.Once
	dir  string
	exe  string
	err  error
}{}

// childExe returns the binary the runs of a test start as their fake
// backend, sandbox shim and GOCACHEPROG ("<exe> harness ..."). Without
// -race it is this test binary. Under -race it is the same test package
// built plain: each run starts a shim, a backend and a cache program per
// go command, and race-built they cost a third of the package's CPU while
// the race detector watches only their own goroutines, and their code
// (engine/fake, gocache, sandbox) starts none.
// The harness's own code (supervising, judging, writing evidence) runs in
// this process and stays race-built. raceChildren keeps one test's runs
// on the race-built binary end to end.
func childExe(t testing.TB) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if !raceEnabled || os.Getenv("SOTVET_RACE_CHILDREN") == "all" {
		return self
	}
	plainChild.once.Do(func() {
		dir, err := os.MkdirTemp("", "harness-plain-")
		if err != nil {
			plainChild.err = err
			return
		}
		plainChild.dir = dir
		exe := filepath.Join(dir, "harness.test")
		cmd := exec.Command("go", "test", "-c", "-o", exe, ".")
		cmd.Env = append(os.Environ(), "GOFLAGS="+withoutRace(os.Getenv("GOFLAGS")))
		if out, err := cmd.CombinedOutput(); err != nil {
			plainChild.err = fmt.Errorf("go test -c (plain): %v\n%s", err, out)
			return
		}
		plainChild.exe = exe
	})
	if plainChild.err != nil {
		t.Fatal(plainChild.err)
	}
	return plainChild.exe
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

// withoutRace drops -race from GOFLAGS: the plain build is the point.
func withoutRace(flags string) string {
	var keep []string
	for _, f := range strings.Fields(flags) {
		if f != "-race" && f != "--race" && f != "-race=true" {
			keep = append(keep, f)
		}
	}
	return strings.Join(keep, " ")
}

// cleanupPlainChild removes the plain build after the tests.
func cleanupPlainChild() {
	if plainChild.dir != "" {
		os.RemoveAll(plainChild.dir)
	}
}

func TestWithoutRace(t *testing.T) {
	for in, want := range map[string]string{
		"":                     "",
		"-race":                "",
		"-mod=mod -race -v":    "-mod=mod -v",
		"-tags=devtools":       "-tags=devtools",
		"--race -race=true -x": "-x",
	} {
		if got := withoutRace(in); got != want {
			t.Errorf("withoutRace(%q) = %q, want %q", in, got, want)
		}
	}
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
