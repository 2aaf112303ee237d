package secrets

import (
	"strings"
	"testing"
)

// TestPeerForms: the forms peerforms.go reads, written as people write
// them (paraphrases of the forms of CredSweeper's samples, not its
// values), each reported by its rule; and the look-alikes each rule must
// leave alone. Values come from the fake generator.
func TestPeerForms(t *testing.T) {
	g := newFakeGen("peer-forms")
	// a chosen password: letters of both cases, digits and a symbol
	pw := func() string {
		for {
			s := g.from(base62+"!#%@*", 11)
			if passwordShaped([]byte(s)) && strings.ContainsAny(s, "!#%@*") && mixedClasses([]byte(s)) && !IsPlaceholder([]byte(s)) && !strings.ContainsAny(s[:1], "@%") {
				return s
			}
		}
	}
	lowerAlnum := alphaLower + alphaDigit
	cases := []formCase{ // rule "" for no finding
		// password-pair: unquoted after a colon, glued "=", macros, typed
		{"deploy/values.yaml", "db:\n  db_password: " + pw() + "\n", RulePasswordPair},
		{"notes/access.txt", "staging box ID:deploy PW:" + pw() + "\n", RulePasswordPair},
		{"notes/access.txt", "user:admin,pass:" + pw() + "\n", RulePasswordPair},
		{"notes/access.txt", "10.1.2.3/pwd:" + pw() + "\n", RulePasswordPair},
		{"config/app.env", "REPORTING_PSWD=" + pw() + "\n", RulePasswordPair},
		{"build.sh", "openssl pkcs12 -export -passin pass:" + pw() + " -in a.pem\n", RulePasswordPair},
		{"src/conf.h", "#define ADMIN_PASSWORD \"" + pw() + "\"\n", RulePasswordPair},
		{"src/Conn.scala", "  val password: String = \"" + pw() + "\",\n", RulePasswordPair},
		{"deploy/values.yaml", "password: ${DB_PASSWORD}\n", ""},
		{"deploy/values.yaml", "password: changeme\n", ""},
		{"deploy/values.yaml", "password: db-credentials\n", ""},
		{"deploy/values.yaml", "password: !vault |\n", ""},
		{"deploy/values.yaml", "bypass: " + pw() + "\n", ""},
		{"docs/setup.md", "Password: Required\n", ""},
		{"src/conf.h", "#define PASSWORD_LEN 64\n", ""},
		// a header written into a string, its blanks escaped: the name is
		// not the escape's letter and "password" ("tpassword", "npw")
		{"build/files.json", `{"conf.h": "#define\tpassword\t\"` + pw() + `\""}` + "\n", RulePasswordPair},
		{"build/files.json", `{"env": "HOST=db1\npw:` + pw() + `"}` + "\n", RulePasswordPair},
		// a test runner's report: go test's subtests, automake's suite
		{"testdata/run.out", "        --- PASS: TestDecode/utf_16 (0.02s)\n", ""},
		{"testdata/run.json", `{"Action":"output","Output":"    --- PASS: TestSplit/case_3 (0.11s)\\n"}` + "\n", ""},
		{"tests/suite.log", "PASS: unit-tests-4\n", ""},
		{"tests/run.sh", "# prints \"PASS: unit-tests-4\" on success\n", ""},
		{"tests/run.sh", "# \"PASS: unit-tests-4\" when it passes\n", ""},
		// names that end in "pw" or "pass" without being a password's
		{"src/arch/tables.s", "\tAXCHGPW:  0x0A3E1 << 11, // xchg.w\n", ""},
		{"audio/filter.conf", "highpass=f=250Hz,volume=2\n", ""},
		{"docs/radio.md", "Bandpass: 1.8kHz-4kHz\n", ""},
		// but a password's own short name counts as a word of its name
		{"config/app.env", "dbPass:" + pw() + "\n", RulePasswordPair},
		{"config/app.env", "SMTP.pwd: " + pw() + "\n", RulePasswordPair},
		{"notes/access.txt", "host:gw1 (SVCpw:" + pw() + ")\n", RulePasswordPair},
		// binary data: bytes past ASCII and control bytes are no symbols
		{"testdata/blob.bin", "\x00\x93pw=\x7f\xc1Ab9\x8e\x05zQ\xe2\n", ""},
		// not password-pair's, but a password a sentence gives: prose-secret's
		{"docs/setup.md", "Type the password \"" + pw() + "\" when asked.\n", RuleProseSecret},

		// secret-option: a command's option, PowerShell, libcurl
		{"ops/backup.sh", "mysqldump -u root --password " + pw() + " app > app.sql\n", RuleSecretOption},
		{"ops/backup.sh", "gpg --batch --decrypt --passphrase '" + pw() + "' -o out.tar in.gpg\n", RuleSecretOption},
		{"ops/setup.ps1", "$p = ConvertTo-SecureString -String \"" + pw() + "\" -AsPlainText -Force\n", RuleSecretOption},
		{"src/fetch.c", "curl_easy_setopt(h, CURLOPT_PROXYUSERPWD, \"svc:" + g.letters(14) + "\");\n", RuleSecretOption},
		{"ops/login.sh", "echo $PW | docker login --password-stdin\n", ""},
		{"ops/login.sh", "mysql --password $DB_PASSWORD\n", ""},
		{"ops/login.sh", "tool --token <your-token>\n", ""},
		{"ops/login.sh", "tool --token-file ./token.txt\n", ""},
		// a BuildKit secret mount, a secret manager's resource path, an
		// archiver's glued -p and its argument
		{"ci/build.sh", "docker buildx build --secret id=pip,src=$HOME/.pip.conf .\n", ""},
		{"ci/build.sh", "fetch --secret vaults/Ops-Main/items/api-key2 > key\n", ""},
		{"ci/pack.sh", "7z x -ppassword Q3-Report.7z -o out/\n", ""},

		// sql-password
		{"db/init.sql", "CREATE USER reporting WITH ENCRYPTED PASSWORD '" + pw() + "';\n", RuleSQLPassword},
		{"db/init.sql", "ALTER USER 'app'@'%' IDENTIFIED BY '" + pw() + "';\n", RuleSQLPassword},
		{"db/init.sql", "CREATE ROLE etl LOGIN PASSWORD " + g.letters(8) + g.from(alphaDigit, 3) + ";\n", RuleSQLPassword},
		{"db/init.sql", "ALTER USER app PASSWORD EXPIRE;\n", ""},
		{"docs/tenancy.md", "Each tenant is identified by tenantId and every user password field is hashed.\n", ""},
		{"db/init.sql", "CREATE USER app IDENTIFIED BY :new_password;\n", ""},
		// MySQL 5's stored hash (round 49): an unsalted double SHA-1,
		// reported as .htpasswd lines are
		{"db/init.sql", "GRANT ALL ON db.* TO 'x'@'%' IDENTIFIED BY PASSWORD '*" + strings.ToUpper(g.from(hexLower, 40)) + "';\n", RuleSQLPassword},
		// "identified by" and "with password" in prose, PASSWORD( as a method
		{"docs/api.md", "Each frame is identified by Frame-ID2 in its header.\n", ""},
		{"docs/api.md", "Requests are identified by X-Trace-Id.\n", ""},
		{"docs/auth.md", "Log in with password Forgot-Link.\n", ""},
		{"docs/auth.md", "Log in with password Forgot-Link when the account is locked.\n", ""},
		{"notes/access.txt", "db01 user ops password " + pw() + "\n", RuleSQLPassword},
		{"src/client_test.go", "\tauth := []ssh.AuthMethod{ssh.Password(\"secretpw\")}\n", ""},
		{"db/init.sql", "INSERT INTO users VALUES(PASSWORD('ab1'));\n", ""},
		{"db/init.sql", "INSERT INTO users VALUES(password('" + pw() + "'));\n", RuleSQLPassword},
		{"db/init.sql", "CREATE USER ops IDENTIFIED BY Kx" + g.from(alphaDigit, 4) + "q;\n", RuleSQLPassword},

		{"db/init.sql", "UPDATE mysql.user SET authentication_string = PASSWORD('" + pw() + "') WHERE User = 'app';\n", RuleSQLPassword},
		{"src/auth.py", "    if not check_password('" + pw() + "'):\n", ""},
		{"src/auth.py", "xpassword ('" + pw() + "')\n", ""},

		// env-default-secret
		{"app/settings.py", "DB_PASS = os.getenv(\"DB_PASSWORD\", \"" + pw() + "\")\n", RuleEnvDefaultSecret},
		// a key named as a macro's is (lastWordsNameSecret): signing, not only api
		{"app/settings.py", "KEY = os.getenv(\"JWT_SIGNING_KEY\", \"" + pw() + "\")\n", RuleEnvDefaultSecret},
		{"app/settings.py", "KEY = os.getenv(\"SIGNING_KEY_ID\", \"" + pw() + "\")\n", ""},
		{"app/settings.py", "token = os.environ.get('API_TOKEN') or '" + g.mixed(base62, 24) + "'\n", RuleEnvDefaultSecret},
		{"web/config.js", "const secret = process.env.SESSION_SECRET || \"" + pw() + "\";\n", RuleEnvDefaultSecret},
		{"docker-compose.yml", "      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-" + pw() + "}\n", RuleEnvDefaultSecret},
		{"docker-compose.yml", "      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-postgres}\n", ""},
		{"app/settings.py", "HOST = os.getenv(\"DB_HOST\", \"" + pw() + "\")\n", ""},
		{"app/settings.py", "MAX_TOKENS = os.getenv(\"MAX_TOKEN\", \"4096\")\n", ""},
		// a fallback that names the value or says it is missing
		{"app/settings.py", "token = os.getenv(\"GITLAB_TOKEN\", \"Api-Token2\")\n", ""},
		{"docker-compose.yml", "      DB_PASSWORD: ${DB_PASSWORD:-Unset-Value9}\n", ""},
		{"docker-compose.yml", "      DB_PASSWORD: ${DB_PASSWORD:-Missing-Secret1}\n", ""},

		// provider formats
		{"ci/env.txt", "cfut_" + g.mixed(base62, 48) + "\n", "cloudflare-api-token"},
		{"ci/env.txt", "docker swarm join --token " + "SWMTKN-1-" + g.from(lowerAlnum, 50) + "-" + g.from(lowerAlnum, 25) + " 10.0.0.1:2377\n", "docker-swarm-join-token"},
		{"ci/env.txt", "SWMKEY-1-" + g.mixed(base62, 43) + "\n", "docker-swarm-unlock-key"},
		{"ci/env.txt", "llx-" + g.mixed(base62, 48) + "\n", "llamacloud-api-key"},
		{"ci/env.txt", "tgp_v1_" + g.mixed(base62, 43) + "\n", "together-api-key"},
		{"ci/env.txt", "vcp_" + g.mixed(base62, 56) + "\n", "vercel-token"},
		{"ci/env.txt", "nfp_" + g.mixed(base62, 36) + "\n", "netlify-pat"},
		{"ci/env.txt", "phx_" + g.mixed(base62, 47) + "\n", "posthog-personal-api-key"},
		{"ci/env.txt", "PMAT-" + g.from(alphaUpper+alphaDigit, 26) + "\n", "postman-collection-token"},
		{"ci/env.txt", "akab-" + g.from(lowerAlnum, 16) + "-" + g.from(lowerAlnum, 16) + "\n", "akamai-client-token"},
		// the client token's host name is no secret
		{"ci/env.txt", "host: akab-" + g.from(lowerAlnum, 16) + "-" + g.from(lowerAlnum, 16) + ".luna.akamaiapis.net\n", ""},
		// a project key PostHog publishes in every page
		{"web/index.html", "posthog.init('phc_" + g.mixed(base62, 43) + "')\n", ""},
		// password-pair: a short name glued to the service it opens, in
		// capitals; not one glued to any other word
		{"deploy/.env", "REDISPASS=" + pw() + "\n", RulePasswordPair},
		{"deploy/compose.yaml", "      MARIADB_ROOTPWD: " + pw() + "\n", RulePasswordPair},
		{"deploy/compose.yaml", "      SURPASS: " + pw() + "\n", ""},
		{"audio/filter.conf", "LOWPASS=" + pw() + "\n", ""},
	}
	// Formats found missing in prose by drawing documented tokens (no
	// SONAR_TOKEN or API_KEY name beside them); their own generator, so
	// that the values drawn above do not move.
	h := newFakeGen("peer forms, prose")
	cases = append(cases,
		formCase{"docs/ops.md", "- The openrouter key for the worker is `sk-or" + "-v1-" + h.from(hexLower, 64) + "`, rotate it.\n", "openrouter-api-key"},
		formCase{"docs/ops.md", "- The sonar token is `sq" + "u_" + h.from(hexLower, 40) + "`.\n", "sonarqube-token|sonar-api-token"},
		formCase{"docs/ops.md", "CI analyses with sq" + "a_" + h.from(hexLower, 40) + " as its global token.\n", "sonarqube-token"},
		formCase{"docs/ops.md", "OpenRouter keys start with sk-or" + "-v1- and hold 64 hex digits.\n", ""},
		// cut short: a prefix at an unexpected length (issue 33 point 2)
		formCase{"docs/ops.md", "squ_" + h.from(hexLower, 20) + " is cut short\n", RulePrefixedToken},
		// password-pair: "P/W", the abbreviation notes write, alone or
		// after the user's (round forty-three; last, so that the draws
		// above stay as they were)
		formCase{"notes/access.md", "- server P/W: " + pw() + "\n", RulePasswordPair},
		formCase{"notes/access.md", "ID: admin, P/W: " + pw() + "\n", RulePasswordPair},
		formCase{"notes/access.md", "p/w:" + pw() + "\n", RulePasswordPair},
		// but no other word's "p/w", and no placeholder after it
		formCase{"docs/proxy.md", "http/ws: upgrade\ntcp/w: " + pw() + "\n", ""},
		formCase{"notes/access.md", "- P/W: see vault\n- P/W: ${ADMIN_PASSWORD}\nP/W ratio: 1.5\nP/W: N/A\n", ""},
	)
	checkFormCases(t, cases)
}

func TestPasswordVariant(t *testing.T) {
	for _, w := range []string{"pw", "p/w", "pwd", "pswd", "psswd", "pswrd", "psword", "psswrd", "pssword", "paswd", "paswrd", "pasword", "pass", "passwd", "password", "passwords", "passphrase"} {
		if !passwordVariant(w) {
			t.Errorf("%s: not a password's name", w)
		}
	}
	for _, w := range []string{"pwdx", "pad", "passed", "pword", "pasword2", "ps", "pssssd", "p/wd", "tcp/w"} {
		if passwordVariant(w) {
			t.Errorf("%s: taken for a password's name", w)
		}
	}
}
