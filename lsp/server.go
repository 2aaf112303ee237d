// Package lsp is sotvet's language server: the checks of `sotvet check`,
// run on the editor's unsaved buffers as the user types, with quick fixes,
// navigation over work item ids, .sot/ paths and glossary terms, hover and
// completion. It speaks LSP 3.17 over go.lsp.dev/jsonrpc2.
package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/svrnty/sotvet/checks"
	secretscheck "github.com/svrnty/sotvet/checks/secrets"
	"github.com/svrnty/sotvet/config"
	"github.com/svrnty/sotvet/internal/workspaces"
	engine "github.com/svrnty/sotvet/secrets"
)

// LSP error codes beyond JSON-RPC's.
const (
	codeServerNotInitialized = -32002
	codeRequestCancelled     = -32800
)

// DefaultDebounce is the pause after a keystroke before the re-check.
const DefaultDebounce = 20 * time.Millisecond

// slowRun is how long a run may take before the log says so.
const slowRun = time.Second

// shutdownWait bounds how long shutdown waits for earlier requests.
const shutdownWait = 5 * time.Second

// maxDocument caps one buffer: larger ones are not checked (the driver's
// own file limit applies to the run as well).
const maxDocument = 16 << 20

// Server is one language server connection.
type Server struct {
	conn    jsonrpc2.Conn
	version string
	redact  func(string) string

	mu         sync.Mutex
	state      int // 0 new, 1 initialized, 2 shut down
	enc        encoding
	debounce   time.Duration
	folders    []string
	workspaces map[string]*workspace // by root
	docs       map[string]*document  // by URI
	snaps      map[*workspace]*snapshot
	dirty      map[*workspace]time.Time // when each pending run is due
	running    map[*workspace]bool      // a run is under way (or publishing)
	timer      *time.Timer
	published  map[string]string // URI -> the diagnostics last sent, encoded
	fresh      chan struct{}     // closed and replaced after every run
	wake       chan struct{}
	exited     chan int
	base       context.Context // the connection's: requests' contexts derive from it
	inflight   map[jsonrpc2.ID]context.CancelFunc
	owed       atomic.Int64 // calls received and not yet answered on the wire
}

// document is an open buffer.
type document struct {
	uri     string
	ws      *workspace // nil: outside every workspace
	rel     string
	version int32
	text    []byte
}

// Serve runs the server over rw (stdin and stdout) until the client sends
// exit or closes the stream, and returns the process exit code: 0 after a
// shutdown request, 1 otherwise, as the specification asks.
func Serve(ctx context.Context, rw io.ReadWriteCloser, version string) int {
	s := New(version)
	return s.Run(ctx, rw)
}

// New returns a server; Run connects it.
func New(version string) *Server {
	s := &Server{
		version:    version,
		debounce:   DefaultDebounce,
		workspaces: map[string]*workspace{},
		docs:       map[string]*document{},
		snaps:      map[*workspace]*snapshot{},
		dirty:      map[*workspace]time.Time{},
		running:    map[*workspace]bool{},
		published:  map[string]string{},
		fresh:      make(chan struct{}),
		wake:       make(chan struct{}, 1),
		exited:     make(chan int, 1),
		inflight:   map[jsonrpc2.ID]context.CancelFunc{},
	}
	s.redact = newRedactor()
	return s
}

// newRedactor returns the secrets engine's redaction, the one `sotvet scan`
// prints with; every text the server sends that quotes the workspace goes
// through it.
func newRedactor() func(string) string {
	cfg, err := secretscheck.Config()
	if err == nil {
		if sc, err := engine.NewScanner(cfg); err == nil {
			return sc.RedactString
		}
	}
	// Without the engine nothing quoted may be sent at all.
	return func(string) string { return "[text withheld: the secrets redactor failed to load]" }
}

// Run serves stream until exit or end of stream.
func (s *Server) Run(ctx context.Context, rw io.ReadWriteCloser) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.base = ctx
	// Answers are counted as they are written: exit waits for those still
	// owed, which jsonrpc2 would refuse to write once the connection closes.
	stream := jsonrpc2.NewStream(answerCounter{rw, s.answered})
	s.conn = jsonrpc2.NewConn(stream, jsonrpc2.WithPreempter(preempter{s.cancelRequest}))
	s.conn.Go(ctx, s.handle)
	go s.checker(ctx)
	select {
	case code := <-s.exited:
		// The answers still owed go out first (a client that sends exit
		// without waiting for them still gets them), then Close; it also
		// waits for the reader, which a client that keeps its end open
		// leaves blocked: exit does not wait for that.
		for deadline := time.Now().Add(time.Second); s.owed.Load() > 0 && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		closed := make(chan struct{})
		go func() { _ = s.conn.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(time.Second):
		}
		return code
	case <-s.conn.Done():
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.state == 2 {
			return 0
		}
		return 1
	}
}

// cancelRequest cancels the context of the call with the given id, if it is
// still being handled.
func (s *Server) cancelRequest(id jsonrpc2.ID) {
	s.mu.Lock()
	cancel := s.inflight[id]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// answered counts one answer written.
func (s *Server) answered() { s.owed.Add(-1) }

// answerCounter is the server's output: it calls answered for every
// response frame written (jsonrpc2 writes each frame in one Write).
type answerCounter struct {
	io.ReadWriteCloser
	answered func()
}

func (a answerCounter) Write(b []byte) (int, error) {
	n, err := a.ReadWriteCloser.Write(b)
	if err == nil && isResponse(b) {
		a.answered()
	}
	return n, err
}

// isResponse reports whether a frame (header and body) is a response: an
// object with an id and no method.
func isResponse(frame []byte) bool {
	_, body, ok := bytes.Cut(frame, []byte("\r\n\r\n"))
	if !ok {
		return false
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
		Params json.RawMessage `json:"-"`
	}
	return json.Unmarshal(body, &m) == nil && m.Method == nil && len(m.ID) > 0
}

// preempter handles $/cancelRequest ahead of the requests it cancels.
type preempter struct{ cancel func(jsonrpc2.ID) }

func (p preempter) Preempt(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	if req.Method() != "$/cancelRequest" {
		return nil, jsonrpc2.ErrNotHandled
	}
	var params struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(req.Params(), &params); err == nil {
		var n int64
		var str string
		if json.Unmarshal(params.ID, &n) == nil {
			p.cancel(jsonrpc2.NewNumberID(n))
		} else if json.Unmarshal(params.ID, &str) == nil {
			p.cancel(jsonrpc2.NewStringID(str))
		}
	}
	return struct{}{}, nil
}

func decode(req *jsonrpc2.Request, v any) error {
	if err := json.Unmarshal(req.Params(), v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", req.Method(), err)
	}
	return nil
}

// handle dispatches one message. Notifications run inline, in wire order;
// requests that wait for a fresh check release the read loop first (with
// the request's own context, rc). Their work runs under a context of the
// server's that $/cancelRequest cancels: jsonrpc2 recycles rc once the
// handler returns, so nothing may derive from it.
func (s *Server) handle(rc context.Context, req *jsonrpc2.Request) (res any, err error) {
	method := req.Method()
	defer func() {
		// A bug in a handler costs its request an error, not the server.
		if r := recover(); r != nil {
			s.logf(1, "%s: internal error (please report): %v", method, r)
			res, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "%s: internal error: %v", method, r)
			if !req.IsCall() {
				err = nil
			}
		}
	}()
	ctx := s.base
	if req.IsCall() {
		s.owed.Add(1)
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(s.base)
		id := req.ID()
		s.mu.Lock()
		s.inflight[id] = cancel
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			delete(s.inflight, id)
			s.mu.Unlock()
			cancel()
		}()
	}
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case method == "exit":
		s.exited <- map[bool]int{true: 0, false: 1}[state == 2]
		return nil, nil
	case state == 0 && method != "initialize":
		if !req.IsCall() {
			return nil, nil // notifications before initialize are dropped
		}
		return nil, jsonrpc2.NewError(codeServerNotInitialized, "server not initialized")
	case state == 2:
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shut down")
	}
	res, err = s.dispatch(ctx, rc, req)
	if err != nil && ctx.Err() != nil && req.IsCall() {
		return nil, jsonrpc2.NewError(codeRequestCancelled, "request cancelled")
	}
	if err != nil && !req.IsCall() {
		s.logf(1, "%s: %v", method, err)
		return nil, nil
	}
	return res, err
}

func (s *Server) dispatch(ctx, rc context.Context, req *jsonrpc2.Request) (any, error) {
	switch req.Method() {
	case "initialize":
		var p InitializeParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		return s.initialize(p)
	case "initialized":
		s.initialized()
		return nil, nil
	case "shutdown":
		// Every request sent before shutdown is answered on the wire before
		// it (owed counts this one too); one still unanswered after
		// shutdownWait is left to its fate.
		for deadline := time.Now().Add(shutdownWait); s.owed.Load() > 1 && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		s.mu.Lock()
		s.state = 2
		s.mu.Unlock()
		return nil, nil
	case "textDocument/didOpen":
		var p DidOpenTextDocumentParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		return nil, s.didOpen(p)
	case "textDocument/didChange":
		var p DidChangeTextDocumentParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		return nil, s.didChange(p)
	case "textDocument/didSave":
		var p DidSaveTextDocumentParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		return nil, s.didSave(p)
	case "textDocument/didClose":
		var p DidCloseTextDocumentParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		return nil, s.didClose(p)
	case "workspace/didChangeWatchedFiles":
		var p DidChangeWatchedFilesParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		s.didChangeWatchedFiles(p)
		return nil, nil
	case "workspace/didChangeWorkspaceFolders":
		var p DidChangeWorkspaceFoldersParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		s.didChangeFolders(p)
		return nil, nil
	case "workspace/didChangeConfiguration", "$/setTrace":
		return nil, nil
	case "textDocument/codeAction":
		var p CodeActionParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		jsonrpc2.Async(rc)
		return s.codeAction(ctx, p)
	case "textDocument/definition":
		var p TextDocumentPositionParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		jsonrpc2.Async(rc)
		return s.definition(ctx, p)
	case "textDocument/references":
		var p ReferenceParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		jsonrpc2.Async(rc)
		return s.references(ctx, p)
	case "textDocument/documentLink":
		var p DocumentLinkParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		jsonrpc2.Async(rc)
		return s.documentLinks(ctx, p)
	case "textDocument/hover":
		var p TextDocumentPositionParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		jsonrpc2.Async(rc)
		return s.hover(ctx, p)
	case "textDocument/completion":
		var p CompletionParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		jsonrpc2.Async(rc)
		return s.completion(ctx, p)
	case "workspace/executeCommand":
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command")
	}
	if !req.IsCall() || strings.HasPrefix(req.Method(), "$/") {
		return nil, nil // optional notifications are ignored
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method %q is not supported", req.Method())
}

func (s *Server) initialize(p InitializeParams) (*InitializeResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != 0 {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize sent twice")
	}
	s.state = 1
	if slices.Contains(p.Capabilities.General.PositionEncodings, "utf-8") {
		s.enc = utf8enc
	}
	// Options the server does not understand are ignored, not an error:
	// clients send what their users configured, for any server.
	var o InitOptions
	if len(p.InitializationOptions) > 0 && json.Unmarshal(p.InitializationOptions, &o) == nil && o.DebounceMS != 0 {
		s.debounce = max(0, time.Duration(o.DebounceMS)*time.Millisecond)
	}
	var roots []string
	for _, f := range p.WorkspaceFolders {
		roots = append(roots, f.URI)
	}
	if len(roots) == 0 && p.RootURI != "" {
		roots = append(roots, p.RootURI)
	}
	for _, u := range roots {
		if dir, ok := uriPath(u); ok {
			s.folders = append(s.folders, dir)
		}
	}
	res := &InitializeResult{ServerInfo: ServerInfo{Name: "sotvet", Version: s.version}}
	c := &res.Capabilities
	c.PositionEncoding = s.enc.String()
	c.TextDocumentSync = TextDocumentSyncOptions{OpenClose: true, Change: 2, Save: SaveOptions{IncludeText: true}}
	c.CodeActionProvider = CodeActionOptions{CodeActionKinds: []string{"quickfix", fixAllKind}}
	c.DefinitionProvider, c.ReferencesProvider, c.HoverProvider = true, true, true
	c.DocumentLinkProvider = DocumentLinkOptions{}
	c.CompletionProvider = CompletionOptions{TriggerCharacters: []string{":", "/", "-", " "}}
	c.ExecuteCommandProvider = ExecuteCommandOptions{Commands: []string{}}
	c.Workspace.WorkspaceFolders.Supported = true
	c.Workspace.WorkspaceFolders.ChangeNotifications = true
	return res, nil
}

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
	// document opened is checked against a workspace already in memory.
	s.mu.Lock()
	folders := slices.Clone(s.folders)
	s.mu.Unlock()
	for _, f := range folders {
		for _, root := range findRoots(f) {
			_ = s.workspaceAt(root)
		}
	}
}

// findRoots returns the workspaces of a folder the way check finds them:
// those its sotvet.yaml names, else the folder when it is one, else every
// workspace below it.
func findRoots(folder string) []string {
	if cfg, err := config.LoadIn(folder, checks.All); err == nil && len(cfg.Workspaces) > 0 {
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
		for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
			if workspaces.IsWorkspace(d) {
				best = s.workspaceAt(d)
				break
			}
			if filepath.Dir(d) == d {
				break
			}
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
	if d.rel == config.FileName {
		d.ws.fileChanged(d.rel)
	}
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
			s.mu.Lock()
			pubs := s.diagnosticsToPublish(w, snap)
			s.mu.Unlock()
			for _, p := range pubs {
				_ = s.conn.Notify(ctx, "textDocument/publishDiagnostics", p)
			}
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
		}
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

// logf sends a window/logMessage, redacted.
func (s *Server) logf(typ int, format string, args ...any) {
	if s.conn == nil {
		return
	}
	msg := s.redact(fmt.Sprintf(format, args...))
	_ = s.conn.Notify(context.Background(), "window/logMessage", LogMessageParams{Type: typ, Message: "sotvet: " + msg})
}

// uriPath returns the absolute path of a file: URI.
func uriPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", false
	}
	return filepath.Clean(filepath.FromSlash(u.Path)), true
}

// pathURI returns the file: URI of an absolute path.
func pathURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
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
