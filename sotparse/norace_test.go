//go:build !race

package sotparse

const raceEnabled = false
