package jsonstream

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

type ptrMarshal struct{ N int }

func (p *ptrMarshal) MarshalJSON() ([]byte, error) { return []byte(`{"ptr":true}`), nil }

type valMarshal struct{ N int }

func (v valMarshal) MarshalText() ([]byte, error) { return []byte("text"), nil }

type Inner struct {
	A string `json:"a"`
	B []int  `json:"b,omitempty"`
}

type withEmbedded struct {
	Inner
	C int `json:"c"`
}

type all struct {
	Name      string           `json:"name"`
	Skipped   string           `json:"-"`
	Dash      string           `json:"-,"`
	Omit      string           `json:"omit,omitempty"`
	OmitPtr   *Inner           `json:"omit_ptr,omitempty"`
	NilPtr    *Inner           `json:"nil_ptr"`
	Ptr       *Inner           `json:"ptr"`
	NilSlice  []Inner          `json:"nil_slice"`
	Empty     []Inner          `json:"empty"`
	Items     []Inner          `json:"items"`
	Ptrs      []*Inner         `json:"ptrs"`
	Bytes     []byte           `json:"bytes"`
	Map       map[string]int   `json:"map"`
	NestedMap map[string]Inner `json:"nested_map"`
	Any       any              `json:"any"`
	When      time.Time        `json:"when"`
	PM        ptrMarshal       `json:"pm"`
	PMs       []ptrMarshal     `json:"pms"`
	VM        valMarshal       `json:"vm"`
	HTML      string           `json:"html"`
	Bad       int              `json:"bad\"name"`
	Untagged  float64
	Str       int          `json:"str,string"`
	Emb       withEmbedded `json:"emb"`
	Array     [2]Inner     `json:"array"`
	EmptyObj  struct{}     `json:"empty_obj"`
	OnlyOmit  struct {
		X int `json:",omitempty"`
	} `json:"only_omit"`
	unexported int
}

func TestWriteIndentMatchesMarshalIndent(t *testing.T) {
	v := &all{
		Name: "n", Skipped: "s", Dash: "d", Ptr: &Inner{A: "x", B: []int{1, 2}},
		Empty: []Inner{}, Items: []Inner{{A: "a"}, {A: "b", B: []int{3}}},
		Ptrs: []*Inner{nil, {A: "p"}}, Bytes: []byte("hi"), Map: map[string]int{"z": 1, "a": 2},
		NestedMap: map[string]Inner{"k": {A: "v"}}, Any: []any{1, "two", map[string]any{"x": nil}},
		When: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), PMs: []ptrMarshal{{1}},
		HTML: "<a href=\"x\">&</a>\u2028", Bad: 1, Untagged: 1.5, Str: 7,
		Emb: withEmbedded{Inner: Inner{A: "e"}, C: 2}, unexported: 3,
	}
	for _, x := range []any{v, *v, []any{v, nil}, nil, "s", 3, &Inner{}, []Inner(nil)} {
		want, err := json.MarshalIndent(x, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := WriteIndent(&got, x); err != nil {
			t.Fatal(err)
		}
		if got.String() != string(want)+"\n" {
			t.Errorf("%T:\n got %s\nwant %s", x, got.String(), want)
		}
	}
}

type failing struct{}

func (failing) MarshalJSON() ([]byte, error) { return nil, errBoom }

var errBoom = &json.UnsupportedValueError{Str: "boom"}

func TestWriteIndentError(t *testing.T) {
	var got bytes.Buffer
	err := WriteIndent(&got, []any{1, failing{}})
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("err = %v, want the marshaller's", err)
	}
}

// BenchmarkWriteIndentList writes a list of many values of one struct
// type, as summary --json writes its findings.
func BenchmarkWriteIndentList(b *testing.B) {
	items := make([]Inner, 10000)
	for i := range items {
		items[i] = Inner{A: "finding", B: []int{i}}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteIndent(io.Discard, items); err != nil {
			b.Fatal(err)
		}
	}
}
