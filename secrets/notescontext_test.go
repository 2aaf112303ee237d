package secrets

import (
	"strings"
	"testing"
)

// TestNotesContextForms: the forms of notescontext.go (issue 33, round 22)
// in sentences of our own with fresh values, each kind with the
// near-misses that look like it: a ticket, a model, a zip code, an error
// code, a time, an amount, a phone number, a question about a password
// rather than for it, a reference to where it is kept, a policy.
func TestNotesContextForms(t *testing.T) {
	g := newFakeGen("notes-context-22")
	pin := func(n int) string {
		for {
			v := g.from("0123456789", n)
			if !placeholderDigits([]byte(v)) && !yearDigits([]byte(v)) && !powerOfTwo([]byte(v)) && v[0] != '0' {
				return v
			}
		}
	}
	words := []string{"Juniper", "Quarry", "Ember", "Falcon", "Marble", "Tundra", "Orchid", "Pewter", "Saffron", "Wicket", "Bramble", "Cobalt"}
	// a password as people choose it: a word and digits, or a symbol
	chosen := func(sym string) string {
		return words[g.next()%uint64(len(words))] + sym + pin(4)
	}
	lower := func() string { return strings.ToLower(words[g.next()%uint64(len(words))]) + pin(4) }
	two := func() string { return g.from("123456789", 1) + g.from("0123456789", 1) }
	combo := func() string { return two() + "-" + two() + "-" + two() }
	cases := []noteCase{
		// 1. codes named by what they open
		{"The code for the back door is " + pin(4) + ", don't share it.\n", "*"},
		{"Alarm: " + pin(4) + "#\n", RuleProseAccessCode},
		{"Front gate: " + pin(4) + "*\n", RuleProseAccessCode},
		{"Tor-Code " + pin(4) + " (Hinterhof)\n", RuleProseAccessCode},
		{"код от домофона " + pin(4) + "#\n", RuleProseAccessCode},
		{"Код сейфа: " + pin(5) + "\n", RuleProseAccessCode},
		{"gym locker 12, combo " + combo() + ", bring the towel back\n", RuleProseAccessCode},
		{"The combination to the filing cabinet lock is " + combo() + ".\n", RuleProseAccessCode},
		{"To get into the shed, punch in " + pin(4) + " on the keypad.\n", RuleProseAccessCode},
		{"The garage keypad takes " + pin(4) + " then enter.\n", RuleProseAccessCode},
		{"o cofre do escritório abre com " + pin(6) + ", dentro estão os cartões\n", RuleProseAccessCode},
		{"Portkoden är " + pin(4) + ", sen hiss till plan 5.\n", RuleProseAccessCode},
		{"Der Code für die Kellertür ist " + pin(4) + ".\n", RuleProseAccessCode},
		{"Kod do klatki: " + pin(4) + " + klucz\n", RuleProseAccessCode},
		{"- new work phone, SIM pin " + pin(6) + "\n", "*"},
		// near-misses
		{"Door 4 is the one by the lifts.\n", ""},
		{"Ticket " + pin(4) + " covers the back door lock repair.\n", ""},
		{"Our zip code is 10115, next to the gate.\n", ""},
		{"The server returned error code " + pin(4) + " when the alarm fired.\n", ""},
		{"Error code " + pin(4) + " on the gate controller.\n", ""},
		{"Alarm panel model " + pin(4) + " needs a new battery.\n", ""},
		{"Call the alarm company on 0800 " + pin(4) + " " + pin(4) + ".\n", ""},
		{"The gate opens at 0630 and closes at 2200.\n", ""},
		{"Alarm set for 0615 tomorrow.\n", ""},
		{"Safe mode boot takes " + pin(4) + " ms on this board.\n", ""},
		{"We spent " + pin(4) + " EUR on the new front door.\n", ""},
		{"The safe deposit box number is " + pin(4) + " at the bank.\n", ""},
		{"The safe was installed in 2018 by the landlord.\n", ""},
		{"Gate B12, flight " + pin(4) + " to Lisbon.\n", ""},
		{"The door code was changed last week; ask Maria for it.\n", ""},
		{"код ошибки " + pin(4) + " означает сбой питания\n", ""},
		{"Combination therapy started in 2019.\n", ""},
		{"Intercom model " + pin(4) + " is discontinued.\n", ""},
		// 2. a chosen password after its noun: all-caps labels, other
		// scripts, Turkish's bare noun, CJK and Thai sentences
		{"ŞİFRE: " + lower() + "\n", RuleProsePasswordChosen},
		{"ПАРОЛЬ: Снег" + pin(4) + "\n", RuleProsePasswordChosen},
		{"PASSWORT: " + chosen("!") + "\n", "*"},
		{"WiFi parola: " + chosen("") + "\n", RuleProsePasswordChosen},
		{"Modem parolası: " + chosen("") + "\n", RuleProsePasswordChosen},
		{"HASŁO DO WIFI: " + chosen("") + "\n", RuleProsePasswordChosen},
		{"办公室的wifi密码是" + chosen("") + "\n", RuleProsePasswordChosen},
		{"サーバーのパスワードは" + chosen("") + "です。\n", RuleProsePasswordChosen},
		{"관리자 비밀번호는 " + chosen("!") + "입니다.\n", "*"},
		{"รหัสผ่านคือ " + chosen("") + "\n", RuleProsePasswordChosen},
		{"门禁密码是 " + pin(4) + "\n", RuleProsePasswordChosen},
		{"  पासवर्ड: " + chosen("?") + "\n", "*"},
		// on the line below a sentence naming it
		{"Пароль от почты:\n" + "Вишня" + pin(4) + "\n", RuleProsePasswordChosen},
		{"Wachtwoord hieronder, graag na overdracht wijzigen:\n\n" + chosen("!") + "\n", "*"},
		// a Wi-Fi network's key in a sentence
		{"Guest network Office-5G, key is blue-otter-" + two() + ".\n", RuleProsePasswordChosen},
		{"SSID HomeLan / WPA2 key: " + lower() + "\n", RuleProsePasswordChosen},
		{"Office wifi is StaffNet, password " + chosen("") + ".\n", RuleProsePasswordChosen},
		{"Red Wi-Fi: Oficina2, clave: " + chosen("_") + "\n", RuleProsePasswordChosen},
		// near-misses
		{"ŞİFRE: yöneticiden isteyin\n", ""},
		{"PASSWORT: siehe Tresor\n", ""},
		{"Parola politikası: en az 12 karakter\n", ""},
		{"PASSWORD RESET: ticket INC" + pin(6) + "\n", ""},
		{"Password last changed: 2024-01-15\n", ""},
		{"KENNWORT: vergessen2 mal\n", ""},
		{"PASSWORD: see LastPass entry Prod2\n", ""},
		{"密码长度至少为12位\n", ""},
		{"密码已于2023年更改\n", ""},
		{"비밀번호는 12자 이상이어야 합니다.\n", ""},
		{"รหัสผ่านต้องมีอย่างน้อย 12 ตัวอักษร\n", ""},
		{"Password policy:\nMinimum12Characters\n", "!" + RuleProsePasswordChosen},
		{"Password reset ticket:\nINC" + pin(7) + "\n", ""},
		{"Here's the wifi network name:\nOffice-5G\n", ""},
		{"Guest network Office-5G, key is on the sticker under the router.\n", ""},
		{"Network StaffNet, password length 12.\n", ""},
		{"Office wifi is StaffNet, password changed in 2023.\n", ""},
		{"Key takeaways from the network review: fewer VLANs, 2 sites.\n", ""},
		{"Wifi network StaffNet runs on channel 36, key rotation 2024.\n", ""},
		// 3. a question in a chat answered by the value alone
		{"[10:02] anna: what's the vpn password?\n[10:03] bob: " + chosen("!") + "\n", RuleProseChatAnswer},
		{"[09:12] Marcus Lind: anyone know the root pw for the old NAS?\n[09:13] Marcus Lind: need the backups\n[09:15] Jenna Okafor: " + g.mixed(base62, 6) + "!" + pin(3) + "Qr\n", RuleProseChatAnswer},
		{"Ben 3:02 PM   what's the code for the supply cupboard?\nBen 3:02 PM   the keypad one on floor 4\nRosa 3:05 PM  " + pin(5) + " then #\n", RuleProseChatAnswer},
		{"Дмитрий, [21.03.2024 10:15]\nКакой код от сейфа? Надо достать печать\nАнна, [21.03.2024 10:22]\n" + pin(5) + "\n", RuleProseChatAnswer},
		{"[12/3/24, 18:40] Carmen: cuál es la clave del wifi de casa?\n[12/3/24, 18:47] Mamá: " + lower() + "\n", RuleProseChatAnswer},
		{"王磊 09:30\n仓库门禁密码多少来着？快递到了\n李娜 09:34\n" + pin(6) + "\n", RuleProseChatAnswer},
		{"Sanne 08:57: Wat is de pincode van de creditcard? Moet betalen\nJoris 09:01: " + pin(4) + "\n", RuleProseChatAnswer},
		// near-misses
		{"[10:02] anna: what's the vpn password?\n[10:03] bob: ask IT, I don't have it\n", ""},
		{"[10:02] anna: did you change the vpn password?\n[10:03] bob: yes, yesterday\n", ""},
		{"[10:02] anna: where is the vpn password stored?\n[10:03] bob: Vaultwarden\n", ""},
		{"[10:02] anna: how long must the vpn password be?\n[10:03] bob: 16\n", ""},
		{"[10:02] anna: what's the password policy now?\n[10:03] bob: MinLength16\n", ""},
		{"[10:02] anna: what time is the password rotation?\n[10:03] bob: 1430\n", ""},
		{"[11:20] tom: whats the guest wifi name?\n[11:21] ana: Office5G\n", ""},
		{"[11:20] tom: what's the zip code of the office?\n[11:21] ana: 10115\n", ""},
		{"[11:20] tom: what's the error code on the door panel?\n[11:21] ana: " + pin(4) + "\n", ""},
		{"[11:20] tom: when does the door code change?\n[11:21] ana: 2024\n", ""},
		{"[11:20] tom: what's the extension for the front door intercom?\n[11:21] ana: " + pin(4) + "\n", ""},
		{"[11:20] tom: what's the ticket for the password reset?\n[11:21] ana: INC" + pin(4) + "\n", ""},
		// 4. passphrases of words, written plainly
		{"SSH key passphrase: copper kettle morning rain\n", RuleProsePassphrasePlain},
		{"Disk encryption passphrase: amber wolves climb silent towers\n", RuleProsePassphrasePlain},
		{"the gpg passphrase for it is the otter sleeps under the window bridge.\n", RuleProsePassphrasePlain},
		{"Frase de contraseña de la clave GPG: gato negro bajo la lluvia\n", RuleProsePassphrasePlain},
		{"passphrase for that key — " + chosen("#") + "\n", RuleProsePasswordChosen},
		// near-misses
		{"Use a passphrase of at least four random words.\n", ""},
		{"Passphrase is stored in the team vault under 'ssh deploy'.\n", ""},
		{"Passphrase: see the sealed envelope in the safe\n", ""},
		{"Disk encryption passphrase: ask Olga or see the runbook\n", ""},
		{"The passphrase is the same as the old laptop one.\n", ""},
		{"Passphrase: four random words from the EFF list\n", ""},
		{"GPG passphrase is long but easy to remember.\n", ""},
		{"Passphrase for id_ed25519: ask Jonas\n", ""},
		{"Use the phrase to unlock when prompted by the agent.\n", ""},
	}
	checkNoteCases(t, cases)
}

// TestChosenLowValue: the shapes of a chosen password, and what the
// notes forms read after a password's noun that is none.
func TestChosenLowValue(t *testing.T) {
	for _, v := range []string{"Lale" + "4488", "Снег" + "2020", "Brezel!" + "19", "r3dPanda_" + "77", "bluebird" + "4411", "Kestrel!Moon" + "88", "Martı" + "2021"} {
		if !chosenLowValue([]byte(v)) {
			t.Errorf("chosenLowValue(%q) = false, want true", v)
		}
	}
	for _, v := range []string{"Minimum12Characters", "MinLength16", "INC0042211", "RTX4090", "Python3.11", "v2.14.3", "notes2024.md", "2024-01-15", "1Password",
		"Windows10", "12karakter", "abc", "Office5", "user@host.example", "/etc/passwd2", "$HOME22", "password123"} {
		if chosenLowValue([]byte(v)) {
			t.Errorf("chosenLowValue(%q) = true, want false", v)
		}
	}
}

// TestCaseForms: a noun's keywords and expression find it in capitals,
// Turkish's dotted capital I included.
func TestCaseForms(t *testing.T) {
	got := strings.Join(caseForms("şifre"), " ")
	for _, want := range []string{"şifre", "Şifre", "ŞİFRE"} {
		if !strings.Contains(" "+got+" ", " "+want+" ") {
			t.Errorf("caseForms(şifre) = %s, missing %s", got, want)
		}
	}
	kw := strings.Join(nounKeywords([]string{"пароль"}), " ")
	if !strings.Contains(kw, "ПАРОЛЬ") || !strings.Contains(kw, "Пароль") {
		t.Errorf("nounKeywords(пароль) = %s, want its capitals", kw)
	}
}
