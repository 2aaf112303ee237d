package main

import (
	"bytes"
	"io"
	"sync"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/secrets"
)

// redactedLines is sotvet's standard error (run): each line passes through
// the secrets redactor before it is written, so that an error that quotes
// the workspace (a configuration value, a check's name that is a token, a
// baseline's field) shows no credential the engine recognises. Findings
// are redacted where they are made; this is for everything else.
type redactedLines struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
	red func([]byte) []byte
}

func redactLines(w io.Writer) *redactedLines { return &redactedLines{w: w} }

func (r *redactedLines) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, p...)
	if i := bytes.LastIndexByte(r.buf, '\n'); i >= 0 {
		err := r.emit(r.buf[:i+1])
		r.buf = append(r.buf[:0], r.buf[i+1:]...)
		if err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// redactWith has w, when it is sotvet's standard error, redact with red, a
// scanner the command built already (scan's), rather than build another:
// a scanner's tables are ~8 MB.
func redactWith(w io.Writer, red func([]byte) []byte) {
	if r, ok := w.(*redactedLines); ok {
		r.mu.Lock()
		r.red = red
		r.mu.Unlock()
	}
}

// Flush writes what is left of a line.
func (r *redactedLines) Flush() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.buf) == 0 {
		return nil
	}
	err := r.emit(r.buf)
	r.buf = r.buf[:0]
	return err
}

func (r *redactedLines) emit(b []byte) error {
	if r.red == nil {
		r.red = stderrRedactor()
	}
	_, err := r.w.Write(r.red(b))
	return err
}

// stderrRedactor is the secrets check's redactor, or the engine's defaults
// where its configuration is what failed; failing both, a line is held
// back rather than printed unread.
func stderrRedactor() func([]byte) []byte {
	if red, err := checks.Redactor(); err == nil {
		return red
	}
	if sc, err := secrets.NewScanner(secrets.DefaultConfig()); err == nil {
		return sc.Redact
	}
	return func([]byte) []byte {
		return []byte("sotvet: (a line not shown: the secrets redactor could not be built)\n")
	}
}
