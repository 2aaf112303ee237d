package views

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

type kept struct {
	name  string
	ids   []string
	by    map[string]int
	raw   []byte
	inner *kept
	skip  *skipped
	any   any
}

type skipped struct{ text string }

// TestEach finds the views of a text wherever a value holds them (fields,
// slices, map keys, byte slices, pointers, interfaces), not through a
// skipped type, and not a copy.
func TestEach(t *testing.T) {
	text := []byte("alpha beta gamma delta")
	view := func(i, j int) string { return unsafe.String(&text[i], j-i) }
	v := &kept{
		name:  strings.Clone("alpha"), // a copy
		ids:   []string{view(6, 10)},
		by:    map[string]int{view(11, 16): 1},
		raw:   text[17:],
		inner: &kept{name: view(0, 5)},
		skip:  &skipped{text: view(0, 5)},
		any:   view(6, 10),
	}
	v.inner.inner = v // a cycle
	var got []string
	Each(v, func(t reflect.Type) bool { return t == reflect.TypeFor[*skipped]() }, func(path, s string) {
		if Within(s, text) {
			got = append(got, path+"="+s)
		}
	})
	want := []string{".ids[0]=beta", ".by{key}=gamma", ".raw=delta", ".inner.name=alpha", ".any=beta"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("views = %q, want %q", got, want)
	}
	if Within("", text) || Within("alpha", text) {
		t.Fatal("an empty string or a copy is not a view")
	}
}
