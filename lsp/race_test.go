//go:build race

package lsp

// raceEnabled: under the race detector a whole check run is several times
// dearer, so the parity tests that open every file hold on a sample.
const raceEnabled = true
