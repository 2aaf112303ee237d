package records

import (
	"slices"
	"strings"
	"testing"
)

func TestSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"password": true, "api_key": true, "apiKey": true, "APIKey": true, "client_secret": true, "auth_token": true,
		"accessKey": true, "private-key": true, "token": true, "secret": true,
		"credential_source_class": false, "token_env": false, "api_key_file": false, "secrets_path": false,
		"review_trigger": false, "provider": false, "token_count": false, "secretary": false, "keys": false,
	} {
		if got := secretName(name); got != want {
			t.Errorf("secretName(%q) = %v, want %v (words %q)", name, got, want, keyWords(name))
		}
	}
	if got := keyWords("clientSecretKEY_id"); !slices.Equal(got, []string{"client", "secret", "key", "id"}) {
		t.Errorf("keyWords = %q", got)
	}
}

func TestSecretValue(t *testing.T) {
	for v, want := range map[string]bool{
		"q8Zr2LmX0pVt": true, "hunter2": true,
		"": false, "<redacted>": false, "${OPENAI_API_KEY}": false, "$OPENAI_API_KEY": false, "env:OPENAI_API_KEY": false,
		"********": false, "xxxx": false, "not set yet": false, "none": false, "TBD": false, "your-key-here": false,
	} {
		if got := secretValue(v); got != want {
			t.Errorf("secretValue(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestCredentialFormat checks that record values are judged by the secrets
// engine. Keys are built at run time: no committed file holds one.
func TestCredentialFormat(t *testing.T) {
	rnd := func(prefix string, n int) string {
		const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
		b := []byte(prefix)
		x := uint32(362436069)
		for i := 0; i < n; i++ {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			b = append(b, alphabet[x%uint32(len(alphabet))])
		}
		return string(b)
	}
	for v, want := range map[string]string{
		rnd("sk-"+"proj-", 40):                          "OpenAI API key",
		rnd("sk-"+"ant-api03-", 93) + "AA":              "Anthropic API key", // the real shape: 93 characters, then AA
		rnd("gh"+"p_", 36):                              "GitHub token",
		"https://jp:" + rnd("Pw", 14) + "@git.internal": "password in URL userinfo",
		// Prose and placeholders of the corpus kind are not credentials.
		"Before real Case Stage 2 admission JSON path changes, before credential source changes": "",
		"hermes-openai-codex-oauth-and-local-vllm-config":                                        "",
		"risk-classification-task-sk-proj-plan-changes-before-promotion":                         "",
		"sk-proj-<your-key-here-and-more-chars>":                                                 "",
		"https://user:<password>@host":                                                           "",
	} {
		got := credentialFormat(v)
		if (want == "") != (got == "") || !strings.HasPrefix(got, want) {
			t.Errorf("credentialFormat(%.12s...) = %q, want %q", v, got, want)
		}
	}
}
