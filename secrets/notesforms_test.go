package secrets

import (
	"strings"
	"testing"
)

// TestNotesForms: passwords written in notes in forms the sentence rules
// did not read (issue 33, round 19's blind notes), each in idioms and
// languages of our own with fresh values, and the near-misses of each
// form. "a|b" accepts either rule; "*" any; "" no finding.
func TestNotesForms(t *testing.T) {
	g := newFakeGen("notes-forms")
	words := []string{"thistle", "marlin", "copper", "glacier", "pylon", "kestrel", "basalt", "heron", "walnut", "cinder", "fjord", "tundra"}
	// a password as people choose them: a word, digits, a symbol, a word
	pw := func() string {
		w1 := words[g.next()%uint64(len(words))]
		w2 := words[g.next()%uint64(len(words))]
		sym := "!#$%&*+?@^~"[g.next()%11]
		return w1 + g.from(alphaDigit, 2) + string(sym) + strings.ToUpper(w2[:1]) + w2[1:]
	}
	gen := func() string { return g.mixed(base62, 16) }
	cases := []noteCase{
		// 1. a noun and its value, no copula
		{"- Printer VLAN: SSID `print-3f`, passphrase " + pw() + ", 5 GHz only\n", RuleProsePasswordPhrase + "|" + RuleProsePasswordPlain},
		{"Guest AP uses PSK " + pw() + " until the new controller is in.\n", RuleProsePasswordPhrase},
		{"Use o login `ana.silva` e a senha `" + pw() + "` no portal de testes.\n", RuleProsePasswordPhrase},
		{"Login `kassa`, parola d’ordine " + pw() + " (vale fino a lunedì)\n", RuleProsePasswordPhrase + "|" + RuleProseSecretIntl},
		// a language's noun with words and a copula (prose-secret-intl's)
		{"La parola d'ordine del wifi ospiti è " + pw() + " fino a giugno.\n", RuleProseSecretIntl},
		{"La parola d'ordine è segreta, chiedila a Marco.\n", ""},
		// other scripts, with a colon or は: prose-secret-cjk owns the
		// Japanese, Chinese and Korean forms
		{"3) пароль: " + pw() + "\n", RuleProsePasswordPhrase},
		{"- hasło: " + pw() + "\n", RuleProsePasswordPhrase},
		{"데이터베이스 비밀번호: " + gen() + "\n", RuleProseSecretCJK},
		{"测试库密码：" + gen() + "\n", RuleProseSecretCJK},
		{"管理者パスワードは " + pw() + " です。\n", RuleProseSecretCJK},
		{"salasana: " + pw() + "\n", RuleProsePasswordPhrase},
		// a verb sets it
		{"IT rotated the pre-shared key to " + gen() + " on Friday, reconnect the tunnel.\n", RuleProsePasswordPhrase},
		{"Security reset the passcode to " + pw() + " after the audit.\n", RuleProsePasswordPhrase},
		{"Please change your password to " + pw() + " before the demo.\n", RuleProsePasswordPhrase},
		// near-misses
		{"The passphrase must be at least 14 characters long.\n", ""},
		{"Set the password to something only you know.\n", ""},
		{"Key is passphrase protected, see ~/.ssh/id_ed25519.\n", ""},
		{"Update the pre-shared key to the value in the team vault.\n", ""},
		{"Wi-Fi passphrase WPA2-PSK-2024 is the protocol, not the key.\n", ""},
		{"The password manager is 1Password8 since March.\n", ""},
		{"Do not send the password to anyone4you.\n", ""},
		{"パスワード: ********\n", ""},
		{"密码：请向管理员索取\n", ""},
		{"пароль: ${ADMIN_PASSWORD}\n", ""},
		{"hasło: <twoje hasło>\n", ""},
		// a bare value is ASCII and a product name is what the noun is
		// for (review of round 19), the reviewer's and our own
		{"Как сменить пароль Windows10 через панель управления\n", ""},
		{"Zmień hasło Windows10 w ustawieniach konta.\n", ""},
		{"密码：与Windows10开机密码相同\n", ""},
		{"パスワード：Windows10のログオンと同じです。\n", ""},
		{"パスワードはActiveDirectory2019と同期されます。\n", ""},
		{"비밀번호: Windows10 로그인과 동일합니다.\n", ""},
		{"Смените пароль Office2019 после установки.\n", ""},
		{"Hasło: Ubuntu22 na wszystkich maszynach\n", ""},
		{"パスワードは「" + gen() + "」です。\n", RuleProseSecretCJK},
		// a noun an older rule reads with a colon is theirs; the ones no
		// other rule reads are this rule's
		{"PSK: " + pw() + "\n", RuleProsePasswordPhrase},
		{"pre-shared key: " + pw() + "\n", "*"},
		{"Tunnel shared secret: " + pw() + "\n", RuleProsePasswordPhrase},
		// "to" wants a verb before the noun, and a noun inside a name is none
		{"Send the password to Ops-Team2!\n", ""},
		{"Send the password to Ops#Team2!\n", ""},
		{"Give the passcode to Kim#Lee42 only.\n", ""},
		{"Forward the passphrase to Infra-Desk7 on Monday.\n", ""},
		{"Field userpassphrase " + pw() + " in the form.\n", ""},
		// too few kinds of character to be chosen or generated
		{"passphrase Aa1!Aa1!Aa1!\n", ""},
		{"passphrase Ab1!Ab1!Cd\n", ""},
		{"Wi-Fi passphrase AAbb11!!cc for the lab\n", ""},
		// 2. a pair after words saying whose credentials they are
		{"creds for the build box => `ci-agent` / `" + pw() + "`\n", RuleProseLoginPair},
		{"The camera login after a factory reset is root:" + pw() + " (set by facilities).\n", RuleProseLoginPair},
		{"Credentials for the vendor sandbox were support / " + pw() + ".\n", RuleProseLoginPair + "|" + RuleProseLogin},
		// near-misses
		{"Default creds are admin:admin, change them.\n", ""},
		{"Last login was 2024-03-01 / 2024-03-15T10:00Z\n", ""},
		{"Credentials were issued 2023-11-02 / 2024-11-02T00:00Z by IT.\n", ""},
		{"The login page is 8443:Tomcat-Mgr9 on the old box.\n", ""},
		{"The login page is 8443:Tomcat#Mgr9 on the old box.\n", ""},
		{"The login window is 10:30 to 11:45 tomorrow.\n", ""},
		{"Credentials for prod are in the vault at kv/ops:prod-2024.\n", ""},
		{"creds for the broker -> `mq-user` / `<redacted>`\n", ""},
		// 3. the value alone below its label or below a question
		{"Benutzer: svc_print\nPasswort:\n" + pw() + "\n\nGilt bis Ende Mai.\n", RuleProsePasswordBelow},
		{"1. Open the console.\n2. Password (rotated yearly, ticket OPS-12):\n\n       " + pw() + "\n\n3. Log out.\n", RuleProsePasswordBelow},
		{"Admin password\n: " + pw() + "\n", RuleProsePasswordBelow},
		{"> **dev1:** does anyone have the printer pw? the old one fails\n> **ops2:** printadm / " + pw() + "\n", RuleProsePasswordBelow},
		{"### What is the wiki's admin password?\nIt's " + pw() + ", ask IT before you change it.\n", RuleProsePasswordBelow},
		// near-misses
		{"Password:\n(ask the on-call, it rotates weekly)\n", ""},
		{"Password:\n\n    ${VPN_PASSWORD}\n", ""},
		{"Password:\n\n    <your password>\n", ""},
		{"**Password**\n: see the vault path secret/data/smtp\n", ""},
		{"What's the password policy?\nIt's 12 characters minimum, see the wiki.\n", ""},
		{"Password:\nThe one from the welcome mail, Gate2024 plus your initials.\n", ""},
		{"Password:\nFoo-Bar2024 is the KeePass entry\n", ""},
		{"Password:\nKeePass#" + "Vault7 is where it lives\n", ""},
		// a label of something about the password, and a date below
		{"Password manager:\nKeePassXC-2.7\n", ""},
		{"Password input selector:\n#loginPwd2\n", ""},
		{"Password policy:\nMin-Length=14\n", ""},
		{"Password expiry date:\n2025-01-31T00:00Z\n", ""},
		{"When does the temporary password expire?\nIt's 2024-06-30T23:59Z.\n", ""},
		{"Password strength meter:\nzxcvbn-4.4.2\n", ""},
		{"When was the admin password last rotated?\nIt's 2023-12-01T08:00Z, per the log.\n", ""},
		// and a word saying whose, which is a label
		{"Password for the VPN (until May):\n" + pw() + "\n", RuleProsePasswordBelow},
		{"Passwort für den Drucker:\n" + pw() + "\n", RuleProsePasswordBelow},
		{"La nuova parola d'ordine dell'utenza `svc_print` è:\n\n" + pw() + "\n", RuleProsePasswordBelow},
		{"The new wiki password is:\n" + pw() + "\n", RuleProsePasswordBelow},
		{"Where is the password reset page?\nIt's https://id.acme.example/reset2, linked from the portal.\n", ""},
	}
	checkNoteCases(t, cases)
	// "NOUN: value" of the nouns an older rule reads is theirs; of psk,
	// a pre-shared key, a shared secret and the other languages' nouns,
	// this rule's (review of round 19: nothing read "PSK: …")
	for noun, theirs := range map[string]bool{"password": true, "passphrase": true, "admin passcode": true, "passwort": true, "senha": true,
		"psk": false, "pre-shared key": false, "shared secret": false, "hasło": false, "пароль": false} {
		if nounReadWithColon(noun) != theirs {
			t.Errorf("%q: read by an older rule with a colon: want %v", noun, theirs)
		}
	}
	// in code, these forms are not read (the rules read notes)
	if fs := defaultScanner(t).Scan("src/app.go", []byte("// passphrase "+pw()+"\n")); len(fs) > 0 && fs[0].RuleID == RuleProsePasswordPhrase {
		t.Errorf("a Go file: %v", fs[0].RuleID)
	}
}

// TestNotesCodeForms: the forms in code and commands of notesforms.go
// (a password flag, a literal turned into a signing key's bytes, a URL
// password holding a raw "#", a JWT key passed positionally in PHP, a
// name/value pair whose password people chose), with near-misses.
func TestNotesCodeForms(t *testing.T) {
	g := newFakeGen("notes-code-forms")
	pw := func() string { return g.letters(6) + g.from(alphaDigit, 2) + "#" + g.letters(4) }
	key := func() string { return g.mixed(base62+"+/", 40) }
	lower := func() string { return strings.ToLower(g.letters(9)) + g.from(alphaDigit, 2) + "!" }
	cases := []formCase{
		{"ops/.zsh_history", ": 1717000000:0;sshpass -p '" + pw() + "' scp backup.tgz ops@10.1.2.3:/srv\n", RulePasswordFlag},
		{"deploy/sync.sh", "sshpass -v -p \"" + pw() + "\" rsync -a ./dist web@10.0.0.7:/var/www\n", RulePasswordFlag},
		{"certs/make.sh", "openssl pkcs12 -export -in c.pem -inkey k.pem -out c.p12 -passout pass:" + pw() + "\n", RulePasswordPair},
		{"src/Auth/Keys.cs", "    static readonly SymmetricSecurityKey Signing =\n        new(Encoding.UTF8.GetBytes(\"" + key() + "\"));\n", RuleSigningKeyBytes},
		{"src/main/java/Jwt.java", "SecretKey k = Keys.hmacShaKeyFor(\"" + key() + "\".getBytes(StandardCharsets.UTF_8));\n", RuleSigningKeyBytes},
		{"src/main/java/Mac.java", "mac.init(new SecretKeySpec(\"" + key() + "\".getBytes(), \"HmacSHA256\"));\n", RuleSigningKeyBytes},
		{"app/Auth/Token.php", "return JWT::encode($payload, '" + key() + "', 'HS512');\n", RuleSigningSecret},
		{"docs/failover.md", "    mysql://reports:" + g.letters(5) + "#" + g.from(alphaDigit, 3) + "@db-9.internal:3306/reports\n", RuleURLPasswordHash},
		{"capture/login.har", "{\"params\": [\n  {\n    \"name\": \"password\",\n    \"value\": \"" + lower() + "\"\n  }\n]}\n", RuleNameValueSecret},
		// near-misses
		{"deploy/sync.sh", "sshpass -p \"$SSHPASS\" ssh ops@10.0.0.7 uptime\n", ""},
		{"deploy/sync.sh", "sshpass -f ~/.ssh/pass.txt ssh ops@10.0.0.7 uptime\n", ""},
		{"certs/make.sh", "openssl rsa -in k.pem -passin env:KEY_PASS -out plain.pem\n", ""},
		{"src/Http.cs", "var body = Encoding.UTF8.GetBytes(\"" + key() + "\");\n", ""},
		{"src/Auth/Keys.cs", "new SymmetricSecurityKey(Encoding.UTF8.GetBytes(config[\"Jwt:Key\"]));\n", ""},
		{"docs/links.md", "See https://wiki.acme.example/page#section@v2 and http://host/#@anchor1\n", ""},
		{"docs/failover.md", "postgres://app:${PG_PASS}#@db:5432/app\n", ""},
		// a host, its port and a fragment holding "@"
		{"docs/links.md", "Open http://localhost:3000#email=jane@example.com to test.\n", ""},
		{"docs/links.md", "https://app.acme.example:8443#invite=bob@acme.example\n", ""},
		{"docs/links.md", "irc://irc.libera.chat:6697#ops@libera\n", ""},
		{"docs/links.md", "ws://127.0.0.1:8080#user=ann@corp.example\n", ""},
		// code assembling the command
		{"deploy/run.js", "const cmd = 'sshpass -p ' + opts.secret + ' ssh ' + host;\n", ""},
		{"deploy/run.py", "cmd = 'sshpass -p \"' + creds.secret + '\" ssh ' + host\n", ""},
		{"deploy/run.go", "cmd := \"sshpass -p '\"+cfg.sshSecret+\"' scp\"\n", ""},
		{"deploy/run.rb", "cmd = \"sshpass -p \" + cfg.ssh_secret + \" ssh\"\n", ""},
		// bytes that go to another call, or a key word on a line whose
		// statement ended
		{"src/Sign.cs", "using var hmac = new HMACSHA256(secretBytes);\nvar sig = hmac.ComputeHash(Encoding.UTF8.GetBytes(\"timestamp=1717000000&path=/v2/orders\"));\n", ""},
		{"src/Auth.cs", "var key = new SymmetricSecurityKey(keyBytes);\nvar aud = Encoding.UTF8.GetBytes(\"api://orders-service-v2\");\n", ""},
		{"src/Api.cs", "var secretKey = configuration[\"Jwt:Key\"];\nvar accept = Encoding.UTF8.GetBytes(\"application/vnd.api+json;v=2\");\n", ""},
		{"src/Body.cs", "var signingKey = LoadKey();\nvar body = Convert.ToBase64String(Encoding.UTF8.GetBytes(\"" + key() + "\"));\n", ""},
		{"src/Auth/Keys.cs", "var creds = new SigningCredentials(\n    new SymmetricSecurityKey(Encoding.UTF8.GetBytes(\"" + key() + "\")), alg);\n", RuleSigningKeyBytes},
		{"capture/login.har", "{\"params\": [\n  {\n    \"name\": \"password\",\n    \"value\": \"${LOGIN_PW}\"\n  }\n]}\n", ""},
	}
	checkFormCases(t, cases)
}

// TestFakeBodyAndCutShort: a fixture's token made of stand-in words, and
// a provider's prefix with a tail no format of it has, are no secrets; a
// random body of the same prefix and length is, and so is a weak password
// that holds one stand-in word.
func TestFakeBodyAndCutShort(t *testing.T) {
	g := newFakeGen("fake-body")
	sk, npm := "sk_"+"live_", "np"+"m_"
	for _, v := range []string{sk + "FAKEFAKEFAKEFAKEFAKEFAKE", npm + "TESTTOKENTESTTOKENTESTTOKEN", "pypi-" + strings.Repeat("Dummy", 8), "mocksecretmockkeymock"} {
		if !IsPlaceholder([]byte(v)) {
			t.Errorf("%q: want a placeholder", v)
		}
	}
	for _, v := range []string{sk + g.mixed(base62, 24), npm + g.mixed(base62, 36), "pypi-" + g.mixed(base62, 40), "testtesttest" + g.from(alphaDigit, 6) + g.letters(8), "fakefake"} {
		if fakeBody([]byte(strings.ToLower(v))) {
			t.Errorf("%q: want no fake body", v)
		}
	}
	xb := "xo" + "xb-"
	for _, v := range []string{sk + g.mixed(base62, 6), xb + g.mixed(base62, 9)} {
		if !cutShort([]byte(v)) {
			t.Errorf("%q: want cut short", v)
		}
	}
	// a word that opens random values is no vendor's prefix (review of
	// round 19): "Curl…", "api-…", "dapi…", "test_…", "live_…"
	for _, v := range []string{sk + g.mixed(base62, 24), xb + g.from(alphaDigit, 12) + "-" + g.mixed(base62, 24), "lowercase-but-not-a-prefix",
		"Curl" + "9fK2xLp8", "api-" + "7fK2p9Qx1Lm", "dapi" + "8f3k2l9x0q", "test_" + "Hx8Kq2Lm9", "live_" + "9fK2xLp8Q", "ext_" + g.mixed(base62, 9), "SK_LIVE_" + g.mixed(base62, 6)} {
		if cutShort([]byte(v)) {
			t.Errorf("%q: want not cut short", v)
		}
	}
	// stand-in words with no test's mark are no fixture's
	for _, v := range []string{"apikeyapikeyapikey", "secrettokensecretkey", "npm_authtokenauthkeyauth"} {
		if fakeBody([]byte(v)) {
			t.Errorf("%q: want no fake body", v)
		}
	}
	s := defaultScanner(t)
	if fs := s.Scan("config/app.env", []byte("STRIPE_SECRET_KEY="+sk+g.mixed(base62, 6)+"\n")); len(fs) > 0 {
		t.Errorf("a prefix and six characters: reported by %s", fs[0].RuleID)
	}
	for _, text := range []string{"auth_token = \"Curl" + "9fK2xLp8\"\n", "token = \"api-" + "7fK2p9Qx1Lm\"\n", "{\"apiKey\": \"dapi" + "8f3k2l9x0q\"}\n",
		"API_KEY=test_" + "Hx8Kq2Lm9\n", "secret: \"live_" + "9fK2xLp8Q\"\n", "auth_token = \"Curl" + "7hQ2mZp4x\"\n", "API_KEY=live_" + "Hx8Kq2Lm9Tz\n"} {
		// generic-secret's, as before cutShort (no other rule reads them)
		if fs := s.Scan("config/app.py", []byte(text)); len(fs) != 1 || fs[0].RuleID != RuleGenericSecret {
			t.Errorf("%q: want one %s finding, got %v", text, RuleGenericSecret, fs)
		}
	}
}
