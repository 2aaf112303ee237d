package secrets

import (
	"strings"
	"testing"
)

// TestProseSecretForms holds prose-secret to the grammar of each form it
// reads, on paraphrases written for the test (not the sentences of any
// labelled set) with fresh values: every positive is reported with its
// value (by prose-secret, or by a rule ranked before it), every near-miss (a setting, a count, a reference, a version, a
// digest, a word) stays silent. {V} is a random token, {P} a random
// password with punctuation, {H} 40 hex digits, {S} a short password:
// ten characters of all four classes, some letters repeated.
func TestProseSecretForms(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("prose forms")
	forms := []struct {
		name   string
		found  []string
		silent []string
	}{{
		name: "a value on the line after the sentence naming it",
		found: []string{
			"Rotated the Stripe webhook secret this morning.\nNew value: {H}\n",
			"We regenerated the deploy token for the release pipeline after the leak.\n- New value: `{V}`\n",
			"Changed the Redis password on cache-01 today.\nThe new value is {P}\n",
			"The signing key for the JWT issuer was replaced during the incident.\nCurrent value: {V}\n",
			"> Priya rotated the admin password on the bastion\n> New value: {P}\n",
			"HMAC secret for the partner callback got rotated at 14:00.\nUpdated value: {V} (both are accepted for a day)\n",
			"Reset the service account password for `etl-runner`.\nValue: {P}\n",
			"Heads up: the API key for Mapbox was regenerated.\n* new value: {V}\n",
			"The encryption key used by the backup job has changed.\nNew value : {H}\n",
			"Rotated the Slack signing secret after the leak. New value: `{V}`\n",
		},
		silent: []string{
			"Bumped the token TTL for the gateway.\nNew value: 3600\n",
			"Changed the key rotation period on the KMS policy.\nNew value: 30 seconds\n",
			"Moved the secret scanner to the pinned commit.\nNew value: {H}\n",
			"Rotated the webhook secret this morning.\nNew value: see 1Password (Stripe webhook)\n",
			"Rotated the webhook secret this morning.\nNew value: stored in Vault at secret/payments/webhook\n",
			"Raised the token limit for the embedding job.\nNew value: 2000000\n",
			"Changed the pool size of the API gateway.\nNew value: {V}\n",
			"The tokenizer now splits on camelCase.\nNew value: {V}\n",
			"Updated the API key ID for the Mapbox account.\nNew value: {V}\n",
			"Rotated the webhook secret this morning.\n\nNew value: {V}\n",
			"Rotated the signing key.\nThe old value: {V}\n",
			"Raised the token limit for the job. New value: {V}\n",
			"Set the retry count in config v1.value: {V}\n",
		},
	}, {
		name: "the name directly followed by the value",
		found: []string{
			"Ops gave us the token {V} for the sandbox tenant.\n",
			"Enter the unlock PIN/secret {H} to leave kiosk mode.\n",
			"The vendor sent over the API key {V} yesterday.\n",
			"Paste your access key `{V}` into the CLI prompt.\n",
			"I generated a deploy token {V} for the mirror job.\n",
			"The agents use the shared secret {V} when they register.\n",
			"Sign releases with our signing key {V}; the old one is revoked.\n",
			"Try the admin password {P} on the staging console.\n",
			"We agreed on the passphrase {P} for the offline backups.\n",
		},
		silent: []string{
			"The token count is 4096 for this prompt.\n",
			"Set the token TTL to 3600 seconds.\n",
			"Enter the PIN from your authenticator app.\n",
			"The model reads the tokens 2048x4096 at a time.\n",
			"We bumped the key v2.14.3-rc1 in the manifest.\n",
			"Look up the key 2026-11-30T10:00:00Z in the audit log.\n",
			"Rotate the signing key kid-2026-01-rotation before Friday.\n",
			"Store the access key in ~/.aws/credentials only.\n",
			"Fixed the token refresh in commit {H}.\n",
			"Wrap the input in the tokens [CLS] and [SEP].\n",
			"Put the API key ${MAPBOX_API_KEY} in the chart values.\n",
			"Pin the key to version 1.18.0-beta2 for now.\n",
		},
	}, {
		name: "a user and a password",
		found: []string{
			"You can login with admin / {P} until SSO is wired up.\n",
			"Log in as root / `{P}` on the serial console.\n",
			"Sign in with ops-bot / {V} (temporary).\n",
			"Credentials are deploy / {P} for the staging Jenkins.\n",
			"Creds: grafana-admin / {V}\n",
			"log on with `svc_backup` / `{P}` from the jump host.\n",
			"Signin using ops@corp.example / {V} for now.\n",
			"The router's web UI: login as admin/{V}.\n",
			"For the demo, login with demo / {P}, then change it.\n",
		},
		silent: []string{
			"login with admin / your SSO password\n",
			"Log in as admin / see 1Password for the rest.\n",
			"Sign in with SSO / Okta; local accounts are off.\n",
			"login with your username / password from the HR portal\n",
			"Credentials are admin / admin123 on the emulator.\n",
			"log in as root / sudo, then run the script\n",
			"Sign in with alice / alice.smith@example.com\n",
			"Login with GitHub / Google / Microsoft is supported.\n",
			"login with admin / <password from vault>\n",
			"login with admin / ${ADMIN_PASSWORD}\n",
			"Creds are in the vault at secret/ci/jenkins.\n",
		},
	}, {
		name: "the name, what it is for, and \", it's\"",
		found: []string{
			"I reset the RabbitMQ password for `orders-consumer`, it's {V} now, restart the pods.\n",
			"Rotated the deploy token, it's {V}.\n",
			"Changed the Wi-Fi password for the lab; it's {P} until Friday.\n",
			"Regenerated the webhook secret for Stripe, it is now {V}.\n",
			"The admin password for mon-02, it's `{P}`, don't share it.\n",
			"Reset the shared secret for the VPN, it's now {H}\n",
			"New API key for the geocoder, it's {V} (staging only).\n",
			"We rotated the signing key for the issuer; it's {V} from today.\n",
		},
		silent: []string{
			"I reset the password for bob, it's in the vault now.\n",
			"The password for the lab, it's case sensitive.\n",
			"The token for CI, it's 24 characters long.\n",
			"Rotated the API key for the geocoder, it's stored-in-vault-2026 now.\n",
			"The key for the cache, it's ${CACHE_KEY} in the chart.\n",
			"Changed the token TTL for the gateway, it's 3600 now.\n",
			"Bumped the key version, it's v2.3.1-rc4 now.\n",
			"Reset the password for the kiosk, it's on the sticky note in the drawer.\n",
		},
	}, {
		name: "the name several words before the colon",
		found: []string{
			"The shared pre-shared key for the site-to-site tunnel with the Vigo office: {P}\n",
			"The admin password for the Grafana instance on mon-02 in the rack: {P}\n",
			"Here is the API key for the geocoding service used by the checkout team: `{V}`\n",
			"The webhook secret for the Stripe forwarder in the payments cluster: {V}\n",
			"Deploy token for the mirror of the helm charts on the build farm: {V}\n",
			"The client secret of the portal app in the staging tenant: {V}\n",
			"The encryption key for backups to the offsite bucket with the weekly job: {H}\n",
			"Our signing key for tokens issued to the partner portal in prod: {V}\n",
		},
		silent: []string{
			"The API key for the geocoding service used by the checkout team: see 1Password\n",
			"The password for the Grafana instance on mon-02 in the basement rack: ask Maria\n",
			"The token for the search cluster in the eu region: 4096 per minute\n",
			"The key rotation period for all the services in prod: 30d\n",
			"The key for the site-to-site tunnel with the Vigo office: stored in Vault at secret/vpn/vigo\n",
			"The password for the staging database on the new host: `${DB_PASSWORD}`\n",
			"The token TTL for sessions in the web app: 3600s\n",
			"The secret for the webhook in the payments cluster: <redacted>\n",
		},
	}, {
		name: "a short password of all four classes",
		found: []string{
			"The password is {S} and it's case sensitive.\n",
			"The Wi-Fi password is now {S}.\n",
			"The guest network password is {S}, ask at the desk.\n",
			"The kiosk password was set to {S} this morning.\n",
			"The admin password for the printer: {S}\n",
			"The door passphrase is {S} this week.\n",
			"The VPN password is {S} (expires Friday).\n",
			"The backup password has been changed to {S}.\n",
		},
		silent: []string{
			"The password is 12 characters long.\n",
			"The password is case-sensitive.\n",
			"The password is aaaa1111A! for the demo.\n",
			"The password is Xx1!Xx1!Xx on the slide.\n",
			"The password is at least 14 chars.\n",
			"The password is ab12AB!!ab here.\n",
			"The password is 2026-11-30 by default.\n",
			"The password is v2.3.1-rc4 then.\n",
		},
	}}
	for _, f := range forms {
		if len(f.found) < 8 || len(f.silent) < 8 {
			t.Fatalf("%s: fewer than 8 paraphrases of either kind", f.name)
		}
		for _, tmpl := range f.found {
			text, want := fillProse(g, tmpl)
			fs := s.Scan("notes.md", []byte(text))
			ok := false
			for _, fd := range fs {
				ok = ok || text[fd.Start:fd.End] == want
			}
			if !ok {
				t.Errorf("%s: not found in %q (got %v)", f.name, text, fs)
			}
		}
		for _, tmpl := range f.silent {
			text, _ := fillProse(g, tmpl)
			if fs := s.Scan("notes.md", []byte(text)); len(fs) > 0 {
				t.Errorf("%s: near-miss reported by %s in %q", f.name, fs[0].RuleID, text)
			}
		}
	}
}

// fillProse fills the one placeholder of tmpl with a fresh value and
// returns the text and the value.
func fillProse(g *fakeGen, tmpl string) (string, string) {
	var v string
	switch {
	case strings.Contains(tmpl, "{V}"):
		v = g.mixed(base62, 20+int(g.next()%24))
		return strings.Replace(tmpl, "{V}", v, 1), v
	case strings.Contains(tmpl, "{H}"):
		v = g.from(hexLower, 40)
		return strings.Replace(tmpl, "{H}", v, 1), v
	case strings.Contains(tmpl, "{P}"):
		// ends in a letter or digit, as a bare value before a sentence's
		// punctuation must
		v = g.mixed(base62+"!#%^&*~@?", 13+int(g.next()%8)) + g.from(base62, 1)
		return strings.Replace(tmpl, "{P}", v, 1), v
	case strings.Contains(tmpl, "{S}"):
		v = g.shortPassword()
		return strings.Replace(tmpl, "{S}", v, 1), v
	}
	return tmpl, ""
}

// shortPassword returns ten characters of all four classes with two
// letters repeated, under the entropy floor of 3 a longer value is held
// to.
func (g *fakeGen) shortPassword() string {
	for {
		v := g.from(alphaUpper+alphaLower+alphaDigit+"!#%&*~@^", 8)
		v = v[:7] + v[1:2] + v[7:] + v[1:2] // a letter three times over
		if e := Entropy([]byte(v)); hasUpper([]byte(v)) && hasLower([]byte(v)) && hasDigit([]byte(v)) && hasPunct([]byte(v)) &&
			e < 3 && e > 2.8 && isAlnumLower(lower(v[len(v)-1])) {
			return v
		}
	}
}

// TestShortProsePasswords: a password of eight or nine characters stated
// bare after its name in a sentence is reported when it reads as typed
// (capitals, small letters and digits changing at every other byte, or
// a symbol), on paraphrases written for the test; a name, a variable, a
// version, a weak word and number, digits alone, and a short value
// after a token's name stay silent.
func TestShortProsePasswords(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("short prose passwords")
	// typed draws a value of the given classes in turn: U a capital, l a
	// small letter, d a digit, s a symbol.
	typed := func(shape string) string {
		var b strings.Builder
		for _, c := range shape {
			b.WriteString(g.from(map[rune]string{'U': alphaUpper, 'l': alphaLower, 'd': alphaDigit, 's': "!#%&*@^"}[c], 1))
		}
		return b.String()
	}
	shapes := []string{"UldUlUdl", "lUdUlldU", "UldlUdlUd", "lUdsllUd", "UlsdlUld", "dUlUldUl"}
	found := []string{
		"Password for admin: {}\n",
		"password for master: {}\n",
		"The password for the staging db is {}.\n",
		"Our VPN passphrase for contractors: {}\n",
		"the passwd for root is {} until Friday\n",
		"- password for the backup NAS: {}\n",
	}
	for i, tmpl := range found {
		for j := range 3 {
			v := typed(shapes[(i+j)%len(shapes)])
			text := strings.Replace(tmpl, "{}", v, 1)
			fs := s.Scan("notes.md", []byte(text))
			if len(fs) == 0 || text[fs[0].Start:fs[0].End] != v {
				t.Errorf("%q: %s not reported (%v)", text, v, fs)
			}
		}
	}
	for _, text := range []string{
		"The password for the db is DB_PASS1 at startup.\n",
		"Password for the lookup: getPass2\n",
		"The password for contractors: Policy7B\n",
		"The password for the vault client is v2.14.3b.\n",
		"password for the kiosk: Summer24\n",
		"Password for admin: Admin123\n",
		"Password for the export: 12345678\n",
		"The password for jdoe is a3f9c2e1.\n",
		"The password for the new hire is iPhone15.\n",
		"The token for the runner is " + typed("UldUlUdl") + ".\n",
	} {
		if fs := s.Scan("notes.md", []byte(text)); len(fs) > 0 {
			t.Errorf("%q: reported (%s)", text, fs[0].RuleID)
		}
	}
}

// TestProseSecretArrowsAndAddresses: a password after an arrow ("VPN
// passphrase -> …"), for an address ("the password for admin@corp… is
// …") or named passwd is prose-secret's, on paraphrases written for the
// test; an arrow to a word, a page or a rule, and an address's password
// said to be elsewhere, stay silent.
func TestProseSecretArrowsAndAddresses(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("prose arrows and addresses")
	for _, tmpl := range []string{
		"The password for admin@corp.example is {P}\n",
		"Password for jane.doe@corp (O365 recovery): {P}\n",
		"VPN passphrase -> {P}\n",
		"passwd for root \u2192 {P}\n",
		"The db passwd is {P} until Monday.\n",
		"- smtp password for alerts@ops.example.org: {P}\n",
	} {
		text, v := fillProse(g, tmpl)
		fs := s.Scan("notes.md", []byte(text))
		if len(fs) == 0 || text[fs[0].Start:fs[0].End] != v {
			t.Errorf("%q: %s not reported (%v)", text, v, fs)
		}
	}
	for _, text := range []string{
		"password reset flow -> see the runbook\n",
		"token -> bearer header, then the gateway\n",
		"The password for admin@corp.example is in the vault.\n",
		"password -> 12 chars minimum, 1 digit\n",
		"The password for ops@corp.example is rotated monthly.\n",
		"Secret rotation -> RUNBOOK-2231 (quarterly)\n",
	} {
		if fs := s.Scan("notes.md", []byte(text)); len(fs) > 0 {
			t.Errorf("%q: reported (%s)", text, fs[0].RuleID)
		}
	}
	// A label pair's arrow is login-label-pair's, whatever the line
	// above it holds.
	pw := g.mixed(base62, 12)
	text := "- replica ID/Password -> see below\n- ID/PW -> dbadmin/" + pw + "\n"
	if fs := s.Scan("notes.md", []byte(text)); len(fs) != 1 || fs[0].RuleID != RuleLoginLabelPair || text[fs[0].Start:fs[0].End] != pw {
		t.Errorf("%q: want one login-label-pair finding of the password, got %v", text, fs)
	}
}
