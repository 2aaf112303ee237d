package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/svrnty/sotvet/checks/registry"
	"github.com/svrnty/sotvet/config"
	"github.com/svrnty/sotvet/internal/workspaces"
)

// initialized asks the client to report changes to the workspace files made
// outside the editor, and loads the workspaces of the folders it named. The
// registration is a call back into the client: it must not hold up the read
// loop, which has to read the client's answer.
func (s *Server) initialized() {
	go func() {
		params := RegistrationParams{Registrations: []Registration{{
			ID: "sotvet-watch", Method: "workspace/didChangeWatchedFiles",
			RegisterOptions: map[string]any{"watchers": []map[string]any{
				{"globPattern": "**/WORKBOARD.yaml"}, {"globPattern": "**/.sot/**"},
				{"globPattern": "**/sotvet.yaml"}, {"globPattern": "**/*.md"},
			}},
		}}}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, _ = s.conn.Call(ctx, "client/registerCapability", params, nil)
	}()
	// The folders named at initialize are loaded now, so that the first
	// document opened is checked against a workspace already in memory;
	// off the read loop, which a walk of a large folder would hold up (a
	// document opened meanwhile finds its workspace itself).
	s.mu.Lock()
	folders := slices.Clone(s.folders)
	s.mu.Unlock()
	go func() {
		for _, f := range folders {
			for _, root := range findRoots(f) {
				_ = s.workspaceAt(root)
			}
		}
	}()
}

// findRoots returns the workspaces of a folder the way check finds them:
// those its sotvet.yaml names, else the folder when it is one, else every
// workspace below it.
func findRoots(folder string) []string {
	if cfg, err := config.LoadIn(folder, registry.All); err == nil && len(cfg.Workspaces) > 0 {
		var out []string
		for _, p := range cfg.Workspaces {
			d := filepath.Join(folder, filepath.FromSlash(p.Value))
			if workspaces.IsWorkspace(d) {
				out = append(out, d)
			}
		}
		return out
	}
	if workspaces.IsWorkspace(folder) {
		return []string{folder}
	}
	rel, err := workspaces.Find(folder, nil)
	if err != nil {
		return nil
	}
	var out []string
	for _, r := range rel {
		out = append(out, filepath.Join(folder, filepath.FromSlash(r)))
	}
	return out
}

// workspaceAt returns the loaded workspace rooted at root, loading it.
func (s *Server) workspaceAt(root string) *workspace {
	s.mu.Lock()
	w := s.workspaces[root]
	s.mu.Unlock()
	if w != nil {
		return w
	}
	w, err := loadWorkspace(root)
	if err != nil {
		s.logf(1, "loading workspace %s: %v", root, err)
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.workspaces[root]; old != nil {
		return old
	}
	w.cacheKey = s.cacheKey
	s.workspaces[root] = w
	s.dirty[w] = time.Now()
	s.kick()
	return w
}

// workspaceFor finds the workspace holding the file at abs: the innermost
// loaded one, else the nearest directory above it that is a workspace.
func (s *Server) workspaceFor(abs string) (*workspace, string) {
	s.mu.Lock()
	var best *workspace
	for root, w := range s.workspaces {
		if workspaces.Within(root, abs) && (best == nil || len(root) > len(best.root)) {
			best = w
		}
	}
	s.mu.Unlock()
	if best == nil {
		if d, ok := workspaces.Enclosing(filepath.Dir(abs)); ok {
			best = s.workspaceAt(d)
		}
	}
	if best == nil {
		return nil, ""
	}
	rel, ok := best.relPath(abs)
	if !ok {
		return nil, ""
	}
	return best, rel
}

func (s *Server) didOpen(p DidOpenTextDocumentParams) error {
	td := p.TextDocument
	if len(td.Text) > maxDocument {
		return fmt.Errorf("%s is over %d bytes; not checked", td.URI, maxDocument)
	}
	d := &document{uri: td.URI, version: td.Version, text: []byte(td.Text)}
	if abs, ok := uriPath(td.URI); ok {
		d.ws, d.rel = s.workspaceFor(abs)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.docs[td.URI] = d
	delete(s.published, td.URI) // an opened document always gets its diagnostics
	if d.ws != nil {
		d.ws.setOverlay(d.rel, d.text)
		s.markDirty(d.ws, true)
		if !s.complete[d.ws] {
			// The workspace is loading: what the buffer says by itself
			// need not wait for it.
			go s.publishEarly(s.base, d, d.version)
		}
	}
	return nil
}

func (s *Server) didChange(p DidChangeTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return fmt.Errorf("didChange for %s, which is not open", p.TextDocument.URI)
	}
	if p.TextDocument.Version <= d.version {
		// A change older than the buffer (a reordered or replayed message)
		// must not roll the buffer back.
		return nil
	}
	text := d.text
	for _, ch := range p.ContentChanges {
		next, err := applyChange(text, ch, s.enc)
		if err != nil {
			return fmt.Errorf("%s version %d: %v", d.uri, p.TextDocument.Version, err)
		}
		text = next
	}
	if len(text) > maxDocument {
		return fmt.Errorf("%s is over %d bytes; not checked", d.uri, maxDocument)
	}
	d.text, d.version = text, p.TextDocument.Version
	if d.ws != nil {
		d.ws.setOverlay(d.rel, d.text)
		s.markDirty(d.ws, false)
		if !s.complete[d.ws] {
			// Typed while the workspace loads: the new version's own
			// findings, as on open.
			go s.publishEarly(s.base, d, d.version)
		}
	}
	return nil
}

func (s *Server) didSave(p DidSaveTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p.TextDocument.URI]
	if d == nil || d.ws == nil {
		return nil
	}
	if p.Text != nil && string(d.text) != *p.Text {
		d.text = []byte(*p.Text)
		d.ws.setOverlay(d.rel, d.text)
	}
	// What is on disk now is the buffer: it is read again once closed.
	d.ws.fileChanged(d.rel)
	s.markDirty(d.ws, true)
	return nil
}

func (s *Server) didClose(p DidCloseTextDocumentParams) error {
	s.mu.Lock()
	d := s.docs[p.TextDocument.URI]
	delete(s.docs, p.TextDocument.URI)
	delete(s.published, p.TextDocument.URI)
	if d != nil && d.ws != nil {
		d.ws.setOverlay(d.rel, nil) // the disk's content counts again
		s.markDirty(d.ws, true)
	}
	s.mu.Unlock()
	// A closed document keeps no diagnostics in the editor.
	return s.conn.Notify(context.Background(), "textDocument/publishDiagnostics",
		PublishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []Diagnostic{}})
}

func (s *Server) didChangeWatchedFiles(p DidChangeWatchedFilesParams) {
	touched := map[*workspace]bool{}
	for _, ch := range p.Changes {
		abs, ok := uriPath(ch.URI)
		if !ok {
			continue
		}
		w, rel := s.workspaceFor(abs)
		if w == nil {
			continue
		}
		w.fileChanged(rel)
		touched[w] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for w := range touched {
		s.markDirty(w, true)
	}
}

func (s *Server) didChangeFolders(p DidChangeWorkspaceFoldersParams) {
	for _, f := range p.Event.Added {
		if dir, ok := uriPath(f.URI); ok {
			for _, root := range findRoots(dir) {
				_ = s.workspaceAt(root)
			}
		}
	}
}
