// Package warmup runs the one-time builds a command is about to need
// (a check's rules compiled, the secrets engine's automaton) in the
// background, so that they overlap what comes before their first use:
// git, configuration, reading and parsing the workspace. On a cold
// process these builds are a fifth of a small workspace's check.
//
// A package registers its builds at init, under the name of what needs
// them (a check's Analyzer name); a command starts those of the checks it
// will run. A build must be idempotent and safe to run concurrently with
// anything, typically the Do of the sync.Once its users call: a build
// still running when its user needs it is waited for by that Once.
//
// In a `sotvet check` process the builds start earlier still, each as it
// is registered and in its own goroutine: the packages initialize one
// after another on one core (~3 ms before main) while the other is idle,
// and the checks' preparation, which waits on the builds, starts right
// after. The command line is all a process knows that early, so the
// builds of checks its configuration later leaves out run too, in the
// background.
package warmup

import (
	"os"
	"strings"
	"sync"
)

var (
	mu     sync.Mutex
	builds []build
)

type build struct {
	name string
	fn   func()
}

// Register records fn as a one-time build that name needs; in a check
// process it also starts it.
func Register(name string, fn func()) {
	mu.Lock()
	defer mu.Unlock()
	builds = append(builds, build{name, fn})
	if early {
		go fn()
	}
}

// early is set in a check process: each build starts as it is registered.
// Not when the command line names the checks to run (--enable): a
// prose-only run would build every other check's expressions (the
// secrets engine's among them) for nothing; Start builds theirs once the
// configuration is read.
var early = len(os.Args) > 1 && os.Args[1] == "check" && !namesChecks(os.Args[2:])

// namesChecks reports whether a check command line has an --enable flag.
func namesChecks(args []string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		if flag, _, _ := strings.Cut(a, "="); flag == "--enable" || flag == "-enable" {
			return true
		}
	}
	return false
}

// Start runs the builds registered under names in the background, each in
// its own goroutine (the first check to start may need any of them, and
// waits on it), and returns a channel closed when they are all done.
// Builds compile what the packages' own tests check, so they do not fail;
// one that panics is a defect and ends the process.
func Start(names ...string) <-chan struct{} {
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	mu.Lock()
	var fns []func()
	for _, b := range builds {
		if want[b.name] {
			fns = append(fns, b.fn)
		}
	}
	mu.Unlock()
	var wg sync.WaitGroup
	for _, fn := range fns {
		wg.Go(fn)
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	return done
}
