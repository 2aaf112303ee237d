//go:build !unix

package cputime

import (
	"os"
	"time"
)

// Process returns 0 where the process's CPU time is not read: benchmarks
// report wall time only.
func Process() time.Duration { return 0 }

// MinorFaults returns 0 where a child process's page faults are not read.
func MinorFaults(ps *os.ProcessState) int64 { return 0 }
