package sotparse

import (
	"bytes"
	"go/token"
	"testing"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// TestRecordValuesAreViews: a record's member values are slices of the
// record's text, which the record keeps, not copies of them (a copy held
// each record's text twice until the rules ran); each is the member's
// value as the decoder read it, from ValuePos to End, however the record
// spaces its members.
func TestRecordValuesAreViews(t *testing.T) {
	for _, src := range []string{
		`{"provider": "p", "model": "m"}`,
		"{\n  \"admission_status\" :\t\"admitted\",\r\n  \"allowed_paths\": [\"a/**\", \"b\"],\n  \"forbidden_paths\":[],\n" +
			"  \"x\": {\"y\": [1, 2, {\"z\": \"\\u0041\\\"\"}]},\"n\":null , \"t\" : true,\"num\": -1.5e3\n}\n",
	} {
		content := []byte(src)
		fset := token.NewFileSet()
		f := &File{Path: "r.json", Tok: fset.AddFile("r.json", -1, len(content)), Content: content}
		r := DecodeRecord(f, func(pos, end token.Pos, msg string) {})
		// The values as a decoder of the text reads them, in order.
		var want []jsontext.Value
		dec := jsontext.NewDecoder(bytes.NewReader(content))
		dec.ReadToken()
		for dec.PeekKind() != '}' {
			dec.ReadToken()
			v, err := dec.ReadValue()
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, v.Clone())
		}
		if len(r.Members) != len(want) {
			t.Fatalf("%q: %d members, want %d", src, len(r.Members), len(want))
		}
		start, end := uintptr(unsafe.Pointer(unsafe.SliceData(content))), uintptr(unsafe.Pointer(unsafe.SliceData(content)))+uintptr(len(content))
		for i, m := range r.Members {
			if !bytes.Equal(m.Value, want[i]) {
				t.Errorf("%q: member %s is %q, want %q", src, m.Name, m.Value, want[i])
			}
			if p := uintptr(unsafe.Pointer(unsafe.SliceData(m.Value))); p < start || p+uintptr(len(m.Value)) > end {
				t.Errorf("%q: member %s's value is a copy, not a slice of the record's text", src, m.Name)
			}
			from, to := f.Tok.Offset(m.ValuePos), f.Tok.Offset(m.End)
			if got := content[from:to]; !bytes.Equal(got, m.Value) {
				t.Errorf("%q: member %s: the text from ValuePos to End is %q, its value %q", src, m.Name, got, m.Value)
			}
			if cap(m.Value) != len(m.Value) {
				t.Errorf("%q: member %s's value has room past its end: an append would write over the record's text", src, m.Name)
			}
		}
	}
}
