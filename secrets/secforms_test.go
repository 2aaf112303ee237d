package secrets

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

// uuid returns a random version-4 UUID.
func (g *fakeGen) uuid() string {
	h := g.from(hexLower, 32)
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:]
}

// TestPublicHalves: keys their vendors publish by design are not reported
// where their context says they are the public half (a Firebase app's
// config, a reCAPTCHA site key, a Mapbox pk. token); the same values
// elsewhere, and the secret halves beside them, are.
func TestPublicHalves(t *testing.T) {
	g := newFakeGen("public-halves")
	aiza := func() string { return "AI" + "za" + g.mixed(base62+"_-", 35) }
	site := func() string { return "6L" + "c" + g.from(base62+"_-", 37) }
	jwtPart := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	mapbox := func(p string) string {
		return p + "." + jwtPart(`{"u":"acme-maps","a":"`+g.from(alphaLower+"0123456789", 25)+`"}`) + "." + g.from(base62+"_-", 22)
	}
	cases := []formCase{
		// a Firebase web config, in an ES module and in a framework's environment file
		{"web/src/firebase.ts", "export const firebaseConfig = {\n  apiKey: '" + aiza() + "',\n  authDomain: 'shop-7.firebaseapp.com',\n  projectId: 'shop-7',\n};\n", ""},
		{"src/environments/environment.prod.ts", "export const environment = {\n  production: true,\n  firebase: {\n    projectId: 'crm-prod',\n    messagingSenderId: '81724455',\n    apiKey: \"" + aiza() + "\",\n  },\n};\n", ""},
		// Android's google-services.json and iOS's GoogleService-Info.plist
		{"app/google-services.json", "{\n  \"client\": [{\n    \"client_info\": {\"mobilesdk_app_id\": \"1:5512:android:9f\"},\n    \"api_key\": [{\"current_key\": \"" + aiza() + "\"}]\n  }]\n}\n", ""},
		{"ios/GoogleService-Info.plist", "<dict>\n\t<key>API_KEY</key>\n\t<string>" + aiza() + "</string>\n\t<key>GOOGLE_APP_ID</key>\n\t<string>1:5512:ios:ab</string>\n</dict>\n", ""},
		// near-misses: a Google key on a server, a Gemini client's, a
		// Firebase project's key under another name
		{"deploy/.env", "GOOGLE_MAPS_API_KEY=" + aiza() + "\n", RuleGCPAPIKey},
		{"svc/llm.py", "genai.configure(api_key=\"" + aiza() + "\")\n", RuleGCPAPIKey},
		{"web/src/admin.js", "const admin = {\n  authDomain: 'shop-7.firebaseapp.com',\n  serviceKey: '" + aiza() + "',\n};\n", RuleGCPAPIKey},
		{"web/src/maps.js", "const maps = { apiKey: '" + aiza() + "', region: 'eu' };\n", RuleGCPAPIKey},
		// a server's Google key beside a Firebase config: only the key
		// named as the config's, in its block, is the public one
		{"web/.env", "NEXT_PUBLIC_FIREBASE_API_KEY=" + aiza() + "\nNEXT_PUBLIC_FIREBASE_AUTH_DOMAIN=shop-7.firebaseapp.com\nGEMINI_API_KEY=" + aiza() + "\n", RuleGCPAPIKey},
		{"deploy/.env", "GOOGLE_API_KEY=" + aiza() + "\nFIREBASE_AUTH_DOMAIN=shop-7.firebaseapp.com\n", RuleGCPAPIKey},
		{"web/src/init.js", "const firebaseConfig = {\n  apiKey: 'x',\n  authDomain: 'shop-7.firebaseapp.com',\n};\nconst maps = { apiKey: '" + aiza() + "' };\n", RuleGCPAPIKey},
		{"config/keys.py", "# authDomain and projectId live in firebase.json\nYOUTUBE_API_KEY = '" + aiza() + "'\n", RuleGCPAPIKey},
		{"deploy/.env", "MAPS_API_KEY=" + aiza() + "\nFIREBASE_URL=https://shop-7.firebaseio.com\n", RuleGCPAPIKey},
		{"web/.env", "FIREBASE_URL=https://shop-7.firebaseio.com\nPLACES_API_KEY=" + aiza() + "\n", RuleGCPAPIKey},
		// the Firebase key itself, in a .env and in Flutter's options
		{"web/.env", "NEXT_PUBLIC_FIREBASE_API_KEY=" + aiza() + "\nNEXT_PUBLIC_FIREBASE_AUTH_DOMAIN=shop-7.firebaseapp.com\n", ""},
		{"lib/firebase_options.dart", "  static const FirebaseOptions web = FirebaseOptions(\n    apiKey: '" + aiza() + "',\n    appId: '1:5512:web:9f',\n    messagingSenderId: '5512',\n    authDomain: 'shop-7.firebaseapp.com',\n  );\n", ""},

		// reCAPTCHA: the site key in a page, a React prop and a settings file
		{"templates/signup.html", "<form>\n  <div class=\"g-recaptcha\" data-sitekey=\"" + site() + "\"></div>\n</form>\n", ""},
		{"web/Signup.jsx", "<ReCAPTCHA siteKey=\"" + site() + "\" onChange={onCaptcha} />\n", ""},
		{"config/settings.py", "RECAPTCHA_SITE_KEY = '" + site() + "'\n", ""},
		// near-misses: the secret key, named as such, beside it or alone
		{"config/settings.py", "RECAPTCHA_SITE_KEY = 'x'\nRECAPTCHA_SECRET_KEY = '" + site() + "'\n", "*"},
		{"deploy/captcha.env", "RECAPTCHA_PRIVATE_KEY=" + site() + "\n", "*"},
		// a name that only contains site_key, and a site key named on the line above
		{"config/settings.py", "WEBSITE_KEY = '" + site() + "'\n", "*"},
		{"deploy/captcha.env", "# recaptcha site_key below\nCAPTCHA_TOKEN=" + site() + "\n", "*"},

		// Mapbox: public tokens in Swift, JavaScript and an Android resource
		{"App/Map/Tiles.swift", "let token = \"" + mapbox("pk") + "\"\n", ""},
		{"web/map.js", "mapboxgl.accessToken = '" + mapbox("pk") + "';\n", ""},
		{"android/res/values/mapbox.xml", "<string name=\"mapbox_access_token\">" + mapbox("pk") + "</string>\n", ""},
		// near-miss: a secret token
		{"scripts/upload.sh", "export MAPBOX_ACCESS_TOKEN=" + mapbox("sk") + "\n", "*"},
		// near-misses: a password or a JWT that starts pk.eyJ without Mapbox's header
		{"config/db.py", "password = \"pk." + jwtPart(`{"alg":"HS256"}`) + "." + g.mixed(base62, 24) + "\"\n", "*"},
		{"config/db.py", "db_password = \"pk.eyJ" + g.mixed(base62, 20) + "\"\n", "*"},
	}
	checkFormCases(t, cases)
}

// TestInstructionPlaceholders: a value in capitals that says what to put
// there is a placeholder, plain or in a Secret's base64; a password in
// capitals with digits, or a word that only starts like a verb, is not.
func TestInstructionPlaceholders(t *testing.T) {
	for v, want := range map[string]bool{
		"REPLACE_IN_CLUSTER": true, "SET-FROM-VAULT": true, "FILL_ME_IN": true, "INJECTED_BY_CI": true,
		"REPLACE": false, "REPLACE_ME_2": false, "SETTINGS_FILE": false, "REPLACE__ME": false,
		"Replace_In_Cluster": false, "REPLACE_": false, "_REPLACE_ME": false,
		"SET_BY_EXTERNAL_SECRETS": true, "ADD_YOUR_KEY_HERE_NOW": true, "CHANGE-ME": true,
		// a passphrase of capital words that starts with a verb
		"ADD-FALCON-MARBLE-ORBIT-QUIET": false, "SET_TIGER_CANDLE_RIVER": false,
	} {
		if got := instructionCaps([]byte(v)); got != want {
			t.Errorf("instructionCaps(%q) = %v, want %v", v, got, want)
		}
	}
	g := newFakeGen("instruction")
	b64 := base64.StdEncoding.EncodeToString
	secret := func(v string) string {
		return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: partner\ntype: Opaque\ndata:\n  partner_token: " + b64([]byte(v)) + "\n"
	}
	checkFormCases(t, []formCase{
		{"k8s/partner.yaml", secret("SET_BY_EXTERNAL_SECRETS"), ""},
		{"k8s/partner.yaml", secret("PROVIDE-AT-DEPLOY"), ""},
		{"k8s/partner.yaml", secret(g.mixed(base62, 24)), RuleK8sSecretData},
		{"deploy/.env", "DB_PASSWORD=ADD-FALCON-" + "MARBLE-ORBIT-QUIET\n", "*"},
		{"deploy/.env", "DB_PASSWORD=PUT-CEDAR-" + "HARBOR-LANTERN-MOSS\n", "*"},
		{"deploy/.env", "DB_PASSWORD=REPLACE_IN_CLUSTER\n", ""},
	})
}

// TestVendorContextForms: the forms of vendorcontext.go in several
// languages and file kinds, and their near-misses.
func TestVendorContextForms(t *testing.T) {
	g := newFakeGen("vendor-context")
	tok := func() string { return g.mixed(base62+"_-", 40) }
	hex := func(n int) string { return g.from(hexLower, n) }
	mg := func() string { return hex(32) + "-" + hex(8) + "-" + hex(8) }
	sntrys := "sntr" + "ys_" + base64.RawStdEncoding.EncodeToString([]byte(fmt.Sprintf(`{"iat":%d,"org":"acme"}`, 1712000000+g.next()%1000))) + "_" + g.from(base62, 43)
	okta := func() string { return "00" + g.mixed(base62+"_-", 40) }
	cases := []formCase{
		// a Bearer credential written whole in a literal, as header setters take it
		{"App/Net/Client.swift", "request.setValue(\"Bearer " + tok() + "\", forHTTPHeaderField: \"Authorization\")\n", RuleBearerLiteral},
		{"src/main/java/Api.java", "conn.setRequestProperty(\"Authorization\", \"Bearer " + tok() + "\");\n", RuleBearerLiteral},
		{"lib/api.rb", "req[\"Authorization\"] = 'Bearer " + tok() + "'\n", RuleBearerLiteral},
		{"src/api.ts", "const headers = new Headers({ Authorization: `Bearer " + tok() + "` });\n", "bearer-token|" + RuleBearerLiteral},
		{"Api/Client.cs", "http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue(\"Bearer\", \"" + tok() + "\");\n", RuleBearerLiteral},
		{"internal/mail/send.go", "req.Header.Set(\"Authorization\", \"Bearer " + mg() + "\")\n", RuleBearerLiteral},
		// near-misses: built from a variable, a template, a placeholder, words
		{"internal/api/client.go", "req.Header.Set(\"Authorization\", \"Bearer \"+cfg.Token)\n", ""},
		{"src/api.ts", "headers.set('Authorization', `Bearer ${process.env.API_TOKEN}`);\n", ""},
		{"docs/api.md", "Send `Authorization: Bearer <your-api-token>` with every call.\n", ""},
		{"App/Net/Client.swift", "request.setValue(\"Bearer YOUR_ACCESS_TOKEN_HERE\", forHTTPHeaderField: \"Authorization\")\n", ""},
		{"tests/test_auth.py", "assert parse('Bearer missing-scope-for-tenant') is None\n", ""},
		{"internal/cache/key.go", "k := \"bearer " + hex(40) + "\" // sha1 digest of the request\n", ""},
		// an unsigned (alg none) JWT is the jwt rules' to judge
		{"tests/test_auth.py", "assert verify(\"Bear" + "er eyJhbGciOiJub25lIn0.eyJzdWIi" + "OiJ0ZXN0In0.\") is None\n", ""},
		{"src/api.test.ts", "const h = { Authorization: 'Bear" + "er eyJhbGciOiJub25lIn0.eyJzdWIi" + "OiJ1c2VyLTcifQ.' };\n", "!" + RuleBearerLiteral},

		// Sentry's organization token, in code and in a CI file
		{"internal/sync/client.go", "const sentryAuth = \"" + sntrys + "\"\n", "*"},
		{".github/workflows/release.yml", "    env:\n      SOURCEMAP_UPLOAD: " + sntrys + "\n", "*"},
		// near-misses: a secret part one short or one long of Sentry's 43
		{"notes/release.md", "See " + sntrys + " in the upload log.\n", RuleVendorToken},
		{"notes/release.md", "See " + sntrys[:len(sntrys)-1] + " in the upload log.\n", ""},
		{"notes/release.md", sntrys + "Q\n", ""},

		// Okta: the token in a paragraph that names Okta lines before it, and in YAML
		{"notes/incident.md", "The SCIM job stopped when its Okta admin left the company.\nWe minted a fresh credential for the service account (" + okta() + ") and reran the sync.\n", RuleOktaToken},
		{"deploy/okta.yaml", "okta:\n  org: https://acme.okta.com\n  ssws: " + okta() + "\n", "np.okta.1|kingfisher.okta.1|" + RuleOktaToken},
		// near-misses: no Okta near, a number, a value cut short
		{"notes/order.md", "Shipment id 00" + g.mixed(base62, 40) + " left the depot.\n", ""},
		{"notes/okta.md", "Okta: the provisioning job was rerun by hand from the admin console;\nticket 00" + g.from("0123456789", 40) + " is closed.\n", ""},
		{"notes/okta.md", "Okta: the provisioning job was rerun by hand from the admin console;\nrun 00" + g.mixed(base62, 30) + " is closed.\n", ""},

		// Heroku: a UUID under a key that names it, in PHP, Ruby, YAML and .env
		{"app/Config/Integrations.php", "$config['heroku_api_key'] = '" + g.uuid() + "';\n", RuleHerokuKeyNear},
		{"config/initializers/heroku.rb", "HEROKU_CONFIG[\"api_token\"] = \"" + g.uuid() + "\"\n", RuleHerokuKeyNear},
		{"deploy/platforms.yml", "heroku:\n  team: acme\n  api_key: " + g.uuid() + "\n", "*"},
		// near-misses: an app's id, a release's, no Heroku near
		{"deploy/platforms.yml", "heroku:\n  app_id: " + g.uuid() + "\n  release: " + g.uuid() + "\n", ""},
		{"config/app.php", "$config['tenant_token'] = '" + g.uuid() + "';\n", "!" + RuleHerokuKeyNear},
		// near-misses: a form's token, a lock's, beside Heroku settings
		{"config/app.yml", "heroku:\n  app: shop\n  csrf_token: " + g.uuid() + "\n", ""},
		{"infra/main.tf", "resource \"heroku_app\" \"shop\" {\n  name = \"shop\"\n}\n# state\nlock_token = \"" + g.uuid() + "\"\n", "!" + RuleHerokuKeyNear},
		{"config/heroku.yml", "heroku:\n  session_secret: " + g.uuid() + "\n  idempotency_token: " + g.uuid() + "\n  page_token: " + g.uuid() + "\n", "!" + RuleHerokuKeyNear},
		// the key under a name with api/auth beside them stays reported
		{"config/heroku.yml", "heroku:\n  app: shop\n  oauth_token: " + g.uuid() + "\n", "*"},

		// Mailgun by its sending domain: an email, a runbook, a config comment
		{"notes/email.md", "Sure, it's " + mg() + " for the mg.shop.example domain.\n", RuleMailgunDomainKey},
		{"runbooks/newsletter.md", "Domain: mg.news.acme.example\n\nKey: " + mg() + "\n", "*"},
		// near-misses: an image host, an svg path, no domain near
		{"notes/assets.md", "Thumbnail: img.cdn.example/" + mg() + ".png\n", ""},
		{"notes/assets.md", "Icon at icons/svg.sprite " + mg() + "\n", ""},
		{"notes/build.md", "Build " + mg() + " passed.\n", ""},
		// "mg." and one label is no host name
		{"notes/build.md", "Build " + mg() + " passed on mg.ci; see svg.sprite\n", ""},
		{"notes/build.md", "Job " + mg() + " ran at 20mg. dose.\nmg.x is unrelated\n", ""},
	}
	checkFormCases(t, cases)
}

// TestConfigAndCommandForms: a password as an XML element's text and glued
// to a MySQL client's -p, in several file kinds, and their near-misses.
func TestConfigAndCommandForms(t *testing.T) {
	g := newFakeGen("config-command")
	pw := func() string {
		for {
			s := g.mixed(base62, 10) + g.from("!#%_-", 1) + g.mixed(base62, 5)
			if !IsPlaceholder([]byte(s)) {
				return s
			}
		}
	}
	words := func() string { return g.letters(6) + "-" + g.letters(5) + "-" + g.letters(5) + g.from("0123456789", 2) }
	cases := []formCase{
		// Maven's settings.xml, Ivy's credentials, an Android signing config, a passphrase
		{".mvn/settings.xml", "<settings>\n  <servers>\n    <server>\n      <id>corp-releases</id>\n      <username>ci</username>\n      <password>" + words() + "</password>\n    </server>\n  </servers>\n</settings>\n", RuleXMLPasswordElement},
		{"ivysettings.xml", "<credentials host=\"repo.corp\" realm=\"Nexus\">\n  <password>" + pw() + "</password>\n</credentials>\n", RuleXMLPasswordElement},
		{"signing/keystore.xml", "<signing><keyPassword>" + pw() + "</keyPassword></signing>\n", RuleXMLPasswordElement},
		{"gpg/settings.xml", "<gpg.passphrase>" + words() + "</gpg.passphrase>\n", RuleXMLPasswordElement},
		// near-misses: a property, Maven's encrypted form, empty, a fixture,
		// the element described in prose
		{".mvn/settings.xml", "<password>${env.NEXUS_PASSWORD}</password>\n", ""},
		{".mvn/settings.xml", "<password>{COQLCE6DU6GtcS5P=}</password>\n", ""},
		{".mvn/settings.xml", "<password></password>\n<password> </password>\n", ""},
		{"src/test/resources/users.xml", "<password>changeit</password>\n<password>secret</password>\n<password>admin</password>\n", ""},
		{"docs/maven.md", "Put your token in `<password>` and keep `</password>` on the same line.\n", ""},
		// a form's strings in other languages, an encrypted blob
		{"res/strings.de.xml", "<Password>Passwort</Password>\n<ForgotPassword>Vergessen</ForgotPassword>\n", ""},
		{"res/strings.fr.xml", "<LabelPassword>Mot_de_passe</LabelPassword>\n<ConfirmPassword>Confirmer</ConfirmPassword>\n", ""},
		{"res/strings.es.xml", "<password>Contraseña</password>\n<EnterPassword>Introduzca1</EnterPassword>\n", ""},
		{"App.config", "<encryptedPassword>AQAAANCM" + "nd8BFdERjHoAwE/Cl+sBAAAA" + g.mixed(base62, 40) + "</encryptedPassword>\n", ""},
		{"settings.xml", "<ui:NewPassword>Neues_Passwort</ui:NewPassword>\n", ""},
		// a password of letters and a digit or a symbol stays reported
		{"ivysettings.xml", "<password>Kranich" + g.from("0123456789", 3) + "wolke</password>\n", RuleXMLPasswordElement},
		{"ivysettings.xml", "<server:password>" + pw() + "</server:password>\n", RuleXMLPasswordElement},
		// a start tag with attributes: quoted either way, several, a
		// namespace's, an encrypted="false" that says the text is plain
		{"conf/nexus.xml", "<server>\n  <password name=\"deploy\">" + pw() + "</password>\n</server>\n", RuleXMLPasswordElement},
		{"jenkins/credentials.xml", "<com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl plugin=\"credentials@2.6.1\">\n  <password encrypted='false'>" + pw() + "</password>\n</com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>\n", RuleXMLPasswordElement},
		{"keystore.xml", "<ks:Passphrase  type=\"string\"  xml:lang='en' >" + words() + "</ks:Passphrase>\n", RuleXMLPasswordElement},
		{"App.config", "<appSettings>\n  <apiToken service='pagerduty' version='2'>" + g.mixed(base62, 25) + "</apiToken>\n</appSettings>\n", RuleXMLSecretElement},
		{"settings.xml", "<clientSecret xml:space=\"preserve\">" + g.mixed(base62, 32) + "</clientSecret>\n", RuleXMLSecretElement},
		// a chosen secret shorter than a token, in an element named for a
		// secret (RADIUS's shared secret, a client's)
		{"radius/clients.xml", "<radius>\n  <sharedSecret client=\"nas-01\" port=\"1812\">" + g.mixed(base62, 6) + g.from("*!#", 1) + g.from("0123456789", 2) + "Kq</sharedSecret>\n</radius>\n", RuleXMLSecretElement},
		{"App.config", "<clientSecret>" + g.letters(5) + g.from("0123456789", 3) + g.from("!#%", 1) + "</clientSecret>\n", RuleXMLSecretElement},
		// near-misses: a version, words, a fixture's, a token's name
		// that is no secret's
		{"pom.xml", "<secret>v1.2.3-rc1</secret>\n<secret>2.0.1.Final</secret>\n<sharedSecret>Enter the secret</sharedSecret>\n", ""},
		{"App.config", "<clientSecret>changeme1</clientSecret>\n<token>" + g.letters(5) + g.from("0123456789", 3) + "!</token>\n", ""},
		// near-misses: attributes that say the text is no plain
		// credential, a cursor's, a form's label, a placeholder
		{"conf/nexus.xml", "<password encrypted=\"true\">" + pw() + "</password>\n<password hashed=\"yes\">" + pw() + "</password>\n", ""},
		{"conf/nexus.xml", "<password xsi:nil=\"true\">" + pw() + "</password>\n<password algorithm=\"pbkdf2\">" + pw() + "</password>\n", ""},
		{"conf/nexus.xml", "<password name=\"db\">${env.DB_PASSWORD}</password>\n<password name=\"db\">changeit</password>\n", ""},
		{"api/response.xml", "<NextToken encoding=\"base64\">" + g.mixed(base62, 32) + "</NextToken>\n<token type=\"csrf\">" + g.mixed(base62, 24) + "</token>\n<token name=\"next-page\">" + g.mixed(base62, 24) + "</token>\n", ""},
		{"res/strings.xml", "<passwordLabel lang=\"en\">Enter your password</passwordLabel>\n<secretName namespace=\"prod\">db-creds</secretName>\n", ""},

		// a MySQL or MariaDB client with the password glued to -p
		{"ops/backup.cron", "30 2 * * * mysqldump -h db-1 -u backup -p'" + pw() + "' --all-databases | gzip > /srv/db.sql.gz\n", RuleMySQLGluedPassword},
		{"scripts/seed.sh", "mysql --host=db -uroot -p" + g.mixed(base62, 14) + " shop < seed.sql\n", RuleMySQLGluedPassword},
		{"docker-compose.yml", "    healthcheck:\n      test: [\"CMD\", \"mariadb-admin\", \"ping\", \"-uroot\", \"-p" + g.mixed(base62, 14) + "\"]\n", RuleMySQLGluedPassword},
		{"notes/access.md", "to get in: `mysql -h 10.1.2.3 -u app -p\"" + pw() + "\" app`\n", RuleMySQLGluedPassword},
		// near-misses: -p alone prompts, -P is the port, a variable, a
		// placeholder, a -p of another command
		{"scripts/seed.sh", "mysql -u root -p shop < seed.sql\nmysql -h db -P3306 -u root -p\n", ""},
		{"docker-compose.yml", "      test: [\"CMD\", \"mysqladmin\", \"ping\", \"-uroot\", \"-p$MYSQL_ROOT_PASSWORD\"]\n", ""},
		{"docs/db.md", "mysql -u root -p<password> app\nmysql -u root -p'your-password' app\n", ""},
		{"scripts/build.sh", "mkdir -p" + g.mixed(base62, 14) + "\nssh -p2222 host\n", ""},
		// an attribute that names an encryption, a hash or a salt
		{"conf/nexus.xml", "<password encryption=\"aes256\">" + pw() + "</password>\n<password hash=\"x\">" + pw() + "</password>\n<password salt=\"ab\">" + pw() + "</password>\n", ""},
	}
	checkFormCases(t, cases)
}

// TestProsePasswordForms: a password after its name in notes in English
// and in Japanese, Chinese and Korean, a value in markdown bold, and a
// German sentence with a user in backquotes and an adverb; with
// near-misses of each.
func TestProsePasswordForms(t *testing.T) {
	g := newFakeGen("prose-password")
	pw := func() string {
		for {
			s := g.mixed(base62, 16)
			if !IsPlaceholder([]byte(s)) && Entropy([]byte(s)) >= 3.6 && !identifierValue([]byte(s)) {
				return s
			}
		}
	}
	chosen := func() string { return "Harbor" + g.from("0123456789", 4) + "lantern" }
	cases := []formCase{
		{"runbooks/exporter.md", "If auth fails, the exporter logs in as `monitor` with password " + pw() + " - re-enter it and restart.\n", RuleProsePasswordPlain + "|" + RuleProsePasswordPhrase},
		{"postmortems/db.md", "It connected as root; the root password on that host was\nliterally " + pw() + " and was hard-coded in the script.\n", RuleProsePasswordPlain},
		{"handover.txt", "Kiosk: the passphrase for the disk is currently " + pw() + ".\n", RuleProseSecret + "|" + RuleProsePasswordPlain},
		// near-misses: no value, a policy, words, a name in code, code files
		{"runbooks/exporter.md", "The exporter connects with password authentication disabled since 2024.\n", ""},
		{"policy.md", "A password of at least 12 characters with upper and lower case is required.\n", ""},
		{"notes/login.md", "Reset the password for PasswordResetFlowV2 in the admin UI.\n", ""},
		{"notes/login.md", "The password on the staging box was rotated by the on-call engineer.\n", ""},
		{"src/login.go", "// password " + pw() + " is what the fixture server accepts\n", ""},
		// a product's or an account's name after "for/of/on/at/in …"
		{"notes/db.md", "Reset the password for the PostgreSQL13 database before the upgrade.\n", ""},
		{"notes/accounts.md", "The password for the service account SvcDeploy2024Prod is rotated monthly.\n", ""},
		{"notes/ci.md", "Update the password of the GitLab16Runner service.\n", ""},
		{"notes/azure.md", "The password on the AzureSQL2019 instance expires in May.\n", ""},
		{"notes/vpn.md", "Change the password at the Fortigate60F appliance today.\n", ""},
		// the value after such a phrase and a copula is still read
		{"notes/vpn.md", "The password for the VPN appliance is " + pw() + " until Friday.\n", RuleProsePasswordPlain + "|" + RuleProseSecret},
		{"notes/db.md", "password on the PostgreSQL13 box was literally " + pw() + ".\n", RuleProsePasswordPlain + "|" + RuleProseSecret},

		// Japanese, Chinese, Korean
		{"notes/引き継ぎ.md", "- 本番DBのパスワードは「" + chosen() + "」です。ユーザーは batch。\n", RuleProseSecretCJK + "|" + RuleProsePasswordPhrase},
		{"notes/交接.md", "数据库密码是 " + chosen() + "，请勿外传。\n", RuleProseSecretCJK},
		{"notes/인수인계.md", "관리자 비밀번호는 " + chosen() + "입니다.\n", RuleProseSecretCJK},
		{"notes/api.md", "APIキー：" + g.mixed(base62, 32) + "\n", RuleProseSecretCJK},
		// near-misses: a rule about it, a number alone, a reference
		{"notes/ポリシー.md", "パスワードは12文字以上にしてください。\n", ""},
		{"notes/交接.md", "密码是 12345678，这是示例。\n密码是 ${DB_PASSWORD}\n", ""},
		{"notes/인수인계.md", "비밀번호는 금고에 있습니다.\n", ""},
		// a format's, a field's or a header's name
		{"notes/인수인계.md", "토큰은 JWT-RS256 형식입니다.\n", ""},
		{"notes/api.md", "トークンは access_token_v2 フィールドに入ります。\n", ""},
		{"notes/交接.md", "令牌为 OAuth2.0 访问令牌。\n", ""},
		{"notes/api.md", "トークンはX-Api-Key-V2ヘッダーで送ります。\n", ""},
		{"notes/api.md", "APIキーは refresh_token_v3 です。\n", ""},

		// bold values and a German sentence that names its user in code
		{"notes/pt-redis.md", "- O cache é o Redis; senha do Redis: **" + pw() + "!x**\n", RuleProseSecretIntl},
		{"notes/de-vorfall.md", "Das Passwort für den Benutzer `orders_admin` lautet übrigens " + chosen() + " – bitte nicht weitergeben.\n", RuleProseSecretIntl},
		// near-misses: a value cut short in bold is still elided, bold words
		{"notes/pt-redis.md", "- senha do Redis: **" + pw()[:6] + "****\n", ""},
		{"notes/de-vorfall.md", "Das Passwort für den Benutzer `orders_admin` lautet übrigens **nicht** mehr so.\n", ""},
	}
	checkFormCases(t, cases)
}

// TestDenseCSRFTokenRun: a line dense with CSRF_TOKEN= entries gives the
// findings the same entries give on lines of their own: a dense run's
// match is widened over the name before it (CSRF_TOKEN, not _TOKEN, is
// what the rules judge), whichever entry the run begins inside.
func TestDenseCSRFTokenRun(t *testing.T) {
	g := newFakeGen("dense-csrf")
	s := defaultScanner(t)
	for _, sep := range []string{" ", ";", "&"} {
		var entries []string
		for i := range 400 {
			name := "CSRF_TOKEN="
			if i%25 == 24 {
				name = "DEPLOY_TOKEN=" // a secret among them: the two must agree on something
			}
			entries = append(entries, name+g.mixed(base62, 32))
		}
		dense := strings.Join(entries, sep) + "\n"
		apart := strings.Join(entries, "\n") + "\n"
		kinds := func(fs []Finding) map[string]int {
			m := map[string]int{}
			for _, f := range fs {
				m[f.RuleID+" "+f.Fingerprint]++
			}
			return m
		}
		d, a := kinds(s.Scan("app/.env", []byte(dense))), kinds(s.Scan("app/.env", []byte(apart)))
		if len(a) == 0 || len(a) > 16 {
			t.Fatalf("sep %q: the entries on lines of their own give %d findings, want the 16 DEPLOY_TOKEN ones", sep, len(a))
		}
		for k, n := range a {
			if d[k] != n {
				t.Errorf("sep %q: %s: %d on the dense line, %d apart", sep, k, d[k], n)
			}
		}
		for k, n := range d {
			if a[k] == 0 {
				t.Errorf("sep %q: %s: %d on the dense line only", sep, k, n)
			}
		}
	}
}
