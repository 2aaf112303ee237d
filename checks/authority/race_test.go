//go:build race

package authority

// raceEnabled: the race detector makes the property tests' regular
// expressions several times dearer, and they start no goroutine: under
// it they hold on a sample, which the plain run's full count backs.
const raceEnabled = true

// sampled is how many of n drawn cases a property test checks.
func sampled(n int) int { return n / 5 }
