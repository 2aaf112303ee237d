//go:build !unix

package cputime

import "time"

// Process returns 0 where the process's CPU time is not read: benchmarks
// report wall time only.
func Process() time.Duration { return 0 }
