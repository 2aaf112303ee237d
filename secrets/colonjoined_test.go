package secrets

import (
	"strings"
	"testing"
)

// TestColonJoinedTokens: a value assigned to a secret's name that joins a
// token to other parts with colons is a credential, as Tableau's token
// secrets, an account's ID and its key, or a user and a token are
// written; it was dropped as "a URL, a pair or a time". Values drawn at
// run time. Times, addresses, ports, references, digests and a
// provider's digits-and-key shape (left to its rule) stay silent.
func TestColonJoinedTokens(t *testing.T) {
	s := defaultScanner(t)
	key, secret := drawnToken(t, "", 22)+"==", drawnToken(t, "", 32)
	positives := []string{
		"secret=" + key + ":" + secret,
		"TABLEAU_PAT_SECRET=" + key + ":" + secret,
		`client_secret: "` + drawnToken(t, "svc", 9) + ":" + secret + `"`,
		`token = "` + drawnToken(t, "", 32) + ":" + secret + `"`,
		`"api_secret": "` + drawnToken(t, "AC", 30) + ":" + secret + `"`,
	}
	for _, line := range positives {
		if found := s.Scan("config.txt", []byte(line+"\n")); len(found) == 0 {
			t.Errorf("not found: %q", line)
		} else if strings.Contains(found[0].Redacted, secret[:6]) {
			t.Errorf("%q: shown as %q", line, found[0].Redacted)
		}
	}
	negatives := []string{
		"secret_rotated_at: 2026-01-01T12:34:56Z",
		"token_endpoint: https://login.example.com/oauth2/v2.0/token",
		"secret_store: vault:secret/data/app#password",
		"client_secret: ${CLIENT_SECRET:changeme}",
		"secret_digest: sha256:" + strings.Repeat("9f86d081884c7d65", 4),
		"secret_host: fe80::1ff:fe23:4567:890a",
		"token_server: auth.internal.example.com:8443",
		"secret_name: kube-system:registry-credentials",
		`telegram_api_token = "7305:` + drawnToken(t, "", 34) + `"`,
	}
	for _, line := range negatives {
		if found := s.Scan("config.txt", []byte(line+"\n")); len(found) != 0 {
			t.Errorf("%q: %v", line, found)
		}
	}
}

// TestTelegramBotTokenHandedOver: a bot's ID and a key of Telegram's
// length are left to the Telegram rule only where it reports them (the
// key begins "AA"); a key that does not is reported as the assigned
// secret it is (TruffleHog's detector tests hold such a token). IDs too
// short or too long for a bot stay silent, as gitleaks' samples ask.
// Keys drawn at run time, from keyAlphabet (no word by chance).
func TestTelegramBotTokenHandedOver(t *testing.T) {
	s := defaultScanner(t)
	for _, tc := range []struct {
		line, rule string
	}{
		{`telegram_bot_token = "869511423:AA` + drawnDigitsOr(t, keyAlphabet, 33) + `"`, RuleTelegramBot},
		{`telegrambottoken token = '869511423:Bq` + drawnDigitsOr(t, keyAlphabet, 33) + `'`, "generic-secret"},
		{`BOT_TOKEN=7305918264:x` + drawnDigitsOr(t, keyAlphabet, 34), "generic-secret"},
		{`telegram_api_token = "7305:` + drawnDigitsOr(t, keyAlphabet, 34) + `"`, ""},
		{`telegram_api_token = "12345678901:Bq` + drawnDigitsOr(t, keyAlphabet, 33) + `"`, ""},
		{`token = "869511423:` + strings.Repeat("ab", 17) + `a"`, ""}, // no token's entropy
	} {
		found := s.Scan("config.txt", []byte(tc.line+"\n"))
		switch {
		case tc.rule == "" && len(found) != 0:
			t.Errorf("%q: %v, want nothing", tc.line, found)
		case tc.rule != "" && (len(found) != 1 || found[0].RuleID != tc.rule):
			t.Errorf("%q: %v, want one finding of %s", tc.line, found, tc.rule)
		}
	}
}
