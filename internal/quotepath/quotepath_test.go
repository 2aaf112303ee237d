package quotepath

import "testing"

func TestPath(t *testing.T) {
	for in, want := range map[string]string{
		"a/b_test.go":                          "a/b_test.go",
		"a b#1.go":                             "a b#1.go",
		"é.go":                                 "é.go",
		"a\nINJECTED run FORGED: pass_test.go": `"a\nINJECTED run FORGED: pass_test.go"`,
		"tab\there":                            `"tab\there"`,
		"bad\xffutf8":                          `"bad\xffutf8"`,
		"esc\x1b[31m":                          `"esc\x1b[31m"`,
	} {
		if got := Path(in); got != want {
			t.Errorf("Path(%q) = %s, want %s", in, got, want)
		}
	}
	if got := Join([]string{"a.go", "b\n.go"}, ", "); got != `a.go, "b\n.go"` {
		t.Errorf("Join: %s", got)
	}
}
