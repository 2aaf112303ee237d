//go:build race

package main

// raceEnabled: under the race detector every scenario's sotvet would be
// the race-built test binary, ten times dearer; see plainSotvet.
const raceEnabled = true
