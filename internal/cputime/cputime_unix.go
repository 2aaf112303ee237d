//go:build unix

// Package cputime reads the CPU time the process has used, so that a
// benchmark on a shared, loaded machine can report its CPU cost beside its
// wall time.
package cputime

import (
	"syscall"
	"time"
)

// Process returns the user plus system CPU time of the process so far.
func Process() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
