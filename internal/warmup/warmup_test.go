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
