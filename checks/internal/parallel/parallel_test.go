package parallel

import (
	"sync/atomic"
	"testing"
)

func TestForCallsEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000} {
		calls := make([]int32, n)
		var total atomic.Int32
		For(n, func(i int) {
			atomic.AddInt32(&calls[i], 1)
			total.Add(1)
		})
		if int(total.Load()) != n {
			t.Fatalf("n=%d: %d calls", n, total.Load())
		}
		for i, c := range calls {
			if c != 1 {
				t.Fatalf("n=%d: fn(%d) called %d times", n, i, c)
			}
		}
	}
}
