package secrets

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
)

// TestStartTable: the table of an expression holds the first byte of
// each way a match begins, case folds included (K for k, ſ for s), and
// there is none where a match may be empty; where an attempt per start
// could read a long run again and again (a run over a start, no \b before
// a start), the table is far.
func TestStartTable(t *testing.T) {
	for _, c := range []struct {
		expr  string
		first string // the bytes of the table; "" for none
		far   bool
	}{
		{`(?i)\b(?:pin|door[ \t-]*code)\b[ \t]*\d{4}`, "DPdp", false},
		{`(?i)\b(?:kod|senha)\b`, "KSks\xe2\xc5", false}, // K and ſ begin with E2 and C5
		{`\b(?:abc|x?yz)`, "axy", false},
		{`\bcode[ \t]+[a-z]+`, "c", true},                      // the value's run holds a start
		{`(?:pin|code)[ \t]+\d+`, "cp", true},                  // no \b before every start
		{`[^\s]+:`, "", false},                                 // a start nearly everywhere
		{`[a-z]*\xff`, "abcdefghijklmnopqrstuvwxyz\xc3", true}, // ÿ begins with C3
		{`\b[a-z]*`, "", false},                                // empty matches
		{`\b(?:ab|cd)[^\n?]{0,96}\?`, "ac", false},
	} {
		re, err := syntax.Parse(c.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		tab := newStartTable(re)
		var got string
		if tab != nil {
			for b, in := range tab.first {
				if in {
					got += string(rune(b))
				}
			}
		}
		want := ""
		for _, b := range []byte(c.first) {
			want += string(rune(b))
		}
		w := []rune(want)
		slices.Sort(w)
		if got != string(w) {
			t.Errorf("%s: table %q, want %q", c.expr, got, string(w))
		}
		if tab != nil && tab.far != c.far {
			t.Errorf("%s: far %v, want %v", c.expr, tab.far, c.far)
		}
	}
	// Go's regexp reads an invalid byte as U+FFFD: a class that holds it
	// may begin at any byte from 0x80
	re, err := syntax.Parse(`\b[^\n?]{2}x`, syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	if tab := newStartTable(re); tab == nil || !tab.first[0xff] || !tab.first[0x80] {
		t.Errorf(`\b[^\n?]{2}x: the table leaves out the bytes read as U+FFFD`)
	}
}

// TestSearchAtStartsSound: on texts dense with the nouns of every rule
// that has a start table, one anchored attempt at each start finds
// exactly the matches of the rule's unanchored search of the whole text.
func TestSearchAtStartsSound(t *testing.T) {
	sequentialSweep(t)
	if !ownProcess(t) { // alone, in a process of its own: see ownProcess
		return
	}
	s := defaultScanner(t)
	texts := []string{
		"PIN 48213, PIN: 4821 door code 4471. the alarm code is 1234! xPIN 9999 ",
		"door  -code 5555\npasscode 1234 and the disarm code: 8888\n",
		"the PIN for the safe?\n\n**bob** 10:03\n4821\nPIN?\n1234\n",
		"Kelvin \u212aod do drzwi: 4821, code\u017f 1234 digicode 7777 tür code 1234",
		"recovery key for the disk is 0123456789abcdef0123456789abcdef, Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345 ",
		"backup codes:\n1234-5678\n",
		// upper case and capitalised nouns, a noun glued to a word before
		// it, a Kelvin sign and a long s after a word byte, invalid bytes
		"DOOR CODE 4471 PASSCODE 1234 DISARM CODE: 8888 ALARM CODE IS 1234 Door code 5555 Code: 1234 Keypad code 4821",
		"xKeypad code: 4821 xKod do drzwi: 4821 a\u212aod do drzwi: 4821 \xff\xfePIN 4821 \xc4\xb0PIN 1234",
		// directives at a line's start and not, after a blank, a tab and
		// a line break, with a Kelvin sign where a way in needs a k
		strings.ReplaceAll("requirepass VALUE\n  masterauth 'VALUE'\n\tauth_pass VALUE # x\nx requirepass VALUE\nuser a insecure-password VALUE\nuser a\tINSECURE-PASSWORD VALUE\r\n"+
			"stats auth admin:VALUE\n--requirepass VALUE --masterauth=VALUE \u212aey: x\nrequirepass\tVALUE", "VALUE", "Xq7mP"+"a9zK2"),
	}
	// texts of each rule's own keywords in mixed case, digits and the
	// marks its forms read, seeded: 10 a rule (each rule reads all 83
	// rules' texts), 20 with SOTVET_SLOW=1, 5 and a text half as long in
	// a contributor's run (sampledSweeps). Start tables that leave out a
	// letter's case folds (all of them, or the non-ASCII ones) fail with
	// 10 as with 20 (11 and 13 mismatches, 2 and 2), and with 5 (10, 2).
	rnd := rand.New(rand.NewPCG(21, 21))
	perRule, bigSize := 10, 64<<10
	switch {
	case os.Getenv("SOTVET_SLOW") != "":
		perRule = 20
	case sampledSweeps():
		perRule, bigSize = 5, 32<<10
	}
	if raceEnabled {
		// the race detector's regexp is ~50x slower; the plain run
		// reads them all
		perRule, bigSize = 2, 16<<10
	}
	marks := []string{" ", " ", ": ", "? ", "\n", "\n\n**bob** 10:03\n", "-", ", ", ". ", "\u212a", "\u017f", "\xff", "x"}
	for _, r := range s.rules {
		r.prepare()
		if r.starts == nil || len(r.Keywords) == 0 {
			continue
		}
		for range perRule {
			var b strings.Builder
			for range 60 {
				switch k := rnd.IntN(4); {
				case k == 0:
					w := []byte(r.Keywords[rnd.IntN(len(r.Keywords))])
					for i := range w {
						if rnd.IntN(2) == 0 && 'a' <= w[i] && w[i] <= 'z' {
							w[i] -= 'a' - 'A'
						}
					}
					b.Write(w)
				case k == 1:
					fmt.Fprintf(&b, "%d", rnd.IntN(100000))
				default:
					b.WriteString(marks[rnd.IntN(len(marks))])
				}
			}
			texts = append(texts, b.String())
		}
	}
	var big strings.Builder
	for i := 0; big.Len() < bigSize; i++ {
		fmt.Fprintf(&big, "%s %d ", texts[i%len(texts)], 1000+i%9000)
	}
	texts = append(texts, big.String())
	n := 0
	for _, r := range s.rules {
		r.prepare()
		if r.starts == nil {
			continue
		}
		n++
		for _, text := range texts {
			ctx := []byte(text)
			want := r.searchExpr().FindAllSubmatchIndex(ctx, -1)
			var got [][]int
			var head []byte
			r.searchAtStarts(nil, ctx, []span{{0, len(ctx)}}, &head, func(m []int) { got = append(got, slices.Clone(m)) })
			if len(got) != len(want) {
				t.Errorf("%s: %d matches by attempts, %d by the search, in %.60q", r.ID, len(got), len(want), text)
				continue
			}
			for i := range got {
				if !slices.Equal(got[i], want[i]) {
					t.Errorf("%s: match %d %v by attempts, %v by the search, in %.60q", r.ID, i, got[i], want[i], text)
					break
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no rule has a start table")
	}
}

// TestLoginNounBefore: the nouns prose-login-pair opens with, in any
// case, and none.
func TestLoginNounBefore(t *testing.T) {
	for text, want := range map[string]bool{
		"creds: ": true, "the CREDENTIALS are ": true, "Login ": true, "logins": true,
		"pw ": false, "credit": true, "log in": false, "": false, "cre": false,
	} {
		if got := loginNounBefore([]byte(text)); got != want {
			t.Errorf("loginNounBefore(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestPinOfWiringWords: the words around a PIN's noun and its digits
// that make it a board's pin, read in place as the fields of the
// lower-cased text were.
func TestPinOfWiringWords(t *testing.T) {
	for _, c := range []struct {
		before, rest string
		want         bool
	}{
		{"then CONNECT ", " to the LED", true},
		{"please connect\u00a0", " now", false}, // NBSP ends no field before the blank
		{"solder ", ".", true},
		{"the ", " (GPIO) to the LED", true},
		{"the ", " is TX", true},
		{"the ", " is the one for the tx", false}, // past three words
		{"the ", ", G\u0130PIO", false},
		{"the ", " (GP\u0130O)", true}, // İ lowers to i, as strings.ToLower reads it
		{"my ", " until Friday", false},
		{"Connect", ".", false}, // no blank before the noun
	} {
		data := []byte(c.before + "PIN 1234" + c.rest)
		at := len(c.before)
		if got := pinOfWiring(data, at, data[at+8:]); got != c.want {
			t.Errorf("pinOfWiring(%q) = %v, want %v", data, got, c.want)
		}
	}
}

// TestSearchAtFarStartsSound: for every rule with a far start table,
// the attempts (cut by the filter's reach, skipping the starts a failed
// one rules out, giving way to a part's search past their budget) find
// exactly the matches the search of the same parts finds, on texts dense
// with the rules' nouns in the forms of the adversarial lines, in words
// glued to names, after commas, and in a long run of nouns with no value
// (whose attempts read far: past farReach, or past the budget).
func TestSearchAtFarStartsSound(t *testing.T) {
	sequentialSweep(t)
	s := defaultScanner(t)
	texts := []string{
		"clave: Somme" + "r2024! mot de passe: Somme" + "r2024! senha 48213, Passwort: Somme" + "r2024! wachtwoord: Somme" + "r2024! contraseña: Somme" + "r2024! ",
		"password: Somme" + "r2024! Hasło do VPN: Zubrow" + "ka#1410 passphrase \"lantern cobalt mango river\" 密码：Panda" + "@8888，pw Lisbo" + "n#2023 ",
		"şifre: Galat" + "a!1453 lösenordet till wifi är Kanelbu" + "lle2019 WLAN-salasana: Tontt" + "u#2021 wifilösenordet är Kanelbu" + "lle2019 ",
		"x,clave Somme" + "r2024; Datenbankpasswort ist Somme" + "r2024! Admin-Kennwort: Somme" + "r2024 die_passwort: Somme" + "r2024 ",
		"\x80password: Somme" + "r2024! \xffşifre: Galat" + "a!1453 pass Hunt" + "er2! pwd: Hunt" + "er2! key: abc1" + "23xyz ",
	}
	for i, k := range []string{"password ", "şifre:x", "Passwort", "clave:", "a"} {
		texts = append(texts, strings.Repeat(k, (16<<10)/len(k)))
		// matches, then a run whose attempts read far: the part's search
		// takes over after matches the attempts gave
		texts = append(texts, texts[i]+strings.Repeat(k, (16<<10)/len(k)))
	}
	var big strings.Builder
	for i := 0; big.Len() < 64<<10; i++ {
		fmt.Fprintf(&big, "%s%d ", texts[i%5], 1000+i%9000)
	}
	texts = append(texts, big.String())
	n := 0
	for _, r := range s.rules {
		r.prepare()
		if r.starts == nil || !r.starts.far {
			continue
		}
		n++
		r.startsAfter()
		d := newPrefilterDFA(r.filterSrc(), nil)
		if d == nil {
			t.Fatalf("%s: no filter", r.ID)
		}
		for _, text := range texts {
			ctx := []byte(text)
			parts, ok := d.parts(ctx, false, splitEvery, nil)
			if !ok {
				t.Fatalf("%s: the filter could not read %.40q", r.ID, text)
			}
			var want, got [][]int
			r.searchParts(ctx, parts, func(m []int) { want = append(want, slices.Clone(m)) })
			var head []byte
			r.searchAtStarts(d, ctx, parts, &head, func(m []int) { got = append(got, slices.Clone(m)) })
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("%s: %d matches by attempts, %d by the search, in %.60q", r.ID, len(got), len(want), text)
			}
		}
	}
	if n < 3 {
		t.Fatalf("%d rules have a far start table; want prose-secret-intl, prose-password-phrase, prose-password-intl", n)
	}
}

// TestSkipTable: a start is ruled out by a failed attempt one byte
// before it where every way in either takes that byte into its leading
// run or needs a word boundary that is not there, and not otherwise.
func TestSkipTable(t *testing.T) {
	for _, c := range []struct {
		expr string
		text string // the start is its second byte
		want bool
	}{
		{`[a-z]*pass`, "ap", true},
		{`[a-z]*pass`, "-p", false},
		{`\bpass|[a-z]*wort`, "ap", true},  // \b does not hold between letters
		{`\bpass|[a-z]*wort`, " p", false}, // it holds after a blank
		{`(?:[a-z]+-)?[a-z]*wort`, "aw", true},
		{`(?:[a-z0-9]+-)?[a-z]*wort`, "1w", false}, // the run after the name takes no digit
		{`pass|[a-z]*wort`, "ap", false},           // a literal way takes nothing before it
		{`[,;][ \t]*key|[a-z]*pw`, "ba", true},     // the comma's way does not begin at a letter
		{`[,;][ \t]*key|[a-z]*pw`, "a,", false},    // it begins at a comma after anything
	} {
		re, err := syntax.Parse(c.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		tab := newStartTable(re)
		if tab == nil || !tab.far || tab.skip == nil {
			t.Fatalf("%s: no far table with a skip", c.expr)
		}
		if got := tab.skips([]byte(c.text), 1); got != c.want {
			t.Errorf("%s: skips at %q = %v, want %v", c.expr, c.text, got, c.want)
		}
	}
}

// TestStartNext: a table's next rules out a start by the byte after it:
// a way in that begins with ^ only at a line's start, one that begins
// with a blank before a word only where the word's first letter follows
// (its case folds too), any byte after a character that is not ASCII.
func TestStartNext(t *testing.T) {
	re, err := syntax.Parse(`(?m)(?:^[ \t]*(?i:requirepass)[ \t]+|[ \t](?i:insecure-password)[ \t]+|[ \t](?i:key)=)\w+$|--(?i:masterauth)=\w+`, syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	tab := newStartTable(re)
	if tab == nil || tab.next == nil {
		t.Fatal("no table, or no next")
	}
	for _, c := range []struct {
		text string
		at   int
		want bool
	}{
		{"requirepass x", 0, true},
		{"a\nrequirepass x", 2, true},
		{"a requirepass x", 2, false}, // not at a line's start
		{"a\n requirepass x", 2, true},
		{"a  requirepass x", 1, false},
		{"user a insecure-password x", 4, false}, // a blank before a
		{"user a insecure-password x", 6, true},
		{"user a INSECURE-PASSWORD x", 6, true},
		{"a \u212aey=x", 1, true}, // the Kelvin sign begins with E2
		{"a kEy=x", 1, true},
		{"a-password", 1, false},
		{"a --masterauth=x", 2, true},
		{"a -x", 2, false},
		{"a ", 1, true}, // the text's last byte: nothing after it to judge by
	} {
		if got := tab.at([]byte(c.text), c.at); got != c.want {
			t.Errorf("%q at %d: %v, want %v", c.text, c.at, got, c.want)
		}
	}
}
