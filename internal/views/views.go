// Package views walks a value for the strings and byte slices it holds, so
// that a test can tell which of them are views of a text the value should
// not keep alive.
package views

import (
	"fmt"
	"reflect"
	"unsafe"
)

// Each calls fn with every string and byte slice reachable from v (map
// keys and unexported fields included; a byte slice as a string sharing
// its memory), with the path that reaches it. It does not go through a
// pointer whose type skip reports, nor twice through one pointer.
func Each(v any, skip func(reflect.Type) bool, fn func(path, s string)) {
	seen := map[unsafe.Pointer]bool{}
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.String:
			fn(path, v.String())
		case reflect.Pointer:
			if v.IsNil() || skip != nil && skip(v.Type()) || seen[v.UnsafePointer()] {
				return
			}
			seen[v.UnsafePointer()] = true
			walk(v.Elem(), path)
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), path)
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		case reflect.Slice:
			if v.Type().Elem().Kind() == reflect.Uint8 {
				if v.Len() > 0 {
					fn(path, unsafe.String((*byte)(v.UnsafePointer()), v.Len()))
				}
				return
			}
			for i := range v.Len() {
				walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
		case reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
		case reflect.Map:
			it := v.MapRange()
			for it.Next() {
				walk(it.Key(), path+"{key}")
				walk(it.Value(), path+"{"+fmt.Sprint(it.Key())+"}")
			}
		}
	}
	walk(reflect.ValueOf(v), "")
}

// Within reports whether s is a view of text: its first byte lies inside
// text's memory.
func Within(s string, text []byte) bool {
	if s == "" || len(text) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(text)))
	return p >= lo && p < lo+uintptr(len(text))
}
