package secrets

import "testing"

// TestDeclarationForms: a name and its value in the forms code declares
// them (issue 33, round 20: misses and false alarms of a set written
// blind, read as categories): a password passed with its name as two
// arguments, a typed declaration, a []byte signing key, and what looks
// like them but holds no secret.
func TestDeclarationForms(t *testing.T) {
	checkFormCases(t, []formCase{
		// a name and its value as two quoted arguments
		{"wp-config.php", "define( 'DB_PASSWORD', 'Winter" + "2023#db' );", RulePasswordNameArgument},
		{"config.php", "define(\"SMTP_PASSWORD\", \"r3lay-" + "Mail!77\");", RulePasswordNameArgument},
		{"Mail.java", `props.setProperty("mail.smtp.password", "Sm7p-R` + `elay!x");`, RulePasswordNameArgument},
		{"settings.py", `os.environ.setdefault("DB_PASSWORD", "kX9!qL` + `m2#vRt")`, RulePasswordNameArgument},
		{"seed.rb", `ENV.store('ADMIN_PASSWORD', 'Gr33n-` + `Tea#42')`, RulePasswordNameArgument},
		{"form.php", "$form->addError('password', 'too_short');", ""},
		{"form.js", `form.setFieldError("password", "invalid");`, ""},
		{"i18n.js", `i18n.add("password", "Passwort");`, ""},
		{"mask.py", `text.replace("password", "********")`, ""},
		{"env.go", `os.Getenv("DB_PASSWORD", "")`, ""},
		{"config/database.php", "'password' => env('DB_PASSWORD', 'Lar4vel" + "Pw!x'),", RulePasswordNameArgument},
		{"env.py", `os.getenv("DB_PASSWORD", "kX9!qL` + `m2#vRt")`, RuleEnvDefaultSecret},
		{"t.py", `x = ("password', "kX9!qL` + `m2#vRt")`, ""},
		{"log.py", `logging.getLogger("password", "DEBUG")`, ""},
		{"m.php", `define('DB_PASSWORD', getenv('DB_PASSWORD'));`, ""},
		{"m2.php", `$pw = get("password", 'fallback_value');`, ""},
		// typed declarations: Rust, Kotlin, Swift, TypeScript, Scala
		{"main.rs", `const API_TOKEN: &str = "HI6OpZtks6dPxbs6n1` + `oSc6dluz8G6DMbhQs7";`, RuleGenericSecret},
		{"lib.rs", `static SECRET_KEY: &'static str = "OyM1ky1T4ZJHtPPp3M` + `pMW37dLNK3XblLhDCI";`, RuleGenericSecret},
		{"Api.kt", `private val apiKey: String = "Lz7TUVF8y4oHaFXS5W` + `lZSnTMEVYdz18Sp78w"`, RuleGenericSecret},
		{"Client.swift", `let accessToken: String = "IXoegJxY3WzUOoqdI8` + `VH1mT0APYfI15ty9OK"`, RuleGenericSecret},
		{"client.ts", `const apiKey: string = 'fwN87REtBFjvYaDKaq` + `UmXp7iDIB5B28NilO8';`, RuleGenericSecret},
		{"Conf.scala", `val secretToken: String = "TKzY2cryzQ5IqJ2pZR` + `5v1nSOmP59e1jwQRSw"`, RuleGenericSecret},
		{"client2.ts", `let token: string = process.env.TOKEN;`, ""},
		{"main2.rs", `const API_TOKEN: &str = "";`, ""},
		{"main3.rs", `let token: String = env::var("API_TOKEN").unwrap();`, ""},
		{"Api2.kt", `val apiKey: String = BuildConfig.API_KEY`, ""},
		// a Go []byte key whose name says it signs
		{"auth.go", "package auth\n\nvar signingKey = []byte(\"iN6NxNKaVfJnbv73oY" + "ESxv42QYIqbNo9XKvV\")\n", RuleSigningSecret},
		{"jwt.go", "package auth\n\nvar jwtSigningKey = []byte(\"pWh83jxxYYU8i1IPtI" + "ZUDc2FASBy6iygkB0e\")\n", RuleSigningSecret},
		{"sig.go", "package auth\n\nvar sigKey = []byte(\"pWh83jxxYYU8i1IPtI" + "ZUDc2FASBy6iygkB0e\")\n", ""},
		{"sig2.go", "package auth\n\nvar signatureKey = []byte(\"pWh83jxxYYU8i1IPtI" + "ZUDc2FASBy6iygkB0e\")\n", ""},
		// a locale file's label for the password field
		{"locales/de.json", `{"login": {"password": "Pass` + `wort", "forgot": "Passwort vergessen?"}}`, ""},
		{"locales/pl.json", `{"password": "Has` + `ło"}`, ""},
		{"locales/sv.yml", "password: Lösenord\n", ""},
		{"locales/ja.json", `{"password": "パス` + `ワード"}`, ""},
		{"src/i18n/fr.po", "msgid \"password\"\nmsgstr \"mot de passe\"\npass" + "word = \"Contraseña\"\n", ""},
		{".env", "DB_PASSWORD=Kenn" + "wort\n", "*"},
		{"docker-compose.yml", "    environment:\n      MYSQL_ROOT_PASSWORD: \"cla" + "ve\"\n", "*"},
		{"config.json", `{"password": "Passwo` + `rt2024!"}`, RulePasswordLiteral},
		// an env file whose blank or placeholder value runs on to the
		// next line's name
		{".env.example", "STRIPE_SECRET_KEY=<your-stripe-secret-key>\nSENDGRID_API_KEY=\nJWT_SECRET=changeme\n", ""},
		{".env.sample", "AUTH_TOKEN=<token>\nMAILGUN_API_KEY=\n", ""},
		{".env", "AUTH_TOKEN=<token>\nMAILGUN_API_KEY=HI6Op" + "Ztks6dPxbs6n1oSc6dluz8G6DMbhQs7\n", "*"},
		// a stored digest is what an application keeps instead of the
		// password (Rails' has_secure_password)
		{"db/seeds/users.yml", "admin:\n  email: admin@example.test\n  password_digest: \"$2a$12$FluYU3uTQ.4p17/oWsHr8SzJc/" + "hQnvA3hM7fd2aYZoIdMX/DZLLnh\"\n", ""},
		{"etc/shadow", "digest:$" + "6$Zx81kLpq$" + "Gq1aW2sE3dR4fT5gY6hU7jI8kO9lP0zXcVbNmQwErTyUiOpAsDfGhJkLzXcVbNmQwErTyUiOpAsDfGhJkLzX1234:19000:0:99999:7:::\n", "*"},
		{"deploy/.htpasswd", "admin:$2y$10$FluYU3uTQ.4p17/oWsHr8SzJc/" + "hQnvA3hM7fd2aYZoIdMX/DZLLnh\n", "*"},
	})
}
