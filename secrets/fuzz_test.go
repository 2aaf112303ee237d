package secrets

import (
	"bytes"
	"testing"
)

func FuzzScan(f *testing.F) {
	for _, sm := range corpusSamples() {
		f.Add([]byte(sm.text))
	}
	f.Add([]byte("pw: https://u:" + "abcd@h and abcd again; token=" + "abcd1234ABCD5678 ab**cd"))
	f.Add([]byte("# sotvet:allow-secret --\nFOO_BASE_URL=http://[::1]:80\nFOO_ENDPOINT=a:1"))
	f.Add([]byte("<a data-x=\"{&quot;api_key&quot;:&quot;" + "Q7x2Lm9Rt4Vb8Nc3Kd6Fh1Jp5Ws0Yz2A" + "&#x22;} &#34;&amp;&#;&#x;&lt\">"))
	s, err := NewScanner(DefaultConfig())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fs := s.Scan("fuzz.md", data)
		prevEnd := 0
		for _, fd := range fs {
			if fd.Start < prevEnd || fd.Start >= fd.End || fd.End > len(data) {
				t.Fatalf("bad span [%d,%d) after %d in %d bytes", fd.Start, fd.End, prevEnd, len(data))
			}
			prevEnd = fd.End
			line := 1 + bytes.Count(data[:fd.Start], []byte("\n"))
			col := fd.Start - (bytes.LastIndexByte(data[:fd.Start], '\n') + 1) + 1
			endLine := 1 + bytes.Count(data[:fd.End], []byte("\n"))
			endCol := fd.End - (bytes.LastIndexByte(data[:fd.End], '\n') + 1) + 1
			if fd.Line != line || fd.Col != col || fd.EndLine != endLine || fd.EndCol != endCol {
				t.Fatalf("position %d:%d-%d:%d, want %d:%d-%d:%d", fd.Line, fd.Col, fd.EndLine, fd.EndCol, line, col, endLine, endCol)
			}
			sec := string(data[fd.Start:fd.End])
			if fd.Redacted != ruleOf(s, fd.RuleID).Mask(sec) || fd.Fingerprint != Fingerprint(fd.RuleID, sec) {
				t.Fatalf("redacted form or fingerprint does not match the span")
			}
		}
		red := s.Redact(data)
		for _, fd := range fs {
			if bytes.Contains(red, data[fd.Start:fd.End]) {
				t.Fatalf("Redact output holds the %s secret at [%d,%d)", fd.RuleID, fd.Start, fd.End)
			}
		}
	})
}
