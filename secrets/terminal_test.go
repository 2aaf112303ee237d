package secrets

import (
	"bytes"
	"strings"
	"testing"
)

func TestWithoutTerminalEscapes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"\x1b[93mtok\x1b[0m", "     tok    "},
		{"a \x1b[1;32mtok\x1b[39m b", "a        tok      b"},
		{"\x1b[38;5;208mtok", "           tok"},
		{"\x1b[?25lx", "      x"},
		{"\x1b]8;;https://h/p\x1b\\link\x1b]8;;\x07", "  8;;https://h/p  link  8;;" + " "},
		{"\x1b]0;title\x07x", "  0;title x"},
		{"\x1bcx", "  x"},
		{"\x1b[1;2", "  1;2"},      // a sequence cut short: its introducer alone
		{"a\x1b", "a "},            // a lone ESC at the end
		{"\x1b\x1b[0mx", "     x"}, // ESC before ESC
		{`"\u001b[93msk\u001b[0m"`, `"          sk         "`},
		{`echo -e "\033[31mred\e[0m"`, `echo -e "        red     "`},
		{`C:\x1bfile \u001b`, `C:\x1bfile \u001b`}, // written-out ESC without "[": left
		{`a\\b \n`, `a\\b \n`},
		{"\x00\x1b[93mbinary", "\x00\x1b[93mbinary"}, // a NUL: binary, left as it is
	} {
		got := withoutTerminalEscapes([]byte(tc.in))
		if string(got) != tc.want {
			t.Errorf("withoutTerminalEscapes(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	in := []byte("no escapes here\n")
	if out := withoutTerminalEscapes(in); &out[0] != &in[0] {
		t.Error("text without escapes was copied")
	}
}

// FuzzWithoutTerminalEscapes: the text keeps its length, and a byte is
// either kept or blanked; the input is not changed.
func FuzzWithoutTerminalEscapes(f *testing.F) {
	for _, s := range []string{"\x1b[1;32mx\x1b[0m", "\x1b]8;;u\x1b\\t\x1b]8;;\x07", `\u001b[31m`, "\x1b", "\x1b[", `\033[`, "a\\"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		keep := bytes.Clone(in)
		out := withoutTerminalEscapes(in)
		if !bytes.Equal(in, keep) {
			t.Fatal("input changed")
		}
		if len(out) != len(in) {
			t.Fatalf("length %d, want %d", len(out), len(in))
		}
		for i := range out {
			if out[i] != in[i] && out[i] != ' ' {
				t.Fatalf("byte %d: %q became %q", i, in[i], out[i])
			}
		}
	})
}

// TestColouredTokens: a token printed in colour, in a terminal's log or
// written out in a JSON log, is found where it stands, as without the
// colour, and redacted.
func TestColouredTokens(t *testing.T) {
	s := defaultScanner(t)
	tokens := map[string]string{
		"github-pat":         drawnToken(t, "ghp_", 36),
		"stripe-secret-key":  drawnToken(t, "sk_live_", 24),
		"gitlab-pat":         drawnToken(t, "glpat-", 20),
		"aws-access-key-id":  "AKIA" + drawnDigitsOr(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16),
		"generic (api_key:)": "api_key: " + drawnDigitsOr(t, keyAlphabet, 16) + "7" + drawnDigitsOr(t, keyAlphabet, 15),
	}
	forms := []string{
		"\x1b[93m%s\x1b[0m\n",
		"INFO \x1b[1;32m%s\x1b[39m done\n",
		"\x1b]8;;https://example.invalid\x1b\\\x1b[4m%s\x1b[24m\x1b]8;;\x1b\\\n",
		`{"msg": "\u001b[31m%s\u001b[0m"}` + "\n",
		`printf "\033[36m%s\e[0m"` + "\n",
	}
	for name, tok := range tokens {
		plain := s.Scan("out.log", []byte(tok+"\n"))
		if len(plain) == 0 {
			t.Fatalf("%s: %q as written: no finding", name, tok)
		}
		for _, form := range forms {
			text := strings.Replace(form, "%s", tok, 1)
			fs := s.Scan("out.log", []byte(text))
			if len(fs) == 0 {
				t.Errorf("%s in %q: no finding", name, form)
				continue
			}
			col := strings.Index(text, tok) + 1
			if fs[0].Line != 1 || fs[0].Col < col || fs[0].Col > col+len(tok) {
				t.Errorf("%s in %q: at %d:%d, want within the token at column %d", name, form, fs[0].Line, fs[0].Col, col)
			}
			if red := s.RedactString(text); strings.Contains(red, tok[len(tok)-12:]) {
				t.Errorf("%s in %q: redacted to %q", name, form, red)
			}
		}
	}
}

// TestTokensSplitByColour: grep --color highlights a match inside a
// token, which blanking leaves split; the view without those escapes
// reads it whole, and the finding stands on the bytes it was printed in.
func TestTokensSplitByColour(t *testing.T) {
	s := defaultScanner(t)
	body := drawnDigitsOr(t, base62, 24)
	for _, text := range []string{
		"STRIPE_KEY=rk_\x1b[01;31m\x1b[Klive\x1b[m\x1b[K_" + body + "\n",
		"src/app.env:3:" + "\x1b[01;31m\x1b[Krk_live_\x1b[m\x1b[K" + body + "\n",
		"rk_live_" + body[:10] + "\x1b[7m" + body[10:12] + "\x1b[27m" + body[12:] + "\n",
	} {
		fs := s.Scan("grep.out", []byte(text))
		if len(fs) == 0 {
			t.Errorf("%q: no finding", text)
			continue
		}
		if fs[0].Encoding != "terminal escapes" {
			t.Errorf("%q: encoding %q", text, fs[0].Encoding)
		}
		if got := text[fs[0].Start:fs[0].End]; !strings.HasPrefix(got, "rk_") || !strings.HasSuffix(got, body[len(body)-8:]) {
			t.Errorf("%q: finding on %q, want the token's bytes", text, got)
		}
		if red := s.RedactString(text); strings.Contains(red, body[len(body)-12:]) {
			t.Errorf("%q: redacted to %q", text, red)
		}
	}
	// Colours between words join no secret.
	for _, text := range []string{
		"\x1b[32mPASS\x1b[0mok token\x1b[1m_count\x1b[0m=12\n",
		"pass\x1b[31mword\x1b[0m: see vault\n",
	} {
		if fs := s.Scan("grep.out", []byte(text)); len(fs) > 0 {
			t.Errorf("%q: %s", text, fs[0].RuleID)
		}
	}
}

// FuzzTerminalViews: every piece of a view is the text of data it says
// it is, and every join is a token.
func FuzzTerminalViews(f *testing.F) {
	for _, s := range []string{"rk_\x1b[01;31mlive\x1b[m_51ab", "a\x1b[0mb\nc\x1b]8;;u\x1b\\d", "\x1b", "a\x1bb", strings.Repeat("x\x1b[1my ", 20000)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		terminalViews(data, &decoding{chains: []string{""}}, func(v *view) {
			for _, p := range v.pieces {
				n := int(p.to - p.from)
				if !p.copied || int(p.at)+n > len(v.text) || !bytes.Equal(v.text[p.at:int(p.at)+n], data[p.from:p.to]) {
					t.Fatalf("piece %+v is not data's text", p)
				}
			}
			if len(v.tokens) == 0 {
				t.Fatal("a view without a join")
			}
		})
	})
}
