//go:build unix

// Package cputime reads the CPU time the process has used, so that a
// benchmark on a shared, loaded machine can report its CPU cost beside its
// wall time.
package cputime

import (
	"os"
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

// MinorFaults returns the minor page faults of a finished child process:
// pages it touched first, each a trap into the kernel, which a short
// process pays for its heap and the binary it runs.
func MinorFaults(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Minflt
	}
	return 0
}
