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
package warmup

import "sync"

var (
	mu     sync.Mutex
	builds []build
)

type build struct {
	name string
	fn   func()
}

// Register records fn as a one-time build that name needs.
func Register(name string, fn func()) {
	mu.Lock()
	defer mu.Unlock()
	builds = append(builds, build{name, fn})
}

// Start runs the builds registered under names, in registration order, in
// one background goroutine, and returns a channel closed when they are
// done. Builds compile what the packages' own tests check, so they do not
// fail; one that panics is a defect and ends the process.
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
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, fn := range fns {
			fn()
		}
	}()
	return done
}
