//go:build race

package harness_test

// raceEnabled: under the race detector the processes a run starts (the
// fake backend, the sandbox shim, the build-cache program of every go
// command) would be this race-built binary; see childExe.
const raceEnabled = true
