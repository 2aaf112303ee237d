package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/svrnty/sotvet/internal/plainbuild"
)

// raceScenarios are the scenarios that, under -race, still run this
// race-built test binary as sotvet: each drives goroutines of the binary
// end to end, where a race the packages' own -race tests cannot see (the
// wiring in cmd/sotvet, real pipes and processes) would show. Every other
// scenario's subject is what the command prints and exits with, which the
// race detector does not change: under -race those run a plain build
// (plainSotvet), so a race run costs what a plain one does, plus these.
// SOTVET_RACE_SCENARIOS=all runs every scenario race-built.
var raceScenarios = map[string]string{
	"lsp":         "the language server: its reader, writer and debounced re-checks (lsp/server.go, lsp/documents.go)",
	"lsp_prose":   "the language server publishing prose findings while documents change",
	"serve":       "the panel's HTTP server and its shutdown goroutine (serve.go)",
	"secrets":     "scan's concurrent walk over files (scan.go's workers)",
	"sample":      "the check driver's parallel analyzers over the whole sample workspace, from a shell as the README runs it (checks/driver.go)",
	"git_fifo":    "the git probe asking git in a goroutine while the workspace is read (gitprobe.go)",
	"harness_run": "the harness supervising a backend and its verification: phase watcher, reaper, pipes (harness/phasewatch.go, harness/internal/proc)",
}

// runsRaceBuilt reports whether the scenario name runs the race-built
// test binary as sotvet under -race.
func runsRaceBuilt(name string) bool {
	if os.Getenv("SOTVET_RACE_SCENARIOS") == "all" {
		return true
	}
	_, ok := raceScenarios[name]
	return ok
}

// plainBin is sotvet built without -race, linked by go run into the go
// command's build cache (-s -w: no symbol table or DWARF, which no
// scenario reads) once for this test process and the language server's
// editor test (lsp/nvim_test.go, the same package and flags), and not at
// all by a later go test while sotvet is unchanged; each process runs a
// copy of its own, removed when it ends (TestMain). Built without VCS
// stamping, so that `sotvet version` says what the test binary says.
var plainBin = plainbuild.Command("sotvet-plain-", "sotvet", "github.com/svrnty/sotvet/cmd/sotvet", "-buildvcs=false")

// plainSotvet returns a directory holding sotvet built without -race,
// shared by every test of this process that needs a binary whose own
// speed is not under test.
func plainSotvet(t testing.TB) string {
	t.Helper()
	dir, err := buildPlainSotvet()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// buildPlainSotvet is plainSotvet for callers without a testing.TB.
func buildPlainSotvet() (string, error) { return plainBin.Dir() }

// cliDir returns a directory holding the sotvet that tests about the
// command's behaviour put on PATH: the shared plain build, which the
// scenarios run too.
func cliDir(t testing.TB) string {
	t.Helper()
	return plainSotvet(t)
}

// warmBuildCache makes the tests that build sotvet as a user's CI would
// (go build, go install) find its packages compiled: without -race the
// test binary's build compiled them; under -race, the shared plain build
// does, once, instead of each such test compiling them cold at once.
func warmBuildCache(t testing.TB) {
	t.Helper()
	if raceEnabled {
		plainSotvet(t)
	}
}

// TestRaceScenariosExist keeps raceScenarios naming real scenarios: a
// renamed one would otherwise silently leave the race-built set.
func TestRaceScenariosExist(t *testing.T) {
	for name := range raceScenarios {
		if _, err := os.Stat(filepath.Join("../../testdata/script", name+".txtar")); err != nil {
			t.Errorf("raceScenarios names %q: %v", name, err)
		}
	}
}
