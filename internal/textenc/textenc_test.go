package textenc

import (
	"encoding/binary"
	"testing"
	"unicode/utf16"
)

func encode(s string, enc Encoding, bom bool) []byte {
	var out []byte
	switch enc {
	case UTF16LE, UTF16BE:
		var o binary.AppendByteOrder = binary.LittleEndian
		if enc == UTF16BE {
			o = binary.BigEndian
		}
		units := utf16.Encode([]rune(s))
		if bom {
			units = append([]uint16{0xFEFF}, units...)
		}
		for _, u := range units {
			out = o.AppendUint16(out, u)
		}
	case UTF32LE, UTF32BE:
		var o binary.AppendByteOrder = binary.LittleEndian
		if enc == UTF32BE {
			o = binary.BigEndian
		}
		rs := []rune(s)
		if bom {
			rs = append([]rune{0xFEFF}, rs...)
		}
		for _, r := range rs {
			out = o.AppendUint32(out, uint32(r))
		}
	}
	return out
}

func TestToUTF8(t *testing.T) {
	const text = "token = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"\nnaïve — ok 😀\n"
	for _, enc := range []Encoding{UTF16LE, UTF16BE, UTF32LE, UTF32BE} {
		for _, bom := range []bool{true, false} {
			got, e := ToUTF8(encode(text, enc, bom))
			if e != enc || string(got) != text {
				t.Errorf("%s bom=%v: got %q as %q", enc, bom, got, e)
			}
		}
	}
	plain := []byte("plain ascii text that is long enough to sniff")
	if got, e := ToUTF8(plain); e != UTF8 || string(got) != string(plain) {
		t.Errorf("UTF-8 input changed: %q %q", got, e)
	}
	// Binary data with scattered zeros is not taken for wide text.
	bin := []byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0x3e, 0, 1, 0, 0, 0, 0x40, 0x10, 0x40, 0, 0, 0, 0, 0, 0x40, 0, 0, 0}
	if _, e := ToUTF8(bin); e != UTF8 {
		t.Errorf("binary taken for %s", e)
	}
}
