package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// client is the test's side of a connection to a Server, over the LSP
// header framing the editors use.
type client struct {
	t    testing.TB
	conn jsonrpc2.Conn
	exit chan int

	mu    sync.Mutex
	diags map[string]PublishDiagnosticsParams
	pubs  map[string]int // publishDiagnostics received, by URI
	hist  map[string][]PublishDiagnosticsParams
	logs  []string
	seen  chan struct{}

	timeout time.Duration // how long waitDiags waits
}

type pipe struct {
	io.Reader
	io.WriteCloser
}

// newClient starts a server on an in-process pipe and initializes it with
// root as its workspace folder.
func newClient(t testing.TB, root string, opts *InitOptions) *client {
	t.Helper()
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	s := New("test")
	c := &client{t: t, timeout: 20 * time.Second, exit: make(chan int, 1), diags: map[string]PublishDiagnosticsParams{}, pubs: map[string]int{}, seen: make(chan struct{}, 1000)}
	go func() { c.exit <- s.Run(context.Background(), pipe{sr, sw}) }()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(pipe{cr, cw}))
	c.conn.Go(context.Background(), func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		switch req.Method() {
		case "textDocument/publishDiagnostics":
			var p PublishDiagnosticsParams
			if err := json.Unmarshal(req.Params(), &p); err != nil {
				t.Errorf("publishDiagnostics: %v", err)
			}
			c.mu.Lock()
			c.diags[p.URI] = p
			c.pubs[p.URI]++
			if c.hist == nil {
				c.hist = map[string][]PublishDiagnosticsParams{}
			}
			c.hist[p.URI] = append(c.hist[p.URI], p)
			c.mu.Unlock()
			// A wake-up, not a count: when the buffer is full, waiters
			// have wake-ups pending and re-read the state. A send that
			// blocked here would stop the connection's reader, and with
			// it the server's writes and then the test's own (a pipe
			// holds nothing): a test that left more than the buffer's
			// publishes unread hung until go test's timeout.
			select {
			case c.seen <- struct{}{}:
			default:
			}
		case "window/logMessage":
			c.mu.Lock()
			c.logs = append(c.logs, string(req.Params()))
			c.mu.Unlock()
		}
		return nil, nil
	})
	t.Cleanup(func() { _ = c.conn.Close() })
	if root != "" {
		var res InitializeResult
		c.call("initialize", map[string]any{
			"processId": nil, "rootUri": pathURI(root),
			"capabilities":          map[string]any{},
			"initializationOptions": opts,
		}, &res)
		if res.Capabilities.PositionEncoding != "utf-16" || res.Capabilities.TextDocumentSync.Change != 2 {
			t.Fatalf("capabilities: %+v", res.Capabilities)
		}
		c.notify("initialized", map[string]any{})
	}
	return c
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) open(uri, text string) {
	c.notify("textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, LanguageID: "markdown", Version: 1, Text: text}})
}

// waitDiags waits until uri's latest diagnostics satisfy ok.
func (c *client) waitDiags(uri string, ok func([]Diagnostic) bool) []Diagnostic {
	c.t.Helper()
	deadline := time.After(c.timeout)
	for {
		c.mu.Lock()
		p, have := c.diags[uri]
		c.mu.Unlock()
		if have && ok(p.Diagnostics) {
			return p.Diagnostics
		}
		select {
		case <-c.seen:
		case <-deadline:
			c.t.Fatalf("timed out waiting for diagnostics of %s; last: %+v", uri, p.Diagnostics)
		}
	}
}

func hasCode(code string) func([]Diagnostic) bool {
	return func(ds []Diagnostic) bool {
		for _, d := range ds {
			if d.Code == code || strings.HasPrefix(d.Code, code+"/") {
				return true
			}
		}
		return false
	}
}

func none(ds []Diagnostic) bool { return len(ds) == 0 }

// sample copies testdata/workspace into a temporary directory.
func sample(t testing.TB) string {
	t.Helper()
	dst := t.TempDir()
	src := "../testdata/workspace"
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

const issuesRel = ".sot/03-PROTOCOLS/CTO-SLUGIFY-FIXTURE-ISSUES.md"

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDiagnosticsCrossFile opens a document and the workboard, edits the
// workboard's unsaved buffer, and sees the document's diagnostics appear
// and then clear when the edit is undone.
func TestDiagnosticsCrossFile(t *testing.T) {
	root := sample(t)
	c := newClient(t, root, &InitOptions{DebounceMS: -1})
	doc := pathURI(filepath.Join(root, issuesRel))
	wb := pathURI(filepath.Join(root, "WORKBOARD.yaml"))
	c.open(doc, readFile(t, filepath.Join(root, issuesRel)))
	c.waitDiags(doc, none)
	wbText := readFile(t, filepath.Join(root, "WORKBOARD.yaml"))
	c.open(wb, wbText)
	c.waitDiags(wb, none)

	// The buffer, not the file on disk, is what is checked.
	line := strings.Count(wbText[:strings.Index(wbText, "status: validated")], "\n")
	change := func(version int32, from, to string, col int) {
		c.notify("textDocument/didChange", DidChangeTextDocumentParams{
			TextDocument: VersionedTextDocumentIdentifier{URI: wb, Version: version},
			ContentChanges: []TextDocumentContentChangeEvent{{
				Range: &Range{Start: Position{line, col}, End: Position{line, col + len(from)}}, Text: to,
			}},
		})
	}
	change(2, "validated", "candidate", 12)
	ds := c.waitDiags(doc, hasCode("status"))
	d := ds[0]
	if d.Severity != SeverityError || d.Source != "sotvet" || d.CodeDescription == nil || !strings.HasSuffix(d.CodeDescription.Href, "#status") {
		t.Errorf("diagnostic: %+v", d)
	}
	if len(d.RelatedInformation) == 0 || d.RelatedInformation[0].Location.URI != wb {
		t.Errorf("related information should point at the workboard: %+v", d.RelatedInformation)
	}
	if d.Range.Start.Line != 23 {
		t.Errorf("diagnostic at line %d, want 23 (line 24 of the file)", d.Range.Start.Line)
	}
	// An older version arriving late is ignored: the workboard buffer
	// still says candidate.
	change(1, "candidate", "validated", 12)
	docText := readFile(t, filepath.Join(root, issuesRel))
	var h Hover
	c.call("textDocument/hover", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: doc}, Position: positionOf([]byte(docText), strings.Index(docText, "CTO-WORK-101 - Slugify")+3, utf16)}, &h)
	if !strings.Contains(h.Contents.Value, "status `candidate` in WORKBOARD.yaml") || !strings.Contains(h.Contents.Value, "The statuses disagree") {
		t.Errorf("after a stale change, hover shows:\n%s", h.Contents.Value)
	}
	// Undoing the edit fixes the document: its diagnostics are emptied.
	change(3, "candidate", "validated", 12)
	c.waitDiags(doc, none)
}

// TestUnchangedEditPublishes checks that an edit whose diagnostics are
// those already shown still gets them published under its version (a
// client waits for the diagnostics of the version it sent; issue 34's
// benchmark waited forever on a document whose first 1,000 diagnostics
// an edit at its end did not change), and that an open document the edit
// leaves unchanged gets nothing.
func TestUnchangedEditPublishes(t *testing.T) {
	root := sample(t)
	c := newClient(t, root, &InitOptions{DebounceMS: -1})
	doc := pathURI(filepath.Join(root, issuesRel))
	wb := pathURI(filepath.Join(root, "WORKBOARD.yaml"))
	text := readFile(t, filepath.Join(root, issuesRel))
	c.open(doc, text)
	c.open(wb, readFile(t, filepath.Join(root, "WORKBOARD.yaml")))
	c.waitVersion(doc, 1)
	c.waitVersion(wb, 1)
	c.mu.Lock()
	before, wbBefore := c.diags[doc], c.pubs[wb]
	c.mu.Unlock()
	for v := int32(2); v <= 3; v++ {
		// The same text again: nothing changes but the version.
		c.notify("textDocument/didChange", DidChangeTextDocumentParams{
			TextDocument:   VersionedTextDocumentIdentifier{URI: doc, Version: v},
			ContentChanges: []TextDocumentContentChangeEvent{{Text: text}},
		})
		c.waitVersion(doc, v)
	}
	// A request waits for the run, which publishes before it answers.
	var h Hover
	c.call("textDocument/hover", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: doc}}, &h)
	c.mu.Lock()
	after, wbAfter := c.diags[doc], c.pubs[wb]
	c.mu.Unlock()
	if !reflect.DeepEqual(before.Diagnostics, after.Diagnostics) {
		t.Errorf("the same text changed the diagnostics:\n%+v\n%+v", before.Diagnostics, after.Diagnostics)
	}
	if wbAfter != wbBefore {
		t.Errorf("the workboard, unchanged, was published %d times more", wbAfter-wbBefore)
	}
}

// TestCodeActions applies the quick fix of a missing frontmatter key and
// offers the ignore comment and the fix-all.
func TestCodeActions(t *testing.T) {
	root := sample(t)
	c := newClient(t, root, &InitOptions{DebounceMS: -1})
	doc := pathURI(filepath.Join(root, issuesRel))
	text := strings.Replace(readFile(t, filepath.Join(root, issuesRel)), "core_promotion_status: not-promoted\n", "", 1)
	c.open(doc, text)
	ds := c.waitDiags(doc, hasCode("frontmatter/required"))
	var actions []CodeAction
	c.call("textDocument/codeAction", CodeActionParams{TextDocument: TextDocumentIdentifier{URI: doc}, Range: ds[0].Range}, &actions)
	var fix, ignore, all *CodeAction
	for i, a := range actions {
		switch {
		case a.Kind == "quickfix" && strings.HasPrefix(a.Title, "add core_promotion_status"):
			fix = &actions[i]
		case a.Kind == "quickfix" && strings.HasPrefix(a.Title, "Ignore frontmatter"):
			ignore = &actions[i]
		case a.Kind == fixAllKind:
			all = &actions[i]
		}
	}
	// Adding "not-promoted" states a classification: an unsafe fix, offered
	// as such and never preferred, and left out of fix-all as --fix leaves it.
	if fix == nil {
		t.Fatalf("want a fix; got %+v", actions)
	}
	if fix.IsPreferred || !strings.Contains(fix.Title, "(unsafe") {
		t.Errorf("the unsafe fix is offered as a safe one: %+v", fix)
	}
	if all != nil {
		t.Errorf("fix-all applies an unsafe fix: %+v", all)
	}
	if ignore != nil {
		t.Errorf("an ignore comment for a finding on the opening --- would break the frontmatter: %+v", ignore)
	}
	edit := fix.Edit.DocumentChanges[0]
	if edit.TextDocument.URI != doc || edit.TextDocument.Version == nil || *edit.TextDocument.Version != 1 {
		t.Errorf("fix edit names %+v", edit.TextDocument)
	}
	fixed := applyEdits(t, text, edit.Edits)
	if !strings.Contains(fixed, "core_promotion_status: not-promoted\n---") {
		t.Errorf("fixed text:\n%s", fixed)
	}
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{
		TextDocument:   VersionedTextDocumentIdentifier{URI: doc, Version: 2},
		ContentChanges: []TextDocumentContentChangeEvent{{Text: fixed}},
	})
	c.waitDiags(doc, none)
}

func applyEdits(t *testing.T, text string, edits []TextEdit) string {
	t.Helper()
	b := []byte(text)
	for i := len(edits) - 1; i >= 0; i-- {
		var err error
		b, err = applyChange(b, TextDocumentContentChangeEvent{Range: &edits[i].Range, Text: edits[i].NewText}, utf16)
		if err != nil {
			t.Fatal(err)
		}
	}
	return string(b)
}

// TestNavigation: definition, references, document links, hover and
// completion over the sample workspace.
func TestNavigation(t *testing.T) {
	root := sample(t)
	c := newClient(t, root, &InitOptions{DebounceMS: -1})
	docPath := filepath.Join(root, issuesRel)
	doc := pathURI(docPath)
	text := readFile(t, docPath)
	c.open(doc, text)
	c.waitDiags(doc, none)
	pos := func(needle string, delta int) Position {
		i := strings.Index(text, needle)
		if i < 0 {
			t.Fatalf("%q not in document", needle)
		}
		return positionOf([]byte(text), i+delta, utf16)
	}
	at := TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: doc}, Position: pos("CTO-WORK-101 - Slugify", 4)}

	var defs []Location
	c.call("textDocument/definition", at, &defs)
	var sawHeading, sawBoard bool
	for _, l := range defs {
		sawHeading = sawHeading || l.URI == doc && l.Range.Start.Line == pos("### CTO-WORK-101", 0).Line
		sawBoard = sawBoard || strings.HasSuffix(l.URI, "/WORKBOARD.yaml") && l.Range.Start.Line == 3
	}
	if !sawHeading || !sawBoard {
		t.Errorf("definition of CTO-WORK-101: %+v", defs)
	}

	var refs []Location
	c.call("textDocument/references", ReferenceParams{TextDocumentPositionParams: at}, &refs)
	if len(refs) < 3 {
		t.Errorf("references of CTO-WORK-101: %+v", refs)
	}

	var h Hover
	c.call("textDocument/hover", at, &h)
	if !strings.Contains(h.Contents.Value, "Slugify Fixture PRD") || !strings.Contains(h.Contents.Value, "status `validated` in WORKBOARD.yaml") {
		t.Errorf("hover: %q", h.Contents.Value)
	}

	var links []DocumentLink
	c.call("textDocument/documentLink", DocumentLinkParams{TextDocument: TextDocumentIdentifier{URI: doc}}, &links)
	if len(links) == 0 || !strings.HasSuffix(links[0].Target, "CTO-SLUGIFY-FIXTURE-PRD.md") {
		t.Errorf("document links: %+v", links)
	}

	var pathDefs []Location
	c.call("textDocument/definition", TextDocumentPositionParams{TextDocument: at.TextDocument, Position: pos(".sot/03-PROTOCOLS/CTO-SLUGIFY-FIXTURE-PRD.md", 6)}, &pathDefs)
	if len(pathDefs) != 1 || !strings.HasSuffix(pathDefs[0].URI, "CTO-SLUGIFY-FIXTURE-PRD.md") {
		t.Errorf("definition of a .sot/ path: %+v", pathDefs)
	}

	var list CompletionList
	c.call("textDocument/completion", CompletionParams{TextDocumentPositionParams: TextDocumentPositionParams{TextDocument: at.TextDocument, Position: pos("status: draft", 8)}}, &list)
	if !completes(list, "validated") || completes(list, "not-promoted") {
		t.Errorf("status values: %+v", list.Items)
	}
	c.call("textDocument/completion", CompletionParams{TextDocumentPositionParams: TextDocumentPositionParams{TextDocument: at.TextDocument, Position: pos("Blocked by: None", 0)}}, &list)
	if len(list.Items) != 0 {
		t.Errorf("completion in the body at a plain word: %+v", list.Items)
	}
	c.call("textDocument/completion", CompletionParams{TextDocumentPositionParams: TextDocumentPositionParams{TextDocument: at.TextDocument, Position: pos("CTO-WORK-101 - Slugify", 9)}}, &list)
	if !completes(list, "CTO-WORK-103") {
		t.Errorf("id completion: %+v", list.Items)
	}
}

func completes(l CompletionList, label string) bool {
	for _, it := range l.Items {
		if it.Label == label {
			return true
		}
	}
	return false
}

// TestSecretRedacted: a credential typed into a buffer is reported, and no
// message the server sends carries it.
func TestSecretRedacted(t *testing.T) {
	root := sample(t)
	c := newClient(t, root, &InitOptions{DebounceMS: -1})
	docPath := filepath.Join(root, issuesRel)
	doc := pathURI(docPath)
	secret := "ghp_" + "u8jzR3nQw7LkP2xVb9TcYf4HsA1dE6mG0oKi"
	text := readFile(t, docPath) + "\nThe token is " + secret + " for now.\n"
	c.open(doc, text)
	ds := c.waitDiags(doc, hasCode("secrets"))
	raw, _ := json.Marshal(ds)
	if strings.Contains(string(raw), secret[4:12]) {
		t.Errorf("diagnostics carry the secret: %s", raw)
	}
	var h *Hover
	c.call("textDocument/hover", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: doc}, Position: positionOf([]byte(text), strings.Index(text, secret)+3, utf16)}, &h)
	if h != nil && strings.Contains(h.Contents.Value, secret[4:12]) {
		t.Errorf("hover carries the secret: %q", h.Contents.Value)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, l := range c.logs {
		if strings.Contains(l, secret[4:12]) {
			t.Errorf("log carries the secret: %s", l)
		}
	}
}

// TestMalformedInput: a broken YAML buffer and a broken sotvet.yaml are
// diagnostics and log messages, never a dead server.
func TestMalformedInput(t *testing.T) {
	root := sample(t)
	if err := os.WriteFile(filepath.Join(root, "sotvet.yaml"), []byte("enable: [nosuchcheck\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, root, &InitOptions{DebounceMS: -1})
	wb := pathURI(filepath.Join(root, "WORKBOARD.yaml"))
	c.open(wb, "items:\n  - id: [unclosed\n\t\x00:\n")
	c.waitDiags(wb, func(ds []Diagnostic) bool { return len(ds) > 0 })
	// Fixing the configuration on disk and saying so reloads it.
	if err := os.WriteFile(filepath.Join(root, "sotvet.yaml"), []byte("disable: [hygiene]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", DidChangeWatchedFilesParams{Changes: []FileEvent{{URI: pathURI(filepath.Join(root, "sotvet.yaml")), Type: 2}}})
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{
		TextDocument:   VersionedTextDocumentIdentifier{URI: wb, Version: 2},
		ContentChanges: []TextDocumentContentChangeEvent{{Text: readFile(t, filepath.Join(root, "WORKBOARD.yaml"))}},
	})
	c.waitDiags(wb, none)
	var links []DocumentLink
	c.call("textDocument/documentLink", DocumentLinkParams{TextDocument: TextDocumentIdentifier{URI: wb}}, &links)
}

// TestWatchedFiles: a document changed on disk outside the editor is
// re-read, and the open documents it affects are re-checked.
func TestWatchedFiles(t *testing.T) {
	root := sample(t)
	c := newClient(t, root, &InitOptions{DebounceMS: -1})
	doc := pathURI(filepath.Join(root, issuesRel))
	c.open(doc, readFile(t, filepath.Join(root, issuesRel)))
	c.waitDiags(doc, none)
	wbPath := filepath.Join(root, "WORKBOARD.yaml")
	if err := os.WriteFile(wbPath, []byte(strings.Replace(readFile(t, wbPath), "status: validated", "status: candidate", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", DidChangeWatchedFilesParams{Changes: []FileEvent{{URI: pathURI(wbPath), Type: 2}}})
	c.waitDiags(doc, hasCode("status"))
}

// TestCancellation: a request waiting for a re-check that the debounce
// holds back is cancelled by $/cancelRequest with RequestCancelled.
func TestCancellation(t *testing.T) {
	root := sample(t)
	c := newClient(t, root, &InitOptions{DebounceMS: 60_000})
	doc := pathURI(filepath.Join(root, issuesRel))
	text := readFile(t, filepath.Join(root, issuesRel))
	c.open(doc, text)
	c.waitLoaded(doc) // the first diagnostics may come before the load
	c.waitDiags(doc, none)
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{
		TextDocument:   VersionedTextDocumentIdentifier{URI: doc, Version: 2},
		ContentChanges: []TextDocumentContentChangeEvent{{Text: text + "\n"}},
	})
	// The id of the next call: ids count up from the last one.
	last, _ := c.conn.Call(context.Background(), "sotvet/nosuchmethod", nil, nil)
	var next int64
	if err := json.Unmarshal([]byte(fmt.Sprint(last)), &next); err != nil {
		t.Fatalf("id %v: %v", last, err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := c.conn.Call(context.Background(), "textDocument/hover", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: doc}}, nil)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("hover answered before the re-check: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	c.notify("$/cancelRequest", map[string]any{"id": next + 1})
	var je *jsonrpc2.Error
	if err := <-done; !errors.As(err, &je) || je.Code != codeRequestCancelled {
		t.Fatalf("cancelled hover: %v", err)
	}
	// The connection still answers after the cancelled request.
	var links []DocumentLink
	c.notify("textDocument/didSave", DidSaveTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: doc}})
	c.call("textDocument/documentLink", DocumentLinkParams{TextDocument: TextDocumentIdentifier{URI: doc}}, &links)
}

// TestLifecycle: requests before initialize fail with ServerNotInitialized,
// after shutdown with InvalidRequest; exit ends the server with 0 after
// shutdown and 1 without.
func TestLifecycle(t *testing.T) {
	c := newClient(t, "", nil)
	_, err := c.conn.Call(context.Background(), "textDocument/hover", map[string]any{}, nil)
	var je *jsonrpc2.Error
	if !errors.As(err, &je) || je.Code != codeServerNotInitialized {
		t.Errorf("before initialize: %v", err)
	}
	c.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{"general": map[string]any{"positionEncodings": []string{"utf-8", "utf-16"}}}}, nil)
	_, err = c.conn.Call(context.Background(), "initialize", map[string]any{}, nil)
	if !errors.As(err, &je) || je.Code != jsonrpc2.InvalidRequest {
		t.Errorf("second initialize: %v", err)
	}
	_, err = c.conn.Call(context.Background(), "textDocument/nosuch", map[string]any{}, nil)
	if !errors.As(err, &je) || je.Code != jsonrpc2.MethodNotFound {
		t.Errorf("unknown method: %v", err)
	}
	c.call("shutdown", nil, nil)
	_, err = c.conn.Call(context.Background(), "textDocument/hover", map[string]any{}, nil)
	if !errors.As(err, &je) || je.Code != jsonrpc2.InvalidRequest {
		t.Errorf("after shutdown: %v", err)
	}
	c.notify("exit", nil)
	select {
	case code := <-c.exit:
		if code != 0 {
			t.Errorf("exit after shutdown: %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not exit")
	}

	c2 := newClient(t, "", nil)
	c2.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}}, nil)
	c2.notify("exit", nil)
	select {
	case code := <-c2.exit:
		if code != 1 {
			t.Errorf("exit without shutdown: %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not exit")
	}
}

// TestClose: closing a document clears its diagnostics.
func TestClose(t *testing.T) {
	root := sample(t)
	c := newClient(t, root, &InitOptions{DebounceMS: -1})
	doc := pathURI(filepath.Join(root, issuesRel))
	c.open(doc, "not a frontmatter\n")
	c.waitDiags(doc, func(ds []Diagnostic) bool { return len(ds) > 0 })
	c.notify("textDocument/didClose", DidCloseTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: doc}})
	c.waitDiags(doc, none)
}

// TestWorkspaceFolders: a folder added after initialize is loaded, its
// documents checked; executeCommand names no command; a save that carries
// the text checks that text.
func TestWorkspaceFolders(t *testing.T) {
	c := newClient(t, "", nil)
	c.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}, "initializationOptions": "not an object"}, nil)
	c.notify("initialized", map[string]any{})
	parent := t.TempDir()
	root := filepath.Join(parent, "planning")
	if err := os.Rename(sample(t), root); err != nil {
		t.Fatal(err)
	}
	// The folder holds the workspace one level down, as check finds it.
	c.notify("workspace/didChangeWorkspaceFolders", DidChangeWorkspaceFoldersParams{Event: struct {
		Added   []WorkspaceFolder `json:"added"`
		Removed []WorkspaceFolder `json:"removed"`
	}{Added: []WorkspaceFolder{{URI: pathURI(parent), Name: "p"}}}})
	doc := pathURI(filepath.Join(root, issuesRel))
	text := readFile(t, filepath.Join(root, issuesRel))
	c.open(doc, text)
	c.waitDiags(doc, none)
	broken := strings.Replace(text, "Status: validated.", "Status: candidate.", 1)
	c.notify("textDocument/didSave", DidSaveTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: doc}, Text: &broken})
	c.waitDiags(doc, func(ds []Diagnostic) bool { return len(ds) > 0 })
	_, err := c.conn.Call(context.Background(), "workspace/executeCommand", ExecuteCommandParams{Command: "sotvet.nothing"}, nil)
	var je *jsonrpc2.Error
	if !errors.As(err, &je) || je.Code != jsonrpc2.InvalidParams {
		t.Errorf("executeCommand: %v", err)
	}
	// A document outside every workspace gets nothing, and no error.
	outside := pathURI(filepath.Join(t.TempDir(), "README.md"))
	c.open(outside, "# x\n")
	var links []DocumentLink
	c.call("textDocument/documentLink", DocumentLinkParams{TextDocument: TextDocumentIdentifier{URI: outside}}, &links)
	if len(links) != 0 {
		t.Errorf("links outside a workspace: %+v", links)
	}
}

func TestIgnoreComment(t *testing.T) {
	doc := "---\nname: x\n  nested: y\n---\n# T\n\n  Status: validated.\n"
	for _, c := range []struct {
		rel     string
		text    string
		line    int
		off     int
		comment string
		ok      bool
	}{
		{"a.md", doc, 1, 0, "", false},
		{"a.md", doc, 2, 4, "# sotvet:ignore status -- \n", true},
		{"a.md", doc, 3, 12, "  # sotvet:ignore status -- \n", true},
		{"a.md", doc, 4, 24, "# sotvet:ignore status -- \n", true},
		{"a.md", doc, 7, 33, "  <!-- sotvet:ignore status -- -->\n", true},
		{"a.md", "# T\r\nline\r\n", 2, 5, "<!-- sotvet:ignore status -- -->\r\n", true},
		{"WORKBOARD.yaml", "items:\n  - id: X\n    status: y\n", 3, 17, "    # sotvet:ignore status -- \n", true},
	} {
		off, comment, ok := ignoreComment(c.rel, []byte(c.text), c.line, "status")
		if off != c.off || comment != c.comment || ok != c.ok {
			t.Errorf("%s line %d: got %d %q %v, want %d %q %v", c.rel, c.line, off, comment, ok, c.off, c.comment, c.ok)
		}
	}
}

// TestIgnoreAction applies the ignore quick fix to a finding in a
// document's body: without a reason the comment is a finding itself; with
// one written after --, the finding is suppressed.
func TestIgnoreAction(t *testing.T) {
	root := sample(t)
	c := newClient(t, root, &InitOptions{DebounceMS: -1})
	doc := pathURI(filepath.Join(root, issuesRel))
	text := strings.Replace(readFile(t, filepath.Join(root, issuesRel)), "Status: validated.", "Status: candidate.", 1)
	c.open(doc, text)
	ds := c.waitDiags(doc, hasCode("status"))
	var actions []CodeAction
	c.call("textDocument/codeAction", CodeActionParams{TextDocument: TextDocumentIdentifier{URI: doc}, Range: ds[0].Range}, &actions)
	var ignore *CodeAction
	for i, a := range actions {
		if strings.HasPrefix(a.Title, "Ignore status/stale-issue here") {
			ignore = &actions[i]
		}
	}
	if ignore == nil {
		t.Fatalf("no ignore action: %+v", actions)
	}
	noReason := applyEdits(t, text, ignore.Edit.DocumentChanges[0].Edits)
	if !strings.Contains(noReason, "<!-- sotvet:ignore status/stale-issue -- -->\nStatus: candidate.") {
		t.Fatalf("ignore comment:\n%s", noReason)
	}
	change := func(v int32, s string) {
		c.notify("textDocument/didChange", DidChangeTextDocumentParams{TextDocument: VersionedTextDocumentIdentifier{URI: doc, Version: v}, ContentChanges: []TextDocumentContentChangeEvent{{Text: s}}})
	}
	change(2, noReason)
	c.waitDiags(doc, hasCode("suppression"))
	change(3, strings.Replace(noReason, "-- -->", "-- the workboard is behind this document -->", 1))
	c.waitDiags(doc, none)
}

// TestFindRoots: the workspaces of a folder, found as check finds them.
func TestFindRoots(t *testing.T) {
	parent := t.TempDir()
	a, b := filepath.Join(parent, "a"), filepath.Join(parent, "nested", "b")
	os.MkdirAll(filepath.Dir(b), 0o755)
	for _, d := range []string{a, b} {
		if err := os.Rename(sample(t), d); err != nil {
			t.Fatal(err)
		}
	}
	if got := findRoots(parent); !slices.Equal(got, []string{a, b}) {
		t.Errorf("every workspace below: %v", got)
	}
	if got := findRoots(a); !slices.Equal(got, []string{a}) {
		t.Errorf("a workspace itself: %v", got)
	}
	if err := os.WriteFile(filepath.Join(parent, "sotvet.yaml"), []byte("workspaces: [nested/b]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := findRoots(parent); !slices.Equal(got, []string{b}) {
		t.Errorf("the workspaces sotvet.yaml names: %v", got)
	}
}

// TestWatchedFileOfNoRole: a file a document links to, created outside the
// editor, is seen once the client reports it, though it is no document:
// the server lists the files on disk again then (keystrokes do not).
func TestWatchedFileOfNoRole(t *testing.T) {
	root := sample(t)
	c := newClient(t, root, &InitOptions{DebounceMS: -1})
	doc := pathURI(filepath.Join(root, issuesRel))
	text := readFile(t, filepath.Join(root, issuesRel)) + "\nThe fixture runs `.sot/03-PROTOCOLS/run-fixture.sh`.\n"
	c.open(doc, text)
	c.waitDiags(doc, hasCode("refs/missing-path"))
	script := filepath.Join(root, ".sot", "03-PROTOCOLS", "run-fixture.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", DidChangeWatchedFilesParams{Changes: []FileEvent{{URI: pathURI(script), Type: 1}}})
	c.waitDiags(doc, none)
}
