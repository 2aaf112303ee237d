package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonWriter writes indented JSON as encoding/json's Encoder with
// SetEscapeHTML(false) and SetIndent("", "  ") writes it, byte for byte,
// but a value at a time: a report of many findings is streamed, not built
// as one tree of values and then encoded.
type jsonWriter struct {
	w     *bufio.Writer
	b     []byte
	count []int // elements written so far in each open object or array
}

func newJSONWriter(w *bufio.Writer) *jsonWriter { return &jsonWriter{w: w} }

// flush hands what is buffered to the underlying writer.
func (j *jsonWriter) flush() {
	j.w.Write(j.b)
	j.b = j.b[:0]
}

func (j *jsonWriter) newline() {
	j.b = append(j.b, indent(len(j.count))...)
}

// indent returns a newline and the indentation of depth d.
func indent(d int) string {
	if 1+2*d <= len(newlineSpaces) {
		return newlineSpaces[:1+2*d]
	}
	return "\n" + strings.Repeat("  ", d)
}

const newlineSpaces = "\n                                                                " // 32 levels

// appendJSONInt appends sep, key and n: a member whose value is an int.
func appendJSONInt(b []byte, sep, key string, n int) []byte {
	b = append(b, sep...)
	b = append(b, key...)
	return strconv.AppendInt(b, int64(n), 10)
}

// next starts an element of the innermost object or array.
func (j *jsonWriter) next() {
	if n := len(j.count); n > 0 {
		if j.count[n-1] > 0 {
			j.b = append(j.b, ',')
		}
		j.count[n-1]++
		j.newline()
	}
}

// open starts an object ('{') or array ('['): the element of an array, or
// the value of a key already written.
func (j *jsonWriter) open(c byte) {
	j.b = append(j.b, c)
	j.count = append(j.count, 0)
}

// close ends the innermost object or array.
func (j *jsonWriter) close(c byte) {
	n := j.count[len(j.count)-1]
	j.count = j.count[:len(j.count)-1]
	if n > 0 {
		j.newline()
	}
	j.b = append(j.b, c)
	if len(j.b) > 32<<10 {
		j.flush()
	}
}

// key starts a member of the innermost object.
func (j *jsonWriter) key(k string) {
	j.next()
	j.b = appendJSONString(j.b, k)
	j.b = append(j.b, ':', ' ')
}

// elem starts an element of the innermost array.
func (j *jsonWriter) elem() { j.next() }

func (j *jsonWriter) str(s string) { j.b = appendJSONString(j.b, s) }
func (j *jsonWriter) int(n int)    { j.b = strconv.AppendInt(j.b, int64(n), 10) }
func (j *jsonWriter) bool(v bool)  { j.b = strconv.AppendBool(j.b, v) }

// value writes v through encoding/json, indented to the current depth:
// for the few, small parts of a report (rule metadata) that are not worth
// writing by hand.
func (j *jsonWriter) value(v any) error {
	var compact bytes.Buffer
	enc := json.NewEncoder(&compact)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	var out bytes.Buffer
	prefix := make([]byte, 2*len(j.count))
	for i := range prefix {
		prefix[i] = ' '
	}
	if err := json.Indent(&out, bytes.TrimSuffix(compact.Bytes(), []byte("\n")), string(prefix), "  "); err != nil {
		return err
	}
	j.b = append(j.b, out.Bytes()...)
	return nil
}

// jsonSafe marks the bytes appendJSONString copies as they are: ASCII but
// controls, quotes and backslashes.
var jsonSafe = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONString appends s quoted as encoding/json quotes a string when
// HTML escaping is off: invalid UTF-8 becomes U+FFFD, and U+2028 and U+2029
// are escaped.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	i := 0
	for i < len(s) && jsonSafe[s[i]] {
		i++
	}
	if i == len(s) {
		dst = append(dst, s...)
		return append(dst, '"')
	}
	start := 0
	for i < len(s) {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
