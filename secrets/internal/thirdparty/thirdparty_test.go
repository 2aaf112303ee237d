package thirdparty

import (
	"reflect"
	"strings"
	"testing"
)

func TestTranslate(t *testing.T) {
	for _, c := range []struct{ in, want, note, err string }{
		{"(?x)\n  \\b abc # the prefix\n  ( [a-z ]{4} )  # value\n", `\babc([a-z]{4})`, "", ""},
		{"(?xi) foo \\ bar", "(?i)foo bar", "", ""},
		{`a\hb`, `a[ \t]b`, `\h`, ""},
		{`[\h,]x`, `[ \t,]x`, `\h`, ""},
		{`ab++c*+`, `ab+c*`, "possessive", ""},
		{`(?>ab|a)c`, `(?:ab|a)c`, "atomic", ""},
		{`abc(?# comment )d`, `abcd`, "comment", ""},
		{`ya29\.[a-z]{20,1024}`, `ya29\.[a-z]{20,}`, "repeat bound", ""},
		{"key(?:.|[\\n\\r]){0,32}?x", "key.{0,32}?x", "gap", ""},
		{`abc(?=d)`, "", "", "lookaround"},
		{`(a)\1`, "", "", "backreference"},
		{`[]a]b`, `[\]a]b`, "", ""},
	} {
		got, notes, err := Translate(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Translate(%q): err %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Translate(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
		if c.note != "" && !strings.Contains(strings.Join(notes, ";"), c.note) {
			t.Errorf("Translate(%q): notes %q, want one on %q", c.in, notes, c.note)
		}
	}
}

func TestKeywords(t *testing.T) {
	for _, c := range []struct {
		re   string
		want []string
		err  string
	}{
		{`\b(aio_[a-zA-Z0-9]{28})\b`, []string{"aio_"}, ""},
		{`(?i)\b(?:A3T[A-Z0-9]|AKIA|ASIA)[A-Z0-9]{16}`, []string{"a3t", "akia", "asia"}, ""},
		{`(?i)calendarific.{0,32}?(?:SECRET|KEY)`, []string{"calendarific"}, ""},
		{`[a-f0-9]{32}`, nil, "no literal"},
		{`gh[a-z]{30}`, nil, "shorter than 3"},
		{`token[:=]([a-z0-9]{30})`, nil, "common word"},
		// through an optional part: every match holds $5$ or $5$rounds=
		{`(\$5(?:\$rounds=\d+)?\$[./A-Za-z0-9]{8,16}\$[./A-Za-z0-9]{43})`, []string{"$5$", "$5$rounds="}, ""},
		// a rarer literal over a common word
		{`(machine\s+\S+|default)\s+login\s+(\S+)\s+password\s+(\S+)`, []string{"default", "machine"}, ""},
	} {
		got, err := Keywords(c.re)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Keywords(%q): %v, %v; want error %q", c.re, got, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Keywords(%q) = %q, %v; want %q", c.re, got, err, c.want)
		}
	}
}

func TestCommentedGroup(t *testing.T) {
	p := "(?x)\n(?: postgres ) ://  (?# scheme )\n([a-z()]{3,})  (?# username)\n: ([a-z]{3,})  (?# password)\n@ ([a-z.]+)  (?# host)\n"
	if g := commentedGroup(p); g != 2 {
		t.Errorf("commentedGroup = %d, want 2", g)
	}
}

// A copy of a rule left out is left out for that rule's reason, never as
// "same expression as" a rule that is not taken; a rule a built-in one
// supersedes is left out.
func TestConvertReasons(t *testing.T) {
	np, kf := Sources[0], Sources[1]
	rules := []*Rule{
		{ID: "np.thing.1", Pattern: `thingid_[a-z0-9]{20}`, Categories: []string{"identifier"}, Source: np},
		{ID: "kingfisher.thing.1", Pattern: `thingid_[a-z0-9]{20}`, Source: kf},
		{ID: "kingfisher.discord.1", Pattern: `https://discord\.com/api/webhooks/\d{18}/([0-9a-z-]{68})`, Source: kf},
		{ID: "np.other.1", Pattern: `othertok_[a-z0-9]{20}`, Source: np},
		{ID: "kingfisher.other.1", Pattern: `othertok_[a-z0-9]{20}`, Source: kf},
	}
	ok, not := Convert(rules)
	why := map[string]string{}
	for _, n := range not {
		why[n.Rule.ID] = n.Reason
	}
	if len(ok) != 1 || ok[0].Rule.ID != "np.other.1" {
		t.Fatalf("taken %v, want np.other.1 only", ok)
	}
	for id, want := range map[string]string{
		"np.thing.1":           "an identifier",
		"kingfisher.thing.1":   "an identifier",
		"kingfisher.discord.1": "superseded by the built-in rule discord-webhook",
		"kingfisher.other.1":   "same expression as np.other.1",
	} {
		if !strings.HasPrefix(why[id], want) {
			t.Errorf("%s: reason %q, want it to begin %q", id, why[id], want)
		}
	}
}

// The secret group of a rule of several groups is the one its pattern
// introduces with a secret word, when that group takes part in every
// match; else the first.
func TestWordNamedGroup(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    int
	}{
		{"(?x)\n( machine \\s+ [^\\s]+ | default )\n\\s+ login \\s+ ([^\\s]+)\n\\s+ password \\s+ ([^\\s]+)\n", 3},
		{`(https://[a-z]+\.azconfig\.io);Id=([a-z0-9]{4});Secret=([a-zA-Z0-9+/]{36,50}=)`, 3},
		{`(oa2-client-id_[a-z]{32})(?::|&client_secret=)([a-z]{40})`, 2},
		{`(?x) user \s* = \s* '([a-z]+)' # the password follows` + "\n" + `\s* ([a-z]+)`, 0}, // a comment's word names nothing
		{`\[([a-z]+)\]`, 0},
		{`([password]+)\s+([a-z]+)`, 0},              // a class's letters are no word
		{`(?P<user>[a-z]+):(?<=x)token=([a-z]+)`, 2}, // a named group counts, a lookbehind does not
	} {
		if g := wordNamedGroup(c.pattern); g != c.want {
			t.Errorf("wordNamedGroup(%q) = %d, want %d", c.pattern, g, c.want)
		}
	}
	if !alwaysTakesPart(`(a+)\s+password\s+(b+)`, 2) {
		t.Error("a group in sequence takes part in every match")
	}
	for _, re := range []string{`(a{40})|token\s+(b{40})`, `(a+)(?:\s+token\s+(b+))?`, `(a+)(?:token(b+))*`} {
		if alwaysTakesPart(re, 2) {
			t.Errorf("%s: group 2 does not take part in every match", re)
		}
	}
}
