package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/svrnty/sotvet/harness/sandbox"
	"github.com/svrnty/sotvet/internal/raceexit"
	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/internal/testtmp"
)

var update = flag.Bool("update", false, "rewrite testscript golden files (cmp targets) in place")

func TestMain(m *testing.M) {
	testscript.Main(cleanupAfter{m}, map[string]func(){
		"sotvet":  func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
		"urandom": urandomCmd,
	})
}

// cleanupAfter removes what the tests shared (plainSotvet) once they ran:
// testscript.Main exits the process itself.
type cleanupAfter struct{ m *testing.M }

func (c cleanupAfter) Run() int {
	flag.Parse()
	raceexit.Set() // for the children the tests start outside scenarios
	widenParallel()
	return testtmp.Run(testtmp.RunFunc(func() int {
		defer plainBin.Remove()
		return c.m.Run()
	}))
}

// explicitParallel: -parallel was given, and stands.
var explicitParallel bool

// widenParallel runs twice as many parallel tests (the scenarios) as
// there are CPUs, unless -parallel was given: a scenario spends much of
// its time waiting, not computing (a backend's timeout, a lane's hang,
// the provider's probe, a real client starting, a sleep before a file
// changes: tens of seconds in each lane scenario), and with one scenario
// per CPU the CPUs idle through those waits. Not under the race detector:
// there (CI, the README's command) every package's race-built tests run
// at once and keep the CPUs busy, so a wider package finishes sooner but
// the run does not (measured: cmd/sotvet 492 -> 396 s, harness 135 ->
// 193 s, the step 720 -> 736 s), and the lane scenarios' time bounds get
// half the CPU each.
func widenParallel() {
	flag.Visit(func(f *flag.Flag) { explicitParallel = explicitParallel || f.Name == "test.parallel" })
	if !explicitParallel && !raceEnabled {
		flag.Set("test.parallel", strconv.Itoa(2*runtime.GOMAXPROCS(0)))
	}
}

// endToEnd skips t unless CI is set or SOTVET_SLOW=1 asks for it: t runs
// a user's whole workflow (a CI job building sotvet from its source, a
// sharded comparison of real runs), tens of seconds of CPU each, and the
// scenarios and package tests cover each of its steps. CI runs them.
func endToEnd(t *testing.T, what string) {
	t.Helper()
	if testing.Short() || os.Getenv("CI") == "" && os.Getenv("SOTVET_SLOW") == "" {
		t.Skipf("%s: runs under CI or with SOTVET_SLOW=1", what)
	}
}

// goEnv is `go env GOCACHE GOMODCACHE`, asked once rather than by every
// scenario.
var goEnv = sync.OnceValues(func() (gocache, gomodcache string) {
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE").Output()
	if err != nil {
		return "", ""
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		return "", ""
	}
	return strings.TrimSpace(lines[0]), strings.TrimSpace(lines[1])
})

// compileOnlyCases writes, once for the scenarios, the cases of
// testdata/cases with their verification a compile (go build) instead of
// their tests, and returns their directory ($COMPILE_CASES): half a run's
// cost, for the scenarios whose subject is what is recorded around a run
// (approvals, gates, summaries), not what its tests find.
func compileOnlyCases(t *testing.T) string {
	const verify = "verification:\n  - go test -count=1 ./...\n"
	dir := t.TempDir()
	for _, name := range []string{"r1-string-slugify"} {
		src, dst := filepath.Join("..", "..", "testdata", "cases", name), filepath.Join(dir, name)
		if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dst, "case.yaml")
		c, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(c, []byte(verify)) {
			t.Fatalf("%s: no %q to make a compile", file, verify)
		}
		c = bytes.Replace(c, []byte(verify), []byte("verification:\n  - go build ./...\n"), 1)
		if err := os.WriteFile(file, c, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestScript runs the scenarios in testdata/script: every user-visible
// behaviour of the command has one. It runs beside the other slow tests
// (t.Parallel), its scenarios in parallel with each other.
func TestScript(t *testing.T) {
	t.Parallel()
	sample, err := filepath.Abs("../../testdata/workspace")
	if err != nil {
		t.Fatal(err)
	}
	corpus, _ := testcorpus.Dir()
	compileCases := compileOnlyCases(t)
	t.Cleanup(removeStandinCA)
	testscript.Run(t, testscript.Params{
		Dir:           "../../testdata/script",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("SAMPLE", sample)
			// urandom's seed: the scenario's name (urandom_test.go)
			env.Setenv("SOTVET_DRAW_SEED", strings.TrimPrefix(filepath.Base(env.WorkDir), "script-"))
			env.Setenv("COMPILE_CASES", compileCases)
			env.Setenv("SCRIPTS", filepath.Join(filepath.Dir(sample), "..", "scripts"))
			env.Setenv("DOCS", filepath.Join(filepath.Dir(sample), "..", "docs"))
			env.Setenv("REPO", filepath.Join(filepath.Dir(sample), ".."))
			// The user's real corpus, when it is beside the checkout.
			env.Setenv("CORPUS", corpus)
			// Scenarios about one subsystem (formats, exit codes, baselines...)
			// run the foundation checks only, so a check added later does not
			// change what they show; each check has its own check_*.txtar.
			env.Setenv("CORE", "--enable=frontmatter,refs,status,syntax,workboard")
			// The summary cache lives under the scenario's own directory.
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".cache"))
			// A free loopback port for the panel scenarios.
			env.Setenv("PANELPORT", freePort())
			// Harness scenarios run go test inside their cases: share the
			// build cache so each script does not start cold.
			gocache, gomodcache := goEnv()
			if gocache != "" {
				env.Setenv("GOCACHE", gocache)
			}
			// And the module cache: pre-commit builds sotvet from a clone
			// (precommit_golang) with a GOPATH of its own.
			if gomodcache != "" {
				env.Setenv("GOMODCACHE", gomodcache)
			}
			// Scenarios run the shared plain build of sotvet, not this test
			// binary: each sotvet process a scenario starts (its commands,
			// the gocache and fake-lane processes of its harness runs) would
			// otherwise also initialise the test-only packages (testscript,
			// jsonschema, whose init alone allocates 1.7 MB), ~30 ms of CPU
			// each: a quarter of this package's CPU.
			// Under -race, raceScenarios keep the race-built test binary.
			if !raceEnabled || !runsRaceBuilt(strings.TrimPrefix(filepath.Base(env.WorkDir), "script-")) {
				dir, err := buildPlainSotvet()
				if err != nil {
					return err
				}
				env.Setenv("PATH", dir+string(os.PathListSeparator)+env.Getenv("PATH"))
			}
			// A race-built process sleeps a second as it exits (the race
			// runtime's atexit_sleep_ms): each urandom call and each run of
			// a raceScenarios sotvet. testscript passes the environment on
			// only as set here.
			if raceEnabled {
				env.Setenv("GORACE", raceexit.Env(os.Getenv("GORACE")))
			}
			// After the PATH above: PATH_WITHOUT_LANES keeps its sotvet.
			laneSetup(env)
			return nil
		},
		RequireExplicitExec: true,
		Cmds:                laneCmds,
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "corpus":
				_, err := os.Stat(corpus)
				return err == nil, nil
			case "ci":
				// CI installs what scenarios need (.ci/run): they run there,
				// and skip elsewhere when a tool is missing.
				return os.Getenv("CI") != "", nil
			case "slow":
				// Slow real-client scenarios (minutes) run under CI, or
				// when asked for.
				return os.Getenv("SOTVET_SLOW") != "", nil
			case "lanes":
				// The real codex and pi CLIs are installed (.ci/run does).
				return lanesInstalled()
			case "uninspectable":
				// A process of this user whose working directory cannot be
				// read (a VM's PID 1, even for root): the guard names it.
				return uninspectableProcess(), nil
			case "landlock":
				// The kernel offers the Landlock ABI the harness's ruleset needs.
				return sandbox.KernelABI() >= sandbox.RulesetABI, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}

func TestWantsMemProfile(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		godebug string
		want    bool
	}{
		{[]string{"check", "."}, "", false},
		{[]string{"check", "--debug.memprofile", "m.prof", "."}, "", true},
		{[]string{"check", "-debug.memprofile=m.prof"}, "", true},
		{[]string{"scan", "--debug.memprofile=m.prof"}, "", true},
		{[]string{"check", "--", "-debug.memprofile"}, "", false},
		{[]string{"check", "debug.memprofile"}, "", false},
		{[]string{"version"}, "gctrace=1,memprofilerate=1", true},
	} {
		if got := wantsMemProfile(tc.args, tc.godebug); got != tc.want {
			t.Errorf("wantsMemProfile(%q, %q) = %v, want %v", tc.args, tc.godebug, got, tc.want)
		}
	}
}

// uninspectableProcess reports whether /proc holds a process of this
// user whose cwd link cannot be read, for a reason other than its exit.
func uninspectableProcess() bool {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	uid := uint32(os.Geteuid())
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		dir := filepath.Join("/proc", e.Name())
		info, err := os.Stat(dir)
		if err != nil {
			continue
		}
		if st, ok := info.Sys().(*syscall.Stat_t); !ok || st.Uid != uid {
			continue
		}
		if _, err := os.Readlink(filepath.Join(dir, "cwd")); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return true
		}
	}
	return false
}

func TestParallelWidened(t *testing.T) {
	if explicitParallel {
		t.Skip("-parallel given")
	}
	want := strconv.Itoa(2 * runtime.GOMAXPROCS(0))
	if raceEnabled {
		want = strconv.Itoa(runtime.GOMAXPROCS(0))
	}
	if got := flag.Lookup("test.parallel").Value.String(); got != want {
		t.Errorf("-test.parallel = %s, want %s", got, want)
	}
}
