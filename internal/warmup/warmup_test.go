package warmup

import (
	"slices"
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
	slices.Sort(ran)
	if !slices.Equal(ran, []string{"a1", "a2"}) {
		t.Errorf("ran %q, want the builds of test-a, none of test-b", ran)
	}
}
