package authority

import "testing"

func TestWrappedDisclaimer(t *testing.T) {
	const want = "Local planning SOT only. Not a Core Protocol. Not active Core authority."
	for _, tc := range []struct {
		para string
		ok   bool
	}{
		{"Local planning SOT only. Not a Core Protocol. Not active\nCore authority.", true},
		{"Local planning SOT only.\nNot a Core Protocol.\nNot active Core authority.\nMore.", true},
		{"*Local planning SOT only.*\n  Not a `Core Protocol`. Not active Core authority.", true},
		{"Local planning SOT only. Not a Core Protocol. Not active\nCore authority. And more on the line.", false},
		{"Local planning SOT only.", false},
		{"Something else.\nLocal planning SOT only. Not a Core Protocol. Not active Core authority.", false},
	} {
		if got := wrapped(tc.para, want); got != tc.ok {
			t.Errorf("wrapped(%q) = %v, want %v", tc.para, got, tc.ok)
		}
	}
}
