package secrets

import "testing"

// TestMessageBundle: a password key whose value is the word password in a
// language, or the first word of a message, is a label in a translation
// bundle known by its path or by its content (message keys whose other
// values are sentences); elsewhere (an .env file, a Spring
// application.properties) such a value is still someone's password.
func TestMessageBundle(t *testing.T) {
	s := defaultScanner(t)
	for _, c := range []struct{ path, text, rule string }{
		// by content: no translation path
		{"auth.properties", "# Anmeldung\nauth.username=Benutzername\nauth.pass=Kennwort\nauth.pass.wrong=Das Kennwort stimmt nicht.\nauth.pass.expired=Ihr Kennwort ist abgelaufen, bitte neu setzen.\n", ""},
		{"form.properties", "form.password=Contraseña\nform.password.help=La contraseña debe tener al menos ocho caracteres.\nform.password.mismatch=Las contraseñas no coinciden.\n", ""},
		{"login.properties", "login.password=Wachtwoord\nlogin.password.hint=Kies een sterk wachtwoord.\nlogin.failed=Inloggen is mislukt, probeer het opnieuw.\n", ""},
		{"konto.properties", "konto.haslo=Hasło\nkonto.password=Hasło\nkonto.password.blad=Hasło jest nieprawidłowe.\nkonto.zapisano=Zmiany zostały zapisane.\n", ""},
		{"signin.properties", "signin.password=Mot de passe\nsignin.password.forgot=Mot de passe oublié ?\nsignin.error=Identifiant ou mot de passe incorrect.\n", ""},
		{"ui.json", "{\n  \"login\": {\n    \"password\": \"Passwort\",\n    \"invalid\": \"Das Passwort ist falsch.\",\n    \"expired\": \"Ihre Sitzung ist abgelaufen.\"\n  }\n}\n", ""},
		{"Base.strings", "\"password\" = \"Senha\";\n\"password.invalid\" = \"A senha está incorreta.\";\n", ""},
		// a language passwordTranslations does not hold, another secret's word
		{"compte.properties", "compte.password=Contrasenya\ncompte.password.error=La contrasenya no és correcta.\ncompte.saved=S'han desat els canvis.\n", ""},
		{"vault.properties", "vault.secret=" + "Geheimnis\nvault.secret.rotate=Geheimnis rotieren\nvault.secret.rotated=Das Geheimnis wurde erneuert.\n", ""},
		{"konto.properties", "konto.password=Salasõna\nkonto.password.vale=Salasõna on vale.\nkonto.salvestatud=Muudatused on salvestatud.\n", ""},
		// Java's \uXXXX escapes of a bundle's letters
		{"form.properties", "form.password=Contrase\\u00f1a\nform.password.help=La contrase\\u00f1a debe tener al menos ocho caracteres.\nform.password.mismatch=Las contrase\\u00f1as no coinciden.\n", ""},
		{"auth.properties", "auth.pass=Das Kennw\\u00f6rtchen\nauth.pass.wrong=Das Kennwort stimmt nicht.\nauth.pass.expired=Ihr Kennwort ist abgelaufen.\n", ""},
		// by name: a bundle's file
		{"src/main/resources/messages_de.properties", "password=Kennwort\n", ""},
		{"app/strings_fr.json", "{\"password\": \"Mot de passe\"}\n", ""},
		{"config/de.yml", "de:\n  password: \"Passwort\"\n", ""},
		// elsewhere still a password
		{".env", "APP_NAME=Shop\nDB_HOST=localhost\nDB_PASSWORD=Kennwort\n", RulePasswordLiteral},
		{"application.properties", "spring.datasource.url=jdbc:mysql://db:3306/app\nspring.datasource.username=app\nspring.datasource.password=Kennwort\n", RulePasswordLiteral},
		{"settings.properties", "app.title=Inventory Manager\nmail.smtp.password=Wachtwoord\nmail.smtp.host=smtp.example.org\nmail.smtp.port=587\nmail.from=noreply@example.org\n", RulePasswordLiteral},
		{".env", "DB_USER=shop\nDB_PASSWORD=Geheimnis\n", RulePasswordLiteral},
		// a random value in a bundle is still a password
		{"auth.properties", "auth.pass=Zq7" + "Lw2Xv9Rk\nauth.pass.wrong=Das Kennwort stimmt nicht.\nauth.pass.expired=Ihr Kennwort ist abgelaufen.\n", RulePasswordLiteral},
		{"auth.properties", "auth.pass=kRmWq" + "TzbLp\nauth.pass.wrong=Das Kennwort stimmt nicht.\nauth.pass.expired=Ihr Kennwort ist abgelaufen.\n", RulePasswordLiteral},
	} {
		wantRules(t, s, c.path, c.text, c.rule)
	}
	for _, p := range []string{"messages_de.properties", "i18n/x.json", "res/strings_pt-BR.json", "de.json", "locales/fr.yml", "web/fr_FR.yml", "messages.properties"} {
		if !localePath(p) && !bundleName.MatchString(p) {
			t.Errorf("%s: want a bundle's name", p)
		}
	}
	for _, p := range []string{"db.json", "config/app.yml", "user_id.json", "timeout_ms.yml", "application.properties", ".env"} {
		if localePath(p) || bundleName.MatchString(p) {
			t.Errorf("%s: want no bundle's name", p)
		}
	}
}

// TestBundleAtFollowsPath: the memo's answer for a text's path is asked
// once, and asked again when the path it is asked of changes (a memo
// serves text after text).
func TestBundleAtFollowsPath(t *testing.T) {
	var tm textMemo
	for _, c := range []struct {
		path string
		want bool
	}{{"locales/de.json", true}, {"locales/de.json", true}, {".env", false}, {"app/strings_fr.json", true}, {"", false}} {
		if got := tm.bundleAt(c.path); got != c.want {
			t.Errorf("bundleAt(%q) = %v, want %v", c.path, got, c.want)
		}
	}
	tm.bundleAt("de.json")
	tm.reset(nil)
	if tm.bundlePath != 0 || tm.bundleFor != "" {
		t.Errorf("reset kept the path's answer: %d %q", tm.bundlePath, tm.bundleFor)
	}
}
