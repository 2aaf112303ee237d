// Package parallel runs a check's per-file work on every core: checks
// judge documents independently, then report in document order.
package parallel

import (
	"runtime"
	"sync"
)

// For calls fn(0) ... fn(n-1) on up to GOMAXPROCS goroutines and returns
// when every call has returned. fn(i) must write only to what i owns. A
// panic in fn is raised again in For's caller, once every call is done:
// the driver turns a check's panic into an error naming the check, which
// it cannot do for a panic on another goroutine.
func For(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var (
		wg    sync.WaitGroup
		once  sync.Once
		fault any
	)
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				func() {
					defer func() {
						if r := recover(); r != nil {
							once.Do(func() { fault = r })
						}
					}()
					fn(i)
				}()
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if fault != nil {
		panic(fault)
	}
}
