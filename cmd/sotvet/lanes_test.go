package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/svrnty/sotvet/internal/mockprovider"
)

// lanesDir is where scripts/ci/install-lanes.sh installs the real agent
// CLIs: $SOTVET_LANES_DIR, or sotvet/lanes in the user's cache directory.
func lanesDir() string {
	if d := os.Getenv("SOTVET_LANES_DIR"); d != "" {
		return d
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(c, "sotvet", "lanes")
}

func lanesBin() string { return filepath.Join(lanesDir(), "node_modules", ".bin") }

// lanesInstalled reports whether codex and pi are installed. Without them
// the lane scenarios skip, unless CI is set: CI installs them.
func lanesInstalled() (bool, error) {
	for _, cli := range []string{"codex", "pi"} {
		if _, err := os.Stat(filepath.Join(lanesBin(), cli)); err != nil {
			if os.Getenv("CI") != "" {
				return false, fmt.Errorf("CI is set but %s is not installed in %s (run scripts/ci/install-lanes.sh)", cli, lanesBin())
			}
			return false, nil
		}
	}
	return true, nil
}

// laneSetup puts the installed lane CLIs first on the scripts' PATH.
func laneSetup(env *testscript.Env) {
	env.Setenv("PATH_WITHOUT_LANES", env.Getenv("PATH"))
	if ok, _ := lanesInstalled(); ok {
		env.Setenv("PATH", lanesBin()+string(os.PathListSeparator)+env.Getenv("PATH"))
	}
	env.Setenv("LANES_BIN", lanesBin())
}

// laneCmds are the lane scenarios' own commands:
//
//	mockprovider [CASE-DIR]  start the scripted provider for this script;
//	                         $MOCK is its base, $MOCK/<scenario>/v1 a scenario's URL
//	standinca                put the stand-in WorkOS Case ca first on PATH
//	noproc TEXT              no live process has TEXT in its command line
var laneCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"httpget": cmdHTTPGet, // serve.txtar
	"mockprovider": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) > 1 {
			ts.Fatalf("usage: mockprovider [case-dir]")
		}
		var files []mockprovider.File
		if len(args) == 1 {
			dir := ts.MkAbs(args[0])
			var err error
			files, err = mockprovider.CaseFiles(filepath.Join(dir, "repo"), filepath.Join(dir, "fake"))
			ts.Check(err)
		}
		s, err := mockprovider.Start(files)
		ts.Check(err)
		ts.Defer(s.Close)
		ts.Setenv("MOCK", strings.TrimSuffix(s.URL("x"), "/x/v1"))
	},
	"standinca": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 0 {
			ts.Fatalf("usage: standinca")
		}
		dir, err := standinCA()
		ts.Check(err)
		ts.Setenv("PATH", dir+string(os.PathListSeparator)+ts.Getenv("PATH"))
	},
	"noproc": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 {
			ts.Fatalf("usage: noproc TEXT")
		}
		// Only this script's processes: scripts run in parallel, and
		// another lane's late writer is alive during its own run.
		pids := processesWith(args[0], ts.Getenv("WORK"))
		if neg != (len(pids) > 0) {
			ts.Fatalf("processes with %q in their command line: %v", args[0], pids)
		}
	},
}

// processesWith lists the processes whose command line holds text and
// whose working directory is dir or below it.
func processesWith(text, dir string) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		if !strings.Contains(strings.ReplaceAll(string(cmd), "\x00", " "), text) {
			continue
		}
		// A process whose cwd cannot be read is counted: better a false
		// alarm than a missed survivor.
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err != nil || cwd == dir || strings.HasPrefix(cwd, dir+"/") {
			out = append(out, pid)
		}
	}
	return out
}

var (
	standinOnce sync.Once
	standinDir  string
	standinErr  error
)

// standinCA builds the stand-in ca (the real one cannot be installed here)
// once per test binary.
func standinCA() (string, error) {
	standinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "sotvet-standin-ca-")
		if err != nil {
			standinErr = err
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "ca"), "../../harness/engine/case/testdata/ca").CombinedOutput()
		if err != nil {
			standinErr = fmt.Errorf("building the stand-in ca: %v\n%s", err, out)
		}
		standinDir = dir
	})
	return standinDir, standinErr
}

func removeStandinCA() {
	if standinDir != "" {
		os.RemoveAll(standinDir)
	}
}
