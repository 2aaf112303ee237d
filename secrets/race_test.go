//go:build race

package secrets

// raceEnabled: the race detector makes the property tests ten times
// dearer, so they hold on a smaller sample under it.
const raceEnabled = true

// sampled is how many of n drawn cases a property test checks: a fifth
// under the race detector.
func sampled(n int) int { return n / 5 }
