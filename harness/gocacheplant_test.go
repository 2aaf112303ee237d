package harness_test

import (
	"bytes"
	"context"
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
	"github.com/svrnty/sotvet/harness/internal/tree"
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
	// The caches it may only read: the host's, a comparison's shared one.
	f := strings.Fields(os.Getenv("GOCACHEPROG"))
	for i := 0; i+1 < len(f); i++ {
		if f[i] == "--read" {
			err := os.WriteFile(filepath.Join(f[i+1], "planted"), []byte("x"), 0o644)
			fmt.Fprintf(os.Stderr, "plant backend: write in %s: %v\n", f[i+1], err)
		}
	}
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
	t.Parallel()
	needLandlock(t)
	res := run(t, plantOptions(t))
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

// plantOptions runs the planting lane, confined, on a copy of a case.
func plantOptions(t *testing.T) harness.Options {
	t.Helper()
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
	return opt
}

// TestSharedGoCache: the runs of a comparison read the cache warmed from
// the pristine case, and no run writes it: not the backend, which plants
// what it can, nor the verification.
func TestSharedGoCache(t *testing.T) {
	t.Parallel()
	needLandlock(t)
	opt := plantOptions(t)
	share := &harness.GoCacheShare{Root: t.TempDir()}
	defer share.Close()
	warm := share.For(context.Background(), opt)
	if warm.SharedGoCache == "" {
		t.Fatal("no shared cache")
	}
	if again := share.For(context.Background(), opt); again.SharedGoCache != warm.SharedGoCache {
		t.Errorf("a second run of the case got %q, want %q", again.SharedGoCache, warm.SharedGoCache)
	}
	other := opt
	other.CaseDir = writeCase(t, "r1-string-slugify", func(s string) string { return s })
	if o := share.For(context.Background(), other); o.SharedGoCache == warm.SharedGoCache || o.SharedGoCache == "" {
		t.Errorf("another case shares %q with the first (%q)", o.SharedGoCache, warm.SharedGoCache)
	}
	before, err := tree.Of(warm.SharedGoCache)
	if err != nil {
		t.Fatal(err)
	}
	if len(before.Entries) < 10 {
		t.Fatalf("the warm-up compiled nothing: %d files", len(before.Entries))
	}
	res := run(t, warm)
	if !res.Report.Verification.Passed {
		t.Errorf("verification failed: %+v\n%s", res.Report.Blockers, readFile(t, filepath.Join(res.RunDir, evidence.TestLog)))
	}
	log := readFile(t, filepath.Join(res.RunDir, evidence.BackendDir, "stderr.log"))
	if !strings.Contains(log, "write in "+warm.SharedGoCache+": ") || strings.Contains(log, "write in "+warm.SharedGoCache+": <nil>") {
		t.Errorf("the backend was not refused the shared cache:\n%s", log)
	}
	// The backend's GOCACHEPROG named it (the backend tried to write it);
	// so did the verification's.
	if trace := readFile(t, filepath.Join(res.RunDir, evidence.TraceFile)); !strings.Contains(trace, `"shared":"`+warm.SharedGoCache+`"`) {
		t.Error("the verification was not given the shared cache")
	}
	after, err := tree.Of(warm.SharedGoCache)
	if err != nil {
		t.Fatal(err)
	}
	if after.Sum != before.Sum {
		t.Error("a run changed the shared cache")
	}
	if err := share.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(warm.SharedGoCache); !os.IsNotExist(err) {
		t.Errorf("Close left the shared cache: %v", err)
	}
}

// TestSharedGoCachePlanned: a case planned for one run gets no warm-up
// (it would cost that run's verification again, for nothing to share);
// one planned for two does.
func TestSharedGoCachePlanned(t *testing.T) {
	t.Parallel()
	needLandlock(t)
	opt := plantOptions(t)
	root := t.TempDir()
	share := &harness.GoCacheShare{Root: root}
	defer share.Close()
	share.Plan(opt.CaseDir)
	if got := share.For(context.Background(), opt); got.SharedGoCache != "" {
		t.Errorf("a case with one run was warmed: %q", got.SharedGoCache)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Errorf("the lone run's case left %d entries in the root", len(ents))
	}
	other := opt
	other.CaseDir = writeCase(t, "r1-string-slugify", func(s string) string { return s })
	share.Plan(other.CaseDir)
	share.Plan(other.CaseDir)
	if got := share.For(context.Background(), other); got.SharedGoCache == "" {
		t.Error("a case with two runs was not warmed")
	}
	// A run its engine gate blocks verifies nothing: it is not handed the
	// cache (nor would it warm it).
	gated := other
	gated.Engine = "codex"
	if got := share.For(context.Background(), gated); got.SharedGoCache != "" {
		t.Errorf("a run behind a closed engine gate was given the shared cache %q", got.SharedGoCache)
	}
}

// TestEngineGateOpen: the lanes a comparison plans to share a build cache
// with are those whose engine gate is open.
func TestEngineGateOpen(t *testing.T) {
	opt := options(t, "r1-string-slugify")
	for _, tc := range []struct {
		engine string
		allow  []string
		want   bool
	}{
		{"", nil, true},
		{"fake", nil, true},
		{"codex", nil, false},
		{"codex", []string{"codex"}, true},
		{"pi", []string{"codex"}, false},
		{"nope", []string{"nope"}, false},
	} {
		o := opt
		o.Engine, o.AllowEngines = tc.engine, tc.allow
		if got := harness.EngineGateOpen(o); got != tc.want {
			t.Errorf("EngineGateOpen(%q, allow %v) = %v, want %v", tc.engine, tc.allow, got, tc.want)
		}
	}
}
