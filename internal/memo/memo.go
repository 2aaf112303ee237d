// Package memo remembers the results of a string function for a
// long-lived process, in bounded memory: a language server redacts the
// same diagnostic messages on every edit, and the engine's cost is per
// call, not per byte.
package memo

import "sync"

// Strings remembers f(key) for the keys asked lately. It holds two
// generations: when the current one holds n keys, or keys and results of
// size bytes, it becomes the previous one and the older is let go, so a
// key asked in either of the last two generations is answered from
// memory, and at most 2n keys, of 2*size bytes, are held (a key longer
// than size is not remembered). Safe for concurrent use.
type Strings struct {
	f       func(string) string
	n, size int

	mu        sync.Mutex
	cur, prev map[string]string
	bytes     int // of cur's keys and results
}

// NewStrings returns a memo of f holding up to 2*n results, of up to
// 2*size bytes with their keys.
func NewStrings(f func(string) string, n, size int) *Strings {
	return &Strings{f: f, n: max(n, 1), size: max(size, 1), cur: map[string]string{}}
}

// Get returns f(key), computing it only when key was not asked in the
// last two generations.
func (m *Strings) Get(key string) string {
	m.mu.Lock()
	v, ok := m.cur[key]
	if !ok {
		if v, ok = m.prev[key]; ok {
			m.put(key, v) // asked again: it stays
		}
	}
	m.mu.Unlock()
	if ok {
		return v
	}
	v = m.f(key) // outside the lock: f may be slow, and asked in parallel
	if len(key)+len(v) <= m.size {
		m.mu.Lock()
		m.put(key, v)
		m.mu.Unlock()
	}
	return v
}

func (m *Strings) put(key, v string) {
	if _, ok := m.cur[key]; ok {
		return
	}
	if len(m.cur) >= m.n || m.bytes+len(key)+len(v) > m.size {
		m.prev, m.cur, m.bytes = m.cur, map[string]string{}, 0
	}
	m.cur[key] = v
	m.bytes += len(key) + len(v)
}
