package sotparse

import "sync"

// A MemoKey names one thing a check derives from a document alone (Memo).
type MemoKey struct{ _ byte }

// memoTable holds what was derived from a kept document.
type memoTable struct {
	mu sync.Mutex
	m  map[*MemoKey]any
}

// Memo returns f(d), computing it once per document decoded from a summary:
// a session keeps such documents between runs (Models), so each run after
// the first takes what a check derived from the unchanged documents
// instead of deriving it again from all of them. A document parsed in the
// run is not kept: f runs on it each time. f must read d only, and what
// it returns must not be changed afterwards.
func Memo[T any](d *Doc, key *MemoKey, f func(*Doc) T) T {
	if !d.summary {
		return f(d)
	}
	t := d.memoTable()
	t.mu.Lock()
	v, ok := t.m[key]
	t.mu.Unlock()
	if ok {
		return v.(T)
	}
	r := f(d)
	t.mu.Lock()
	if v, ok := t.m[key]; ok {
		r = v.(T) // another check won: one value for everyone
	} else {
		t.m[key] = r
	}
	t.mu.Unlock()
	return r
}

func (d *Doc) memoTable() *memoTable {
	if t := d.memo.Load(); t != nil {
		return t
	}
	d.memo.CompareAndSwap(nil, &memoTable{m: map[*MemoKey]any{}})
	return d.memo.Load()
}
