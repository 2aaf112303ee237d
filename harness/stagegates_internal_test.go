package harness

import "testing"

func TestWithinAndOverlaps(t *testing.T) {
	for _, tc := range []struct {
		w, a string
		want bool
	}{
		{"slugify.go", "slugify.go", true},
		{"src/strings/**/*.go", "src/", true},
		{"src/strings/**/*.go", "src/strings", false},
		{"*_test.go", "slugify_test.go", false},
		{"lib/x.go", "src/", false},
	} {
		if got := within(tc.w, tc.a); got != tc.want {
			t.Errorf("within(%q, %q) = %t", tc.w, tc.a, got)
		}
	}
	for _, tc := range []struct {
		w, f string
		want bool
	}{
		{"deploy/x.yaml", "deploy/", true},
		{"deploy", "deploy/", true},
		{"**/*.yaml", "deploy/", true},
		{"*.go", "deploy/", false},
		{".env.local", ".env.*", true},
		{"*_test.go", "slugify_test.go", true},
		{"slugify.go", "go.mod", false},
	} {
		if got := overlaps(tc.w, tc.f); got != tc.want {
			t.Errorf("overlaps(%q, %q) = %t", tc.w, tc.f, got)
		}
	}
}
