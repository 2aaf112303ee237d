package slugify

import "testing"

func TestSlugify(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Hello World", "hello-world"},
		{"Don't Panic", "dont-panic"},
		{"It’s a trap!", "its-a-trap"},
		{"rock'n'roll", "rocknroll"},
		{"Q&A: how/why?", "q-a-how-why"},
		{"...dots...", "dots"},
	} {
		if got := Slugify(tc.in); got != tc.want {
			t.Errorf("Slugify(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
