package secrets

import (
	"fmt"
	"strings"
	"testing"
)

// TestK8sSecretDataStandsFor: a Secret's value that decodes to what is
// not a secret (the name of a variable, a reference to a vault, a path, a
// certificate, a registry config of users alone or of a credentials
// store, a config document of placeholders) is no finding, by the Secret
// rule or any other; a password, a registry auth, a key in a document, a
// private key still are. Values drawn at run time; a blind set of 145
// such files had the Secret rule flag 21 values (issue 33).
func TestK8sSecretDataStandsFor(t *testing.T) {
	s := defaultScanner(t)
	secret := func(key, value string) string {
		return fmt.Sprintf("apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\ndata:\n  %s: %s\n", key, b64(value))
	}
	pw := drawnToken(t, "", 14) + "!#"
	cert := "-----BEGIN CERTIFICATE-----\nMIIBvjCCAWSgAwIBAgIQ" + drawnToken(t, "", 40) + "\n-----END CERTIFICATE-----\n"
	none := []string{
		secret("PASSWORD_ENV_VAR", "POSTGRES_PASSWORD"),
		secret("DB_PASSWORD", "vault:secret/data/payments/postgres#password"),
		secret("STRIPE_API_KEY", "arn:aws:secretsmanager:eu-west-1:123456789012:secret:stripe"),
		secret("TOKEN_FILE", "/var/run/secrets/kubernetes.io/serviceaccount/token"),
		secret("githubAppID", "123456"),
		secret("ca.crt", cert),
		secret(".dockerconfigjson", `{"auths":{"ghcr.io":{}},"credsStore":"desktop"}`),
		secret(".dockerconfigjson", `{"auths":{"registry.example.com":{"username":"ci-pull","auth":"`+b64("ci-pull:")+`"}}}`),
		secret(".env", "API_URL=https://api.example.com/v2\nAPI_KEY=<set-me>\nAPI_SECRET=${API_SECRET}\nLOG_LEVEL=debug\n"),
	}
	for _, m := range none {
		if found := s.Scan("secret.yaml", []byte(m)); len(found) != 0 {
			t.Errorf("%q: %v", m, found)
		}
	}
	found := []string{
		secret("DB_PASSWORD", pw),
		secret(".dockerconfigjson", `{"auths":{"registry.example.com":{"auth":"`+b64("deploy:"+pw)+`"}}}`),
		secret(".env", "API_URL=https://api.example.com/v2\nAPI_SECRET="+drawnToken(t, "", 32)+"\nLOG_LEVEL=debug\n"),
		secret("tls.key", "-----BEGIN RSA PRIVATE KEY-----\n"+strings.Repeat(drawnToken(t, "", 64)+"\n", 6)+"-----END RSA PRIVATE KEY-----\n"),
	}
	for _, m := range found {
		if f := s.Scan("secret.yaml", []byte(m)); len(f) == 0 {
			t.Errorf("not found: %q", m)
		}
	}
}
