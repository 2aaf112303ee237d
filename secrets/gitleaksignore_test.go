package secrets

import (
	"strings"
	"testing"
)

func TestGitleaksMigration(t *testing.T) {
	g := newFakeGen("gitleaks-migration")
	tok := "dop" + "_v1_" + g.from(hexLower, 64)
	text := "A=1\nDO_TOKEN=" + tok + "\nB=" + tok + " # gitleaks:allow\n"
	ig, err := ParseGitleaksIgnore([]byte("# triaged\n\nconfig/app.env:digitalocean-pat:2\n" +
		"0123456789abcdef0123456789abcdef01234567:other.env:digitalocean-pat:2\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewScanner(Config{GitleaksIgnore: ig, AllowLocalhost: true})
	if err != nil {
		t.Fatal(err)
	}
	type res struct {
		line   int
		reason string
	}
	for _, c := range []struct {
		path string
		want []res
	}{
		{"config/app.env", []res{{2, "gitleaksignore"}, {3, "inline: gitleaks:allow"}}},
		{"repo/config/app.env", []res{{2, "gitleaksignore"}, {3, "inline: gitleaks:allow"}}},
		{"other.env", []res{{2, "gitleaksignore"}, {3, "inline: gitleaks:allow"}}},
		{"elsewhere/app.env", []res{{2, ""}, {3, "inline: gitleaks:allow"}}},
	} {
		var got []res
		for _, f := range s.Scan(c.path, []byte(text)) {
			got = append(got, res{f.Line, f.AllowReason})
			if f.RuleID != "digitalocean-pat" {
				t.Errorf("%s: rule %s", c.path, f.RuleID)
			}
		}
		if len(got) != len(c.want) || (len(got) == 2 && (got[0] != c.want[0] || got[1] != c.want[1])) {
			t.Errorf("%s: got %v, want %v", c.path, got, c.want)
		}
	}
	// Allowed or not, Redact masks them.
	if out := s.RedactString(text); strings.Contains(out, tok) {
		t.Errorf("Redact kept an allowed secret: %q", out)
	}
	for _, bad := range []string{"file:rule", "file:rule:x", ":rule:3", "file::3", "file:rule:0"} {
		if _, err := ParseGitleaksIgnore([]byte(bad + "\n")); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestParseGitleaksIgnoreErrorsQuoteNothing: a line that does not parse is
// named by its line and column, and its text is never in the error (a
// hostile repository links .gitleaksignore to the environment).
func TestParseGitleaksIgnoreErrorsQuoteNothing(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{"FAKE_TOKEN=abc123\n", ".gitleaksignore:1:18: want file:rule-id:line, with a line number"},
		{"# ok\n  a.env:rule:0\n", ".gitleaksignore:2:14: want file:rule-id:line, with a line number"},
		{"a.env:x:1\n:FAKE_TOKEN:3\n", ".gitleaksignore:2:1: want file:rule-id:line, with a file and a rule id"},
		{"FAKE_TOKEN:3\n", ".gitleaksignore:1:1: want file:rule-id:line, with a file and a rule id"},
	} {
		_, err := ParseGitleaksIgnore([]byte(c.data))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q…", c.data, err, c.want)
			continue
		}
		if strings.Contains(err.Error(), "FAKE") || strings.Contains(err.Error(), "abc123") {
			t.Errorf("%q: the error quotes the line: %v", c.data, err)
		}
	}
}
