// Package lsp is sotvet's language server: the checks of `sotvet check`,
// run on the editor's unsaved buffers as the user types, with quick fixes,
// navigation over work item ids, .sot/ paths and glossary terms, hover and
// completion. It speaks LSP 3.17 over go.lsp.dev/jsonrpc2.
package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/svrnty/sotvet/cache"
	secretscheck "github.com/svrnty/sotvet/checks/secrets"
	"github.com/svrnty/sotvet/internal/memo"
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

// maxDiagnostics caps the diagnostics published for one document; a last
// one says how many more there are.
const maxDiagnostics = 1000

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
	cacheKey   string // the build's key in the summary cache; "" keeps off it
	folders    []string
	workspaces map[string]*workspace // by root
	docs       map[string]*document  // by URI
	snaps      map[*workspace]*snapshot
	dirty      map[*workspace]time.Time // when each pending run is due
	running    map[*workspace]bool      // a run is under way (or publishing)
	timer      *time.Timer
	published  map[string]publication // URI -> the diagnostics last sent
	complete   map[*workspace]bool    // a run of the whole workspace has published
	pubMu      sync.Mutex             // held while diagnostics are chosen and sent: they go out in order
	fresh      chan struct{}          // closed and replaced after every run
	wake       chan struct{}
	exited     chan int
	base       context.Context // the connection's: requests' contexts derive from it
	inflight   map[jsonrpc2.ID]context.CancelFunc
	owed       atomic.Int64 // calls received and not yet answered on the wire
	frameLimit int          // the largest message read (maxFrame; smaller in tests)
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
		published:  map[string]publication{},
		complete:   map[*workspace]bool{},
		fresh:      make(chan struct{}),
		wake:       make(chan struct{}, 1),
		exited:     make(chan int, 1),
		inflight:   map[jsonrpc2.ID]context.CancelFunc{},
		frameLimit: maxFrame,
	}
	s.redact = newRedactor()
	return s
}

// redactMemoSize and redactMemoBytes bound a generation of the
// redactor's memo (see memo.Strings): the diagnostics of a large
// workspace's open documents, in at most 4 MiB (a hover's long text is
// not kept).
const (
	redactMemoSize  = 8192
	redactMemoBytes = 4 << 20
)

// newRedactor returns the secrets engine's redaction, the one `sotvet scan`
// prints with; every text the server sends that quotes the workspace goes
// through it.
func newRedactor() func(string) string {
	cfg, err := secretscheck.Config()
	if err == nil {
		if sc, err := engine.NewScanner(cfg); err == nil {
			// Every edit sends again what the last one sent, mostly:
			// the engine's cost is per text, a memo's per lookup.
			return memo.NewStrings(sc.RedactString, redactMemoSize, redactMemoBytes).Get
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
	// A malformed frame is answered with an error and skipped: the stream
	// goes on (jsonrpc2's own would end the connection).
	stream := newFrameStream(answerCounter{rw, s.answered}, s.frameLimit)
	stream.badFn = func(msg string) { s.logf(2, "skipped a malformed message: %s", msg) }
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
		deadline := time.Now().Add(shutdownWait)
		for s.owed.Load() > 1 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		s.mu.Lock()
		s.state = 2
		ws := slices.Collect(maps.Values(s.workspaces))
		s.mu.Unlock()
		// A summary cache the checker has yet to write (or is writing) is
		// written before the answer, within the same bound: an editor that
		// quits right after start-up still leaves it for the next.
		saved := make(chan struct{})
		go func() {
			defer close(saved)
			for _, w := range ws {
				s.saveCache(w)
			}
		}()
		select {
		case <-saved:
		case <-time.After(time.Until(deadline)):
		}
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
	if !o.NoCache {
		// A workspace's first run takes the summaries of the documents
		// unchanged since an earlier server or check run, instead of
		// parsing them: the first diagnostics after a restart come sooner.
		s.cacheKey = cache.BuildKey(s.version)
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
