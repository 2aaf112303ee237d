package secrets

import (
	"strings"
	"testing"
	"unicode"
)

// TestPasswordNounsInLanguages: a password stated after its noun in the
// languages of passwordNounLanguages (issue 33, round 21), in the forms a
// note writes it: a colon (full-width too), the language's copula, a
// dash, words that say which one, an inflected noun; and beside each the
// near-misses that look alike: a policy, a length, a vault, a manager, a
// placeholder, a mask, a version, an error code, a room, a year, a stand-in
// that spells the noun, a noun inside another word.
func TestPasswordNounsInLanguages(t *testing.T) {
	g := newFakeGen("password-nouns-round-21")
	words := []string{"Galata", "Fjord", "Tatra", "Vltava", "Sahara", "Medved", "Bosporus", "Kanel", "Sauna", "Jadran", "Danube", "Baltic"}
	syms := "!#@%&*+"
	// a password as people choose them: a word, a symbol, digits and
	// letters
	chosen := func() string {
		w := words[g.next()%uint64(len(words))]
		return w + string(syms[g.next()%uint64(len(syms))]) + g.from("0123456789", 4) + g.from(alphaLower, 2)
	}
	// a chosen password of a word and digits only
	plain := func() string { return words[g.next()%uint64(len(words))] + "bulle" + g.from("0123456789", 4) }
	intl, phrase, cjk := RuleProsePasswordIntl, RuleProsePasswordPhrase, RuleProseSecretCJK
	checkNoteCases(t, []noteCase{
		// the noun, then a colon: prose-password-phrase's form for the
		// nouns it read before (hasło, lösenord, salasana, adgangskode),
		// prose-password-intl's for the others
		{"şifre: " + chosen() + "\n", intl},
		{"- Şifre: " + chosen() + "\n", intl},
		{"Пароль: " + chosen() + "\n", intl},
		{"* hasło: " + chosen() + "\n", phrase},
		{"Lösenord: " + chosen() + "\n", phrase},
		{"Salasana: " + chosen() + "\n", phrase},
		{"Jelszó: " + chosen() + "\n", intl},
		{"Parolă: " + chosen() + "\n", intl},
		{"Lozinka: " + chosen() + "\n", intl},
		{"Κωδικός πρόσβασης: " + chosen() + "\n", intl},
		{"كلمة المرور: " + chosen() + "\n", intl},
		{"הסיסמה: " + chosen() + "\n", intl},
		{"पासवर्ड: " + chosen() + "\n", intl},
		{"Mật khẩu: " + chosen() + "\n", intl},
		{"Kata sandi: " + chosen() + "\n", intl},
		{"Adgangskode: " + chosen() + "\n", phrase},
		{"Passordet er " + chosen() + "\n", intl},
		// words that say which one, a copula, a dash: prose-secret-intl's
		{"- Hasło do VPN (klucz współdzielony): " + chosen() + "\n", intl},
		{"**Johan** 08:57 lösenordet till wifi är " + plain() + "\n", intl},
		{"Пароль от роутера — " + chosen() + "\n", intl},
		{"пароль для гостевой сети: " + chosen() + "\n", intl},
		{"Heslo k wifi je " + chosen() + "\n", intl},
		{"Hasło to " + chosen() + "\n", intl},
		{"Langattoman verkon salasana on " + chosen() + "\n", intl},
		{"WLAN-salasana on " + chosen() + "\n", intl},
		{"Wi-Fi-passordet til gjestenettet er " + chosen() + "\n", intl},
		{"Passordet til gjestenettet er " + chosen() + "\n", intl},
		{"Kata sandi wifi kantor adalah " + chosen() + "\n", intl},
		{"Mật khẩu wifi là " + chosen() + "\n", intl},
		{"Parola routerului este " + chosen() + "\n", ""}, // no diacritic: Italian's "word" too
		{"Parolă routerului este " + chosen() + "\n", intl},
		{"Şifresi ise " + chosen() + "\n", intl},
		{"Geslo za brezžično omrežje je " + chosen() + "\n", intl},
		{"Το συνθηματικό είναι " + chosen() + "\n", intl},
		{"Slaptažodis yra " + chosen() + "\n", intl},
		{"La contrasenya del wifi és " + chosen() + "\n", intl},
		{"- Palavra-passe do wi-fi: " + chosen() + "\n", RuleProseSecretIntl},
		// Chinese, Japanese, Korean, Thai: a password of all four
		// classes, however few its letters
		{"用户名：admin，密码是 Panda@" + g.from("0123456789", 1) + "888\n", cjk},
		{"- パスワード: Sakura" + g.from("0123456789", 4) + "!\n", cjk},
		{"- 비밀번호: Kimchi#" + g.from("0123456789", 4) + "\n", cjk},
		{"รหัสผ่านคือ Siam#" + g.from("0123456789", 4) + "bkk\n", cjk},
		// near-misses
		{"şifre politikası: en az 12 karakter\n", ""},
		{"Şifre: ********\n", ""},
		{"Şifre sıfırlama kodu: 482913\n", ""},
		{"Şifre: v2.3.1-beta\n", ""},
		{"Toplantının deşifre metni: " + chosen() + "\n", ""}, // a transcript: "şifre" inside a word
		{"Hasło: <hasło>\n", ""},
		{"Hasło do VPN: zobacz 1Password\n", ""},
		{"Hasło: Pokój 204\n", ""},
		{"Wersja hasła: 2.4.1\n", ""},
		{"Hasło do VPN to Hasło#" + g.from("0123456789", 4) + "\n", ""}, // a stand-in that spells the noun
		{"Kod zahasło to " + chosen() + "\n", ""},                       // a glued word: Polish glues no compounds
		{"Lösenordet till wifi är Lösenord_" + g.from("0123456789", 4) + "!\n", ""},
		{"lösenordet finns i valvet\n", ""},
		{"lösenordet är 12 tecken långt\n", ""},
		{"Lösenord: se https://vault.example.com/item/42\n", ""},
		{"Пароль — не менее 12 символов\n", ""},
		{"Пароль: ${DB_PASSWORD}\n", ""},
		{"Пароль от Wi-Fi: см. 1Password, запись Office-2024\n", ""},
		{"Salasana: vähintään 12 merkkiä, esim. 2024\n", ""},
		{"Salasana vaihdettu 2024-03-01\n", ""},
		{"Heslo: viz trezor\n", ""},
		{"Heslo: ERR_AUTH_4012\n", ""},
		{"A jelszó: lásd a széfben\n", ""},
		{"Kata sandi: lihat di brankas\n", ""},
		{"Sandi: deploy v2.14.3 is out, see CHANGELOG-2024\n", ""}, // a name, not the noun
		{"Parolă: minim 12 caractere\n", ""},
		{"Mật khẩu: xem trong kho\n", ""},
		{"كلمة المرور: انظر الخزنة\n", ""},
		{"Κωδικός σφάλματος: E" + g.from("0123456789", 4) + "\n", ""},
		{"パスワード: 1Passwordを参照\n", ""},
		{"パスワード：Windows10のログオンと同じ\n", ""},
		{"密码：见保险库\n", ""},
		{"密码：JWT-RS256\n", ""},
		{"비밀번호: ********\n", ""},
		{"รหัสผ่าน: ดูในตู้เซฟ\n", ""},
		// the review's near-misses of round 21: products and libraries
		// with versions, references, slogans, German "lösen"
		{"Lösenord: Windows10\n", ""},
		{"Пароль: Office365\n", ""},
		{"Библиотека проверки пароля: zxcvbn-4.4.2\n", ""},
		{"Şifre doğrulama kütüphanesi: zxcvbn-4.4.2\n", ""},
		{"Пароль: env:DB_PASS2\n", ""},
		{"Пароль: C:\\Secrets\\db2024.txt\n", ""},
		{"Пароль от бота: @deploy_bot2\n", ""},
		{"Hasło konferencji: Code4Life!\n", ""},
		{"Geslo kongresa: Skupaj2024!\n", ""},
		{"Гасло хакатону: Hack4Ukraine!\n", ""},
		{"Ticket lösen: OPS#4711a\n", ""},
		{"Konflikt auflösen — Merge#42a\n", ""},
	})
}

// TestPasswordNounTable: the table's words are lower case, a language
// holds each once, and the keyword filter, which folds ASCII only, finds
// each noun capitalised.
func TestPasswordNounTable(t *testing.T) {
	if len(passwordNounLanguages) < 30 {
		t.Errorf("%d languages, want at least 30", len(passwordNounLanguages))
	}
	kws := map[string]bool{}
	for _, k := range passwordNounKeywords() {
		kws[k] = true
	}
	for _, l := range passwordNounLanguages {
		if len(l.nouns) == 0 && len(l.labels) == 0 {
			t.Errorf("%s: no nouns", l.lang)
		}
		seen := map[string]bool{}
		for _, n := range append(append(append([]string(nil), l.nouns...), l.copulas...), l.labels...) {
			if n != strings.ToLower(n) || strings.TrimSpace(n) != n {
				t.Errorf("%s: %q is not a lower-case word", l.lang, n)
			}
			if seen[n] {
				t.Errorf("%s: %q twice", l.lang, n)
			}
			seen[n] = true
		}
		for _, n := range append(append([]string(nil), l.nouns...), l.labels...) {
			up := []rune(n)
			up[0] = unicode.ToUpper(up[0])
			if !kws[n] || up[0] >= 0x80 && !kws[string(up)] {
				t.Errorf("%s: %q is no keyword in both cases", l.lang, n)
			}
		}
	}
}

// TestPasswordFieldLabels: a password after its noun as a field's label
// (a card of credentials, a form copied into a ticket, a chat message
// that is one field), round 21's second pass. The label gives the value
// plainly: a word and digits in mixed case, letters of the language's
// alphabet. Beside them the near-misses each filter stands for: the same
// value mid-sentence (a ticket about a password), a label-only noun that
// labels nothing (a booking code), a value running on in a script
// written without blanks, a mask, a placeholder, a policy.
func TestPasswordFieldLabels(t *testing.T) {
	g := newFakeGen("password-field-labels-round-21")
	digits := func(n int) string { return g.from("0123456789", n) }
	word := func(ws ...string) string { return ws[g.next()%uint64(len(ws))] }
	intl := RuleProsePasswordIntl
	checkNoteCases(t, []noteCase{
		{"uživatel: reporty\nheslo: " + word("Knedlik", "Vltava", "Tatra") + "_" + digits(4) + "\n", intl},
		{"tunnus: testi\nsalasana: " + word("Sauna", "Sisu") + "-" + word("Makkara", "Pulla") + digits(1) + "\n", intl},
		{"Brugernavn: lape\nAdgangskode: " + word("Smørrebrød", "Rødgrød") + digits(2) + "\n", intl},
		{"> Felhasználónév: kovacs\n> Jelszó: " + word("Pogácsa", "Túrórudi") + "." + digits(4) + "\n", intl},
		{"**Wi-Fi:** Ofis\n**Şifre:** " + word("Simit", "Börek") + "." + word("Cay", "Ayran") + "." + digits(4) + "\n", intl},
		{"[15/03 11:07] Μαρία: κωδικός: " + word("Souvlaki", "Gyros") + "!" + digits(2) + "\n", intl},
		{"3. Parolă: " + word("Mamaliga", "Sarmale") + "_" + digits(2) + "\n", intl},
		{"- Пароль: " + word("Matryoshka", "Pelmeni") + "_" + digits(4) + "\n", intl},
		{"heslo: " + word("Knedlik", "Vltava") + "_" + digits(4) + " (jen test)\n", intl},
		// mid-sentence, a value shaped as a name is not given plainly
		{"Požadavek na heslo: " + word("Ticket", "Incident") + "-" + digits(4) + " uzavřen\n", ""},
		{"[10:03] Bram Jansen\ngebr: kassa01\nww: " + word("Stroopwafel", "Hagelslag") + "!" + digits(2) + "\n", intl},
		{"Zie www: " + word("Stroopwafel", "Hagelslag") + "!" + digits(2) + "\n", ""},
		{"De ww is " + word("Stroopwafel", "Hagelslag") + "!" + digits(2) + "\n", ""},
		// a form's error about the field, more than a word before it
		{"Chyba v poli heslo: " + word("Invalid", "Missing") + "-" + word("Length", "Symbol") + digits(1) + "\n", ""},
		// "κωδικός" labels nothing here: a booking code
		{"Ο κωδικός κράτησης είναι " + word("Athens", "Corfu") + "#" + digits(4) + "xy\n", ""},
		{"κωδικός σφάλματος: " + word("Timeout", "Refused") + "!" + digits(3) + "\n", ""},
		// the value runs on in a script written without blanks
		{"Şifre: " + word("Yonetici", "Misafir") + digits(4) + "のまま\n", ""},
		{"heslo: " + word("Knedlik", "Vltava") + "_****\n", ""},
		{"Jelszó: <" + word("Jelszo", "Titok") + "_" + digits(4) + ">\n", ""},
		{"salasana: vähintään " + digits(2) + " merkkiä\n", ""},
		{"Adgangskode: se " + word("KeePass", "Bitwarden") + "\n", ""},
		{"**Şifre:** " + digits(4) + "\n", ""},
		// lower-case words a number joins
		{"[02/07/24, 10:16] Priya: वाईफाई पासवर्ड: " + word("chai", "lassi") + digits(4) + word("samosa", "pakora") + "\n", intl},
		{"Hasło: " + word("zubr", "tatry") + digits(3) + word("kielbasa", "pierogi") + "\n", intl},
		{"Hasło: " + word("zubr", "tatry") + word("kielbasa", "pierogi") + digits(3) + "\n", ""},
		{"पासवर्ड: x" + digits(2) + word("linuxbox", "serverpc") + "\n", ""},
		// a pair's second half after its comma, the value ending the line
		{"[05.09.23 9:13:10] Jana: Zasedacka-5G, heslo " + word("Trdelnik", "Vltava") + digits(4) + "\n", intl},
		{"логин admin, пароль " + word("Matryoshka", "Pelmeni") + "_" + digits(4) + "\n", intl},
		{"kullanıcı: admin, şifre " + word("Simit", "Börek") + "." + digits(4) + "\n", intl},
		// the sentence runs on, a rule, a number, a mask
		{"ahoj, heslo " + word("Windows", "Ubuntu") + digits(2) + " nejde\n", ""},
		{"na wiki, heslo musí mít " + digits(2) + " znaků\n", ""},
		{"логин admin, пароль " + digits(8) + "\n", ""},
		{"логин admin, пароль ********\n", ""},
	})
	// a table's row named by a password's noun or by "PSK" under a
	// column of values: the row gives its value as plainly as a label
	// (a table whose only name is one of prose-password-intl's nouns is
	// not found: no keyword of table-secret's is in it)
	tbl := RuleTableSecret
	checkNoteCases(t, []noteCase{
		{"| Feld | Wert |\n|---|---|\n| user | fakturierung |\n| Passwort | " + word("Mamaliga", "Sarmale") + "_" + digits(2) + " |\n", tbl},
		{"| Parámetro | Valor |\n|---|---|\n| Pre-shared key (PSK) | " + word("Pampero", "Zonda") + ".Sur." + word("Viento", "Nube") + "." + digits(2) + " |\n", tbl},
		{"| Field | Value |\n|---|---|\n| password | " + word("Knedlik", "Vltava") + "_" + digits(4) + " |\n", tbl},
		// a word after the noun names something else; a product's name;
		// a mask
		{"| Parámetro | Valor |\n|---|---|\n| Pre-shared key (PSK) rotation | " + word("Quarterly", "Yearly") + "-" + digits(4) + " |\n", ""},
		{"| Feld | Wert |\n|---|---|\n| Passwort | Windows-Server-" + digits(4) + " |\n", ""},
		{"| Feld | Wert |\n|---|---|\n| Passwort | ******** |\n", ""},
		// a column named by a key is judged as before: a name is no value
		{"| Owner | API key |\n|---|---|\n| ops | " + word("Sauna", "Sisu") + "-" + word("Makkara", "Pulla") + digits(1) + " |\n", ""},
	})
}
