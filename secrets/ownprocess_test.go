package secrets

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"testing"
	"time"
)

// ownProcessEnv names, in a child process of ownProcess, the test it runs.
const ownProcessEnv = "SOTVET_SECRETS_OWN_PROCESS"

// ownProcess runs the calling test in a new process of this test binary,
// while the calling test waits as a parallel test. It is for the tests
// that set package variables (useDFA, foldAfter, dfaAfter...) or count
// what every scan of the process does (workCounter, runtime.MemStats):
// run in this process they must run sequentially, one core for a minute
// of a two-core `go test ./...` (the sequential tests were 72 s of the
// package's 105 s). In its own process such a test is alone by
// construction, and also starts from the package's defaults rather than
// from what earlier tests left.
//
// Under -race, and in the child, ownProcess returns true and the test
// goes on in this process (a sequential sweep calls sequentialSweep
// first, which skips it under -race; the tests that scan from several
// goroutines do not). In the parent it returns false once the child passed, skips t
// where the child skipped, and fails t with the child's output where it
// failed.
func ownProcess(t *testing.T) bool {
	t.Helper()
	// Under -race every package runs at once and the CPUs are busy: a
	// child would add only its start. In-process, sequentially, as before.
	if raceEnabled || os.Getenv(ownProcessEnv) == t.Name() {
		return true
	}
	t.Parallel()
	args := []string{"-test.run=^" + regexp.QuoteMeta(t.Name()) + "$", "-test.count=1", "-test.v"}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	if d, ok := t.Deadline(); ok {
		args = append(args, "-test.timeout="+time.Until(d).Round(time.Second).String())
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), ownProcessEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	switch {
	case err != nil:
		t.Fatalf("%s in its own process: %v\n%s", t.Name(), err, out)
	case bytes.Contains(out, []byte("--- SKIP: "+t.Name()+" ")):
		t.Skipf("skipped in its own process:\n%s", out)
	case !bytes.Contains(out, []byte("--- PASS: "+t.Name()+" ")):
		t.Fatalf("%s in its own process did not pass:\n%s", t.Name(), out)
	}
	if testing.Verbose() {
		t.Logf("in its own process:\n%s", out)
	}
	return false
}

// sampledSweeps reports whether the sweeps (random texts, every rule,
// every adversarial shape) run a fixed sample of their cases, each test
// saying which: under -short, under -race (five to ten times dearer), and
// in a contributor's plain `go test ./...`, where the whole sweeps were
// 17 of the package's 57 CPU seconds (issue 34: the suite in minutes).
// They run whole under CI (.ci/run's plain step for this package) and
// with SOTVET_SLOW, which widens some further.
func sampledSweeps() bool {
	return testing.Short() || raceEnabled || os.Getenv("CI") == "" && os.Getenv("SOTVET_SLOW") == ""
}

// raceSubset keeps one in four of a sweep's cases under the race detector,
// all of them otherwise. It is for the sweeps that stay under -race because
// they scan from several goroutines, or beside tests whose scanners share
// lazily built parts (filters, folded expressions): the detector needs
// that sharing, not every case, and each case costs five to ten times as
// much there. The plain run checks every case (.ci/run runs this package
// without -race too). The package's parallel sweeps were most of its 194 s
// under -race, the end of the race step.
func raceSubset[T any](cases []T) []T {
	if !raceEnabled {
		return cases
	}
	// Drawn, not every fourth: the sweeps' cases come in cycles (a
	// keyword's four line shapes) that a stride would alias.
	rng := rand.New(rand.NewPCG(4, uint64(len(cases))))
	var kept []T
	for _, c := range cases {
		if rng.IntN(4) == 0 {
			kept = append(kept, c)
		}
	}
	return kept
}

// sequentialSweep skips t under the race detector: t is a sweep that runs
// alone and starts no goroutine, nor does anything it calls (the package
// starts none), so no memory is touched by two goroutines and the
// detector has nothing to watch, at five to ten times the cost (such
// tests were 409 s of the package's 619 s under -race, the end of
// .ci/run's race step). The plain run holds them: .ci/run runs this
// package without -race too (TestCIRunsRaceSkipped keeps it so). Tests
// that run in parallel, or start goroutines, stay under -race.
func sequentialSweep(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("a sequential sweep that starts no goroutine: nothing for -race to watch; the plain run holds it")
	}
}
