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
	}, 3, 1<<20)
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
	m := NewStrings(func(s string) string { return s + "!" }, 16, 1<<20)
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

// TestStringsBytes: a generation holds keys and results of at most size
// bytes, and a key whose result would not fit alone is not remembered.
func TestStringsBytes(t *testing.T) {
	calls := 0
	m := NewStrings(func(s string) string { calls++; return s }, 1000, 100)
	long := string(make([]byte, 60))
	m.Get(long)
	m.Get(long)
	if calls != 2 {
		t.Errorf("a key and result over size remembered: f called %d times, want 2", calls)
	}
	for i := range 40 {
		m.Get(strconv.Itoa(1000 + i)) // 8 bytes each with its result
	}
	if n := m.bytes; n > 100 {
		t.Errorf("the current generation holds %d bytes, want at most 100", n)
	}
	if n := len(m.cur) + len(m.prev); n > 25 {
		t.Errorf("holds %d keys of 8 bytes with their results, want at most 2*100/8", n)
	}
}
