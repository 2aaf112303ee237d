// Package jsonstream writes a value as json.MarshalIndent(v, "", "  ")
// would, byte for byte, without holding the whole encoding: structs,
// pointers and slices are written part by part, and only their leaves
// (strings, numbers, maps, values with their own marshalling) are encoded
// whole. A summary of 50,000 findings is 86 MB of JSON; MarshalIndent
// held it, and the buffer it grew to, at once.
package jsonstream

import (
	"bufio"
	"encoding"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"sync"
	"unicode"
)

const indent = "  "

// WriteIndent writes v to w as json.MarshalIndent(v, "", "  ") followed by
// a newline.
func WriteIndent(w io.Writer, v any) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	e := &encoder{w: bw}
	e.value(reflect.ValueOf(v), "")
	if e.err == nil {
		e.write("\n")
	}
	if e.err != nil {
		return e.err
	}
	return bw.Flush()
}

type encoder struct {
	w   *bufio.Writer
	err error
}

func (e *encoder) write(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

// whole writes v encoded by encoding/json, its lines after the first
// indented by prefix.
func (e *encoder) whole(v reflect.Value, prefix string) {
	if e.err != nil {
		return
	}
	var x any
	if v.IsValid() {
		x = v.Interface()
		if v.CanAddr() {
			// Encoded as encoding/json encodes an addressable value: with
			// the methods of its pointer, and those of its fields.
			x = v.Addr().Interface()
		}
	}
	b, err := json.MarshalIndent(x, prefix, indent)
	if err != nil {
		e.err = err
		return
	}
	_, e.err = e.w.Write(b)
}

var (
	marshaler     = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// custom reports whether encoding/json encodes t by a method of its own
// (of t, or of *t, which it uses when the value is addressable).
func custom(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(marshaler) || t.Implements(textMarshaler) || pt.Implements(marshaler) || pt.Implements(textMarshaler)
}

// typeInfo is what value reads of a type, worked out once per type: a
// summary's every finding is a value of the same few types.
type typeInfo struct {
	custom   bool
	fields   []field // of a struct, when fieldsOK
	fieldsOK bool
}

var typeInfos sync.Map // reflect.Type -> *typeInfo

func infoOf(t reflect.Type) *typeInfo {
	if ti, ok := typeInfos.Load(t); ok {
		return ti.(*typeInfo)
	}
	ti := &typeInfo{custom: custom(t)}
	if t.Kind() == reflect.Struct {
		ti.fields, ti.fieldsOK = fieldsOf(t)
	}
	v, _ := typeInfos.LoadOrStore(t, ti)
	return v.(*typeInfo)
}

func (e *encoder) value(v reflect.Value, prefix string) {
	if e.err != nil {
		return
	}
	if !v.IsValid() {
		e.whole(v, prefix)
		return
	}
	ti := infoOf(v.Type())
	if ti.custom {
		e.whole(v, prefix)
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			e.write("null")
			return
		}
		e.value(v.Elem(), prefix)
	case reflect.Slice:
		if v.IsNil() {
			e.write("null")
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			e.whole(v, prefix) // base64
			return
		}
		e.list(v, prefix)
	case reflect.Array:
		e.list(v, prefix)
	case reflect.Struct:
		if !ti.fieldsOK {
			e.whole(v, prefix)
			return
		}
		e.object(v, ti.fields, prefix)
	default:
		e.whole(v, prefix)
	}
}

func (e *encoder) list(v reflect.Value, prefix string) {
	if v.Len() == 0 {
		e.write("[]")
		return
	}
	inner := prefix + indent
	e.write("[\n")
	for i := range v.Len() {
		if i > 0 {
			e.write(",\n")
		}
		e.write(inner)
		e.value(v.Index(i), inner)
	}
	e.write("\n" + prefix + "]")
}

func (e *encoder) object(v reflect.Value, fields []field, prefix string) {
	inner := prefix + indent
	n := 0
	for _, f := range fields {
		fv := v.Field(f.index)
		if f.omitEmpty && empty(fv) {
			continue
		}
		if n == 0 {
			e.write("{\n")
		} else {
			e.write(",\n")
		}
		n++
		e.write(inner + f.key + ": ")
		e.value(fv, inner)
	}
	if n == 0 {
		e.write("{}")
		return
	}
	e.write("\n" + prefix + "}")
}

// field is a struct field as encoding/json writes it.
type field struct {
	index     int
	key       string // the name, encoded
	omitEmpty bool
}

// fieldsOf returns the fields of t encoding/json writes, in order, or false
// when t has one whose handling this package does not repeat (an embedded
// field, a ",string" option): such a struct is encoded whole.
func fieldsOf(t reflect.Type) ([]field, bool) {
	var out []field
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			return nil, false
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !validName(name) {
			name = ""
		}
		if name == "" {
			name = sf.Name
		}
		f := field{index: i}
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty":
				f.omitEmpty = true
			case "string", "omitzero":
				return nil, false
			}
		}
		k, err := json.Marshal(name)
		if err != nil {
			return nil, false
		}
		f.key = string(k)
		out = append(out, f)
	}
	return out, true
}

// validName is encoding/json's test of a tag's name: one it rejects is
// replaced by the field's name.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case unicode.IsLetter(c), unicode.IsDigit(c):
		default:
			return false
		}
	}
	return true
}

// empty is encoding/json's omitempty test.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
