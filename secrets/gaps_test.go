package secrets

import "testing"

// TestSanctumPrefixedRandomTokens: a Laravel 11 Sanctum token after its
// token_prefix is found whatever its 40 random characters draw; the gate
// once read the 40 from the pipe, so the prefix took four of them and a
// token with no digit among its first 36 was turned down.
func TestSanctumPrefixedRandomTokens(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("sanctum prefixed")
	for i := 0; i < 50; i++ {
		body := g.from(alphaUpper+alphaLower, 36) + "7" + g.mixed(base62, 3) // no digit before the 37th
		text := "[2026-12-04 10:02:11] local.INFO: issued 3|app_" + body + g.from(hexLower, 8) + " to ci\n"
		fs := s.Scan("storage/logs/laravel.log", []byte(text))
		if len(fs) != 1 || fs[0].RuleID != RuleSanctumToken {
			t.Fatalf("%q: want one %s finding, got %d", text, RuleSanctumToken, len(fs))
		}
	}
}
