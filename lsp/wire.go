package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"

	"go.lsp.dev/jsonrpc2"
)

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
	// An answer with id null (to a frame that could not be read) answers
	// no call the server counted.
	return json.Unmarshal(body, &m) == nil && m.Method == nil && len(m.ID) > 0 && string(m.ID) != "null"
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
