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

func TestForRaisesPanicInCaller(t *testing.T) {
	var calls atomic.Int32
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want boom", r)
		}
		if calls.Load() != 100 {
			t.Errorf("%d calls, want every one of 100 before the panic", calls.Load())
		}
	}()
	For(100, func(i int) {
		calls.Add(1)
		if i == 7 {
			panic("boom")
		}
	})
	t.Fatal("For returned")
}
