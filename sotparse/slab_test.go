package sotparse

import (
	"bytes"
	"testing"
	"unsafe"
)

// TestModelSlabs: strings cut from the text blocks keep their bytes
// whatever is cut after them, at every length (past a block's first size
// and past what goes to a block at all), and objects come zeroed and
// distinct, past a block's length.
func TestModelSlabs(t *testing.T) {
	var m modelSlabs
	var want []string
	var got []string
	for n := range 3000 {
		l := n % 700
		if n%97 == 0 {
			l = textMax/8 + n // not cut from a block
		}
		b := bytes.Repeat([]byte{byte('a' + n%26)}, l)
		got = append(got, m.str(b))
		want = append(want, string(b))
		if l > 0 {
			b[0] = '!' // the copy is the model's own
		}
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("string %d: %d bytes %.10q, want %d bytes %.10q", i, len(got[i]), got[i], len(want[i]), want[i])
		}
	}
	seen := map[*Heading]bool{}
	for i := range 3 * slabMax {
		h := m.heading()
		if *h != (Heading{}) || seen[h] {
			t.Fatalf("heading %d: %+v, seen before: %v", i, *h, seen[h])
		}
		seen[h] = true
		h.Text = "x"
	}
	var nilSlabs *modelSlabs
	if nilSlabs.str([]byte("abc")) != "abc" || nilSlabs.heading() == nil || nilSlabs.frontmatter() == nil {
		t.Fatal("a nil *modelSlabs does not allocate on its own")
	}
}

// TestModelSlabsIntern: the same text up to internMax bytes is one string,
// a copy of the caller's bytes; longer text and a nil *modelSlabs copy.
func TestModelSlabsIntern(t *testing.T) {
	var m modelSlabs
	id := []byte("CTO-WORK-009")
	a := m.intern(id)
	id[0] = '!' // the string is the model's own
	b := m.intern([]byte("CTO-WORK-009"))
	if a != "CTO-WORK-009" || unsafe.StringData(a) != unsafe.StringData(b) {
		t.Fatalf("intern gave %q at %p and %q at %p, want one string", a, unsafe.StringData(a), b, unsafe.StringData(b))
	}
	if c := m.intern([]byte("CTO-WORK-010")); c != "CTO-WORK-010" || unsafe.StringData(c) == unsafe.StringData(a) {
		t.Fatalf("another text gave %q at %p", c, unsafe.StringData(c))
	}
	long := bytes.Repeat([]byte("x"), internMax+1)
	if l1, l2 := m.intern(long), m.intern(long); l1 != string(long) || unsafe.StringData(l1) == unsafe.StringData(l2) {
		t.Fatalf("text past internMax was shared")
	}
	held := 0
	for _, s := range m.interned {
		if s != "" {
			held++
		}
	}
	if held > 2 {
		t.Fatalf("%d strings held for sharing, want at most 2", held)
	}
	var nilSlabs *modelSlabs
	if nilSlabs.intern([]byte("abc")) != "abc" {
		t.Fatal("a nil *modelSlabs does not copy")
	}
}
