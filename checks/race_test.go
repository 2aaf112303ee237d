//go:build race

package checks_test

// raceEnabled: the race detector makes whole-workspace runs ten times
// dearer, so the property tests hold on a sample.
const raceEnabled = true
