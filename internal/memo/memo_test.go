package memo

import (
	"strconv"
	"sync"
	"testing"
)

func TestStrings(t *testing.T) {
	calls := map[string]int{}
	var mu sync.Mutex
	m := NewStrings(func(s string) string {
		mu.Lock()
		calls[s]++
		mu.Unlock()
		return "<" + s + ">"
	}, 3)
	for range 2 {
		if got := m.Get("a"); got != "<a>" {
			t.Fatalf("Get(a) = %q", got)
		}
	}
	if calls["a"] != 1 {
		t.Fatalf("f(a) called %d times, want 1", calls["a"])
	}
	// a, b, c fill a generation; d starts the next, where a is found in
	// the previous one and carried over; e, f, g push b and c out.
	for _, k := range []string{"b", "c", "d", "a", "e", "f", "g", "h"} {
		m.Get(k)
	}
	m.Get("a")
	m.Get("b")
	if calls["a"] != 1 {
		t.Errorf("a, asked in each generation, computed %d times, want 1", calls["a"])
	}
	if calls["b"] != 2 {
		t.Errorf("b, out of both generations, computed %d times, want 2", calls["b"])
	}
	if n := len(m.cur) + len(m.prev); n > 6 {
		t.Errorf("holds %d keys, want at most 6", n)
	}
}

func TestStringsParallel(t *testing.T) {
	m := NewStrings(func(s string) string { return s + "!" }, 16)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 1000 {
				k := strconv.Itoa((i * (g + 1)) % 50)
				if got := m.Get(k); got != k+"!" {
					t.Errorf("Get(%s) = %s", k, got)
					return
				}
			}
		})
	}
	wg.Wait()
}
