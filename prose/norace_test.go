//go:build !race

package prose

const raceEnabled = false
