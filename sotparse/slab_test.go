package sotparse

import (
	"bytes"
	"testing"
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
