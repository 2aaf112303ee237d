//go:build !race

package checks_test

const raceEnabled = false
