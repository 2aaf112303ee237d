package secrets

import (
	"strings"
	"testing"
)

// TestNoteFormsRound20: the forms of issue 33's round 20 (PINs and door
// and alarm codes with no copula, after a question in a chat export and
// in more languages; a quoted value in parentheses after a password's
// noun, an adjective after it, a bold value, "pw" and "pass" in a pair,
// a Wi-Fi network's key; passphrases of words after a password's noun,
// below a question and with a short or repeated word), in sentences and
// registers of our own with fresh values, each kind with the near-misses
// that look like it: a length, a mailbox, an order, a review, a
// reference to a vault, a release, a ticket, a year, an extension, a
// model, a page's name.
func TestNoteFormsRound20(t *testing.T) {
	g := newFakeGen("notes-round-20")
	pin := func(n int) string {
		for {
			v := g.from("0123456789", n)
			if !placeholderDigits([]byte(v)) && !yearDigits([]byte(v)) && !powerOfTwo([]byte(v)) {
				return v
			}
		}
	}
	words := []string{"juniper", "quarry", "ember", "falcon", "marble", "tundra", "orchid", "pewter", "saffron", "wicket", "bramble", "cobalt", "lantern", "meadow"}
	pick := func(n int, sep string, title bool) string {
		var ws []string
		for len(ws) < n {
			w := words[g.next()%uint64(len(words))]
			if strings.Contains(" "+strings.ToLower(strings.Join(ws, " "))+" ", " "+w+" ") {
				continue
			}
			if title {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			ws = append(ws, w)
		}
		return strings.Join(ws, sep)
	}
	// a password as people choose them: a word, a symbol, digits
	chosen := func(sym string) string {
		w := words[g.next()%uint64(len(words))]
		return strings.ToUpper(w[:1]) + w[1:] + sym + pick(1, "", true) + g.from("0123456789", 2)
	}
	chat := func(q, a string) string {
		return "**ana** 09:12\n" + q + "\n\n**li** 09:14\n" + a + "\n"
	}
	cases := []noteCase{
		// 1. PINs and codes with no copula
		{"* New corporate card arrived, PIN " + pin(4) + ", kept by Finance.\n", RuleProsePIN},
		{"dial *98, mailbox 200, PIN " + pin(6) + ". I'll do it later\n", RuleProsePIN},
		{"- Keypad on the loading bay door, code " + pin(4) + " then #.\n", RuleProsePIN},
		{"Last one out: arm it with " + pin(4) + " and press AWAY.\n", RuleProsePIN},
		{"Disarm the alarm using " + pin(5) + " when you come in.\n", RuleProsePIN},
		{"the side gate opens at 0730, code " + pin(4) + "\n", RuleProsePIN},
		{"Der Türcode für den Keller lautet " + pin(4) + ", danach Raute.\n", RuleProsePIN},
		{"Der Zugangscode ist jetzt " + pin(6) + ".\n", RuleProsePIN},
		{"senha do alarme mudou pra " + pin(5) + ", depois aperta ATIVAR\n", RuleProsePIN},
		{"El código de la puerta es " + pin(4) + ".\n", RuleProsePIN},
		{"Le code de la porte est " + pin(4) + " depuis lundi.\n", RuleProsePIN},
		{"Il codice della porta è " + pin(4) + ".\n", RuleProsePIN},
		{"Kod do drzwi: " + pin(4) + "\n", RuleProsePIN},
		{"Digicode : " + pin(4) + "\n", RuleProsePIN},
		{"Codice allarme: " + pin(4) + "\n", RuleProsePIN},
		{"The iPad passcode is " + pin(6) + ".\n", RuleProsePIN},
		{"SIM card PUK " + pin(8) + "\n", RuleProsePIN},
		{"Garage door opener code " + pin(4) + "\n", RuleProsePIN},
		{"The code for the lockbox is " + pin(4) + ".\n", RuleProsePIN},
		{"The passcode length is 6 digits\n", ""},
		{"the remote code " + pin(4) + " for the TV\n", ""},
		{"the keypad's model code " + pin(4) + "\n", ""},
		{"Digicode : " + pin(4) + "B\n", ""},
		// a question in a chat export, the digits in the next message
		{chat("jaki jest PIN do sejfu na klucze?", pin(4)), RuleProsePIN},
		{chat("¿Alguien sabe el PIN de la impresora?", "es "+pin(6)), RuleProsePIN},
		{chat("what's the PIN for the meeting room tablet?", "it's "+pin(4)), RuleProsePIN},
		// near-misses
		{"PIN length is 6\n", ""},
		{"PIN length is 8 digits, no sequences.\n", ""},
		{"mailbox 200, extension 4471\n", ""},
		{"order 4471 shipped with the new keypad\n", ""},
		{"code review 0519 done\n", ""},
		{"The door controller threw error code 4471.\n", ""},
		{"Door panel install, order code 5521.\n", ""},
		{"the keypad firmware code 2024 was flashed\n", ""},
		{"The door code is in 1Password.\n", ""},
		{"Call ext 4471 about the door code.\n", ""},
		{"we pin node 2024 for now\n", ""},
		{"pin 4096 MB for the cache\n", ""},
		{"PIN for the safe 4471\n", ""},
		{"pin " + pin(4) + " of the header is ground\n", ""},
		{"PIN 1234 is the factory default.\n", ""},
		{"PIN 2024 rollout is done\n", ""},
		{"arm it with 2048 MB of RAM\n", ""},
		{"release 2024.1, code freeze 0519\n", ""},
		{"The promo code 5521 expired on the gate kiosk.\n", ""},
		{chat("What's the PIN policy?", "2024"), ""},
		{chat("Which PIN pad model do we have?", "8006"), ""},
		{chat("Need the PIN reset ticket?", "4587"), ""},
		{chat("where is the PIN for the printer?", "in the vault"), ""},
		// 2. passwords: in parentheses, after an adjective, bold, pw, pass
		{"**Root cause:** the script read the admin password (`" + chosen("-") + "`) from a file.\n", RuleProsePasswordPhrase},
		{"1. The SFTP account had a weak password (`" + pick(1, "", true) + "_" + g.from("0123456789", 2) + "`) shared with partners.\n", RuleProsePasswordPhrase},
		{"- Première connexion : mot de passe provisoire **" + chosen("&") + "**\n", RuleProsePasswordPhrase},
		{"La contraseña inicial es `" + chosen("#") + "`, cámbiala.\n", "*"},
		{"senha provisória " + chosen("!") + " (troque no primeiro acesso)\n", RuleProsePasswordPhrase},
		{"ops@corp.example pw " + chosen("#") + "\n", RuleProsePasswordPhrase},
		{"> the login for the vendor portal is svc.payroll and the pass is " + chosen("!") + "\n", RuleProsePasswordPhrase},
		{"user jsmith pass " + chosen("#") + "\n", RuleProsePasswordPhrase},
		{"Login: admin_firma\nHasło: " + pick(1, "", true) + g.from("0123456789", 4) + "!\n", RuleProsePasswordPhrase},
		{"for the offsite the guest network is **LP-Guest** and the key is " + chosen("#") + "\n", RuleProsePasswordPhrase},
		{"Guest Wi-Fi: ssid Harbour-Guest, key: " + chosen("&") + "\n", RuleProsePasswordPhrase},
		// near-misses
		{"the password (`$DB_PASSWORD`) comes from the environment\n", ""},
		{"the password (`<redacted>`) is in the vault\n", ""},
		{"the password manager (`1Password`) is mandatory\n", ""},
		{"the DB password (`prod_db_01`) is the vault entry's name\n", ""},
		{"mot de passe provisoire **à changer**\n", ""},
		{"mot de passe provisoire : voir le coffre\n", ""},
		{"Zmień hasło Windows10 jak najszybciej\n", ""},
		{"pw reset via the portal, ticket 4471\n", ""},
		{"pwd /home/ops2/bin\n", ""},
		{"the pass is " + chosen("!") + "\n", ""},
		{"the boarding pass is Gate12B!x\n", ""},
		{"the user badge and the pass is Level3Access\n", ""},
		{"The API gateway key rotation is v2.14.3-rc1\n", ""},
		{"the network key is in the vault\n", ""},
		{"the signing key is Kx9!pQ2m\n", ""},
		// 3. passphrases of words after a password's noun, below a
		// question, with a short or a repeated word
		{"passphrase is " + strings.Replace(pick(4, "-", false), "-", "-at-", 1) + "\n", RuleProsePassphraseWords},
		{"3. The repository passphrase for the NAS is:\n\n   " + strings.Fields(pick(4, " ", false))[0] + " " + pick(4, " ", false) + "\n", RuleProsePassphraseWords},
		{"The Wi-Fi password is " + pick(4, "-", false) + ".\n", RuleProsePassphraseWords},
		{"- Wi-Fi: network \"Atlantico\", password " + pick(3, "-", false) + "\n", RuleProsePassphraseWords},
		{"De wachtwoord is " + pick(4, "-", true) + "\n", RuleProsePassphraseWords},
		{chat("wie war nochmal das WLAN-Passwort für Gäste?", pick(4, "-", true)), RuleProsePassphraseWords},
		// near-misses
		{"Password: see-the-team-vault\n", ""},
		{"password is rotated-every-ninety-days\n", ""},
		{"the password must be long-and-hard-to-guess\n", ""},
		{"Password reset self-service-portal-link is broken\n", ""},
		{"Password self-service-portal-link\n", ""},
		{"Password entry name " + pick(4, "-", false) + " in Keeper\n", ""},
		{"password " + pick(3, "-", false) + "\n", ""},
		{"WLAN password: guest-portal-login\n", ""},
		{"Wi-Fi password: written-behind-reception\n", ""},
		{"passphrase: test-test-test-test\n", ""},
		{chat("What is the password policy?", "longer than twelve characters please"), ""},
		{chat("Is the password still the old one?", "no idea ask the team lead"), ""},
	}
	checkNoteCases(t, cases)
}

// TestNoteNearMissesRound20Review: the review's near-misses of round
// 20's forms, and paraphrases of our own: none is a leak.
func TestNoteNearMissesRound20Review(t *testing.T) {
	cases := []noteCase{
		// 1. error and status codes read as a keypad's
		{"Garage door error, code 4471 means the sensor is blocked.\n", ""},
		{"lock contention, code 1205 deadlock\n", ""},
		{"Accès refusé : code 4471\n", ""},
		{"acceso denegado, code 4471\n", ""},
		{"CloudWatch alarm fired, code 5003\n", ""},
		{"It is safe to ignore; the code 4471 is harmless.\n", ""},
		{"Tor exit node, code 4471\n", ""},
		{"Il porte une veste; code 4471\n", ""},
		{"The entrance exam, code 2024\n", ""},
		{"door sensor, code 4471 = battery low\n", ""},
		{"Door 12: same code 2231 as the ticket\n", ""},
		{"the gate controller failed, code 3817 again\n", ""},
		{"Front door reader: code 6093 in the audit log\n", ""},
		// 2. questions a year, a count or a place answers
		{"Where do I reset my PIN?\n2024\n", ""},
		{"When was the PIN changed?\n2023\n", ""},
		{"Which year was the door code introduced?\n2018\n", ""},
		{"What's the ticket number for the PIN reset?\n44812\n", ""},
		{"How many times can you enter a wrong PIN?\n3000\n", ""},
		{"How long until the PIN expires, in days?\n1000\n", ""},
		{"What's the PIN?\n2023\n", ""},
		{"How often do we rotate the alarm code?\n9041\n", ""},
		{"Anyone have the incident ref for the PIN lockout?\n58213\n", ""},
		// 3. a board's pins
		{"Connect PIN 1024 (GPIO) to the LED.\n", ""},
		{"The PIN 5v0 header; PIN 1011 is TX.\n", ""},
		{"Solder PIN 4417 to the ground rail\n", ""},
		{"wire PIN 2317 (UART RX) to the sensor\n", ""},
		// 4. a bare "key" that is no Wi-Fi network's
		{"the shared key is Zx9#qLm2w\n", ""},
		{"the required key: Zx9#qLm2w\n", ""},
		{"a concrete key is Kx9!pQ2mz\n", ""},
		{"the stored key: Kx9!pQ2mz for the JWT\n", ""},
		{"In the network graph the key is NodeID#12\n", ""},
		{"network table, primary key is user_id#2024\n", ""},
		{"Netzwerk: the sort key is Customer#ID2\n", ""},
		{"network policy, key: ProdVpc-2024!\n", ""},
		{"The red team key is Shift+F12+Enter\n", ""},
		{"the ignored key is Qw7#zLp3x\n", ""},
		{"network diagram: partition key is Tenant#07\n", ""},
		// 5. "pass" the verb after a user
		{"user group pass Level3#Access\n", ""},
		{"Each user must pass Level-2#training\n", ""},
		{"the user must pass Kx9!pQ2m#\n", ""},
		{"user accounts pass ISO-27001+SOC2\n", ""},
		{"any user can pass Qm4#vTz9k@ once\n", ""},
		{"user roles pass Audit+Review#3\n", ""},
		// 6. a setting's camelCase name in parentheses
		{"password (`MinLength8`) rule\n", ""},
		{"password (`MaxRetries3`)\n", ""},
		{"password (`HashAlgo256`)\n", ""},
		{"the password (`SaltRounds12`) setting\n", ""},
		{"the password (`LockoutMinutes15`) knob\n", ""},
		{"password (`HistoryDepth24`) in the policy\n", ""},
		// 7. a chat's reply in words, a password described
		{"**ana** 09:12\nAnyone know the wifi password?\n\n**li** 09:14\nnope sorry check confluence\n", ""},
		{"**ana** 09:12\nWi-Fi network Guest password?\n\n**li** 09:14\nnobody knows anymore honestly\n", ""},
		{"Wi-Fi network Guest, password is auto-generated-daily\n", ""},
		{"**ana** 09:12\nwhat's the guest wifi password?\n\n**li** 09:14\nsorry cannot remember anymore\n", ""},
		{"WLAN guest, password is randomised-nightly-centrally\n", ""},
	}
	checkNoteCases(t, cases)
}
