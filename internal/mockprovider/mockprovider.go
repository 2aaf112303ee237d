// Package mockprovider is a scripted OpenAI-compatible model server for
// tests: it speaks the Chat Completions and the Responses API (streaming
// and not), listens on loopback only, and acts out one scenario chosen by
// the URL prefix /s/<scenario>/v1. The real agent CLIs are pointed at it so
// that every lane's verdict rules can be proved without a real provider.
//
// The server is stateless: whether a request is the first of a turn or a
// follow-up is read from the request itself (a tool result in it means the
// tool ran). Every wait is bounded by the request's context, by Close and
// by MaxHang, so nothing it does can hang a test forever.
package mockprovider

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Scenarios the server acts out.
const (
	Edit         = "edit"         // a tool call that writes the files, then a final text
	Error500     = "error500"     // HTTP 500
	Error400     = "error400"     // HTTP 400
	Malformed    = "malformed"    // 200 and non-JSON data: lines
	Hang         = "hang"         // no response headers, ever
	HangStream   = "hangstream"   // 200 and the first event, then a stall
	Reasoning    = "reasoning"    // reasoning only, no content (the probe sees it too)
	Text         = "text"         // a final text with no tool call
	ToolError    = "toolerror"    // an edit that cannot apply, then a final text
	EditThenHang = "editthenhang" // the edit, then a stall before the final text
	LateWrite    = "latewrite"    // a shell command that leaves a detached writer behind, then a final text
	// Case-role-aware scenarios (WorkOS Case's agents): the role is read
	// from the system prompt and every agent ends with an AGENT_RESULT.
	Case     = "case"     // the implementer writes and commits the files; every role completes
	CaseNoop = "casenoop" // every role claims completed, the implementer claims the files, nothing changes
	// CaseLinger: the implementer's change is made and committed, then
	// the verifier's request never gets an answer.
	CaseLinger = "caselinger"
	// CaseReject: the implementer's change is made; the reviewer fails it.
	CaseReject = "casereject"
)

// LateWriteCommand is what the latewrite scenario asks the agent's shell
// to run: a writer in its own session that writes LateWriteFile after the
// agent has finished.
const (
	LateWriteFile    = "late-write.txt"
	LateWriteCommand = "setsid sh -c 'sleep 3; echo late > " + LateWriteFile + "' > /dev/null 2>&1 < /dev/null &"
)

// Scenarios lists every scenario.
var Scenarios = []string{Case, CaseLinger, CaseNoop, CaseReject, Edit, Error400, Error500, EditThenHang, Hang, HangStream, LateWrite, Malformed, Reasoning, Text, ToolError,
	Solve, NoDiffFixture, DisallowedFileFixture, FailedTestsFixture, MissingEventFixture, ReviewerRejectFixture, DirtyEndFixture}

// ProbePrompt is the text of the harness's response-shape probe. The
// scripted failures apply to agent requests; a probe is answered like a
// healthy provider would, except in the reasoning scenario, whose whole
// point is a reply the probe must reject.
const ProbePrompt = "Reply with the single word: ready"

// File is one whole-file edit the edit scenario makes.
type File struct {
	Path string // slash-separated, relative to the workspace
	Old  string // the content before (for patch-style tools)
	New  string // the content after
}

// Request is what the server recorded about one request.
type Request struct {
	Scenario string
	Path     string // after the scenario prefix, e.g. /v1/responses
	Probe    bool
	Header   http.Header
	Body     []byte
}

// Server is a running mock provider.
type Server struct {
	// Files are what the edit scenario writes.
	Files []File
	// MaxHang bounds every stall (default one minute).
	MaxHang time.Duration

	ln       net.Listener
	srv      *http.Server
	done     chan struct{}
	closeOne sync.Once
	mu       sync.Mutex
	reqs     []Request
	seq      atomic.Int64
}

// maxBody bounds a request body: the CLIs send the whole conversation.
const maxBody = 16 << 20

// Start starts a server on 127.0.0.1 with a free port.
func Start(files []File) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{Files: files, MaxHang: time.Minute, ln: ln, done: make(chan struct{})}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// URL is the base URL of scenario: http://127.0.0.1:PORT/s/<scenario>/v1.
func (s *Server) URL(scenario string) string {
	return fmt.Sprintf("http://%s/s/%s/v1", s.ln.Addr(), scenario)
}

// Close ends every stall and stops the server.
func (s *Server) Close() {
	s.closeOne.Do(func() { close(s.done) })
	_ = s.srv.Close()
}

// Requests returns the requests seen so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

func (s *Server) stall(r *http.Request) {
	t := time.NewTimer(s.MaxHang)
	defer t.Stop()
	select {
	case <-r.Context().Done():
	case <-s.done:
	case <-t.C:
	}
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/s/")
	scenario, path, _ := strings.Cut(rest, "/")
	path = "/" + path
	if !ok || r.Method != http.MethodPost {
		http.Error(w, `{"error":{"message":"mock: not found"}}`, http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		http.Error(w, `{"error":{"message":"mock: body too large"}}`, http.StatusRequestEntityTooLarge)
		return
	}
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"message":"mock: body is not JSON"}}`, http.StatusBadRequest)
		return
	}
	probe := bytes.Contains(body, []byte(ProbePrompt))
	s.mu.Lock()
	s.reqs = append(s.reqs, Request{Scenario: scenario, Path: path, Probe: probe, Header: r.Header.Clone(), Body: body})
	s.mu.Unlock()

	var api wireAPI
	switch path {
	case "/v1/responses":
		api = responsesAPI{}
	case "/v1/chat/completions":
		api = chatAPI{}
	default:
		http.Error(w, `{"error":{"message":"mock: unknown endpoint"}}`, http.StatusNotFound)
		return
	}
	stream, _ := req["stream"].(bool)
	model, _ := req["model"].(string)
	t := &turn{w: w, api: api, stream: stream, model: model, id: s.seq.Add(1)}

	if probe && scenario != Reasoning {
		t.reply(reply{text: "ready"})
		return
	}
	followUp := api.hasToolResult(req)
	switch scenario {
	case Error500:
		writeError(w, http.StatusInternalServerError, "mock: internal server error")
	case Error400:
		writeError(w, http.StatusBadRequest, "mock: bad request")
	case Hang:
		s.stall(r)
	case Malformed:
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, "data: {not json at all\n\ndata: ]]]\n\n")
	case HangStream:
		t.begin()
		t.flush()
		s.stall(r)
	case Reasoning:
		t.reply(reply{reasoning: "Thinking about the task, but saying nothing."})
	case Text:
		t.reply(reply{text: "Done: I looked at the task."})
	case Case, CaseNoop, CaseLinger, CaseReject:
		if scenario == CaseLinger && role(body) == "Verifier" {
			s.stall(r)
			return
		}
		t.reply(s.caseReply(scenario, role(body), followUp, api))
	case TimeoutFixture:
		// The CLI waits on its provider until the harness's timeout stops
		// it, however fast it starts.
		s.stall(r)
	case Solve, NoDiffFixture, DisallowedFileFixture, FailedTestsFixture, MissingEventFixture, ReviewerRejectFixture, DirtyEndFixture,
		"missing-test-command", "approval-denied", "dirty-start", "artifact-write-failure", "provider-unavailable":
		t.reply(s.fixtureReply(scenario, body, followUp, api))
	case LateWrite:
		if followUp {
			t.reply(reply{text: "Done: started the command."})
		} else {
			t.reply(reply{calls: api.shellCalls(LateWriteCommand)})
		}
	case Edit, ToolError, EditThenHang:
		switch {
		case followUp && scenario == EditThenHang:
			t.begin()
			t.flush()
			s.stall(r)
		case followUp:
			t.reply(reply{text: "Done: the files are edited."})
		default:
			t.reply(reply{calls: api.editCalls(s.Files, scenario == ToolError)})
		}
	default:
		writeError(w, http.StatusNotFound, "mock: unknown scenario "+scenario)
	}
}

func writeError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	data, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "mock_error", "code": code}})
	w.Write(data)
}

// toolCall is one call the model makes.
type toolCall struct {
	id, name string
	args     string // JSON arguments (function tools)
	input    string // free-form input (custom tools: codex's apply_patch)
	custom   bool
}

type reply struct {
	text, reasoning string
	calls           []toolCall
}

// usage the mock reports for every reply.
const inputTokens, outputTokens = 11, 7

type wireAPI interface {
	hasToolResult(req map[string]any) bool
	editCalls(files []File, broken bool) []toolCall
	shellCalls(cmd string) []toolCall
	begin(t *turn)
	write(t *turn, r reply)
	object(t *turn, r reply) any
}

type turn struct {
	w      http.ResponseWriter
	api    wireAPI
	stream bool
	model  string
	id     int64
	began  bool
}

func (t *turn) begin() {
	if t.began {
		return
	}
	t.began = true
	t.w.Header().Set("Content-Type", "text/event-stream")
	t.w.Header().Set("Cache-Control", "no-cache")
	t.w.WriteHeader(http.StatusOK)
	t.api.begin(t)
}

func (t *turn) flush() {
	if f, ok := t.w.(http.Flusher); ok {
		f.Flush()
	}
}

func (t *turn) reply(r reply) {
	if !t.stream {
		t.w.Header().Set("Content-Type", "application/json")
		data, _ := json.Marshal(t.api.object(t, r))
		t.w.Write(data)
		return
	}
	t.begin()
	t.api.write(t, r)
	t.flush()
}

// event writes one SSE event; name may be empty.
func (t *turn) event(name string, v any) {
	data, _ := json.Marshal(v)
	if name != "" {
		fmt.Fprintf(t.w, "event: %s\n", name)
	}
	fmt.Fprintf(t.w, "data: %s\n\n", data)
}

// CaseFiles reads the edit a harness case's solution overlay makes: every
// regular file under solutionDir, with its content before taken from
// repoDir (empty when the file is new).
func CaseFiles(repoDir, solutionDir string) ([]File, error) {
	var out []File
	err := filepath.WalkDir(solutionDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(solutionDir, p)
		if err != nil {
			return err
		}
		nw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		old, err := os.ReadFile(filepath.Join(repoDir, rel))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		out = append(out, File{Path: filepath.ToSlash(rel), Old: string(old), New: string(nw)})
		return nil
	})
	return out, err
}

// Case's agent roles, as their system prompts begin.
var roles = []string{"Implementer", "Verifier", "Reviewer", "Closer", "Retrospective"}

func role(body []byte) string {
	for _, r := range roles {
		if bytes.Contains(body, []byte("# "+r+" \u2014")) || bytes.Contains(body, []byte("# "+r+" —")) {
			return r
		}
	}
	return ""
}

// AgentResult delimits a Case agent's machine-readable result.
const (
	AgentResultStart = "<<<AGENT_RESULT"
	AgentResultEnd   = "AGENT_RESULT>>>"
)

func agentResult(role string, files []string, tests bool) string {
	if files == nil {
		files = []string{}
	}
	data, _ := json.Marshal(map[string]any{"status": "completed", "summary": "mock " + strings.ToLower(role) + " finished",
		"artifacts": map[string]any{"commit": nil, "filesChanged": files, "testsPassed": tests}, "error": nil})
	return "Finished.\n" + AgentResultStart + "\n" + string(data) + "\n" + AgentResultEnd + "\n"
}

func (s *Server) caseReply(scenario, role string, followUp bool, api wireAPI) reply {
	return caseAgentReply(s.Files, scenario, role, followUp, api, true)
}

// caseAgentReply is a Case agent's reply: the implementer writes files and
// commits them, every agent ends with an AGENT_RESULT claiming the files
// and, when tests, that the tests passed.
func caseAgentReply(files []File, scenario, role string, followUp bool, api wireAPI, tests bool) reply {
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	if role == "Reviewer" && scenario == CaseReject {
		data, _ := json.Marshal(map[string]any{"status": "failed", "summary": "changes requested", "error": "reviewer: the change does not meet the review bar",
			"artifacts": map[string]any{"filesChanged": []string{}, "testsPassed": true}})
		return reply{text: AgentResultStart + "\n" + string(data) + "\n" + AgentResultEnd + "\n"}
	}
	if role != "Implementer" {
		return reply{text: agentResult(role, nil, tests && role != "Retrospective")}
	}
	if scenario == CaseNoop || followUp || len(files) == 0 {
		return reply{text: agentResult(role, paths, tests)}
	}
	calls := api.editCalls(files, false)
	commit := api.shellCalls("git add -A && git -c user.name=mock -c user.email=mock@example.invalid commit -qm 'mock: edit' && git rev-parse HEAD")
	commit[0].id = "call_mock_commit"
	return reply{calls: append(calls, commit...)}
}
