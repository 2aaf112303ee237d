package secrets

import (
	"bytes"
	"strings"
	"testing"
)

// TestStopSet: the stop word set answers as a plain case-insensitive
// substring search over every imported list does.
func TestStopSet(t *testing.T) {
	lists := [][]string{gitleaksSet.Allowlist.StopWords, {"ab", "x", "TOKEN", "abc"}}
	for _, r := range gitleaksSet.Rules {
		for _, a := range r.Allowlists {
			lists = append(lists, a.StopWords)
		}
	}
	inputs := []string{"", "a", "ab", "AbC", "xyz", "sk_" + "live_4eC39HqLyjWDarjtT1zdp7dc" /* split: the repository is scanned */, "MyS3cr3tP4ssw0rd", "token", "tok",
		strings.Repeat("Qz9", 100), "0123456789abcdefABCDEF", "changeme-please", "https://example.com/api?key=1"}
	for _, list := range lists {
		for _, w := range list {
			inputs = append(inputs, w, "Z9"+strings.ToUpper(w)+"q", w[:len(w)-1], w[1:])
		}
	}
	for _, list := range lists {
		if len(list) == 0 {
			continue
		}
		s := newStopSet(list)
		for _, in := range inputs {
			want := false
			for _, w := range list {
				want = want || bytes.Contains(bytes.ToLower([]byte(in)), []byte(strings.ToLower(w)))
			}
			if got := s.any([]byte(in)); got != want {
				t.Errorf("stop words %.40q on %q: %v, want %v", list, in, got, want)
			}
		}
	}
}
