// Package textenc turns UTF-16 and UTF-32 text into UTF-8, so that a
// scanner written for UTF-8 reads a file saved in a wide encoding (as some
// Windows editors and PowerShell do) rather than skip its every other byte.
package textenc

import (
	"bytes"
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
)

// Encoding names a text encoding ToUTF8 recognised.
type Encoding string

const (
	UTF8    Encoding = ""
	UTF16LE Encoding = "UTF-16LE"
	UTF16BE Encoding = "UTF-16BE"
	UTF32LE Encoding = "UTF-32LE"
	UTF32BE Encoding = "UTF-32BE"
)

// Detect names the wide encoding of b: by its byte order mark, else (for
// text without one) by the zero bytes that ASCII characters leave in every
// other (UTF-16) or three of every four (UTF-32) bytes. bomLen is the size
// of the byte order mark. Anything else is UTF8 (or binary: not this
// package's question).
func Detect(b []byte) (enc Encoding, bomLen int) {
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0, 0}):
		return UTF32LE, 4
	case bytes.HasPrefix(b, []byte{0, 0, 0xFE, 0xFF}):
		return UTF32BE, 4
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return UTF16LE, 2
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return UTF16BE, 2
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return UTF8, 0
	}
	return sniff(b[:min(len(b), 4096)]), 0
}

// sniff recognises wide text without a byte order mark: at least 16 code
// units, nearly all of them ASCII (one non-zero byte where the encoding
// puts it, zeros elsewhere).
func sniff(b []byte) Encoding {
	if bytes.IndexByte(b, 0) < 0 {
		// Wide ASCII is mostly zero bytes: text without one is not wide
		// (one vector search, not four passes a unit at a time).
		return UTF8
	}
	check := func(unit, at int) bool {
		n := len(b) / unit
		if n < 16 {
			return false
		}
		ascii := 0
		for i := 0; i < n; i++ {
			u := b[i*unit : (i+1)*unit]
			ok := u[at] != 0
			for j := range u {
				if j != at && u[j] != 0 {
					ok = false
				}
			}
			if ok {
				ascii++
			}
		}
		return ascii*10 >= n*9
	}
	switch {
	case check(4, 0):
		return UTF32LE
	case check(4, 3):
		return UTF32BE
	case check(2, 0):
		return UTF16LE
	case check(2, 1):
		return UTF16BE
	}
	return UTF8
}

// ToUTF8 returns b as UTF-8 and the encoding it was in. UTF-8 input is
// returned as it is; an invalid unit becomes U+FFFD, and a trailing odd
// byte is dropped.
func ToUTF8(b []byte) ([]byte, Encoding) {
	enc, bom := Detect(b)
	if enc == UTF8 {
		return b, UTF8
	}
	b = b[bom:]
	out := make([]byte, 0, len(b))
	switch enc {
	case UTF16LE, UTF16BE:
		var order binary.ByteOrder = binary.LittleEndian
		if enc == UTF16BE {
			order = binary.BigEndian
		}
		units := make([]uint16, 0, len(b)/2)
		for i := 0; i+1 < len(b); i += 2 {
			units = append(units, order.Uint16(b[i:]))
		}
		for _, r := range utf16.Decode(units) {
			out = utf8.AppendRune(out, r)
		}
	case UTF32LE, UTF32BE:
		var order binary.ByteOrder = binary.LittleEndian
		if enc == UTF32BE {
			order = binary.BigEndian
		}
		for i := 0; i+3 < len(b); i += 4 {
			r := rune(order.Uint32(b[i:]))
			if !utf8.ValidRune(r) {
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
		}
	}
	return out, enc
}
