package secrets

import (
	"slices"
	"testing"
)

// TestTypedForms: the vendor formats and the code forms of round 21
// (typedforms.go, and Rust's Credentials::new in password-argument), and
// what looks like them but holds no secret. The values are split so that
// a scan of this repository finds none of them.
func TestTypedForms(t *testing.T) {
	uuid := "86cee912-ada6-" + "423e-92e7-f56f9d0ce4ff"
	checkFormCases(t, []formCase{
		// LaunchDarkly: sdk- and a UUID, whatever the name or the call
		{"flags.go", `client, _ := ld.MakeClient("sdk-` + uuid + `", 5*time.Second)`, RuleLaunchDarklySDKKey},
		{".env", "LD_KEY=sdk-" + uuid + "\n", "*"},
		{"ld.yaml", "featureFlags:\n  serverKey: sdk-" + uuid + "\n", "*"},
		{"mobile.kt", `LDConfig.Builder(AutoEnvAttributes.Enabled).mobileKey("mob-` + uuid + `").build()`, ""},
		{"ld2.go", `ld.MakeClient("sdk-00000000-0000-0000-0000-000000000000", 5*time.Second)`, ""},
		{"id.go", `const build = "my-sdk-` + uuid + `"`, ""},
		// Braintree: access_token$production|sandbox$merchant$hash
		{"braintree.env", "BT_TOKEN=access_token$production$l0n9ksbb" + "omype7cq$feb7ddc7cb40a840c9279e1c6c1714bd\n", "*"},
		{"pay.rb", `gateway = Braintree::Gateway.new(access_token: "access_token$sandbox$q7w2mdk4` + `x9zv3rt$0c1e5a7d9b3f2e4c6a8b0d1f3e5c7a9b")`, ""},
		{"pay2.rb", `gateway = Braintree::Gateway.new(access_token: "access_token$sandbox$q7w2mdk4` + `x9zv3rtp$0c1e5a7d9b3f2e4c6a8b0d1f3e5c7a9b")`, RuleBraintreeAccessToken},
		{"docs.md", "The token looks like `access_token$production$<merchant_id>$<hash>`.\n", ""},
		// a literal handed to a type that holds a secret
		{"Search.kt", `val client = ClientSearch(ApplicationID("LATENCY"), APIKey("541b0536` + `12bd968ed5b97a5ed5df2a2c"))`, RuleSecretTypeLiteral},
		{"Index.scala", `val key = ApiKey("f3Ab9kQz` + `L2mX8pWv4nR7tY1c")`, RuleSecretTypeLiteral},
		{"settings.py", `api_token = SecretStr("Zq8vN3kLp` + `W6tR1yH4mB9cX2d")`, RuleSecretTypeLiteral},
		{"main.rs", `let key = SecretString::new("Zq8vN3kLp` + `W6tR1yH4mB9cX2d".to_string());`, RuleSecretTypeLiteral},
		{"main2.rs", `let key = Secret::new(String::from("Zq8vN3kLp` + `W6tR1yH4mB9cX2d"));`, RuleSecretTypeLiteral},
		{"Search2.kt", `val client = ClientSearch(ApplicationID("LATENCY"), APIKey("YOUR_ADMIN_API_KEY"))`, ""},
		{"Search3.kt", `val key = APIKey(BuildConfig.ALGOLIA_KEY)`, ""},
		{"Search4.kt", `val key = APIKey("search-only-public")`, ""},
		{"settings2.py", `password = SecretStr("changeme")`, ""},
		{"main3.rs", `let key = SecretString::new(env::var("API_KEY")?);`, ""},
		{"k8s.ts", `const s = new k8s.core.v1.Secret("app-secret-2024x", { data: {} });`, ""},
		{"infra.ts", `const s = new aws.secretsmanager.Secret("dbPassword2024Prod");`, ""},
		{"api.md", "GET https://api.example.com/v1/sdks/sdk-" + uuid + "/versions\n", ""},
		// chosen passwords in a secret-holding type; rustfmt's broken calls
		{"settings3.py", `db_password = SecretStr("Tr0ub4` + `dor&3x")`, RuleSecretTypeLiteral},
		{"main4.rs", "let key = SecretString::from(\"Pg_Prod_" + "2024!\");", RuleSecretTypeLiteral},
		{"main5.rs", "let key = secrecy::SecretString::new(\n    \"Gy4Nq8Wz" + "2Kx7Mv3L\".to_string(),\n);", RuleSecretTypeLiteral},
		{"main6.rs", "let key = SecretBox::new(Box::new(\"Jx7Qm2Lp" + "9Vw4Kz8N\".to_owned()));", RuleSecretTypeLiteral},
		{"infra2.ts", `const k = new aws.apigateway.ApiKey("ordersApiKey2024");`, ""},
		{"main7.rs", `let s = Secret::new("projects/my-proj-123/secrets/db-pass/versions/latest".to_string());`, ""},
		// Rust: lettre's Credentials::new(user, password)
		{"smtp6.rs", `let creds = Credentials::new(String::from("bot"), String::from("Cx9Kq4Zw` + `7Mv2Lp5T"));`, RulePasswordArgument},
		{"smtp.rs", `let creds = Credentials::new("relay@acme.io".to_owned(), "Smtp-Rel` + `ay-99!".to_owned());`, RulePasswordArgument},
		{"smtp2.rs", `let creds = Credentials::new(user, String::from("Smtp-Rel` + `ay-99!"));`, RulePasswordArgument},
		{"smtp3.rs", `let creds = Credentials::new("relay@acme.io".to_owned(), env::var("SMTP_PASS")?);`, ""},
		{"smtp4.rs", `let creds = Credentials::new(user, pass);`, ""},
		{"smtp5.rs", `let creds = Credentials::new("relay".to_owned(), "password".to_owned());`, ""},
	})
}

// TestConfigDirectivePassword: passwords of server directives written with
// blanks (round 22's blind files set held a redis.conf), and the
// documentation, references and sentences that name the directives.
func TestConfigDirectivePassword(t *testing.T) {
	pw := "fanEAz3Ic" + "MKuA0Ts3X"
	checkFormCases(t, []formCase{
		{"redis.conf", "bind 0.0.0.0\nport 6379\nrequirepass " + pw + "\nmaxmemory 4gb\n", RuleConfigDirectivePassword},
		{"replica.conf", "replicaof 10.0.0.5 6379\nmasterauth \"Tulip77" + "32pond\"\n", RuleConfigDirectivePassword},
		{"compose.yml", "services:\n  cache:\n    command: redis-server --requirepass Tu" + "lip7732pond --appendonly yes\n", RuleConfigDirectivePassword},
		{"keepalived.conf", "vrrp_instance VI_1 {\n  authentication {\n    auth_type PASS\n    auth_pass Kx93" + "mQ2z\n  }\n}\n", RuleConfigDirectivePassword},
		{"haproxy.cfg", "userlist ops\n    user deploy insecure-password Tulip77" + "32pond\n", RuleConfigDirectivePassword},
		{"haproxy2.cfg", "listen stats\n    bind :8404\n    stats auth admin:Tulip77" + "32pond\n", RuleConfigDirectivePassword},
		// the documentation's own sample, references, sentences
		{"redis2.conf", "# requirepass foobared\n", ""},
		{"redis3.conf", "requirepass ${REDIS_PASSWORD}\n", ""},
		{"redis4.conf", "requirepass <your-password>\n", ""},
		{"notes.md", "Set requirepass in redis.conf, then restart; masterauth must match it.\n", ""},
		{"notes2.md", "The requirepass directive is commented out by default.\n", ""},
		{"keepalived2.conf", "    auth_pass 1111\n", ""},
		{"haproxy3.cfg", "    user deploy password $6$rounds=5000$abc$def\n", ""},
		// round 22's review: two directives in a row, CRLF, case, a "#"
		// inside the value, an exec array, a flag's "=", a comment after
		{"upper.conf", "REQUIREPASS Pa55#wo" + "rd2024\n", RuleConfigDirectivePassword},
		{"exec.yml", `command: ["redis-server", "--require` + `pass", "Zx9kq2LmRt7vW"]` + "\n", RuleConfigDirectivePassword},
		{"flag.yml", "command: redis-server --requirepass=Zx" + "9kq2LmRt7vW\n", RuleConfigDirectivePassword},
		{"tab.cfg", "listen s\n    stats\tauth admin:Pr0dSt4" + "tsQ9\n", RuleConfigDirectivePassword},
		{"k2.conf", "vrrp {\n  auth_pass Kx93m" + "Q2z   # shared\n}\n", RuleConfigDirectivePassword},
		// sentences that name a directive, code, nginx's proxy_pass
		{"notes3.md", "Set requirepass first, then restart the replicas.\nWhen requirepass changes, update masterauth too.\nrequirepass changes.\n", ""},
		{"vrrp.py", "        auth_pass=No" + "ne\n        auth_pass=set" + "tings.VRRP_AUTH\n", ""},
		{"haproxy4.cfg", "    stats auth admin1:AdMiN123\n", ""},
		{"nginx.yml", `proxy_pass: "backend_pool"` + "\n", ""},
	})
	// directives on consecutive lines, LF and CRLF: one finding a line
	s := defaultScanner(t)
	for _, nl := range []string{"\n", "\r\n"} {
		text := "requirepass Zx9kq2Lm" + "Rt7vW" + nl + "masterauth Ms7tQ2vL" + "p9Xc" + nl +
			"userlist ops" + nl + "    user a insecure-password Xk29f" + "Lq7Zp" + nl + "    user b insecure-password Yk29f" + "Lq7Zq" + nl
		var lines []int
		for _, f := range s.Scan("two.conf", []byte(text)) {
			if f.RuleID == RuleConfigDirectivePassword {
				lines = append(lines, f.Line)
			}
		}
		if want := []int{1, 2, 4, 5}; !slices.Equal(lines, want) {
			t.Errorf("line ends %q: findings on lines %v, want %v", nl, lines, want)
		}
	}
}

// TestPasswordLiteralNamesAndEnds: a literal ending in "+" is whole when
// quoted on both sides; "pass" after an account's name is a password; a
// test's "wrong" password is not one.
func TestPasswordLiteralNamesAndEnds(t *testing.T) {
	v := "sugar63" + "49+"
	checkFormCases(t, []formCase{
		{"Db.java", `    private static final String PASS = "` + v + `";`, RulePasswordLiteral},
		{"Db2.java", `    private static final String DB_PASS = "` + v + `";`, RulePasswordLiteral},
		{"cfg.py", "REDIS_PASS = \"" + "Kx93mQ2zLp" + "\"", RulePasswordLiteral},
		{"msg.java", `String msg = "password: "+name+"";`, ""},
		{"t.java", `boolean testPass = "Kx93mQ2z` + `Lp";`, ""},
		{"test_login.py", `r = client.post("/login", json={**FAKE_USER, "password": "wrong"})`, ""},
		{"test_signup.py", `r = client.post("/signup", json={"confirm_password": "different"})`, ""},
	})
}
