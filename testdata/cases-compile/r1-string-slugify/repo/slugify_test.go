package slugify

import "testing"

func TestSlugify(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Hello World", "hello-world"},
		{"  Leading and trailing  ", "leading-and-trailing"},
		{"Hello, World!", "hello-world"},
		{"multiple   spaces", "multiple-spaces"},
		{"Go 1.26 release", "go-1-26-release"},
		{"already-a-slug", "already-a-slug"},
		{"", ""},
	} {
		if got := Slugify(tc.in); got != tc.want {
			t.Errorf("Slugify(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
