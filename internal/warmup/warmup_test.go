package warmup

import (
	"sync"
	"testing"
)

func TestStartRunsTheNamedBuilds(t *testing.T) {
	var mu sync.Mutex
	var ran []string
	record := func(s string) func() {
		return func() {
			mu.Lock()
			defer mu.Unlock()
			ran = append(ran, s)
		}
	}
	Register("test-a", record("a1"))
	Register("test-b", record("b"))
	Register("test-a", record("a2"))
	<-Start("test-a", "test-unknown")
	mu.Lock()
	defer mu.Unlock()
	if len(ran) != 2 || ran[0] != "a1" || ran[1] != "a2" {
		t.Errorf("ran %q, want [a1 a2]: the builds of test-a in order, none of test-b", ran)
	}
}

func TestStartEarly(t *testing.T) {
	if startEarly(false) != nil {
		t.Error("builds start early outside a check process")
	}
	ch := startEarly(true)
	var order []int
	done := make(chan struct{})
	ch <- func() { order = append(order, 1) }
	ch <- func() { order = append(order, 2); close(done) }
	<-done
	if len(order) != 2 || order[0] != 1 {
		t.Errorf("builds ran as %v, want [1 2]", order)
	}
}
