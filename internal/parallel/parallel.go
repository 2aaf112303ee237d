// Package parallel runs a check's per-file work on every core: checks
// judge documents independently, then report in document order.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls fn(0) ... fn(n-1) on up to GOMAXPROCS goroutines and returns
// when every call has returned. fn(i) must write only to what i owns. A
// panic in fn is raised again in For's caller, once every call is done:
// the driver turns a check's panic into an error naming the check, which
// it cannot do for a panic on another goroutine.
//
// The goroutines, the caller's among them, take the next index from a
// shared counter. Handed out over a channel, each index cost a wake-up
// of a parked goroutine, and the scheduler's spinning around it: ~0.1 s
// of CPU over 10,000 documents, as much as some checks.
func For(n int, fn func(i int)) {
	var (
		wg    sync.WaitGroup
		once  sync.Once
		fault any
		next  atomic.Int64
	)
	call := func(i int) {
		defer func() {
			if r := recover(); r != nil {
				once.Do(func() { fault = r })
			}
		}()
		fn(i)
	}
	work := func() {
		for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
			call(i)
		}
	}
	for range min(runtime.GOMAXPROCS(0), n) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	if fault != nil {
		panic(fault)
	}
}
