package secrets

import (
	"fmt"
	"strings"
	"testing"
)

// TestNoteKinds: the kinds of secret in notes of noteskinds.go (PINs and
// door codes, passphrases of words, a Bearer token in a sentence, a
// recovery key, recovery codes) and the forms notesforms.go now reads (a
// Wi-Fi key, a pair in parentheses or with its host, "username …, pw …",
// a bold label, a login question, a value below "it's", a chosen password
// in a table's password column, redis-cli -a, mysql -p glued to words
// and dots), in sentences of our own with fresh values, each with its
// near-misses. "a|b" accepts either rule; "" no finding.
func TestNoteKinds(t *testing.T) {
	g := newFakeGen("note-kinds")
	// digits no placeholder test takes for a stand-in
	pin := func(n int) string {
		for {
			if v := g.from("0123456789", n); !placeholderDigits([]byte(v)) {
				return v
			}
		}
	}
	// a BitLocker recovery password: eight groups of six digits, each
	// a multiple of eleven (valid) or one of them not
	bitLocker := func(valid bool) string {
		var gs []string
		for i := 0; i < 8; i++ {
			n := int(g.next()%65536) * 11
			if !valid && i == 3 {
				n++
			}
			gs = append(gs, fmt.Sprintf("%06d", n))
		}
		return strings.Join(gs, "-")
	}
	words := []string{"juniper", "quarry", "ember", "falcon", "marble", "tundra", "orchid", "pewter", "saffron", "wicket", "bramble", "cobalt"}
	phrase := func(n int, sep string) string {
		var ws []string
		for len(ws) < n {
			w := words[g.next()%uint64(len(words))]
			if !strings.Contains(strings.Join(ws, " "), w) {
				ws = append(ws, w)
			}
		}
		return strings.Join(ws, sep)
	}
	// a password as people choose them: a capitalised word, a separator, a
	// word and digits
	chosen := func(sep string) string {
		w1, w2 := words[g.next()%uint64(len(words))], words[g.next()%uint64(len(words))]
		return strings.ToUpper(w1[:1]) + w1[1:] + sep + w2 + g.from("0123456789", 3)
	}
	hex := func(n int) string { return g.from("0123456789abcdef", n) }
	cases := []noteCase{
		// 1. PINs and door, alarm and keypad codes
		{"Heads up: the keypad code for the lab entrance is now " + pin(6) + ".\n", RuleProsePIN},
		{"- SIM PIN of the on-call phone: `" + pin(4) + "`\n", RuleProsePIN},
		{"The alarm code of the Leeds office was changed to **" + pin(5) + "** yesterday.\n", RuleProsePIN},
		{"Gate code for the car park = " + pin(4) + "\n", RuleProsePIN},
		{"La PIN della SIM aziendale è " + pin(4) + ", cambiala subito.\n", RuleProsePIN},
		{"De pincode van de kluis is " + pin(6) + ".\n", RuleProsePIN},
		{"Der PIN-Code für den Tresor lautet " + pin(6) + ".\n", RuleProsePIN},
		{"O PIN do cartão da frota é " + pin(4) + ".\n", RuleProsePIN},
		// near-misses: a placeholder, a length, a ticket, a version, a
		// word that makes the number something else
		{"The default PIN is 0000 until you set one.\n", ""},
		{"Example: the door code is 1234 (not the real one).\n", ""},
		{"Your PIN: 123456\n", ""},
		{"Choose a 6-digit PIN when the phone asks.\n", ""},
		{"PIN length: 6 digits minimum.\n", ""},
		{"PIN reset tracked in ticket " + pin(4) + ".\n", ""},
		{"PIN reset ticket: " + pin(5) + "\n", ""},
		{"The PIN lockout is 3600 seconds after five tries.\n", ""},
		{"Pin the base image to 2024.11 before the release.\n", ""},
		{"Door code policy since 2019: rotate every quarter.\n", ""},
		{"The spin rate is 7200 rpm and the pinned version is 3120.\n", ""},
		{"The barcode is 40123456 on the label.\n", ""},
		// a version, a ratio or a time after the digits
		{"Door code is 5821.3 in the spec table.\n", ""},
		{"Alarm code: 7392:15 is the siren timeout.\n", ""},
		{"The keypad code is 4719/2 on the wiring sheet.\n", ""},
		// years, models, sizes and status codes after a PIN's noun
		{"The PIN pad firmware is 2023 era.\n", ""},
		{"The door code is 2024 compliant.\n", ""},
		{"door code changed to 2025 rules\n", ""},
		{"Lock code was 2019 and is now a fingerprint.\n", ""},
		{"Entry code: 1999 era keypad\n", ""},
		{"The door code system was updated to 2024 firmware.\n", ""},
		{"PIN entry device: 5000 series.\n", ""},
		{"PIN pad model: 8006\n", ""},
		{"The safe code lock is 3000 series hardware.\n", ""},
		{"The alarm code panel is 1200 mm above the floor.\n", ""},
		{"The header pin is 2540 microns apart.\n", ""},
		{"set pin: 1024 in the chart values\n", ""},
		{"Alarm code: 4587 - low battery on sensor 3\n", ""},
		{"The keypad code reader is 7400 series.\n", ""},
		{"Our gate code scheme was 2021 vintage.\n", ""},
		{"alarm code: 3172 – door left open\n", ""},
		{"The PIN field is 2048 in the buffer.\n", ""},
		{"The door code is 5200 series hardware.\n", ""},
		{"The keypad code is 3500 mm from the door.\n", ""},
		// a thing named after "for" says whose PIN
		{"The PIN for the door panel is " + pin(6) + ".\n", RuleProsePIN},
		{"The alarm code of the server room was changed to " + pin(4) + " today.\n", RuleProsePIN},
		// 2. passphrases of words
		{"The restic repo's passphrase is \"" + phrase(5, " ") + "\", written on the envelope in the safe.\n", RuleProsePassphraseWords},
		{"- #4 (backup disk): passphrase " + phrase(4, "-") + "\n", RuleProsePassphraseWords},
		{"Seed phrase: `" + phrase(6, " ") + "`\n", RuleProsePassphraseWords},
		{"Passphrase of the age key:\n\n    " + phrase(5, " ") + "\n\nKeep it offline.\n", RuleProsePassphraseWords},
		{"Frase secreta:\n" + phrase(4, " ") + "\n", RuleProsePassphraseWords},
		// near-misses
		{"The passphrase is long and hard to type.\n", ""},
		{"A passphrase must be four words or more.\n", ""},
		{"Use a passphrase like \"correct horse battery staple\" but your own.\n", ""},
		{"The passphrase rotation happens every quarter now.\n", ""},
		{"Passphrase:\nask the security team for it\n", ""},
		{"passphrase-protected-key-file-format is described below.\n", ""},
		// one word repeated is a stand-in
		{"Its passphrase is \"marble marble marble marble\".\n", ""},
		{"LUKS passphrase tundra-tundra-tundra-tundra-tundra\n", ""},
		// examples of a passphrase, not one
		{"Example passphrase: \"blue fish green tree\"\n", ""},
		{"e.g. passphrase: lamp-river-cloud-stone\n", ""},
		{"The passphrase should be something like purple-monkey-dishwasher-tree.\n", ""},
		{"The passphrase generator output looks like: tidy-lamp-oval-fern\n", ""},
		{"Bad passphrase examples: \"winter summer autumn spring\"\n", ""},
		{"A sample passphrase: \"copper kettle violet meadow\"\n", ""},
		{"Pick a passphrase such as ruby-otter-plain-cedar, not a word.\n", ""},
		{"Passphrase format:\n\n    noun verb adjective noun\n", ""},
		{"Ejemplo de frase secreta: \"gato mesa verde nube\"\n", ""},
		// 3. a Wi-Fi network's key
		{"The WPA2 key is " + g.mixed(base62, 20) + " (guests use the other SSID).\n", RuleProsePasswordPhrase},
		{"Our WPA key is stored in the vault.\n", ""},
		// 4. pairs without a keyword on the line
		{"- rotate the NAS creds (currently `" + "svc" + ":" + chosen(".") + "`) this sprint\n", RuleProseLoginPair},
		{"your login details are: username ops, pw " + chosen("#") + " - change it today.\n", RuleProseLoginPair},
		{"legacy creds: backup:" + chosen("!") + "@files.corp.example\n", RuleProseLoginPair},
		{"**[09:12] ana:** who has the printer login? it logged me out\n**[09:13] li:** printadm / " + chosen("-") + "\n", RuleProsePasswordBelow},
		{"**Ana:** what's the pw for the build bot?\n**Li:** sure, it's\n`" + chosen("#") + "`\n", RuleProsePasswordBelow},
		{"| Host | User | Password |\n|------|------|----------|\n| nas-2 | backup | " + chosen("_") + " |\n", RuleTableSecret},
		{"**Ana:** what's the pw for the build bot?\n**Li:** no idea, it's\nprobably in the vault\n", ""},
		{"| Host | User | Password |\n|------|------|----------|\n| nas-2 | backup | see_vault_entry |\n", ""},
		{"| Host | Key | Token |\n|------|------|----------|\n| nas-2 | backup | Release-v2.3_final |\n", ""},
		{"rotate the NAS creds (currently in the vault) this sprint\n", ""},
		// mixed case, digits and a dot or a dash are also a release, a
		// product, a reference or a note: only the chosen shape counts
		{"| Host | User | Password |\n|------|------|----------|\n| nas-2 | backup | Release-v2.3x |\n", ""},
		{"| Host | User | Password |\n|------|------|----------|\n| nas-2 | backup | Stored-in-Vault2 |\n", ""},
		{"| Host | User | Password |\n|------|------|----------|\n| nas-2 | backup | Reset-On-Login-1 |\n", ""},
		{"| Host | User | Password |\n|------|------|----------|\n| nas-2 | backup | Changed-In-2024 |\n", ""},
		{"| Host | User | Password |\n|------|------|----------|\n| nas-2 | backup | Same-as-prod42 |\n", ""},
		{"| Name | Secret |\n|------|--------|\n| kv | Azure.KeyVault.Ref1 |\n", ""},
		{"| Name | Secret |\n|------|--------|\n| db | Spring.datasource." + "pass" + "word1 |\n", ""},
		{"The WPA2 key is Stored-In-Vault-2024\n", ""},
		// "palabra clave" is a keyword, with a colon too
		{"Palabra clave: Kubernetes2024\n", ""},
		{"Palabra clave: Otoño_tundra2024x\n", ""},
		{"Palabra clave: Saffron#tundra2024\n", ""},
		{"palabra clave: Release-cobalt2025\n", ""},
		{"clave: Windows10\n", ""},
		{"La clave es Kubernetes-1.29\n", ""},
		{"usuario: deploy\nclave: Quarry_wicket482\n", RuleProsePasswordPhrase},
		{"The WPA2 key for the lab is Kept-In-Keepass-2023\n", ""},
		{"Hasło: Windows-Server-2019\n", ""},
		{"**Keystore password**\n\nSee-Confluence-Page-42\n", ""},
		{"**Wiki password**\n\nAsk-Ops-Team-2025\n", ""},
		{"- rotate the NAS creds (currently `svc:See-Vault-Entry2`) this sprint\n", ""},
		{"    mysql -h db -u report -pSchema.Version.V2 shop\n", ""},
		{"    mysql -h db -u report -pConfig.Release.R7 shop\n", ""},
		{"**[09:12] ana:** who has the printer login? it logged me out\n**[09:13] li:** ask IT / helpdesk\n", ""},
		// 5. commands and a Bearer token in prose
		{"    redis-cli -h cache-2.lan -p 6380 -a '" + chosen("*") + "' info\n", RulePasswordFlag},
		{"    mysql -h 10.0.0.9 -u report -p" + chosen(".") + " shop\n", RuleMySQLGluedPassword},
		{"Set the Authorization header to Bearer " + g.mixed(base62, 32) + " for the smoke test.\n", RuleProseBearer},
		{"    redis-cli -h cache-2.lan -a \"$REDIS_PASSWORD\" info\n", ""},
		{"Run redis-cli against the replica, then check with ls -a Backups_2024 for the dump.\n", ""},
		{"Open redis-cli on the cache host. Then tar -a Snapshot_77x9q.tgz the folder.\n", ""},
		{"    redis" + "-cli -a redis-cli\n", ""},
		{"    redis-cli --tls -h cache-3.lan -p 6390 --pass '" + "Wicket*" + "tundra593" + "' ping\n", RulePasswordFlag},
		{"The Authorization header takes Bearer tokens from the identity service.\n", ""},
		{"Authorization: Bearer YOUR_API_TOKEN_HERE_123\n", ""},
		{"Set the Authorization header to Bearer your_access_token_goes_here in Postman.\n", ""},
		{"Authorization: Bearer aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", ""},
		{"    mysql -h db -u app -pChangeme.later42 shop\n", ""},
		// 6. a recovery key a sentence gives, and its digest
		{"The recovery key for the laptop's disk is " + hex(40) + ", print it.\n", RuleProseRecoveryKey},
		{"The recovery key fingerprint is " + hex(40) + ".\n", ""},
		{"The recovery key is stored in Intune.\n", ""},
		{"The recovery key is 00000000000000000000000000000000.\n", ""},
		{"The recovery key is 12121212121212121212121212121212ab.\n", ""},
		{"The unlock key is XXXXXX-XXXXXX-XXXXXX-XXXXXX for the demo.\n", ""},
		{"The escrow key is deadbeefdeadbeefdeadbeefdeadbeef.\n", ""},
		// a BitLocker key on the line below a label naming BitLocker, in
		// any language; its checksum tells it from a typed-out example
		{"- Ключ відновлення BitLocker:\n  " + bitLocker(true) + "\n- Зарядка в коробці.\n", RuleProseRecoveryKey},
		{"BitLocker herstelsleutel (voor als TPM zeurt):\n" + bitLocker(true) + "\n", RuleProseRecoveryKey},
		{"Clave de recuperación de BitLocker:\n\n> " + bitLocker(true) + "\n", RuleProseRecoveryKey},
		{"BitLocker herstelsleutel:\n" + bitLocker(false) + "\n", ""},
		{"BitLocker recovery key format:\n123456-123456-123456-123456-123456-123456-123456-123456\n", ""},
		{"BitLocker recovery key format:\n000000-000000-000000-000000-000000-000000-000000-000000\n", ""},
		{"Asset tags of the laptops:\n" + bitLocker(true) + "\n", ""},
		// 7. below a bold label; recovery codes under their label
		{"**Signing key password**\n\n" + chosen("_") + "\n\n**Alias**: release\n", RuleProsePasswordBelow},
		{"Recovery codes for the admin account:\n\n```\n" + g.from("abcdefghjkmnpqrstuvwxyz23456789", 4) + "-" + g.from("abcdefghjkmnpqrstuvwxyz23456789", 4) + "\n" + g.from("abcdefghjkmnpqrstuvwxyz23456789", 4) + "-" + g.from("abcdefghjkmnpqrstuvwxyz23456789", 4) + "\n```\n", RuleRecoveryCodes},
		{"**Signing key password**\n\nsee the release vault\n", ""},
		{"Recovery codes for the admin account:\n\n```\nxxxx-xxxx\n```\n", ""},
		{"Backup codes for the 2FA:\n12345678\n87654321\n", ""},
		{"Backup codes:\n\n- 00000000\n- 11111111\n", ""},
		{"Backup codes for the 2FA:\n11223344\n", ""},
		{"Recovery codes:\nabcd-efgh\n", ""},
		// 8. a password's hash and a list of common passwords are no
		// secret in a note (the imported rules that report them skip prose)
		{"The stored hash is `$2b$12$" + g.mixed(base62+"./", 53) + "` - bcrypt, cost 12.\n", ""},
		{"The worst offenders this year: 123456, " + "pass" + "word1, " + "qwer" + "ty123 and admin. Change yours.\n", ""},
		// 9. a question about a PIN that runs past the 96 characters a
		// question may span no longer hides the one after it (round 21:
		// the expression is bounded as its validator is)
		{"Hey, about the pin for the lab, " + strings.Repeat("word ", 22) + "what is the door code?\n" + pin(4) + "\n", RuleProsePIN},
		{"Hey, about the pin for the lab, " + strings.Repeat("word ", 22) + "what is the door code?\n\n**bob** 10:03\n" + pin(4) + "\n", RuleProsePIN},
	}
	checkNoteCases(t, cases)
	// the prose kinds read notes, not code
	if fs := defaultScanner(t).Scan("src/door.go", []byte("// door code is "+pin(6)+"\n")); len(fs) > 0 {
		t.Errorf("a Go file: %v", fs[0].RuleID)
	}
}

// TestPlaceholderDigits: the digits that stand in for a PIN.
func TestPlaceholderDigits(t *testing.T) {
	for _, v := range []string{"0000", "1234", "123456", "4321", "987654", "7890", "1212", "121212", "112233", "9999"} {
		if !placeholderDigits([]byte(v)) {
			t.Errorf("%s: want a placeholder", v)
		}
	}
	for _, v := range []string{"1592", "999590", "4587", "910324", "394405", "866048", "1213", "12345670"} {
		if placeholderDigits([]byte(v)) {
			t.Errorf("%s: want no placeholder", v)
		}
	}
}

// TestNotInProse: the imported rules whose matches in notes are no secret
// (a password's hash, a list of common passwords) still report in files
// of configuration and in the password stores.
func TestNotInProse(t *testing.T) {
	g := newFakeGen("not-in-prose")
	hash := "$" + "6$" + g.mixed(base62, 8) + "$" + g.mixed(base62+"./", 86)
	weak := "pass" + "word" + "123"
	bcrypt := "$" + "2y$10$" + g.mixed(base62+"./", 53)
	s := defaultScanner(t)
	for _, c := range []struct{ path, text, rule string }{
		{"docker-compose.yml", "    environment:\n      MYSQL_ROOT_PASSWORD: " + weak + "\n", "kingfisher.weak_password.1"},
		{"etc/shadow", "root:" + hash + ":19000:0:99999:7:::\n", "np.pwhash.4"},
		{"notes/hashes.md", "The stored hash is `" + hash + "`: sha512crypt.\n", ""},
		{"deploy/.htpasswd", "admin:" + bcrypt + "\n", "np.pwhash.2"},
		// a hash the line calls one: what an application stores
		{"config.js", "  passwordHash: '" + bcrypt + "',\n", ""},
		{"db/seed.sql", "INSERT INTO users (email, password_hash) VALUES ('a@b.example', '" + bcrypt + "');\n", ""},
		{"notes/blog.txt", "Passwords not to choose: 123456, " + weak + " and admin.\n", ""},
	} {
		var got []string
		for _, f := range s.Scan(c.path, []byte(c.text)) {
			got = append(got, f.RuleID)
		}
		if c.rule == "" && len(got) > 0 || c.rule != "" && !strings.Contains(strings.Join(got, " "), c.rule) {
			t.Errorf("%s %q: want %q, got %v", c.path, c.text, c.rule, got)
		}
	}
}

// TestNotesRuleIDs: sentences older rules read keep their rule's ID
// (the review of r19-notes2: the chosen-password shape and the named
// pair must not move them to the newer rules).
func TestNotesRuleIDs(t *testing.T) {
	chosen := "Copper" + "-ember" + "689"
	sym := "Falcon#" + "saffron" + "251"
	s := defaultScanner(t)
	for _, c := range []struct{ text, rule string }{
		{"パスワード: " + chosen + "\n", RuleProseSecretCJK},
		{"The credentials are: username admin, password " + sym + "\n", RuleProsePasswordPlain},
		{"Login: username admin, password " + sym + "\n", RuleProsePasswordPlain},
		{"The login is: user ops / password " + sym + "\n", RuleProsePasswordPlain},
		{"credentials now: username svc_ci; password " + sym + "\n", RuleProsePasswordPlain},
		{"your login details are: username ops, pw " + sym + " - change it.\n", RuleProseLoginPair},
		{"creds for the NAS: user ops, pass " + sym + "\n", RuleProseLoginPair},
	} {
		fs := s.Scan("notes/ids.md", []byte(c.text))
		if len(fs) != 1 || fs[0].RuleID != c.rule {
			var got []string
			for _, f := range fs {
				got = append(got, f.RuleID)
			}
			t.Errorf("%q: want %s, got %v", c.text, c.rule, got)
		}
	}
}
