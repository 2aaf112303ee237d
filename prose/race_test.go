//go:build race

package prose

// raceEnabled: the race detector slows the conformance runs tenfold, so
// they read a sample of the trees.
const raceEnabled = true
