package secrets

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"math/big"
	"strings"
	"testing"
)

// TestCodeForms: secrets written in code rather than assigned (issue 33,
// five categories), each written in several languages' idioms with fresh
// values, and the near-misses of each form. Values come from the fake
// generator; provider prefixes are split so no committed file holds one.
func TestCodeForms(t *testing.T) {
	g := newFakeGen("code-forms")
	pw := func() string {
		for {
			s := g.from(base62+"-_!", 18)
			if mixedClasses([]byte(s)) && !IsPlaceholder([]byte(s)) && !strings.ContainsAny(s[:1], "-_!") {
				return s
			}
		}
	}
	key := func(n int) string { return g.mixed(base62, n) }
	b64 := base64.StdEncoding.EncodeToString
	jwtPart := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	spki := func(pub any) string {
		der, err := x509.MarshalPKIXPublicKey(pub)
		if err != nil {
			t.Fatal(err)
		}
		return b64(der)
	}
	// a fixed EC key: a random one's base64 fell below the generic
	// rules' floors in about one run in forty
	ec := fixedECKey(t)
	edPub, _, _ := ed25519.GenerateKey(rand.Reader)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(ec)
	sg, pul := "S"+"G.", "pu"+"l-"

	cases := []formCase{
		// 1. a password passed to a setter, a builder, a constructor
		{"src/main/java/DataSourceConfig.java", "        ds.setPassword(\"" + pw() + "\");\n", RulePasswordArgument},
		{"src/db.rs", "        .user(\"deploy\")\n        .password(\"" + pw() + "\")\n", RulePasswordArgument},
		{"src/test/kotlin/Db.kt", "    .withPassword(\"" + pw() + "\")\n", RulePasswordArgument},
		{"app/db.py", "engine.set_password('" + pw() + "')\n", RulePasswordArgument},
		{"src/Mail.java", "    .credentials(\"mailer\", \"" + pw() + "\")\n", RulePasswordArgument},
		{"lib/Database.php", "return new PDO('mysql:host=db;dbname=app', 'app', '" + pw() + "', []);\n", RulePasswordArgument},
		{"src/Conn.java", "Connection c = DriverManager.getConnection(url, \"report\", \"" + pw() + "\");\n", RulePasswordArgument},
		// (Nosey Parker's generic password rule reads this one first)
		{"src/Client.cs", "var cred = new NetworkCredential(\"svc-sync\", \"" + pw() + "\");\n", "np.generic.7"},
		{"src/Client.cs", "client.Credentials = new NetworkCredential(user, \"" + pw() + "\");\n", RulePasswordArgument},
		{"src/Http.java", "new UsernamePasswordCredentials(\"bot\", \"" + pw() + "\")\n", RulePasswordArgument},
		{"mail/send.go", "auth := smtp.PlainAuth(\"\", \"alerts@acme.example\", \"" + pw() + "\", host)\n", RulePasswordArgument},
		{"internal/store/store.go", "const dsn = \"deploy:" + pw() + "@tcp(db-prod:3306)/orders?parseTime=true\"\n", RulePasswordArgument},
		{"cmd/mig/main.go", "db, err := sql.Open(\"mysql\", \"root:" + pw() + "@unix(/var/run/mysqld.sock)/app\")\n", RulePasswordArgument},
		// near-misses: a variable, a lookup, empty, interpolated, a fixture word
		{"src/Cfg.java", "ds.setPassword(password);\n", ""},
		{"src/Cfg.java", "ds.setPassword(System.getenv(\"DB_PASSWORD\"));\n", ""},
		{"src/Cfg.java", "ds.setPassword(\"\");\n", ""},
		{"src/Cfg.java", "ds.setPassword(\"${DB_PASS}\");\n", ""},
		{"src/test/Cfg.java", "ds.setPassword(\"test\");\n", ""},
		{"src/test/Cfg.java", "ds.setPassword(\"changeme\");\n", ""},
		{"src/test/Cfg.java", "ds.setPassword(\"password\");\n", ""},
		{"src/db.rs", ".password(&cfg.password)\n", ""},
		{"src/test/UserTest.java", "assertFalse(validator.isValidPassword(\"" + pw() + "\"));\n", ""},
		{"src/test/UserTest.java", "String h = encoder.hashPassword(\"" + pw() + "\");\n", ""},
		{"lib/Database.php", "return new PDO($dsn, $user, $pass);\n", ""},
		{"src/Conn.java", "DriverManager.getConnection(url, user, password);\n", ""},
		{"src/Client.cs", "new NetworkCredential(\"svc\", secret.Value);\n", ""},
		{"internal/store/store.go", "dsn := fmt.Sprintf(\"%s:%s@tcp(%s)/%s\", u, p, h, db)\n", ""},
		{"internal/store/store_test.go", "const dsn = \"root:@tcp(127.0.0.1:3306)/test\"\n", ""},
		{"internal/store/store.go", "// dsn: user:password@tcp(localhost:3306)/dbname\n", ""},

		// 2. a signing secret written as a literal
		{"src/auth/token.js", "return jwt.sign({ sub: u.id, role: u.role }, '" + g.from(hexLower, 64) + "', { expiresIn: '12h' });\n", RuleSigningSecret},
		{"src/auth/token.ts", "const t = jwt.sign(claims, \"" + key(48) + "\");\n", RuleSigningSecret},
		{"app/auth.py", "token = jwt.encode(payload, \"" + key(40) + "\", algorithm=\"HS256\")\n", RuleSigningSecret},
		{"app/auth.rb", "JWT.encode(payload, '" + g.from(hexLower, 64) + "', 'HS256')\n", RuleSigningSecret},
		{"internal/auth/jwt.go", "var hmacKey = []byte(\"" + key(48) + "\")\n", RuleSigningSecret},
		{"internal/auth/mac.go", "\tmac := hmac.New(sha256.New, []byte(\"" + key(40) + "\"))\n", RuleSigningSecret},
		{"internal/auth/jwt.go", "\ts, err := tok.SignedString([]byte(\"" + key(40) + "\"))\n", RuleSigningSecret},
		{"src/Auth.java", "Algorithm alg = Algorithm.HMAC256(\"" + key(40) + "\");\n", RuleSigningSecret},
		// generic-secret reads some of these first (its entropy floor)
		{"site/settings/prod.py", "SECRET_KEY = \"" + g.from(alphaLower+alphaDigit+"!@#%^&*(-_=+)", 50) + "\"\n", RuleGenericSecret + "|" + RuleSigningSecret},
		{"patches/app-key.diff", "+APP_KEY=base64:" + b64(g.bytes(32)) + "\n", RuleSigningSecret},
		{"web/app.py", "app.config[\"SECRET_KEY\"] = '" + key(32) + "'\n", RuleSigningSecret},
		// an older rule reads this one
		{"web/app.py", "app.secret_key = '" + key(32) + "'\n", RuleGenericSecret},
		// near-misses
		{"src/auth/token.js", "return jwt.sign(claims, process.env.JWT_SECRET, { expiresIn: '12h' });\n", ""},
		{"src/auth/token.js", "return jwt.sign(claims, secret, { algorithm: 'HS256' });\n", ""},
		{"src/auth/token.test.js", "const t = jwt.sign(claims, 'secret');\n", ""},
		{"src/auth/token.test.js", "const t = jwt.sign(claims, 'your-256-bit-secret');\n", ""},
		{"site/settings/base.py", "SECRET_KEY = os.environ[\"DJANGO_SECRET_KEY\"]\n", ""},
		{"site/settings/dev.py", "SECRET_KEY = 'django-insecure-" + g.from(alphaLower+alphaDigit+"!@#%^&*(-_=+)", 50) + "'\n", ""},
		{"hash/sum_test.go", "\tsum := sha256.Sum256([]byte(\"hello world\"))\n", ""},
		{"hash/mac_test.go", "\tmac := hmac.New(sha256.New, []byte(\"key\"))\n", ""},
		{"hash/mac_test.go", "\tmsg := []byte(\"The quick brown fox jumps over the lazy dog\")\n", ""},
		{"web/app.py", "app.secret_key = os.urandom(24)\n", ""},
		{"deploy/values.yaml", "  secret_key: \"vault:secret/data/app#secret_key\"\n", ""},
		{".env.example", "APP_KEY=\n", ""},
		// fixtures tests and samples write
		{"accounts/tests.py", "        user.set_password('newpassword')\n", ""},
		{"accounts/tests.py", "        user.set_password('bar123')\n", ""},
		{"src/test/java/UserTest.java", "        u.setPassword(\"wrongpassword\");\n", ""},
		{"src/test/java/UserTest.java", "        u.setPassword(\"admin\");\n", ""},
		{"src/main/java/Db.java", "        Connection c = DriverManager.getConnection(url, \"postgres\", \"postgres\");\n", ""},
		{"internal/db/db_test.go", "\tdsn := \"root:rootpassword@tcp(127.0.0.1:3306)/app\"\n", ""},
		{"site/settings/dev.py", "SECRET_KEY = \"dev-secret-key-2024\"\n", ""},
		{"src/auth/token.test.js", "const t = jwt.sign(claims, 'a-string-secret-at-least-256-bits-long');\n", ""},
		{"nginx/sites-enabled/docs", "        proxy_set_header Authorization \"Basic " + b64([]byte("client_id:client_secret")) + "\";\n", ""},
		// a []byte literal that is no key: a signature, a message, data
		{"ssh/testdata/keys.go", "\t\tHexSignature: []byte(\"" + g.from("0123456789abcdef", 64) + "\"),\n", ""},
		{"sign/sign_test.go", "\tsig := ed25519.Sign(priv, []byte(\"" + key(32) + "\"))\n", ""},
		{"jwt/jwt_test.go", "\tsigningInput := []byte(\"" + key(40) + "\")\n", ""},
		{"codec/codec_test.go", "\tdata := []byte(\"" + key(20) + "\")\n", ""},
		// and ones that are
		{"auth/hmac.go", "\tmac := hmac.New(sha256.New, []byte(\"" + key(32) + "\"))\n", RuleSigningSecret},
		{"auth/jwt.go", "\tvar jwtKey = []byte(\"" + key(32) + "\")\n", RuleSigningSecret},
		{"auth/jwt.go", "\ts, err := tok.SignedString([]byte(\"" + key(32) + "\"))\n", RuleSigningSecret},

		// 3. a Basic credential in a header: reported when it decodes to user:password
		{"nginx/sites-enabled/proxy", "        proxy_set_header Authorization \"Basic " + b64([]byte("admin:"+pw())) + "\";\n", RuleBasicAuthHeader},
		{"apache/conf.d/proxy.conf", "    RequestHeader set Authorization \"Basic " + b64([]byte("metabase:"+pw())) + "\"\n", RuleBasicAuthHeader},
		{"haproxy/haproxy.cfg", "    http-request set-header Authorization \"Basic " + b64([]byte("svc:"+pw())) + "\"\n", RuleBasicAuthHeader},
		{"Caddyfile", "\t\theader_up Authorization \"Basic " + b64([]byte("ops:"+pw())) + "\"\n", RuleBasicAuthHeader},
		{"ops/call.sh", "curl -H \"Authorization: Basic " + b64([]byte("deploy:"+pw())) + "\" https://ci.acme.example/api\n", RuleBearerToken},
		{"logs/access.log", "Authorization: Basic " + b64([]byte("etl:"+pw())) + "\n", RuleBearerToken},
		{"client/fetch.go", "\treq.Header.Set(\"Authorization\", \"Basic " + b64([]byte("sync:"+pw())) + "\")\n", RuleBasicAuthHeader},
		{"client/api.py", "headers = {\"Authorization\": \"Basic " + b64([]byte("bot:"+pw())) + "\"}\n", RuleBearerToken},
		// near-misses: a placeholder pair, no pair, a variable
		{"docs/basic-auth.md", "Authorization: Basic " + b64([]byte("username:password")) + "\n", ""},
		{"nginx/sites-enabled/proxy", "proxy_set_header Authorization \"Basic " + b64([]byte("user:pass")) + "\";\n", ""},
		{"nginx/sites-enabled/proxy", "proxy_set_header Authorization \"Basic " + b64([]byte("admin:admin")) + "\";\n", ""},
		{"nginx/sites-enabled/proxy", "proxy_set_header Authorization \"Basic " + b64([]byte("just-some-text-here")) + "\";\n", ""},
		{"nginx/sites-enabled/proxy", "proxy_set_header Authorization \"Basic $http_creds\";\n", ""},
		{"client/fetch.go", "\treq.Header.Set(\"Authorization\", \"Basic \"+basic(u, p))\n", ""},
		{"apache/conf.d/proxy.conf", "RequestHeader set Authorization \"Basic " + b64([]byte("user:<password>")) + "\"\n", ""},
		{"apache/conf.d/proxy.conf", "RequestHeader unset Authorization\n", ""},

		// 4. a token inside an escaped-quote string (a notebook's source line)
		{"nb/explore.ipynb", "    \"os.environ[\\\"SENDGRID_API_KEY\\\"] = \\\"" + sg + key(22) + "." + key(43) + "\\\"\\n\",\n", "sendgrid-api-token"},
		{"nb/explore.ipynb", "    \"pulumi_token = \\\"" + pul + g.from(hexLower, 40) + "\\\"\\n\",\n", "pulumi-api-token"},
		{"nb/explore.ipynb", "    \"os.environ[\\\"SENDGRID_API_KEY\\\"] = \\\"" + sg + "xxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\\"\\n\",\n", ""},

		// 5. false alarms: a prompt's text, a default URL pair, an unsigned
		// JWT, a public key, a placeholder Basic pair
		{"ops/Connect-Sql.ps1", "$user = \"admin\"\n$pass = Read-Host -Prompt 'SQL password' -AsSecureString\n", ""},
		{"ops/Connect.ps1", "$secret = Read-Host -Prompt \"Enter the vault secret\"\n", ""},
		{"tools/login.py", "password = input(\"Password: \")\n", ""},
		{"tools/login.py", "password = getpass.getpass('Vault password for deploy: ')\n", ""},
		{"tools/login.js", "const { password } = await inquirer.prompt({ type: 'password', name: 'password', message: 'Admin password' });\n", ""},
		{"test/setup.js", "process.env.DATABASE_URL = 'postgres://postgres:postgres@localhost:5432/app_test';\n", ""},
		{"test/setup.js", "process.env.BROKER_URL = 'amqp://guest:guest@localhost:5672/';\n", ""},
		{"test/auth.test.js", "const unsigned = '" + jwtPart(`{"alg":"none","typ":"JWT"}`) + "." + jwtPart(`{"sub":"u-`+g.letters(6)+`","role":"admin"}`) + ".';\n", ""},
		{"extension/manifest.json", "  \"key\": \"" + spki(&rsaKey.PublicKey) + "\",\n", ""},
		{"config/keys.json", "  \"api_key\": \"" + spki(&ec.PublicKey) + "\",\n", ""},
		{"config/keys.json", "  \"secret\": \"" + spki(edPub) + "\",\n", ""},
		// a key pasted cut short is still a public key
		{"extension/manifest.json", "  \"key\": \"" + spki(&rsaKey.PublicKey)[:120] + "\",\n", ""},
		// and what stays reported beside them
		{"test/setup.js", "process.env.DATABASE_URL = 'postgres://postgres:" + pw() + "@localhost:5432/app';\n", RuleURLCredentials},
		// a password repeating its user is a default on a stand-in host
		// only: on a real one it opens that host
		{"test/setup.js", "process.env.DATABASE_URL = 'postgres://postgres:postgres@localhost:5432/app';\n", ""},
		{"deploy/prod.env", "DATABASE_URL=postgres://admin:" + "admin@prod-db.corp.internal/app\n", "*"},
		{"deploy/prod.env", "MONGO_URL=mongodb://root:" + "root@mongo-prod.example.io/app\n", "*"},
		{"test/auth.test.js", "const signed = '" + jwtPart(`{"alg":"HS256","typ":"JWT"}`) + "." + jwtPart(`{"sub":"u-`+g.letters(6)+`"}`) + "." + g.from(base62+"-_", 43) + "';\n", RuleJWT},
		{"config/keys.json", "  \"api_key\": \"" + b64(pkcs8) + "\",\n", RuleGenericSecret},
		// a public key followed by more DER is not that key alone
		{"config/keys.json", "  \"api_key\": \"" + b64(append(unb64(spki(&ec.PublicKey)), pkcs8...)) + "\",\n", "*"},
	}
	checkFormCases(t, cases)
}

// TestLineBeforeBounded: the gates' look back reads at most
// lineBeforeReach bytes of a line, however long (the linear tests count
// regexp work, not what gates read: a whole line at every hit was
// quadratic and passed them).
func TestLineBeforeBounded(t *testing.T) {
	line := bytes.Repeat([]byte(`.password("`), 10000)
	for _, end := range []int{0, 5, lineBeforeReach, len(line) / 2, len(line)} {
		if got := lineBefore(line, end); len(got) > lineBeforeReach {
			t.Errorf("at %d: %d bytes read back", end, len(got))
		}
	}
	if got := lineBefore([]byte("a\nbc"), 4); string(got) != "bc" {
		t.Errorf("a line's start: %q", got)
	}
}

func unb64(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// TestBasicPlaceholderHeaders: a Basic credential that decodes to a
// placeholder pair, or to no pair, is none for the rules that read
// Authorization headers as sotvet's (bearer-token, basic-auth-header).
// Gitleaks' curl-auth-header, imported as it is, still reports a curl -H
// one: a filter for every rule changed what the third-party import takes.
func TestBasicPlaceholderHeaders(t *testing.T) {
	s := defaultScanner(t)
	for _, text := range []string{
		"Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("user:pass")) + "\n",
		"        proxy_set_header Authorization \"Basic " + base64.StdEncoding.EncodeToString([]byte("username:password")) + "\";\n",
	} {
		if fs := s.Scan("docs/howto.md", []byte(text)); len(fs) > 0 {
			t.Errorf("reported by %s: %q", fs[0].RuleID, text)
		}
	}
}

// fixedECKey returns a P-256 key whose scalar is a fixed value (no key
// literal in the repository for sotvet scan . to report).
func fixedECKey(t *testing.T) *ecdsa.PrivateKey {
	d := new(big.Int).SetBytes(sha256Sum("codeforms fixed ec key"))
	d.Mod(d, elliptic.P256().Params().N)
	k, err := ecdh.P256().NewPrivateKey(d.FillBytes(make([]byte, 32)))
	if err != nil {
		t.Fatal(err)
	}
	pub := k.PublicKey().Bytes() // 0x04 || X || Y
	return &ecdsa.PrivateKey{
		PublicKey: ecdsa.PublicKey{Curve: elliptic.P256(), X: new(big.Int).SetBytes(pub[1:33]), Y: new(big.Int).SetBytes(pub[33:])},
		D:         d,
	}
}

func sha256Sum(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// TestFirstByteLiteral: where the lowered line's first "[]byte(" is.
func TestFirstByteLiteral(t *testing.T) {
	for _, s := range []string{
		"", "[]", "[]byte", "[]byte(", "x := []byte(", "[][]byte(", "[]BYTE(x) []byte(", "[] byte(", "a[]b[]Byte(",
		"mac := hmac.New(sha256.New, []byte(", "ключ := []byte(", "[]bytes(", "[[[]]]byte(",
	} {
		want := strings.Index(strings.ToLower(s), "[]byte(")
		if got := firstByteLiteral([]byte(s)); got != want {
			t.Errorf("firstByteLiteral(%q) = %d, want %d", s, got, want)
		}
	}
}
