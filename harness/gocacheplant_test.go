package harness_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/engine"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/sandbox"
)

// plantBackend solves the task with the file args[0], builds the
// workspace's tests through the build cache the harness gave it, then
// overwrites every compiled output in that cache with bytes of the same
// size: a verification that trusted the cache would link them.
func plantBackend(args []string) int {
	sol, err := os.ReadFile(args[0])
	if err == nil {
		err = os.WriteFile("slugify.go", sol, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "plant backend:", err)
		return 1
	}
	build := exec.Command("go", "test", "-count=1", "./...")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "plant backend: go test: %v\n%s", err, out)
		return 1
	}
	planted := 0
	err = filepath.WalkDir(os.Getenv("GOCACHE"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "-d") {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		planted++
		return os.WriteFile(p, bytes.Repeat([]byte{'X'}, int(info.Size())), 0o644)
	})
	fmt.Fprintf(os.Stderr, "plant backend: %d outputs planted in %s\n", planted, os.Getenv("GOCACHE"))
	if err != nil || planted == 0 {
		fmt.Fprintln(os.Stderr, "plant backend: nothing planted:", err)
		return 1
	}
	return 0
}

type plantEngine struct{ exe, solution string }

func (e plantEngine) Name() string     { return "plant" }
func (e plantEngine) Provider() string { return "test" }
func (e plantEngine) Invocation(engine.Job) (engine.Invocation, error) {
	return engine.Invocation{Argv: []string{e.exe, "harness", "plant-backend", e.solution}}, nil
}
func (e plantEngine) Terminal(_, stderr []byte, code int) engine.Signal {
	if code != 0 {
		return engine.Signal{Status: engine.StatusFailure, Detail: strings.TrimSpace(string(stderr))}
	}
	return engine.Signal{Status: engine.StatusSuccess}
}

// TestPlantedGoCacheIgnored: a backend that corrupts every output in the
// build cache it was given cannot change the verification's result: the
// verification builds through a cache of its own, which the backend could
// not write, and passes on the backend's correct solution.
func TestPlantedGoCacheIgnored(t *testing.T) {
	needLandlock(t)
	opt := options(t, "")
	opt.CaseDir = writeCase(t, "r1-string-slugify", func(s string) string { return s })
	// Source no cache has seen: the backend's build must put its outputs
	// in its own cache, where it then corrupts them.
	unique := fmt.Sprintf("package slugify\n\nconst probe = %q\n", randomName(t))
	if err := os.WriteFile(filepath.Join(opt.CaseDir, "repo", "probe.go"), []byte(unique), 0o644); err != nil {
		t.Fatal(err)
	}
	opt.Sandbox = sandbox.Landlock
	reg := harness.DefaultRegistry(opt.FakeCommand)
	sol, err := filepath.Abs(filepath.Join(opt.CaseDir, "fake", "slugify.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(engine.Entry{Engine: plantEngine{exe: opt.FakeCommand[0], solution: sol}, Enabled: true, Executable: true}); err != nil {
		t.Fatal(err)
	}
	opt.Registry, opt.Engine = reg, "plant"
	res := run(t, opt)
	r := res.Report
	backendLog := readFile(t, filepath.Join(res.RunDir, evidence.BackendDir, "stderr.log"))
	if !strings.Contains(backendLog, "outputs planted") {
		t.Fatalf("the backend planted nothing:\n%s", backendLog)
	}
	if !r.Verification.Passed || !r.TestsPassed {
		t.Errorf("a planted cache changed the verification: passed %v, blockers %+v\n%s", r.Verification.Passed, r.Blockers,
			readFile(t, filepath.Join(res.RunDir, evidence.TestLog)))
	}
	trace := readFile(t, filepath.Join(res.RunDir, evidence.TraceFile))
	if !strings.Contains(trace, `"verification.gocache"`) {
		t.Error("the trace does not record the verification's own cache")
	}
}
