//go:build unix

package lsp

import (
	"syscall"
	"time"
)

// cpuTime is the process's CPU time so far (user and system): on a loaded
// machine a benchmark's wall-clock figures vary with the load, its CPU
// time much less.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
