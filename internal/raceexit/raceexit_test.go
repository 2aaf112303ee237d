package raceexit

import "testing"

func TestEnv(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "atexit_sleep_ms=0"},
		{"halt_on_error=1", "halt_on_error=1 atexit_sleep_ms=0"},
		{"atexit_sleep_ms=50 log_path=/tmp/r", "atexit_sleep_ms=50 log_path=/tmp/r"},
		{"log_path=/tmp/r  atexit_sleep_ms=0", "log_path=/tmp/r  atexit_sleep_ms=0"},
	} {
		if got := Env(tc.in); got != tc.want {
			t.Errorf("Env(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
