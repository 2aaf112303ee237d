//go:build race

package secrets

// raceEnabled: the race detector makes the property tests ten times
// dearer, so they hold on a smaller sample under it.
const raceEnabled = true
