package warmup

import (
	"slices"
	"sync"
	"testing"
)

func TestStartRunsTheNamedBuilds(t *testing.T) {
	var mu sync.Mutex
	var ran []string
	record := func(s string) func() {
		return func() {
			mu.Lock()
			defer mu.Unlock()
			ran = append(ran, s)
		}
	}
	Register("test-a", record("a1"))
	Register("test-b", record("b"))
	Register("test-a", record("a2"))
	<-Start("test-a", "test-unknown")
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(ran)
	if !slices.Equal(ran, []string{"a1", "a2"}) {
		t.Errorf("ran %q, want the builds of test-a, none of test-b", ran)
	}
}

// TestNamesChecks: a check command line that names its checks (--enable,
// in any of the flag package's spellings) starts no build early.
func TestNamesChecks(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"--format", "json", "."}, false},
		{[]string{"--enable", "prose", "."}, true},
		{[]string{"--enable=prose,secrets"}, true},
		{[]string{"-enable", "prose"}, true},
		{[]string{"-enable=prose"}, true},
		{[]string{"--disable", "prose"}, false},
		{[]string{"--enabled"}, false},
		{[]string{"--", "--enable"}, false},
	} {
		if got := namesChecks(c.args); got != c.want {
			t.Errorf("namesChecks(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}
