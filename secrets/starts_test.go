package secrets

import (
	"fmt"
	"math/rand/v2"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
)

// TestStartTable: the table of an expression holds the first byte of
// each way a match begins, case folds included (K for k, ſ for s), and
// there is none where an attempt per start could read a long run again
// and again, or a match may begin anywhere.
func TestStartTable(t *testing.T) {
	for _, c := range []struct {
		expr  string
		first string // the bytes of the table; "" for none
	}{
		{`(?i)\b(?:pin|door[ \t-]*code)\b[ \t]*\d{4}`, "DPdp"},
		{`(?i)\b(?:kod|senha)\b`, "KSks\xe2\xc5"}, // K and ſ begin with E2 and C5
		{`\b(?:abc|x?yz)`, "axy"},
		{`\bcode[ \t]+[a-z]+`, ""},    // the value's run holds a start
		{`(?:pin|code)[ \t]+\d+`, ""}, // no \b before every start
		{`\b[a-z]*`, ""},              // empty matches
		{`\b(?:ab|cd)[^\n?]{0,96}\?`, "ac"},
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
	}
	// texts of each rule's own keywords in mixed case, digits and the
	// marks its forms read, seeded
	rnd := rand.New(rand.NewPCG(21, 21))
	marks := []string{" ", " ", ": ", "? ", "\n", "\n\n**bob** 10:03\n", "-", ", ", ". ", "\u212a", "\u017f", "\xff", "x"}
	for _, r := range s.rules {
		r.prepare()
		if r.starts == nil || len(r.Keywords) == 0 {
			continue
		}
		for range 20 {
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
	for i := 0; big.Len() < 64<<10; i++ {
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
			r.searchAtStarts(ctx, []span{{0, len(ctx)}}, &head, func(m []int) { got = append(got, slices.Clone(m)) })
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
