package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"go.lsp.dev/jsonrpc2"
)

// Limits of the frames the server reads. A frame over maxFrame is skipped
// unread (its body is discarded as it streams by), so no client can make
// the server hold more than that at once; a document is capped at
// maxDocument bytes, and its JSON encoding may be a few times larger.
const (
	maxFrame       = 4 * maxDocument
	maxHeaderLine  = 4 << 10
	maxHeaderLines = 16
)

// frameStream is the server's wire: LSP header framing, as jsonrpc2's own
// stream, but a malformed frame (a bad or missing Content-Length, an
// oversized body, a body that is not JSON or not a JSON-RPC message) is
// answered with a JSON-RPC error (id null) and skipped, where jsonrpc2
// would end the connection. It implements jsonrpc2.Stream and the frame
// methods jsonrpc2 looks for.
type frameStream struct {
	in   *bufio.Reader
	out  jsonrpc2.Stream // jsonrpc2's header stream over the same connection: writes only
	max  int
	body []byte
	// resynced: the stream stands after a "Content-Length:" that resync
	// found; the rest of its line is the value.
	resynced bool
	badFn    func(msg string) // told of every frame skipped (the log)
}

// frameWriter is the frame-level write jsonrpc2's header stream has.
type frameWriter interface {
	WriteFrame(ctx context.Context, data []byte) (int64, error)
}

func newFrameStream(rw io.ReadWriteCloser, max int) *frameStream {
	return &frameStream{in: bufio.NewReaderSize(rw, maxHeaderLine+16), out: jsonrpc2.NewHeaderStream(rw), max: max}
}

// frameError is a frame that was read past and must be answered.
type frameError struct {
	code jsonrpc2.Code
	id   json.RawMessage // the request's id when it could be read, else null
	msg  string
	// resync: the frame's extent is unknown; the stream must be searched
	// for the next header.
	resync bool
}

func (e *frameError) Error() string { return e.msg }

// Read implements jsonrpc2.Stream.
func (s *frameStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	body, n, err := s.ReadFrame(ctx)
	if err != nil {
		return nil, 0, err
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	return msg, n, err
}

// ReadFrame returns the next well-formed message's body; every malformed
// frame before it is answered and skipped. Only the end of the stream (or
// a read error) is returned as an error.
func (s *frameStream) ReadFrame(ctx context.Context) ([]byte, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, n, err := s.next()
		var fe *frameError
		if errors.As(err, &fe) {
			// Answered at once: a client may wait for it before sending more.
			s.answer(ctx, fe)
			if fe.resync {
				if err := s.resync(); err != nil {
					return nil, 0, err
				}
			}
			continue
		}
		return body, n, err
	}
}

// next reads one frame.
func (s *frameStream) next() ([]byte, int64, error) {
	length, hdr, err := s.header()
	if err != nil {
		return nil, 0, err
	}
	if length > int64(s.max) {
		// Skipped as it streams by: never held in memory.
		if _, err := io.CopyN(io.Discard, s.in, length); err != nil {
			return nil, 0, unexpected(err)
		}
		return nil, 0, &frameError{code: jsonrpc2.InvalidRequest, msg: fmt.Sprintf("message of %d bytes is over the server's %d-byte limit; skipped", length, s.max)}
	}
	n := int(length)
	if cap(s.body) < n || cap(s.body) > 1<<20 && n < cap(s.body)/4 {
		// A large buffer is not kept for the small frames after it.
		s.body = make([]byte, n)
	}
	body := s.body[:n]
	if _, err := io.ReadFull(s.in, body); err != nil {
		return nil, 0, unexpected(err)
	}
	if err := validate(body); err != nil {
		return nil, 0, err
	}
	return body, int64(hdr) + length, nil
}

// validate checks that body is one message jsonrpc2 can decode: jsonrpc2's
// reader ends the connection on a decode error.
func validate(body []byte) error {
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) > 0 && t[0] == '[' {
		if !json.Valid(body) {
			return &frameError{code: jsonrpc2.ParseError, msg: "message body is not valid JSON"}
		}
		return &frameError{code: jsonrpc2.InvalidRequest, msg: "batch messages are not part of LSP"}
	}
	if _, err := jsonrpc2.DecodeMessage(body); err != nil {
		if !json.Valid(body) {
			return &frameError{code: jsonrpc2.ParseError, msg: "message body is not valid JSON"}
		}
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(body, &m)
		if !validID(m.ID) {
			m.ID = nil
		}
		return &frameError{code: jsonrpc2.InvalidRequest, id: m.ID, msg: "message is not a JSON-RPC 2.0 request, notification or response"}
	}
	return nil
}

// validID reports whether id is a JSON-RPC id: a number or a string.
func validID(id json.RawMessage) bool {
	var n json.Number
	var str string
	return len(id) > 0 && (json.Unmarshal(id, &n) == nil || json.Unmarshal(id, &str) == nil)
}

// header reads one header block and returns its Content-Length and the
// bytes it took. A malformed block is a *frameError, after which the
// stream must be searched for the next header (resync).
func (s *frameStream) header() (length int64, consumed int, err error) {
	have := false
	for lines := 0; ; lines++ {
		line, err := s.in.ReadSlice('\n')
		consumed += len(line)
		switch {
		case err == io.EOF && consumed == 0 && !s.resynced:
			return 0, 0, io.EOF
		case err == bufio.ErrBufferFull || lines >= maxHeaderLines:
			return 0, 0, damaged("header line too long or too many header lines")
		case err != nil:
			return 0, 0, unexpected(err)
		}
		line = bytes.TrimRight(line, "\r\n")
		var name, value []byte
		if s.resynced {
			// The name was read by resync.
			s.resynced = false
			name, value = []byte("content-length"), line
		} else {
			if len(line) == 0 {
				if !have {
					return 0, 0, damaged("header has no Content-Length")
				}
				return length, consumed, nil
			}
			var ok bool
			if name, value, ok = bytes.Cut(line, []byte(":")); !ok {
				return 0, 0, damaged(fmt.Sprintf("header line %q has no colon", clip(line)))
			}
		}
		if !bytes.EqualFold(bytes.TrimSpace(name), []byte("content-length")) {
			continue
		}
		n, perr := strconv.ParseInt(string(bytes.TrimSpace(value)), 10, 64)
		if perr != nil || n <= 0 {
			return 0, 0, damaged(fmt.Sprintf("bad Content-Length %q", clip(bytes.TrimSpace(value))))
		}
		length, have = n, true
	}
}

// damaged is a malformed header: answered, then read past by resync.
func damaged(why string) error {
	return &frameError{code: jsonrpc2.ParseError, msg: "malformed message header: " + why, resync: true}
}

// resync advances past a damaged header to just after the next
// "Content-Length:" (matched without regard to case).
func (s *frameStream) resync() error {
	const key = "content-length:"
	for matched := 0; matched < len(key); {
		c, err := s.in.ReadByte()
		if err != nil {
			// The stream ended inside the damage: nothing is left to answer.
			return unexpected(err)
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		switch {
		case c == key[matched]:
			matched++
		case c == key[0]:
			matched = 1
		default:
			matched = 0
		}
	}
	s.resynced = true
	return nil
}

func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

// unexpected turns an end of stream inside a frame into io.ErrUnexpectedEOF.
func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// answer writes the error response for a skipped frame.
func (s *frameStream) answer(ctx context.Context, fe *frameError) {
	if s.badFn != nil {
		s.badFn(fe.msg)
	}
	id := fe.id
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc2.Error `json:"error"`
	}{"2.0", id, jsonrpc2.NewError(fe.code, fe.msg)})
	if w, ok := s.out.(frameWriter); ok {
		_, _ = w.WriteFrame(ctx, b)
	}
}

// Write implements jsonrpc2.Stream.
func (s *frameStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	return s.out.Write(ctx, msg)
}

// WriteFrame writes an encoded body as one frame.
func (s *frameStream) WriteFrame(ctx context.Context, data []byte) (int64, error) {
	if w, ok := s.out.(frameWriter); ok {
		return w.WriteFrame(ctx, data)
	}
	return 0, errors.New("jsonrpc2 stream cannot write frames")
}

// Close implements jsonrpc2.Stream.
func (s *frameStream) Close() error { return s.out.Close() }
