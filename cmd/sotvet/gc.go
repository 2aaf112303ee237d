package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// smallHeapGC is the collector's GOGC while the live heap is under
// smallHeap. A small workspace, the usual one, is checked with a live
// heap of a few MB, where collecting at 2.5 times it means a collection
// every few MB allocated: four on the real corpus, ~3 ms of a 40 ms run;
// at 5 times it is one. Under smallHeap live, 5 times is at most 80 MB.
const (
	smallHeapGC = 400
	smallHeap   = 16 << 20
)

// collectLessWhileSmall sets GOGC to smallHeapGC until a collection
// leaves more than small bytes live, then to gcPercent for the rest of
// the run: a large workspace then runs as under gcPercent alone, after a
// first collection or two at the higher setting, below its final peak.
func collectLessWhileSmall(gcPercent int, small uint64) {
	debug.SetGCPercent(smallHeapGC)
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	// A finalizer runs after each collection that finds its object
	// unreachable: one object a cycle, armed again until the heap grows.
	type sentinel struct{ _ *int }
	var arm func()
	arm = func() {
		runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
			if metrics.Read(live); live[0].Value.Kind() == metrics.KindUint64 && live[0].Value.Uint64() > small {
				debug.SetGCPercent(gcPercent)
				return
			}
			arm()
		})
	}
	arm()
}
