package secrets

import (
	"testing"
)

// TestStopSetWholeWords: a stop word stops a value only as one of its
// words (issue 33): random tokens that merely contain one are kept.
func TestStopSetWholeWords(t *testing.T) {
	var words []string
	for _, a := range gitleaksSet.Rules[gitleaksRuleIndex(gitleaksGenericID)].Allowlists {
		words = append(words, a.StopWords...)
	}
	if len(words) == 0 {
		t.Fatal("no stop words in the generic rule")
	}
	s := newStopSet(words)
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"my_salt_value", true},
		{"pushToken", true},
		{"vpn-gateway-config", true},
		{"act-runner", true},
		{"GOOD", true},
		{"x9Kq2goodZrT4mW8pL", false},
		{"Qm7saltR2xv9LpW3", false},
		{"n4crosB8vT2kq9Lz", false},
		{"Tz8vpnQ4wrX2mK7", false},
		{"h3mathKq9vT2wZ7p", false},
		{"Lp9pushR3vx8Kq2T", false},
		{"a1B2c3D4e5F6g7H8", false},
	} {
		if got := s.any([]byte(tc.in)); got != tc.want {
			t.Errorf("%q: stop word %v, want %v", tc.in, got, tc.want)
		}
	}
}

func gitleaksRuleIndex(id string) int {
	for i, r := range gitleaksSet.Rules {
		if r.ID == id {
			return i
		}
	}
	return -1
}
