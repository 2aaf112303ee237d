package secrets

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// entropyDirect is Entropy without the table of terms.
func entropyDirect(s []byte) float64 {
	if len(s) == 0 {
		return 0
	}
	var counts [256]int
	for _, c := range s {
		counts[c]++
	}
	n := float64(len(s))
	e := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			e -= float64(p * math.Log2(p))
		}
	}
	return e
}

// TestEntropyTable: the looked-up terms give the same float64 as the
// logarithms, bit for bit, at every length the table covers and past
// it: a floor such as 3.5 judges a value the same either way.
func TestEntropyTable(t *testing.T) {
	g := newFakeGen("entropy")
	for n := 1; n <= entropyTableMax+8; n++ {
		for _, alphabet := range []string{"ab", hexLower, base62, base62 + "+/=-_.~"} {
			for range 20 {
				v := []byte(g.from(alphabet, n))
				if got, want := Entropy(v), entropyDirect(v); math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("Entropy(%q) = %v, want %v", v, got, want)
				}
			}
		}
	}
}

// TestEntropyFloorHex: random hex values pass a rule's 3.5-bit floor
// all but about one time in a thousand from 20 digits (a fixed 3.5 lost
// one 32-digit value in five), a value of another alphabet keeps the
// floor, and a hex value that repeats a few digits is still below it.
func TestEntropyFloorHex(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	const runs = 4000
	for _, n := range []int{20, 32, 40, 64} {
		for _, digits := range []string{"0123456789abcdef", "0123456789ABCDEF"} {
			below := 0
			for range runs {
				b := make([]byte, n)
				for i := range b {
					b[i] = digits[rng.IntN(16)]
				}
				if Entropy(b) < entropyFloor(3.5, b) {
					below++
				}
			}
			if below > runs/200 {
				t.Errorf("%d random hex digits (%s...): %d of %d under the floor", n, digits[10:12], below, runs)
			}
		}
	}
	for _, v := range []string{
		"bJdWL5uSLdrqauDu" + "Xy",               // base62
		"eb1ee50eb8290b34" + "4881E91F2FB8C3EB", // hex of two cases: not one alphabet
		"abc0123",                               // too short
	} {
		if got := entropyFloor(3.5, []byte(v)); got != 3.5 {
			t.Errorf("entropyFloor(3.5, %q) = %.3f, want the rule's 3.5", v, got)
		}
	}
	low := []byte(strings.Repeat("ab12", 8))
	if Entropy(low) >= entropyFloor(3.5, low) {
		t.Errorf("%s: %.2f bits passes the floor %.2f", low, Entropy(low), entropyFloor(3.5, low))
	}
}

// randomUUID draws a version-4 UUID in the given digits' case.
func randomUUID(rng *rand.Rand, digits string) string {
	b := make([]byte, 0, 36)
	for i := range 32 {
		if i == 8 || i == 12 || i == 16 || i == 20 {
			b = append(b, '-')
		}
		d := digits[rng.IntN(16)]
		switch i {
		case 12:
			d = '4'
		case 16:
			d = digits[8+rng.IntN(4)]
		}
		b = append(b, d)
	}
	return string(b)
}

// TestEntropyFloorUUID: random UUIDs pass a rule's 3.5-bit floor all
// but about one time in a thousand (the fixed floor lost one in
// twenty-three: the dashes are a seventeenth symbol in every one), and
// so does one assigned to a token's name, which generic-secret judges
// by the same floor; a UUID of a few repeated digits is still below it,
// and a value only shaped like one (a dash out of place, two cases)
// keeps the rule's floor.
func TestEntropyFloorUUID(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const runs = 4000
	for _, digits := range []string{"0123456789abcdef", "0123456789ABCDEF"} {
		below := 0
		for range runs {
			b := []byte(randomUUID(rng, digits))
			if Entropy(b) < entropyFloor(3.5, b) {
				below++
			}
		}
		if below > runs/200 {
			t.Errorf("random UUIDs (%s...): %d of %d under the floor", digits[10:12], below, runs)
		}
	}
	for _, v := range []string{
		"346a14f2a-672-4668-a892-956a462ab56e", // a dash out of place
		"346a14f2-A672-4668-a892-956a462ab56e", // two cases
		"346a14f2-a672-4668-a892-956a462ab56",  // short
	} {
		if got := entropyFloor(3.5, []byte(v)); got != 3.5 {
			t.Errorf("entropyFloor(3.5, %q) = %.3f, want the rule's 3.5", v, got)
		}
	}
	low := []byte("12ab12ab-12ab-12ab-12ab-12ab12ab12ab")
	if Entropy(low) >= entropyFloor(3.5, low) {
		t.Errorf("%s: %.2f bits passes the floor %.2f", low, Entropy(low), entropyFloor(3.5, low))
	}
	s := defaultScanner(t)
	missed := 0
	const assigned = 400
	for i := range assigned {
		digits := "0123456789abcdef"
		if i%2 == 1 {
			digits = "0123456789ABCDEF"
		}
		v := randomUUID(rng, digits)
		line := []string{"//registry.npmjs.org/:_authToken=", "SNYK_TOKEN=", "api_key: ", "auth_token = \""}[i%4] + v
		if len(s.Scan("config.txt", []byte(line+"\n"))) == 0 {
			missed++
			if missed <= 3 {
				t.Logf("missed: %s", line)
			}
		}
	}
	if missed > assigned/100 {
		t.Errorf("%d of %d random UUIDs assigned to a token's name missed", missed, assigned)
	}
}

// TestHandleTokens: a token an API hands out or takes back as a handle
// (a page's, a request's, a lock's) is no credential, whatever its
// value: next_token, NextContinuationToken, ClientRequestToken and
// idempotency_token stay silent under generic-secret and gitleaks'
// generic rule alike; a session's or a refresh token, and a secret whose
// name starts with one of those words, are still reported.
func TestHandleTokens(t *testing.T) {
	s := defaultScanner(t)
	rng := rand.New(rand.NewPCG(13, 17))
	for _, name := range []string{"next_token", "NextToken", "nextPageToken", "NextContinuationToken", "ClientRequestToken", "idempotency_token", "cursor_token", "lock_token", "sync_token"} {
		for _, v := range []string{randomUUID(rng, "0123456789abcdef"), randomUUID(rng, "0123456789ABCDEF") + "Xy" + randomUUID(rng, "0123456789abcdef")[:8]} {
			line := `"` + name + `": "` + v + `",` + "\n"
			if fs := s.Scan("page.json", []byte(line)); len(fs) > 0 {
				t.Errorf("%q: reported (%s)", line, fs[0].RuleID)
			}
		}
	}
	for _, name := range []string{"refresh_token", "session_token", "next_secret", "request_token_secret", "page_api_key"} {
		v := randomUUID(rng, "0123456789abcdef")
		line := name + ": " + v + "\n"
		if fs := s.Scan("creds.yaml", []byte(line)); len(fs) == 0 {
			t.Errorf("%q: not reported", line)
		}
	}
}
