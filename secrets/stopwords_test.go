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

// TestStopSetBesideRandomRun: a stop word is a token's prefix or a chance
// cut of it when a random run of letters and digits stands beside it; it
// holds for a value made of words, and a listed value that is itself
// such a run (gitleaks lists known public keys among its stop words).
func TestStopSetBesideRandomRun(t *testing.T) {
	s := newStopSet([]string{"cloud", "account", "ant", "salt", "auth", "6fe4476ee5a1832882e326b506d14126"})
	for _, c := range []struct {
		v    string
		stop bool
	}{
		{"my_salt_value", true},
		{"cloud_account_token", true},
		{"pushCloudAccount", true},
		{"acme_cloud_org_Xq7LmZ2vR9pK4wT8nB3cF6hJ1dG5", false},
		{"sk-service-account-Ofbtr05CFsJqs4TAeKlCT3Blbk", false},
		{"rU0K6hwGw9AeANtXrZ8FQJT9jn4sRdlj", false}, // "ANt" is a cut, not a word
		{"zr-Q4YAam5d6xCloud", true},                // ten random bytes: too few to call it a token
		{"6fe4476ee5a1832882e326b506d14126", true},
		{"options.DisableS3ExpressSessionAuth", true}, // a name in code, not a random run
	} {
		if got := s.any([]byte(c.v)); got != c.stop {
			t.Errorf("any(%q) = %v, want %v", c.v, got, c.stop)
		}
	}
}

// TestStopSetDrawnPasswords: a generated password's symbols cut no word,
// so a stop word read in it as a run of case ("MVc" for "mvc", "Salt")
// stands beside a random run that goes on across its brackets. Cut at
// the brackets, the runs fell under 16 bytes and the password read as a
// stop-word value, one draw in a hundred and fifty. Words joined by
// symbols are still words.
func TestStopSetDrawnPasswords(t *testing.T) {
	s := newStopSet([]string{"salt", "mvc", "cms", "tag", "own"})
	g := newFakeGen("drawn passwords")
	for i := 0; i < 200; i++ {
		w := []string{"Salt", "MVc", "Cms", "TAg", "Own"}[i%5]
		v := g.from(alphaUpper, 2) + g.from(alphaLower, 2) + g.from(alphaDigit, 2) + "{" + g.mixed(base62, 6) + w + g.mixed(base62, 4) + "(" + g.from(alphaDigit, 2) + g.from(alphaLower, 2) + g.mixed(base62, 8)
		if s.any([]byte(v)) {
			t.Errorf("any(%q) = true: a drawn password is no stop-word value", v)
		}
	}
	for _, v := range []string{"my{salt}value", "salt+pepper", "[cms]-tag-own"} {
		if !s.any([]byte(v)) {
			t.Errorf("any(%q) = false: words joined by symbols are a stop-word value", v)
		}
	}
}
