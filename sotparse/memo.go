package sotparse

import (
	"sync"
	"sync/atomic"
)

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
	return memoGet(tableOf(&d.memo), key, func() T { return f(d) })
}

// MemoText is Memo for what a check derives from d's text: f(d, text),
// computed once per document decoded from a summary, whose text is read
// back for it and not kept (TransientContent); a document parsed in the
// run gets f of its content each time. A text that could not be read back
// (ReadBackErr: blank text stood for it) is not remembered, so that a
// later run reads it again. Either way d counts as read (TextRead): its
// text was compared, whether now or before.
func MemoText[T any](ws *Workspace, d *Doc, key *MemoKey, f func(*Doc, []byte) T) T {
	if !d.summary {
		return f(d, ws.Content(d))
	}
	ws.noteCompared(d)
	t := tableOf(&d.memo)
	t.mu.Lock()
	v, ok := t.m[key]
	t.mu.Unlock()
	if ok {
		return v.(T)
	}
	b, read := ws.readAgainOK(d, ws.content, false, ws.summaryCheck(d))
	r := f(d, b)
	if !read {
		return r
	}
	return memoGet(t, key, func() T { return r })
}

// MemoWorkboard is Memo for the workboard: a session keeps it between runs
// while its content stays the same (Models), and a run that parses it anew
// makes a new one, so what a check derived from it (an index of its ids)
// is derived once per content.
func MemoWorkboard[T any](wb *Workboard, key *MemoKey, f func(*Workboard) T) T {
	return memoGet(tableOf(&wb.memo), key, func() T { return f(wb) })
}

func memoGet[T any](t *memoTable, key *MemoKey, f func() T) T {
	t.mu.Lock()
	v, ok := t.m[key]
	t.mu.Unlock()
	if ok {
		return v.(T)
	}
	r := f()
	t.mu.Lock()
	if v, ok := t.m[key]; ok {
		r = v.(T) // another check won: one value for everyone
	} else {
		t.m[key] = r
	}
	t.mu.Unlock()
	return r
}

// tableOf returns the memo table p holds, made on first use.
func tableOf(p *atomic.Pointer[memoTable]) *memoTable {
	if t := p.Load(); t != nil {
		return t
	}
	p.CompareAndSwap(nil, &memoTable{m: map[*MemoKey]any{}})
	return p.Load()
}
