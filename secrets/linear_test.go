package secrets

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// adversarialKeywords are the keywords the one-line and keyword-only
// shapes repeat (issue 33, point 5).
var adversarialKeywords = []string{"AKIA", "ghp_", "password=", "token=", "-----BEGIN ", "secret ", "api_key: ", "xoxb-", "sk-", "private_key=", "://a:b@", "eyJhbGciOi."}

// binaryBytes is every byte value, an alphabet of drawn binary.
var binaryBytes = func() string {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b)
}()

// adversarial returns inputs of n bytes built to make a scanner's work
// grow faster than its input: one line of a keyword repeated, lines of
// nothing but a keyword, and shapes that keep a rule's value going
// (a keyword then a long value run, keywords alternating with quotes,
// runs of "=", one base64 run, a keyword every 20 bytes of random text).
func adversarial() map[string]func(n int) []byte {
	rep := func(s string) func(int) []byte {
		return func(n int) []byte { return []byte(strings.Repeat(s, n/len(s)+1)[:n]) }
	}
	out := map[string]func(int) []byte{}
	for _, k := range adversarialKeywords {
		out["line:"+k] = rep(k)
		out["lines:"+k] = rep(k + "\n")
	}
	// A run of "A" is a hit of the Twitter rule's keyword (21 "a"s) at
	// every byte; lines of 100 "A"s and an escape are each a candidate
	// that only its entropy turns down.
	out["line:A"] = rep("A")
	out["lines:twitter-near"] = rep(strings.Repeat("A", 100) + "%2B\n")
	// laravel-sanctum-token's keywords are a digit and a pipe: a compact
	// table is a hit at every cell, and rows of 40 hex digits after one
	// are each a candidate its validation turns down.
	out["line:1|"] = rep("1|")
	// HTML character references are escapes the decoder reads: one line
	// of them is one token of escapes; lines of a quoted value under a
	// token's name are each a view.
	out["line:&quot;"] = rep("&quot;")
	out["lines:html-quoted"] = rep("token=&quot;" + strings.Repeat("a1B2", 10) + "&quot; &amp; x=&#34;y&#34;\n")
	out["lines:sanctum-near"] = rep("|1|" + strings.Repeat("0123456789abcdef", 3)[:40] + "|\n")
	// tableau-pat-secret's keyword is "==:": a line of them is a hit at
	// every third byte; lines of a secret's shape whose second part has
	// no upper case are each a candidate its validation turns down.
	out["line:==:"] = rep("==:")
	out["lines:tableau-near"] = rep(strings.Repeat("A", 21) + "w==:" + strings.Repeat("abc1", 8) + "\n")
	// random text of n bytes from alphabet, the same for every n
	random := func(alphabet string) func(int) []byte {
		return func(n int) []byte { return []byte(newFakeGen("adv "+alphabet).from(alphabet, n)) }
	}
	b64 := base62 + "+/"
	for _, k := range []string{"password=", "api_key: ", "token=\"", "AKIA", "ghp_", "xoxb-", "sk-"} {
		// the keyword once, then a value that never ends
		out["value:"+k] = func(n int) []byte { return append([]byte(k), random(b64)(n)...)[:n] }
	}
	out["quotes:token"] = rep(`token="` + `'` + `secret='"`)
	out["quotes:password"] = rep(`password = "a" "password = '`)
	out["equals"] = rep("=")
	out["equals:key"] = rep("a_key=b=")
	out["base64"] = random(b64)
	out["hex"] = random(hexLower)
	out["every20:token="] = func(n int) []byte {
		g := newFakeGen("every20")
		var b strings.Builder
		for b.Len() < n {
			b.WriteString(g.from(base62, 14))
			b.WriteString(" token=")
		}
		return []byte(b.String()[:n])
	}
	out["every20:mixed"] = func(n int) []byte {
		g := newFakeGen("every20m")
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			b.WriteString(g.from(base62, 12))
			b.WriteString(" " + adversarialKeywords[i%len(adversarialKeywords)])
		}
		return []byte(b.String()[:n])
	}
	// This round's rules: a name/value pair's entries, one after another
	// on lines and on one line; one Cookie header of many pairs, and one
	// of session pairs; lines a .pgpass line's shape fits (Redact runs
	// that rule on every text).
	entries := func(format string) func(int) []byte {
		return func(n int) []byte {
			g := newFakeGen("entries " + format)
			var b strings.Builder
			for b.Len() < n {
				fmt.Fprintf(&b, format, g.from(base62, 20))
			}
			return []byte(b.String()[:n])
		}
	}
	out["entries:name-value"] = entries("- name: DB_PASSWORD\n  value: \"%s\"\n")
	out["line:name-value"] = entries(`{"name":"API_TOKEN","value":"%s"},`)
	out["line:name-no-value"] = rep(`{"name":"API_TOKEN","kind":"x"}, `)
	out["cookie:pairs"] = func(n int) []byte { return append([]byte("Cookie: "), rep("a=b; ")(n)...)[:n] }
	out["line:cookie"] = entries("Cookie: sessionid=%s; ")
	out["lines:pgpass"] = entries("db.internal:5432:orders:app:%s\n")
	// languages.go: sentences in other languages on one line and on
	// lines, an English noun before many words, abbreviations and pairs,
	// a vendor prefix repeated and followed by a run that never ends.
	out["line:intl"] = entries("Das Passwort für den Server lautet %s, ")
	out["lines:intl"] = entries("La contraseña de la base de datos es %s\n")
	out["line:intl-words"] = rep("La password del server nuovo e vecchio ")
	out["line:token-words"] = rep("the token for the staging tenant ")
	out["line:pw"] = entries("pw: %s pwd is ")
	out["line:pairs"] = entries("u/p: deploy / %s creds = ")
	out["line:vendor"] = rep("ATATT3 key- ")
	out["value:ATATT3"] = func(n int) []byte { return append([]byte("ATATT3"), random(base62)(n)...)[:n] }
	// the abbreviations' gate judges the bytes before a hit, not the run
	// of letters it ends (a walk back made these quadratic)
	out["line:xpw"] = rep("xpw")
	out["line:xpasswd"] = rep("xpasswd")
	// Secrets in code (codeforms.go): setters, constructors' arguments, a
	// DSN, signers' keys and Basic headers, one after another on one line
	out["line:setter"] = entries(`ds.setPassword("%s"); `)
	out["line:setter-open"] = rep(`.password("`)
	out["line:constructor"] = rep(`new PDO($dsn, 'app', `)
	// (lower-case values: a random base62 run holds other rules' tokens
	// by chance, an AKIA or a telegram bot id, whose one hit on the 128
	// KB line reads a window the 32 KB line has none of)
	out["line:dsn"] = func(n int) []byte {
		g := newFakeGen("entries dsn")
		var b strings.Builder
		for b.Len() < n {
			fmt.Fprintf(&b, "u:%s@tcp(", g.from(alphaLower, 20))
		}
		return []byte(b.String()[:n])
	}
	out["line:jwt-sign"] = rep(`jwt.sign({ a: b, `)
	out["line:byte-hmac"] = entries(`hmac []byte("%s") `)
	out["line:secret-key"] = entries(`SECRET_KEY = "%s!" `)
	out["line:basic"] = entries(`Authorization "Basic %s" `)
	// Passwords in notes (notesforms.go): a noun and its value, a pair
	// after words, a label or a question with the value below, on one
	// line and on lines; a noun repeated with no value
	out["line:notes-phrase"] = entries("passphrase %s! psk ")
	out["line:notes-noun"] = rep("parola d'ordine salasana パスワードは ")
	out["line:notes-pair"] = entries("creds for the qa box -> u / %s ")
	out["line:notes-pair-words"] = rep("creds for a b c d e f g h i ")
	out["line:notes-question"] = rep("what's the pw? password: ")
	out["lines:notes-question"] = entries("does anyone have the pw?\nops / %s!\n")
	out["lines:notes-label"] = entries("Password (rotated yearly):\n\n    %s!\n")
	out["lines:notes-deflist"] = rep("**Password**\n: ")
	out["line:sshpass"] = rep("sshpass -o x -p ")
	out["line:getbytes"] = entries(`SymmetricSecurityKey(Encoding.UTF8.GetBytes("%s")) `)
	out["line:url-hash"] = rep("https://u:p#")
	out["line:url-hash-at"] = entries("db://u:%s#@h/ ")
	// vendorcontext.go and the public halves (publichalf.go): Bearer
	// literals, a vendor's word with its shapes around it, and values a
	// public half's test reads a window around
	out["line:bearer"] = entries(`"Bearer %s", `)
	out["line:bearer-open"] = rep(`"Bearer `)
	out["line:okta"] = entries("okta 00%s ")
	out["line:heroku"] = entries("heroku api_key: %s ")
	out["line:mg"] = entries("mg.a %s-0a1b2c3d-0a1b2c3d ")
	out["line:firebase"] = entries(`apiKey: "AIza%s", authDomain `)
	out["line:sitekey"] = entries(`data-sitekey="6Lc%s" `)
	out["line:xml-password"] = entries(`<password>%s</password>`)
	out["line:mysql"] = entries(`mysql -u root -p'%s' `)
	out["line:mysql-words"] = rep("mysql a b c d e f g h ")
	out["line:password-plain"] = entries("with password %s and the password on that box was ")
	// round twenty's forms: a quoted password name before its value, a
	// typed declaration
	out["line:quoted-name"] = rep("'password', ")
	out["line:quoted-name-value"] = entries("define('DB_PASSWORD', '%s'); ")
	out["line:typed-declaration"] = rep("const API_TOKEN: &str = ")
	out["line:cjk"] = entries("パスワードは「%s」")
	out["line:bold"] = entries("senha do Redis: **%s** ")
	// noteskinds.go and the forms notesforms.go gained: PINs and codes with
	// their filler words, passphrases of words, Bearer in prose, recovery
	// keys and codes, pairs in parentheses or with a host, a bold label, a
	// login question, redis-cli -a
	out["line:pin"] = rep("the door code for a b c d e f is now ")
	out["line:pin-words"] = rep("pin pincode alarm code keypad code ")
	out["lines:pin"] = rep("PIN:\n")
	out["line:passphrase"] = rep("passphrase a b c d is \"word word word ")
	out["line:passphrase-dashed"] = rep("passphrase abc-def-ghi-")
	out["lines:passphrase"] = rep("passphrase:\nword word word word word ")
	out["line:auth-bearer"] = rep("authorization bearer ")
	out["line:recovery-key"] = rep("recovery key for a b c d is ")
	out["lines:recovery-codes"] = rep("backup codes:\n```\n")
	out["line:creds-currently"] = entries("creds (currently `u:%s")
	out["line:creds-host"] = entries("creds: u:%s@a.b.c.d.e.f.g.h ")
	out["line:creds-username"] = rep("credentials are: username u, pw ")
	out["lines:bold-label"] = rep("**password**\n")
	out["lines:login-question"] = entries("the grafana login?\n**[10:03] a:** u / %s!\n")
	out["line:redis-cli"] = rep("redis-cli -h a -p 1 ")
	// the review of r19-notes2: a digit in a short word, the bare trigger
	out["line:wpa2-key"] = rep("wpa2 key ")
	out["line:clave"] = rep("clave ")
	out["line:redis-cli-a"] = rep("redis-cli -a ")
	out["line:redis-cli-opts"] = rep("redis-cli -h a -p 1 -a ")
	// round 53: sqlcmd's flags before -P, a server's value with a comma
	out["line:sqlcmd-opts"] = rep("sqlcmd -S tcp:db,1433 -U sa -P ")
	out["lines:sqlcmd-P"] = entries("sqlcmd -S tcp:db,1433 -U sa -P %s\n")
	// a draw with a dot, where a password goes (memberChain)
	out["line:dotted-password"] = entries("pass" + "word: kQz7.%s ")
	// round 54: Samba's -U user%password, htpasswd's batch mode, net use
	out["line:smbclient-U"] = rep("smbclient //h/s -U a% ")
	out["line:smbclient-args"] = rep("smbclient '//h/s' -W D -c 'ls' ")
	out["line:smbclient-values"] = entries("smbclient //h/s -U 'D\\u%%%s' ")
	out["line:htpasswd-flags"] = rep("htpasswd -b -C 10 -B ")
	out["line:htpasswd-b"] = entries("htpasswd -bB f u %s ")
	out["line:net-use"] = rep("net use \\\\h\\s /user:d\\u ")
	out["line:htpasswd-array"] = rep("[\"htpasswd\", \"-b\", \"f\", ")
	// a secret a command printed, on the line after it
	out["line:kubectl-secret"] = rep("kubectl get secret a -o name ")
	out["line:vault-field"] = rep("vault kv get -field=a b ")
	out["line:echo-password"] = rep("echo $DB_PASSWORD ")
	out["lines:echo-password"] = entries("echo $DB_PASS" + "WORD\n%s\n")
	out["lines:vault-field"] = rep("vault kv get -field=a b\n")
	out["lines:notes-question-its"] = rep("the pw? sure, it's\n")
	out["line:notes-question-its"] = rep("the pw? a b c d e f g h i j k l m n o p q r s t u v it's ")
	// round 20: PINs with no copula and after a question in a chat,
	// a bare code near a keypad, arming; a value in parentheses, after an
	// adjective, bold, after pw, pass and a Wi-Fi network's key; words
	// after a password's noun and below a question in a chat
	out["line:pin-direct"] = rep("PIN 48213, ")
	out["line:pin-direct-four"] = rep("PIN 1234, ")
	out["line:pin-colon"] = rep("PIN: 48213, ")
	out["line:pin-question"] = rep("the PIN for a b? ")
	out["lines:pin-question"] = rep("the PIN?\n\n**a** 1:2\nes ")
	out["line:code-keypad"] = rep("door keypad, code ")
	out["line:arm"] = rep("arm it with disarm the alarm using ")
	out["line:kod-senha"] = rep("kod do drzwi senha do alarme mudou pra ")
	out["line:notes-paren"] = entries("password (`%s`) ")
	out["line:notes-paren-open"] = rep("password (`")
	out["line:notes-adjective"] = rep("mot de passe provisoire **")
	out["line:pw-pass-key"] = rep("user pw pass is network key is ")
	out["line:passphrase-password"] = rep("password abc-def-")
	out["line:passphrase-password-words"] = rep("password abc-def-ghi ")
	out["lines:passphrase-password"] = rep("password:\nabc def ghi jkl ")
	out["lines:passphrase-question"] = rep("wifi password?\n\n**a** 1:2\nabc-def-ghi-")
	out["lines:chat-login"] = rep("creds?\n\n**a** 1:2\nit's u / ")
	// round 21: every repeat a finding of a rule whose matches begin
	// before its keyword (searched by attempts at its start table), a PIN
	// after nouns and a keypad, and a value after pw on a line that names
	// no login (the login pair's reading of it)
	out["line:passcode"] = rep("passcode 1234 ")
	out["line:alarm-code-colon"] = rep("alarm code: 4471 ")
	out["line:door-code-is"] = rep("the door code for the lab is 4471, ")
	out["line:pin-nouns-digits"] = rep("pin pin pin pin 1234 ")
	out["line:door-keypad-code"] = rep("door keypad, code 4471 ")
	out["line:pw-value"] = rep("pw Lisbon#2023 ")
	// round 21: the password nouns of more languages (passwordnouns.go),
	// a value after each, a noun before many words, the full-width colon
	// with no blank, a capitalised noun, Thai
	out["line:table-noun"] = entries("şifre: %s! ")
	out["line:table-noun-words"] = rep("Hasło do VPN a b c d e f g ")
	out["line:table-noun-copula"] = entries("lösenordet till wifi är %s ")
	out["line:table-noun-dash"] = rep("Пароль от роутера — ")
	out["line:cjk-fullwidth"] = rep("密码：")
	out["line:cjk-thai"] = rep("รหัสผ่านคือ ")
	// round 21, second pass: the forms of the three rules searched by
	// attempts at a far start table (a value after a noun and a colon,
	// digits after a noun, a quoted passphrase), a noun glued to what
	// follows it, whose attempts read the rest of the line
	out["line:intl-colon"] = entries("clave: %s! ")
	out["line:intl-phrase-colon"] = entries("mot de passe: %s! ")
	out["line:password-colon"] = entries("password: %s! ")
	out["line:intl-digits"] = rep("senha 48213, ")
	out["line:passphrase-quoted"] = rep("passphrase \"lantern cobalt mango river\" ")
	out["line:table-noun-glued"] = rep("şifre:x")
	// round 21's second pass: a field's label (bold, after a sender), a
	// pair's comma, BitLocker lines above a key
	out["line:label-bold"] = entries("**Şifre:** %s ")
	out["line:label-sender"] = rep("a: κωδικός: a: κωδικός: ")
	out["lines:pair-comma"] = entries("login a, пароль %s\n")
	// round 22: a noun of the table, words and a colon before each value
	// (attempts at starts narrowed to the text's nouns, narrow.go)
	out["line:table-noun-colon"] = entries("Hasło do VPN: %s! ")
	out["lines:bitlocker-above"] = rep("BitLocker\n123456-123456-123456-123456-123456-123456-123456-\n")
	// decode.go: encoded text that decodes to keywords, five layers of
	// base64 on one line, hex and base64 a line, a percent-encoded
	// token of many escapes, and tokens of a few escapes one after
	// another (each a window of its own)
	out["encoded:base64-nested"] = func(n int) []byte {
		inner := entries("password=%s ")(n * 243 / 1024)
		for range maxDecodeDepth {
			inner = []byte(base64.StdEncoding.EncodeToString(inner))
		}
		return append(inner, rep(" ")(n)...)[:n]
	}
	out["encoded:hex-lines"] = func(n int) []byte {
		var b strings.Builder
		for _, l := range strings.SplitAfter(string(entries("token=%s\n")(n/2)), "\n") {
			b.WriteString(hex.EncodeToString([]byte(l)) + "\n")
		}
		return append([]byte(b.String()), rep(" ")(n)...)[:n]
	}
	out["encoded:base64-lines"] = func(n int) []byte {
		var b strings.Builder
		for _, l := range strings.SplitAfter(string(entries("api_key: %s\n")(n*3/4)), "\n") {
			b.WriteString(base64.StdEncoding.EncodeToString([]byte(l)) + "\n")
		}
		return append([]byte(b.String()), rep(" ")(n)...)[:n]
	}
	// base64 wrapped at 76, of random bytes (each line's first bytes
	// say no) and of text (one block the length of the file)
	out["encoded:wrapped-binary"] = func(n int) []byte {
		return []byte(wrapLines(base64.StdEncoding.EncodeToString(random(base62+"\x00\x01\x02\x80\xff")(n)), 76)[:n])
	}
	out["encoded:wrapped-text"] = func(n int) []byte {
		return []byte(wrapLines(base64.StdEncoding.EncodeToString(entries("secret: %s\n")(n)), 76)[:n])
	}
	out["encoded:percent-token"] = entries("token%%3D%s%%26")
	out["encoded:percent-tokens"] = entries("password%%3D%s%%20 ")
	// terminal.go: coloured tokens, colours alone, sequences that never
	// end, written-out escapes and backslashes that are none
	out["terminal:coloured-tokens"] = entries("\x1b[1;32mtoken=%s\x1b[0m ")
	out["terminal:colours"] = rep("\x1b[93m\x1b[0m")
	out["terminal:open-sequences"] = rep("\x1b[1;2;3;4;5;6;7;8;9")
	out["terminal:written-out"] = entries("\\u001b[31mapi_key: %s\\u001b[0m ")
	out["terminal:backslashes"] = rep("\\")
	out["terminal:split-words"] = rep("ab\x1b[0mcd ")
	out["terminal:split-tokens"] = entries("rk_\x1b[01;31mlive\x1b[m_%s\n")
	// signedFormatRules: two-letter keywords dense, seeds one short,
	// refresh-token and session prefixes
	out["line:nats-pairs"] = rep("SUSASOSNSCSX")
	out["line:nats-short-seeds"] = rep("SUABCDEFGHIJKLMNOPQRSTUVWXYZ234567ABCDEFGHIJKLMNOPQRSTU ")
	out["line:refresh-prefix"] = rep("1//0")
	out["line:salesforce-org"] = rep("00DAbCdEfGhIjKl!")
	// round forty-three: the "/" behind an address's gate, "P/W", start
	// tags with attributes and no end
	out["line:host-login"] = rep("10.0.0.1 a/")
	out["line:host-login-pairs"] = entries("10.0.0.1 admin/%s ")
	out["line:p/w"] = rep("P/W:")
	out["line:xml-attributes"] = rep(`<password a="b" `)
	// round forty-four: "-us" dense, and behind 32 hex digits (each a
	// key's, judged), and hex without the digit after
	out["line:mailchimp"] = rep("-us")
	mcHex := "3ea4572956e2b381" + "923ed34c31db76aa"
	out["line:mailchimp-keys"] = rep(mcHex + "-us12 ")
	out["line:mailchimp-hex"] = rep(mcHex + "-us")
	// dots, each one's gate passed but the token's shape not, and IDs
	// whose tokens all pass the gate
	out["line:discord-dots"] = rep(".")
	out["line:discord-chain"] = rep("MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.")
	out["line:discord-tokens"] = entries("MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.%s ")
	// base64 runs in a call's quotes, each read for a decoder's name
	// before it (decoderCall)
	out["encoded:quoted-calls"] = rep(`x("TWFuIGlzIGRpc3Rpbmd1aXNoZWQsIG5vdA") `)
	// a table's PW column, header after header; rows that each name
	// their secret, every one a candidate in one table's window
	out["lines:table-pw-headers"] = rep("| IP | ID | PW |\n|---|---|---|\n| a | b | c |\n")
	out["lines:table-pw-rows"] = entries("| PW | %s |\n")
	out["lines:table-password-rows"] = entries("| password | %s |\n")
	// round forty-seven: IDs each followed by a run that may be the
	// secret, the ID's keyword dense; "sk-" and 32 hex digits, each a
	// key; one NTLM signature after another (one long base64 token); ten
	// A in 64-byte runs; names ending in _PAT, each an assignment
	out["line:alibaba-ids"] = rep("LTAI5tQ8vNw2XrLb ")
	out["line:alibaba-pairs"] = entries("LTAI5tQ8vNw2XrLb, %s ")
	out["line:ltai"] = rep("LTAI")
	out["line:deepseek-keys"] = rep("sk-" + "3f9a0c41d2e87b65a9c0f3e1d4b7a2c8 ")
	out["line:ntlm"] = rep("TlRMTVNTUAADAAAA")
	out["line:dropbox-runs"] = rep("abcdefghijkAAAAAAAAAAbcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS ")
	out["line:pat-names"] = rep("X_PAT=")
	// round fifty-one: a line of real findings, each a key two rules
	// report, one searching and one finding it (the finders asked every
	// earlier candidate whether it overlapped, a product of the two)
	out["line:mailgun-keys"] = func(n int) []byte {
		g := newFakeGen("mailgun keys")
		var b strings.Builder
		for b.Len() < n {
			fmt.Fprintf(&b, "key %s-%s-%s ", g.from(hexLower, 32), g.from(hexLower, 8), g.from(hexLower, 8))
		}
		return []byte(b.String()[:n])
	}
	out["line:atlassian-named"] = func(n int) []byte {
		g := newFakeGen("atlassian named")
		var b strings.Builder
		for b.Len() < n {
			raw := append([]byte("1"+g.from(alphaDigit, 11)+":"), g.from(binaryBytes, 20)...)
			fmt.Fprintf(&b, "password=%s ", base64.StdEncoding.EncodeToString(raw))
		}
		return []byte(b.String()[:n])
	}
	// Redis's AUTH (redisauth.go): the command repeated with no
	// password, prompts each with one, calls each passing one
	out["line:auth"] = rep("AUTH ")
	out["line:redis-prompts"] = entries("127.0.0.1:6379> AUTH %s# ")
	out["line:redis-calls"] = entries(`Do("AUTH", "%s#"), `)
	return out
}

// wrapLines cuts s into lines of n bytes.
func wrapLines(s string, n int) string {
	var b strings.Builder
	for len(s) > n {
		b.WriteString(s[:n] + "\n")
		s = s[n:]
	}
	b.WriteString(s)
	return b.String()
}

// TestScanWorkLinear counts the bytes the rules' expressions read when
// Redact runs (a path-less detect: every rule a path would limit runs, a
// .pgpass line's among them): on every adversarial shape, four times the
// input must cost at most about four times the work (a cost in the
// product of hits and line length grew sixteenfold). TestScanCostLinear
// holds Scan to the same bounds (at twice these sizes).
// Where sampled (sampledSweeps), TestScanWorkLinear and TestScanCostLinear
// each take a quarter of the adversarial shapes (shapeEighth in {0, 5}
// and {2, 7}): together half of them. CI holds every shape in both.
func TestScanWorkLinear(t *testing.T) {
	if raceEnabled {
		// The count is the same with or without the race detector, and a
		// scan starts no goroutine: the plain run holds it.
		t.Skip("the work count does not depend on -race; the plain run checks it")
	}
	sequentialSweep(t)
	if !ownProcess(t) { // alone, in a process of its own: see ownProcess
		return
	}
	// A scanner of its own: its filters' budget is not the one other
	// tests' scans filled (a shape whose filter ran out of states
	// between its two sizes cost six to eight times the work at four
	// times the input).
	s, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var w atomic.Int64
	workCounter = &w
	defer func() { workCounter = nil }()
	work := func(data []byte) int64 {
		w.Store(0)
		s.Redact(data)
		return w.Load()
	}
	const small = 32 << 10
	for _, name := range caseNames(adversarial()) {
		if e := shapeEighth(name); sampledSweeps() && e != 0 && e != 5 {
			continue // a quarter of the shapes where sampled (see TestScanWorkLinear)
		}
		gen := adversarial()[name]
		a, b := work(gen(small)), work(gen(4*small))
		if b > 5*a+64<<10 {
			t.Errorf("%s: work %d on %d bytes, %d on %d: not linear", name, a, small, b, 4*small)
		}
		// And a bounded multiple of the input.
		if b > maxWorkPerByte*4*small {
			t.Errorf("%s: work %d on %d bytes: more than %d bytes read per input byte", name, b, 4*small, maxWorkPerByte)
		}
	}
}

// maxWorkPerByte bounds the bytes the expressions read per byte of an
// adversarial shape: each rule whose keyword is on a line reads it about
// once (every20:mixed wakes some 70 rules on one line).
const maxWorkPerByte = 256

// cpuTime is the process's user and system time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// scanCPU returns the CPU time of scanning data, the least of a few
// runs (the machine is shared).
func scanCPU(s *Scanner, data []byte, runs int) time.Duration {
	best := time.Duration(math.MaxInt64)
	for range runs {
		t0 := cpuTime()
		s.Scan("adv.txt", data)
		best = min(best, cpuTime()-t0)
	}
	return best
}

// scanCost is what a scan costs that does not depend on the machine's
// load: the bytes the expressions read, the context bytes handed to
// validators, and the heap it allocates (bytes and objects).
type scanCost struct{ work, validated, bytes, objects int64 }

func measureScan(s *Scanner, data []byte) scanCost {
	var w, v atomic.Int64
	workCounter, validatedCounter = &w, &v
	defer func() { workCounter, validatedCounter = nil, nil }()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	s.Scan("adv.txt", data)
	runtime.ReadMemStats(&m1)
	return scanCost{w.Load(), v.Load(), int64(m1.TotalAlloc - m0.TotalAlloc), int64(m1.Mallocs - m0.Mallocs)}
}

// TestScanCostLinear compares what every adversarial shape costs at two
// sizes, counted rather than timed (a CPU-timed test failed on a loaded
// machine): four times the input may cost at most about four times the
// expression bytes, validator context and allocated objects, and six
// times the bytes allocated (a slice that doubles may have doubled once
// more at the larger size). A cost in the product of hits and line length
// (a validator reading its whole line, a buffer copied per hit) grows
// sixteenfold. The sizes are large enough that what a scan allocates once
// (buffers past the pooled scratch's bound, a filter's new states) is a
// small part (at 32/128 KB a full run of the package once allocated 2 MB
// at the larger size on line:password=, over the bound).
func TestScanCostLinear(t *testing.T) {
	if raceEnabled {
		t.Skip("the counts do not depend on -race; the plain run checks them")
	}
	sequentialSweep(t)
	if !ownProcess(t) { // alone, in a process of its own: see ownProcess
		return
	}
	// A scanner of its own: the sizes fold most rules' expressions
	// (foldAfter), which TestScannersShareExpressions needs unfolded in
	// the default scanner.
	s, err := NewScanner(Config{AllowLocalhost: true, AllowPaths: []string{"cost-linear/**"}})
	if err != nil {
		t.Fatal(err)
	}
	const small = 64 << 10
	rescanned := 0
	measured := 0
	for _, name := range caseNames(adversarial()) {
		if e := shapeEighth(name); sampledSweeps() && e != 2 && e != 7 {
			continue // another quarter than TestScanWorkLinear's, where sampled
		}
		measured++
		gen := adversarial()[name]
		a, b := gen(small), gen(4*small)
		// The first scan compiles what the shape wakes, once per process:
		// every shape's smaller input is the start of its larger one, so
		// the larger one's scan wakes all the smaller one does (a tenth
		// of the test's CPU went to scanning the smaller one first).
		if !bytes.HasPrefix(b, a) {
			s.Scan("adv.txt", a)
		}
		// That first scan of the larger input is measured too: it costs
		// at least what a later one does (it also compiles, and reads
		// and validates the same bytes), so where it is within the
		// bounds, a later one is. Only where it is not is the larger
		// input scanned again and judged warm (a third of the test's CPU
		// went to a warm-up scan of it that no bound needed).
		cb := measureScan(s, b)
		ca := measureScan(s, a)
		bounds := func(ca, cb scanCost) []costBound {
			return []costBound{
				{"expression bytes", ca.work, cb.work, 5, 64 << 10},
				{"validator context bytes", ca.validated, cb.validated, 5, 64 << 10},
				{"objects allocated", ca.objects, cb.objects, 5, 4096},
				{"bytes allocated", ca.bytes, cb.bytes, 6, 1 << 20},
			}
		}
		// And a bounded multiple of the input (TestScanWorkLinear's bound
		// on Redact).
		perByte := func(cb scanCost) bool { return cb.work <= maxWorkPerByte*4*small }
		// A scan may also build what the one before it counted a rule
		// needs (a tier, a filter), once: so the larger input is scanned
		// warm up to twice (line:pairs, after the quarter of the shapes
		// before it: 67,814 objects on its second scan, 47,054 on its
		// third, against 12,249 on the smaller input).
		for range 2 {
			if withinBounds(bounds(ca, cb)) && perByte(cb) {
				break
			}
			cb = measureScan(s, b)
			rescanned++
		}
		for _, m := range bounds(ca, cb) {
			if m.b > m.times*m.a+m.slack {
				t.Errorf("%s: %s %d on %d bytes, %d on %d: not linear", name, m.what, m.a, small, m.b, 4*small)
			}
		}
		if !perByte(cb) {
			t.Errorf("%s: work %d on %d bytes: more than %d bytes read per input byte", name, cb.work, 4*small, maxWorkPerByte)
		}
	}
	t.Logf("%d of %d shapes, %d of them scanned again warm", measured, len(adversarial()), rescanned)
}

// costBound is one of TestScanCostLinear's bounds: b at most times*a+slack.
type costBound struct {
	what         string
	a, b         int64
	times, slack int64
}

func withinBounds(bs []costBound) bool {
	for _, m := range bs {
		if m.b > m.times*m.a+m.slack {
			return false
		}
	}
	return true
}

// BenchmarkAdversarial scans 4 MB of each adversarial shape and 4 MB of
// planning prose: the target is about the prose's time per byte for
// every shape (issue 33, point 5).
func BenchmarkAdversarial(b *testing.B) {
	s := defaultScanner(b)
	const size = 4 << 20
	cases := adversarial()
	cases["prose"] = func(n int) []byte { return benchCorpus()[:n] }
	for _, name := range caseNames(cases) {
		data := cases[name](size)
		b.Run(strings.NewReplacer("/", "_", " ", "_").Replace(name), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				s.Scan("adv.txt", data)
			}
		})
	}
}

// shapeEighth is which eighth of the adversarial shapes name falls in
// where the sweeps are sampled: read off the name, so that adding a
// shape moves no other one to another sample (by index in name order,
// three new names once moved a quarter of the shapes).
func shapeEighth(name string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(name))
	return h.Sum32() % 8
}

func caseNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// BenchmarkAdversarialSweep scans every adversarial shape (and a million
// lines of each keyword at the largest size) at 256 KB, 1 MB and 4 MB
// (16 MB too with SOTVET_SLOW=1) and prints each shape's CPU time per
// size and the growth exponent between the smallest and the largest
// size: 1 is linear, 2 quadratic. Select shapes with
// SOTVET_SWEEP=substring.
func BenchmarkAdversarialSweep(b *testing.B) {
	s := defaultScanner(b)
	sizes := []int{256 << 10, 1 << 20, 4 << 20}
	if os.Getenv("SOTVET_SLOW") != "" {
		sizes = append(sizes, 16<<20)
	}
	cases := adversarial()
	cases["prose"] = func(n int) []byte { return benchCorpus()[:min(n, len(benchCorpus()))] }
	sel, err := regexp.Compile(os.Getenv("SOTVET_SWEEP"))
	if err != nil {
		b.Fatalf("SOTVET_SWEEP: %v", err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, name := range caseNames(cases) {
			if !sel.MatchString(name) {
				continue
			}
			line := fmt.Sprintf("%-22s", name)
			var first, last time.Duration
			var firstN, lastN int
			for _, n := range sizes {
				data := cases[name](n)
				d := scanCPU(s, data, 1)
				line += fmt.Sprintf(" %5dKB %8.1fms", len(data)>>10, float64(d)/1e6)
				if firstN == 0 {
					first, firstN = d, len(data)
				}
				last, lastN = d, len(data)
			}
			exp := math.Log(float64(max(last, 1))/float64(max(first, 1))) / math.Log(float64(lastN)/float64(firstN))
			b.Logf("%s  exponent %.2f", line, exp)
		}
	}
}
