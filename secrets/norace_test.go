//go:build !race

package secrets

const raceEnabled = false

func sampled(n int) int { return n }
