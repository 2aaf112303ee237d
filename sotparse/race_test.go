//go:build race

package sotparse

// raceEnabled: the race detector makes the property tests over generated
// workspaces ten times dearer, so they hold on a smaller sample there.
const raceEnabled = true
