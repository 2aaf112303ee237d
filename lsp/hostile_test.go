package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// rawClient talks to a server over pipes byte by byte, so that a test can
// send what no well-behaved client would.
type rawClient struct {
	t    *testing.T
	w    io.WriteCloser
	msgs chan map[string]any
	exit chan int
}

func newRawClient(t *testing.T, s *Server) *rawClient {
	// OS pipes, buffered as an editor's are: with io.Pipe, a server and a
	// client both writing an answer inline wait for each other for ever.
	sr, cw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cr, sw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &rawClient{t: t, w: cw, msgs: make(chan map[string]any, 100), exit: make(chan int, 1)}
	go func() { c.exit <- s.Run(context.Background(), pipe{sr, sw}) }()
	go func() {
		in := bufio.NewReader(cr)
		for {
			n := 0
			for {
				line, err := in.ReadString('\n')
				if err != nil {
					return
				}
				line = strings.TrimSpace(line)
				if line == "" {
					break
				}
				if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
					n, _ = strconv.Atoi(v)
				}
			}
			body := make([]byte, n)
			if _, err := io.ReadFull(in, body); err != nil {
				return
			}
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				t.Errorf("server wrote a body that is not JSON: %q", body)
				continue
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() { cw.Close(); sw.Close() })
	return c
}

func (c *rawClient) send(raw string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, raw); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// next returns the next message that is not a log, within a generous
// deadline (a hang, not a speed, is what it detects).
func (c *rawClient) next() map[string]any {
	c.t.Helper()
	for {
		select {
		case m := <-c.msgs:
			if m["method"] == "window/logMessage" {
				continue
			}
			return m
		case code := <-c.exit:
			c.t.Fatalf("server exited (code %d) instead of answering", code)
		case <-time.After(20 * time.Second):
			c.t.Fatal("no answer from the server within 20s")
		}
	}
}

func errCode(m map[string]any) int {
	e, _ := m["error"].(map[string]any)
	f, _ := e["code"].(float64)
	return int(f)
}

// TestMalformedFramesAreAnswered sends a frame with a body that is not
// JSON, one with a Content-Length that is not a number, one with no
// Content-Length, one over the size limit, one that is JSON but not a
// message, and a batch: each is answered with a JSON-RPC error (id null,
// or the request's id) and the server goes on to answer what follows.
func TestMalformedFramesAreAnswered(t *testing.T) {
	s := New("test")
	s.frameLimit = 1 << 10
	c := newRawClient(t, s)
	c.send(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`))
	if m := c.next(); m["id"] != float64(1) || m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	for _, tc := range []struct {
		name, raw string
		code      int
		id        any
	}{
		{"not JSON", "Content-Length: 5\r\n\r\nhello", -32700, nil},
		{"bad length", "Content-Length: abc\r\n\r\n{\"x\":", -32700, nil},
		{"no length", "Content-Type: x\r\n\r\n{}", -32700, nil},
		{"no colon", "garbage\r\n\r\n", -32700, nil},
		{"oversized", frame(`{"jsonrpc":"2.0","id":3,"method":"x","params":"` + strings.Repeat("a", 2<<10) + `"}`), -32600, nil},
		{"not a message", frame(`{"jsonrpc":"1.0","id":4,"method":"x"}`), -32600, float64(4)},
		{"batch", frame(`[{"jsonrpc":"2.0","id":5,"method":"x"}]`), -32600, nil},
	} {
		// Each is followed by a well-formed call: after a damaged header,
		// the server finds the next frame by its Content-Length.
		probe := 100 + len(tc.name)
		c.send(tc.raw + frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"sotvet/none"}`, probe)))
		m := c.next()
		if errCode(m) != tc.code || m["id"] != tc.id {
			t.Errorf("%s: got %v, want error %d with id %v", tc.name, m, tc.code, tc.id)
		}
		if m := c.next(); m["id"] != float64(probe) || errCode(m) != -32601 {
			t.Errorf("%s: the call after it got %v, want its method-not-found answer", tc.name, m)
		}
	}
	// The stream is still read, and requests still answered.
	c.send(frame(`{"jsonrpc":"2.0","id":9,"method":"shutdown"}`))
	if m := c.next(); m["id"] != float64(9) || m["error"] != nil {
		t.Fatalf("shutdown after malformed frames: %v", m)
	}
	c.send(frame(`{"jsonrpc":"2.0","method":"exit"}`))
	select {
	case code := <-c.exit:
		if code != 0 {
			t.Errorf("exit code %d after shutdown", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("exit not honoured")
	}
}

// TestFIFOGitignoreDoesNotHoldTheReader: git blocks reading a FIFO
// .gitignore. The server asks git on its checker, never on the goroutine
// that reads the client, so shutdown is still answered.
func TestFIFOGitignoreDoesNotHoldTheReader(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := sample(t)
	if out, err := exec.Command("git", "-C", root, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	fifo := filepath.Join(root, ".gitignore")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan struct{})
	t.Cleanup(func() {
		// Lets a git still blocked on the FIFO go: a writer that opens and
		// closes it gives it an empty file.
		close(done)
		for range 50 {
			if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
	c := newRawClient(t, New("test"))
	uri := pathURI(root)
	c.send(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"` + uri + `","capabilities":{}}}`))
	if m := c.next(); m["id"] != float64(1) {
		t.Fatalf("initialize: %v", m)
	}
	c.send(frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`))
	c.send(frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"` + uri + `/CONTEXT.md","languageId":"markdown","version":1,"text":"# x\n"}}}`))
	c.send(frame(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`))
	for {
		m := c.next()
		if m["method"] != nil {
			continue // the server's own calls (registerCapability)
		}
		if m["id"] != float64(2) || m["error"] != nil {
			t.Fatalf("shutdown: %v", m)
		}
		break
	}
}

// TestCompletionOffersNoSecret: a token pasted into one document's
// frontmatter is not offered, in clear or at all, when another document's
// same key is completed.
func TestCompletionOffersNoSecret(t *testing.T) {
	root := sample(t)
	token := "gh" + "p_" + "R8vK2mQ7xL4nT9wB3cF6hJ1pZ5sD0gY8aE2u"
	leak := strings.Replace(readFile(t, filepath.Join(root, issuesRel)), "owner: sample-owner", "owner: "+token, 1)
	leak = strings.Replace(leak, "name: cto-slugify-fixture-issues", "name: cto-leak-issues", 1)
	if err := os.WriteFile(filepath.Join(root, ".sot/03-PROTOCOLS/CTO-LEAK-ISSUES.md"), []byte(leak), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, root, &InitOptions{DebounceMS: -1})
	docPath := filepath.Join(root, issuesRel)
	doc := pathURI(docPath)
	text := readFile(t, docPath)
	c.open(doc, text)
	c.waitDiags(doc, func([]Diagnostic) bool { return true })
	i := strings.Index(text, "owner: sample-owner") + len("owner: ")
	var list CompletionList
	c.call("textDocument/completion", CompletionParams{TextDocumentPositionParams: TextDocumentPositionParams{
		TextDocument: TextDocumentIdentifier{URI: doc}, Position: positionOf([]byte(text), i, utf16)}}, &list)
	if !completes(list, "sample-owner") {
		t.Errorf("owner values: %+v", list.Items)
	}
	b, _ := json.Marshal(list)
	if strings.Contains(string(b), token[4:]) || strings.Contains(string(b), "ghp_") {
		t.Errorf("completion offers the token: %s", b)
	}
}

// TestDiagnosticsCapped: a buffer with a finding on every line gets at
// most maxDiagnostics diagnostics and one that says how many more exist.
func TestDiagnosticsCapped(t *testing.T) {
	root := sample(t)
	c := newClient(t, root, &InitOptions{DebounceMS: -1})
	docPath := filepath.Join(root, issuesRel)
	doc := pathURI(docPath)
	text := readFile(t, docPath) + strings.Repeat("\t\n", 3*maxDiagnostics)
	c.open(doc, text)
	ds := c.waitDiags(doc, func(ds []Diagnostic) bool { return len(ds) > 0 })
	if len(ds) != maxDiagnostics+1 {
		t.Fatalf("got %d diagnostics, want %d and a note", len(ds), maxDiagnostics)
	}
	last := ds[len(ds)-1]
	if last.Code != "omitted" || !strings.Contains(last.Message, "more findings in this file are not shown") {
		t.Errorf("last diagnostic: %+v", last)
	}
}
