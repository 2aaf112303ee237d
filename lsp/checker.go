package lsp

import (
	"context"
	"time"
)

// markDirty schedules a run of w after the debounce; now skips it (open,
// save, files changed outside the editor). A keystroke postpones a run
// that is due later, never one due now. Callers hold s.mu.
func (s *Server) markDirty(w *workspace, now bool) {
	due := time.Now()
	if !now {
		due = due.Add(s.debounce)
	}
	if old, ok := s.dirty[w]; !ok || now || old.After(time.Now()) {
		s.dirty[w] = due
	}
	s.kick()
}

func (s *Server) kick() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// nextDue returns a workspace whose run is due, or the time to wake up for
// the earliest one that is not (zero when none is pending). Callers hold s.mu.
func (s *Server) nextDue() (*workspace, time.Time) {
	now := time.Now()
	var next time.Time
	for w, due := range s.dirty {
		if !due.After(now) {
			return w, time.Time{}
		}
		if next.IsZero() || due.Before(next) {
			next = due
		}
	}
	return nil, next
}

// checker runs the dirty workspaces, one run at a time, and publishes.
func (s *Server) checker(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		}
		for {
			s.mu.Lock()
			w, next := s.nextDue()
			if w == nil {
				if !next.IsZero() {
					if s.timer != nil {
						s.timer.Stop()
					}
					s.timer = time.AfterFunc(time.Until(next), s.kick)
				}
				s.mu.Unlock()
				break
			}
			if !w.gitDone() {
				// git is asked with no lock held: the reader goes on
				// meanwhile, however long git takes.
				s.mu.Unlock()
				w.askGit()
				continue
			}
			delete(s.dirty, w)
			s.running[w] = true
			versions := map[string]int32{}
			for _, d := range s.docs {
				if d.ws == w {
					versions[d.rel] = d.version
				}
			}
			frozen := w.freeze()
			s.mu.Unlock()

			snap := frozen.safeRun(versions)
			if snap.err != nil {
				s.logf(1, "checking %s: %v", w.root, snap.err)
			} else if snap.took > slowRun {
				s.logf(3, "checking %s took %v", w.root, snap.took.Round(time.Millisecond))
			}
			s.pubMu.Lock()
			s.mu.Lock()
			s.complete[w] = true
			pubs := s.diagnosticsToPublish(w, snap)
			s.mu.Unlock()
			for _, p := range pubs {
				_ = s.conn.Notify(ctx, "textDocument/publishDiagnostics", p)
			}
			s.pubMu.Unlock()
			// Requests waiting for this run are answered after its
			// diagnostics are out.
			s.mu.Lock()
			// A failed run is stored too: requests waiting for this version
			// get no answer rather than one computed on older text.
			s.snaps[w] = snap
			delete(s.running, w)
			close(s.fresh)
			s.fresh = make(chan struct{})
			s.mu.Unlock()
			s.saveCache(w)
		}
	}
}

// saveCache writes the summary cache w's load read, if it has not been,
// and says so in the log; whoever waits for saveMu (shutdown) finds both
// done.
func (s *Server) saveCache(w *workspace) {
	w.saveMu.Lock()
	defer w.saveMu.Unlock()
	if found, added, read, ok, err := w.writeCache(); err != nil {
		s.logf(3, "writing the summary cache of %s: %v", w.root, err)
	} else if ok {
		s.logf(4, "loaded %s: %d documents from the summary cache, %d summaries written to it, %d files read", w.root, found, added, read)
	}
}

// snapshotFor waits until a run has seen the document's current version
// (or the request is cancelled) and returns it with the document.
func (s *Server) snapshotFor(ctx context.Context, uri string) (*document, *snapshot, error) {
	for {
		s.mu.Lock()
		d := s.docs[uri]
		var w *workspace
		if d != nil {
			w = d.ws
		}
		s.mu.Unlock()
		if d == nil {
			abs, ok := uriPath(uri)
			if !ok {
				return nil, nil, nil
			}
			w2, rel := s.workspaceFor(abs)
			if w2 == nil {
				return nil, nil, nil
			}
			b, _ := w2.content(rel)
			d, w = &document{uri: uri, ws: w2, rel: rel, version: -1, text: b}, w2
		}
		if w == nil {
			return d, nil, nil
		}
		s.mu.Lock()
		snap := s.snaps[w]
		ready := snap != nil && s.current(w, snap)
		wait := s.fresh
		s.mu.Unlock()
		if ready {
			return d, snap, nil
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-wait:
		}
	}
}

// current reports whether snap is what the next run of w would see: no run
// pending or under way, every open buffer at the version it checked. An
// answer from an older snapshot could contradict the diagnostics just
// published. Callers hold s.mu.
func (s *Server) current(w *workspace, snap *snapshot) bool {
	if _, pending := s.dirty[w]; pending || s.running[w] {
		return false
	}
	for _, d := range s.docs {
		if d.ws == w && snap.versions[d.rel] != d.version {
			return false
		}
	}
	return true
}

// publishEarly publishes what the buffer of d, open at version in w, says
// by itself (workspace.early), unless a complete run of w has published:
// the load of a large workspace takes seconds, this milliseconds. One
// early run of a workspace at a time, and only for the buffer as it is
// still: keystrokes during a load start one each, and those a later one
// overtook are dropped. The document is compared, not only its version:
// one closed and opened again starts at version 1 again.
func (s *Server) publishEarly(ctx context.Context, d *document, version int32) {
	w := d.ws
	if gate := earlyGate.Load(); gate != nil {
		(*gate)(version)
	}
	w.askGit() // the checker may not have asked yet; early waits for it
	w.earlyMu.Lock()
	defer w.earlyMu.Unlock()
	if !s.stillEarly(d, version) {
		return
	}
	snap := w.safeEarly(d.rel, version)
	if snap == nil {
		return
	}
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	var pubs []PublishDiagnosticsParams
	if s.stillEarlyLocked(d, version) {
		pubs = s.diagnosticsToPublish(w, snap)
	}
	s.mu.Unlock()
	for _, p := range pubs {
		_ = s.conn.Notify(ctx, "textDocument/publishDiagnostics", p)
	}
}

// stillEarly reports whether d is open at version and its workspace yet
// to publish a complete run.
func (s *Server) stillEarly(d *document, version int32) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stillEarlyLocked(d, version)
}

// stillEarlyLocked is stillEarly; callers hold s.mu.
func (s *Server) stillEarlyLocked(d *document, version int32) bool {
	return !s.complete[d.ws] && s.docs[d.uri] == d && d.version == version
}
