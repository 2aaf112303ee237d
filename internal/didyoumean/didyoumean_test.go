package didyoumean

import "testing"

func TestClosest(t *testing.T) {
	known := []string{"refs", "structure", "status", "consistency", "check", "checks"}
	for _, c := range []struct{ in, want string }{
		{"ref", "refs"},
		{"structur", "structure"},
		{"consistancy", "consistency"},
		{"stauts", "status"},
		{"chek", "check"},
		{"xyz", ""},
		{"frontmatter", ""},
		{"cons", "consistency"}, // the only name it is a prefix of
		{"st", ""},              // a prefix of two names
	} {
		if got := Closest(c.in, known); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if h := Hint("ref", known); h != " (did you mean refs?)" {
		t.Errorf("Hint = %q", h)
	}
}
