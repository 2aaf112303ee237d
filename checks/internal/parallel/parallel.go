// Package parallel runs a check's per-file work on every core: checks
// judge documents independently, then report in document order.
package parallel

import (
	"runtime"
	"sync"
)

// For calls fn(0) ... fn(n-1) on up to GOMAXPROCS goroutines and returns
// when every call has returned. fn(i) must write only to what i owns.
func For(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
