package secrets

import (
	"strings"
	"testing"
)

// TestLanguageForms holds the forms of languages.go: eight or more
// sentences each rule reads, per language or form, and as many
// near-misses it leaves alone. {P} is a chosen password, {V} a random
// token (fillProse).
func TestLanguageForms(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("language forms")
	forms := []struct {
		name, rule    string
		found, silent []string
	}{{
		name: "German", rule: RuleProseSecretIntl,
		found: []string{
			"Das neue Passwort lautet {P} für den Build-Server.\n",
			"Kennwort für die Datenbank: `{P}`\n",
			"Das Passwort des Admin-Kontos ist jetzt {P}, bitte nicht weitergeben.\n",
			"Der API-Schlüssel lautet \"{V}\".\n",
			"Das WLAN-Passwort im Büro lautet nun {P}.\n",
			"Zugangsdaten: Benutzer `deploy`, Passwort {P}\n",
			"Der geheime Schlüssel für S3 ist {V}\n",
			"Das Kennwort lautet: `{P}`\n",
			"Der Token für das CI lautet {V}.\n",
			"Das Passwort für den Drucker ist {W}\n",
		},
		silent: []string{
			"Das neue Passwort liegt im Tresor unter `infra/db`.\n",
			"Das Passwort lautet wie im Passwortmanager hinterlegt.\n",
			"Passwort: <PASSWORT>\n",
			"Das Passwort muss mindestens 12 Zeichen lang sein.\n",
			"Der API-Schlüssel ist in Vault gespeichert (Pfad `secret/data/api`).\n",
			"Kennwort: ********\n",
			"Das Passwort lautet `${DB_PASSWORD}` in der Vorlage.\n",
			"Das Passwort lautet `IhrPasswort2024` in der Anleitung.\n",
			"Der Schlüssel heißt `prod-signing-2025` und rotiert jährlich.\n",
			"Das Passwort ist AES-256-GCM verschlüsselt.\n",
			"Das Passwort ist v2.14.3-rc1 kompatibel.\n",
		},
	}, {
		name: "Spanish", rule: RuleProseSecretIntl,
		found: []string{
			"La contraseña es {P} para el servidor de staging.\n",
			"La nueva contraseña del administrador es `{P}`.\n",
			"Contraseña: {P}\n",
			"La clave de API es \"{V}\"\n",
			"La contraseña de la base de datos ahora es {P}\n",
			"Usuario: `soporte`, contraseña: {P}\n",
			"La clave secreta de AWS es {V}.\n",
			"la contrasena del wifi es `{P}`\n",
		},
		silent: []string{
			"La contraseña está en el gestor de contraseñas (carpeta Infra).\n",
			"La contraseña es la misma que la de staging.\n",
			"Contraseña: <tu-contraseña>\n",
			"La contraseña debe tener al menos 12 caracteres.\n",
			"La palabra clave es OAuth2Flow2024 en el índice.\n",
			"La contraseña es obligatoria desde la versión 2.3.1.\n",
			"El token expira en 3600 segundos.\n",
			"La contraseña es `TU_CONTRASEÑA_1` en la plantilla.\n",
		},
	}, {
		name: "French", rule: RuleProseSecretIntl,
		found: []string{
			"Le mot de passe est {P} pour le serveur de recette.\n",
			"Le nouveau mot de passe admin est désormais `{P}`.\n",
			"Mot de passe : {P}\n",
			"La clé API est \"{V}\"\n",
			"Le jeton d'accès est `{V}`.\n",
			"mdp : {P}\n",
			"La clé secrète du bucket : {V}\n",
			"Identifiant `ops`, mot de passe `{P}`\n",
		},
		silent: []string{
			"Le mot de passe est dans le coffre (dossier Infra).\n",
			"Le mot de passe est le même que celui de la préprod.\n",
			"Mot de passe : <votre-mot-de-passe>\n",
			"Le mot de passe doit contenir au moins 12 caractères.\n",
			"Le mot-clé est Kubernetes2024 dans la recherche.\n",
			"Mot de passe : ********\n",
			"Le jeton expire au bout de 3600 secondes.\n",
			"Le mot de passe est `VotreMotDePasse1` dans le modèle.\n",
		},
	}, {
		name: "Portuguese", rule: RuleProseSecretIntl,
		found: []string{
			"A senha é {P} para o servidor de homologação.\n",
			"A nova senha do admin agora é `{P}`.\n",
			"Senha: {P}\n",
			"A chave de API é \"{V}\"\n",
			"O token de acesso é {V}.\n",
			"A palavra-passe da base de dados é {P}\n",
			"Usuário `suporte`, senha `{P}`\n",
			"senha do wifi: {P}\n",
		},
		silent: []string{
			"A senha está no cofre (pasta Infra).\n",
			"A senha é a mesma do ambiente de homologação.\n",
			"Senha: <sua-senha>\n",
			"A senha deve ter pelo menos 12 caracteres.\n",
			"A palavra-chave é Terraform2024 na busca.\n",
			"Senha: ********\n",
			"O token expira em 3600 segundos.\n",
			"A resenha é 5 estrelas.\n",
		},
	}, {
		name: "Italian", rule: RuleProseSecretIntl,
		found: []string{
			"La password è {P} per il server di collaudo.\n",
			"La nuova password del server ora è {P}.\n",
			"La chiave API è \"{V}\"\n",
			"Il token di accesso è {V}.\n",
			"La password del database è `{P}`\n",
			"La chiave segreta del bucket è {V}\n",
			"password del wifi: {P}\n",
			"La password e' {P} fino a venerdì.\n",
		},
		silent: []string{
			"La password è nel gestore delle password (cartella Infra).\n",
			"La password è la stessa dell'ambiente di collaudo.\n",
			"Password: <la-tua-password>\n",
			"La password deve avere almeno 12 caratteri.\n",
			"La parola chiave è Grafana2024 nella ricerca.\n",
			"Il token scade dopo 3600 secondi.\n",
			"La password è `${DB_PASSWORD}` nel modello.\n",
			"The password is Bearer-formatted for the proxy.\n",
		},
	}, {
		name: "Dutch", rule: RuleProseSecretIntl,
		found: []string{
			"Het wachtwoord is {P} voor de testserver.\n",
			"Het nieuwe wachtwoord van de beheerder is nu `{P}`.\n",
			"Wachtwoord: {P}\n",
			"De API-sleutel is \"{V}\"\n",
			"Het toegangstoken lautet {V}.\n",
			"Het wachtwoord van de database luidt {P}\n",
			"Gebruiker `support`, wachtwoord `{P}`\n",
			"De geheime sleutel van de bucket is {V}\n",
		},
		silent: []string{
			"Het wachtwoord staat in de kluis (map Infra).\n",
			"Het wachtwoord is hetzelfde als op de testomgeving.\n",
			"Wachtwoord: <jouw-wachtwoord>\n",
			"Het wachtwoord moet minstens 12 tekens hebben.\n",
			"De API-sleutel staat in Vault, pad `secret/api`.\n",
			"Wachtwoord: ********\n",
			"Het token verloopt na 3600 seconden.\n",
			"Het wachtwoord is `MijnWachtwoord1` in het sjabloon.\n",
		},
	}, {
		name: "abbreviations and pairs", rule: RuleProsePasswordShort,
		found: []string{
			"staging db pwd is `{P}`\n",
			"root passwd for the NAS: {P}\n",
			"u/p: deploy / {P}\n",
			"user / pass: ops / {P}\n",
			"the pw for the kiosk account is {P}\n",
			"creds = `svc-ci` / \"{P}\"\n",
			"login/pw: admin / {P}\n",
			"PW is now {P}\n",
			"staging db pw is {W}\n",
			"current pw = {W}\n",
			"smtp relay creds: relay-bot : {P}\n",
		},
		silent: []string{
			"pw reset link expires after 24h (ticket OPS-4411).\n",
			"creds: ask ops in #infra\n",
			"If the tests pass, merge to main and tag v2.3.1.\n",
			"u/p: see 1Password, vault `Infra`\n",
			"pwd: /home/deploy/releases/2025-11-30\n",
			"admin pw: <redacted>\n",
			"user / pass: admin / ********\n",
			"boarding pass: ABX4K2Q9LM, gate B42\n",
			"pw = ed25519-2026 (the key type)\n",
			"creds: see ops : INC-20461\n",
		},
	}}
	for _, f := range forms {
		if len(f.found) < 8 || len(f.silent) < 8 {
			t.Fatalf("%s: fewer than 8 paraphrases of either kind", f.name)
		}
		for _, tmpl := range f.found {
			text, want := fillProse(g, tmpl)
			if strings.Contains(tmpl, "{W}") {
				want = chosenLike(g)
				text = strings.Replace(tmpl, "{W}", want, 1)
			}
			ok := false
			for _, fd := range s.Scan("notes.md", []byte(text)) {
				ok = ok || fd.RuleID == f.rule && text[fd.Start:fd.End] == want
			}
			if !ok {
				t.Errorf("%s: not found by %s in %q", f.name, f.rule, text)
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

// chosenLike returns a password as people choose them: a capitalised
// made-up word, a separator, digits and two letters ("Kazige.14276wu"),
// which tableValue reads as a description.
func chosenLike(g *fakeGen) string {
	const cons, vow = "bdfgklmnprstvz", "aeiou"
	w := []byte{alphaUpper[g.next()%26]}
	for range 3 {
		w = append(w, vow[g.next()%5], cons[g.next()%14])
	}
	return string(w) + "." + g.from(alphaDigit, 5) + g.from(alphaUpper, 1) + g.from(alphaLower, 1)
}

// TestVendorTokenForms: a vendor prefix with a body of the vendor's
// alphabet near its length is reported (no provider name on the line, a
// length the provider's rule does not take); words, placeholders, a
// documented example and a body of the wrong alphabet or length are not.
func TestVendorTokenForms(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("vendor tokens")
	atl := "ATA" + "TT3"
	mg := func() string { return "ke" + "y-" + g.from(alphaLower+alphaDigit, 31) + "7" }
	found := []string{
		"pasted " + atl + g.mixed(base62+"-_", 185) + " into the runbook\n",
		"- tok: `" + atl + g.mixed(base62+"-_", 187) + "`\n",
		"old value " + atl + g.mixed(base62, 150) + " was rotated\n",
		"default = \"" + mg() + "\"\n",
		"locals { relay = \"" + mg() + "\" }\n",
		"mail relay uses " + mg() + " for now\n",
		"see `" + atl + g.mixed(base62, 200) + "`\n",
		"in the log: " + mg() + "\n",
	}
	silent := []string{
		"Atlassian API tokens start with " + atl + " followed by base64.\n",
		"default = \"key-value-store-primary-region\"\n",
		atl + strings.Repeat("x", 60) + "\n",
		"see key-3ax6xnjp29jd6fds4gc373sgvjxteol0 in the Mailgun docs\n",
		"cache_key = \"key-" + g.from(hexLower, 8) + "\"\n",
		"set " + atl + "<your-token> in the env\n",
		"the key-rotation-policy-2025-v2 doc\n",
		"id = \"key-0123456789abcdef0123456789abcdef\"\n",
		"cache key-" + g.from(hexLower, 32) + " is the md5 digest of the page\n",
		"short " + atl + g.mixed(base62, 60) + " is no Atlassian token\n",
		// the line names a digest outside the token
		"commit id " + atl + g.mixed(base62, 150) + " of the release\n",
	}
	// "Id" inside a token is no word of the line: a draw holds it between
	// a lower-case and an upper-case letter one time in a hundred.
	for i := 0; i < 20; i++ {
		found = append(found, "pasted "+atl+g.mixed(base62, 80)+"xId"+g.mixed(base62, 80)+" into the runbook\n")
	}
	for _, text := range found {
		ok := false
		for _, fd := range s.Scan("infra/main.tf", []byte(text)) {
			ok = ok || fd.RuleID == RuleVendorToken
		}
		if !ok {
			t.Errorf("not found by %s: %q", RuleVendorToken, text)
		}
	}
	for _, text := range silent {
		if fs := s.Scan("infra/main.tf", []byte(text)); len(fs) > 0 {
			t.Errorf("near-miss reported by %s: %q", fs[0].RuleID, text)
		}
	}
}

// TestLanguageGatesAtTextEnd: the gates read past their keyword; a text
// that ends anywhere after one is no index out of range.
func TestLanguageGatesAtTextEnd(t *testing.T) {
	s := defaultScanner(t)
	for _, text := range []string{"La password del wifi: ", "Der Token lautet ", "admin pw: ", "creds = qa / ", "Passwort ", "token"} {
		for n := 0; n <= len(text); n++ {
			s.Scan("notes.md", []byte(text[:n]))
		}
	}
}

// TestLocalizedTableHeaders: table-secret reads a column headed by another
// language's name of a password or an API key, and a row so named under
// a "Wert"/"valor"/… column; a key word alone heads names, not secrets.
func TestLocalizedTableHeaders(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("localized tables")
	v := func() string { return g.mixed(base62, 24) }
	found := []string{
		"| Umgebung | Passwort |\n|---|---|\n| dev | `" + v() + "` |\n",
		"| Feld | Wert |\n|---|---|\n| Contraseña | " + v() + " |\n",
		"| env | clave de API |\n|---|---|\n| prod | " + v() + " |\n",
		"| hôte | mot de passe |\n|---|---|\n| db1 | " + v() + " |\n",
		"| omgeving | wachtwoord |\n|---|---|\n| test | " + v() + " |\n",
		"| ambiente | senha |\n|---|---|\n| prod | " + v() + " |\n",
		"| campo | valore |\n|---|---|\n| chiave API | " + v() + " |\n",
		"| Dienst | API-Schlüssel |\n|---|---|\n| Mailer | " + v() + " |\n",
	}
	silent := []string{
		"| Schlüssel | Wert |\n|---|---|\n| log_level | " + v() + " |\n",
		"| clave | valor |\n|---|---|\n| region | " + v() + " |\n",
		"| Umgebung | Passwort |\n|---|---|\n| dev | im Tresor |\n",
		"| Feld | Wert |\n|---|---|\n| Contraseña | ******** |\n",
		"| env | senha |\n|---|---|\n| prod | `${DB_PASSWORD}` |\n",
		"| hôte | mot de passe |\n|---|---|\n| db1 | voir le coffre |\n",
		"| omgeving | wachtwoord |\n|---|---|\n| test | 12 tekens |\n",
		"| chiave | valore |\n|---|---|\n| timeout | " + v() + " |\n",
	}
	for _, text := range found {
		ok := false
		for _, fd := range s.Scan("notes.md", []byte(text)) {
			ok = ok || fd.RuleID == RuleTableSecret
		}
		if !ok {
			t.Errorf("not found by %s: %q", RuleTableSecret, text)
		}
	}
	for _, text := range silent {
		if fs := s.Scan("notes.md", []byte(text)); len(fs) > 0 {
			t.Errorf("near-miss reported by %s: %q", fs[0].RuleID, text)
		}
	}
}

// TestLanguageDescriptionsSilent: what says how a password is kept or
// what it must be, in each language, is no password (from a review: the
// value test for chosen passwords took these), nor is a digest named
// "key-…".
func TestLanguageDescriptionsSilent(t *testing.T) {
	s := defaultScanner(t)
	for _, text := range []string{
		"Das Passwort ist Base64-kodiert.\n",
		"Das Passwort ist SHA256-gehasht.\n",
		"Das Kennwort ist Argon2id-gehasht.\n",
		"Das Passwort ist UTF-8-kodiert.\n",
		"Das Passwort ist ISO-8859-1-kodiert.\n",
		"La contraseña es UTF-8-codificada.\n",
		"Le mot de passe est UTF-8-encodé.\n",
		"A senha é Base64-codificada.\n",
		"La password è Base64-codificata.\n",
		"Het wachtwoord is Base64-gecodeerd.\n",
		"Passwort: Min.12Zeichen, Groß/Klein, Ziffer\n",
		"Contraseña: Mín.12Caracteres, mayúsculas y dígitos\n",
		"the pwd is UTF-8-encoded\n",
		"cache key-d41d8cd98f00b204e9800998ecf8427e\n",
		"Idempotency key-9f86d081884c7d659a2feaa0c55ad015 for the retry\n",
	} {
		if fs := s.Scan("notes.md", []byte(text)); len(fs) > 0 {
			t.Errorf("reported by %s: %q", fs[0].RuleID, text)
		}
	}
}

// TestLanguageHeadersNameThePassword: a header whose password word is
// qualified by another (a hash, a store, a policy) heads no password.
func TestLanguageHeadersNameThePassword(t *testing.T) {
	s := defaultScanner(t)
	for _, text := range []string{
		"| Benutzer | Passwort-Hash |\n|---|---|\n| deploy | 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 |\n",
		"| Usuario | Contraseña (hash) |\n|---|---|\n| deploy | 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 |\n",
		"| Name | Wert |\n|---|---|\n| Passwort-Hash | Argon2id-v19 |\n| Passwortspeicher | KeePassXC-2.7.9 |\n",
	} {
		if fs := s.Scan("notes.md", []byte(text)); len(fs) > 0 {
			t.Errorf("reported by %s: %q", fs[0].RuleID, text)
		}
	}
	text := "| Benutzer | Passwort |\n|---|---|\n| deploy | Xq7#mP2vL9wR |\n"
	if fs := s.Scan("notes.md", []byte(text)); len(fs) == 0 {
		t.Errorf("a Passwort column not read: %q", text)
	}
}
