package records

import (
	"slices"
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

func TestCredentialFormat(t *testing.T) {
	for v, want := range map[string]string{
		"sk-proj-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2":                "OpenAI API key",
		"sk-ant-api03-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2":           "Anthropic API key",
		"AKIAIOSFODNN7ABCDEFG":                                        "AWS access key id",
		"ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6":                    "GitHub token",
		"-----BEGIN OPENSSH PRIVATE KEY-----":                         "private key block",
		"https://jp:Hunter2Pass@git.internal.net":                     "URL with a password",
		"Authorization: Bearer abcdefghijklmnopqrstu12345":            "bearer token",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghij": "JSON web token",
		// Prose and placeholders of the corpus kind are not credentials.
		"Before real Case Stage 2 admission JSON path changes, before credential source changes": "",
		"hermes-openai-codex-oauth-and-local-vllm-config":                                        "",
		"risk-classification-task-sk-proj-plan-changes-before-promotion":                         "",
		"sk-proj-<your-key-here-and-more-chars>":                                                 "",
		"https://user:<password>@host":                                                           "",
		"Bearer ****************************":                                                    "",
	} {
		if got := credentialFormat(v); got != want {
			t.Errorf("credentialFormat(%q) = %q, want %q", v, got, want)
		}
	}
}
