// Package raceexit lets the race-built programs a test starts exit at
// once.
//
// A program built with -race sleeps a second as it exits with status 0
// (the race runtime's atexit_sleep_ms, 1000 by default), whatever it did:
// a test that runs its own race-built binary as a child (a fake backend,
// a scenario's helper command) waits that second for every child. The
// scenarios of cmd/sotvet alone start hundreds of them under -race.
package raceexit

import (
	"os"
	"strings"
)

// Env returns gorace, a value of GORACE, with atexit_sleep_ms=0 added,
// unless it sets atexit_sleep_ms itself: a user's other options (a
// halt_on_error, a log_path) stand.
func Env(gorace string) string {
	for _, f := range strings.Fields(gorace) {
		if strings.HasPrefix(f, "atexit_sleep_ms=") {
			return gorace
		}
	}
	return strings.TrimSpace(gorace + " atexit_sleep_ms=0")
}

// Set sets GORACE (Env) for the processes the calling one starts from now
// on. The calling process read GORACE as it started: its own exit is not
// changed. Without -race nothing reads GORACE.
func Set() {
	os.Setenv("GORACE", Env(os.Getenv("GORACE")))
}
