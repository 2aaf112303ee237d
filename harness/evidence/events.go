package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"
)

// GenesisHash is the prev value of the first event.
const GenesisHash = "0000000000000000000000000000000000000000000000000000000000000000"

// Event is one line of events.normalized.jsonl. Prev is the SHA-256 of
// the previous line's bytes (without its newline), so that any edit,
// insertion, deletion or reordering breaks the chain.
type Event struct {
	Seq    int            `json:"seq"`
	Type   string         `json:"type"`
	Time   string         `json:"time"`
	Source string         `json:"source"` // harness or backend
	Data   map[string]any `json:"data"`
	Prev   string         `json:"prev"`
}

// Chain builds the normalized event stream.
type Chain struct {
	lines [][]byte
	types []string
	data  []map[string]any
	head  string
}

// Add appends an event.
func (c *Chain) Add(t time.Time, typ, source string, data map[string]any) error {
	if data == nil {
		data = map[string]any{}
	}
	prev := GenesisHash
	if c.head != "" {
		prev = c.head
	}
	ev := Event{Seq: len(c.lines) + 1, Type: typ, Time: FormatTime(t), Source: source, Data: data, Prev: prev}
	line, err := MarshalLine(ev)
	if err != nil {
		return fmt.Errorf("event %s: %w", typ, err)
	}
	c.lines = append(c.lines, line)
	c.types = append(c.types, typ)
	c.data = append(c.data, data)
	c.head = LineHash(line)
	return nil
}

// Types returns the event types in order.
func (c *Chain) Types() []string { return append([]string{}, c.types...) }

// Has reports whether an event of type typ was added.
func (c *Chain) Has(typ string) bool {
	for _, t := range c.types {
		if t == typ {
			return true
		}
	}
	return false
}

// Head returns the hash of the last line.
func (c *Chain) Head() string { return c.head }

// Len returns the number of events.
func (c *Chain) Len() int { return len(c.lines) }

// Bytes returns the JSONL file content.
func (c *Chain) Bytes() []byte {
	var b bytes.Buffer
	for _, l := range c.lines {
		b.Write(l)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// LineHash is the hex SHA-256 of one line.
func LineHash(line []byte) string {
	s := sha256.Sum256(line)
	return hex.EncodeToString(s[:])
}

// Digest is the hex SHA-256 of data.
func Digest(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// TimeFormat is the one timestamp format of the evidence: UTC, with
// nanoseconds, fixed width so that strings sort as times.
const TimeFormat = "2006-01-02T15:04:05.000000000Z"

// FormatTime formats t in TimeFormat.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeFormat) }

// ParseTime parses a TimeFormat timestamp.
func ParseTime(s string) (time.Time, error) { return time.Parse(TimeFormat, s) }

// TraceEntry is one line of trace.jsonl: a harness action or check.
type TraceEntry struct {
	Seq    int            `json:"seq"`
	Time   string         `json:"time"`
	Action string         `json:"action"`
	Detail map[string]any `json:"detail"`
}

// Trace collects trace.jsonl.
type Trace struct {
	buf bytes.Buffer
	n   int
	err error
}

// Add appends an entry.
func (t *Trace) Add(at time.Time, action string, detail map[string]any) {
	if detail == nil {
		detail = map[string]any{}
	}
	t.n++
	line, err := MarshalLine(TraceEntry{Seq: t.n, Time: FormatTime(at), Action: action, Detail: detail})
	if err != nil {
		if t.err == nil {
			t.err = err
		}
		return
	}
	t.buf.Write(line)
	t.buf.WriteByte('\n')
}

// Bytes returns trace.jsonl's content.
func (t *Trace) Bytes() ([]byte, error) { return t.buf.Bytes(), t.err }
