package authority

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/sotparse"
)

func TestMatcher(t *testing.T) {
	m := newMatcher([]string{"default", "fault", "backend", "‹code›", "she", "he", "hers"})
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Case is the DEFAULT Backend", []string{"default", "fault", "backend", "he"}},
		{"CASE IS DEFAULT", []string{"default", "fault"}},
		{"ushers", []string{"she", "he", "hers"}},
		{"the ‹code› span", []string{"‹code›", "he"}},
		{"nothing", nil},
		{"", nil},
	} {
		found := m.scan(tc.in)
		var got []string
		for i, l := range []string{"default", "fault", "backend", "‹code›", "she", "he", "hers"} {
			if found&(1<<i) != 0 {
				got = append(got, l)
			}
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("scan(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestClauses(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{`default backend`, "default backend"},
		{`\bdefault\s+(?:backend|engine)\b`, "default|backend engine"},
		{`(?:is|was)\s+promoted`, "promoted"},
		{`a|bcd`, ""},
		{`(?:foo)?bar`, "bar"},
		{`(?:foo)+bar`, "foo|bar"},
		{`x{2,}yyy`, "yyy"},
	} {
		var parts []string
		for _, c := range clausesOf(tc.expr) {
			parts = append(parts, strings.Join(c, " "))
		}
		if got := strings.Join(parts, "|"); got != tc.want {
			t.Errorf("clausesOf(%q) = %q, want %q", tc.expr, got, tc.want)
		}
	}
}

// TestPrefilterSound checks, on every sentence of the test workspaces and
// the corpus, that no alternative of the built-in rules matches a sentence
// its prefilter rejects.
func TestPrefilterSound(t *testing.T) {
	set := NewClaimSet(DefaultClaims)
	dirs, _ := filepath.Glob(filepath.Join("testdata", "*"))
	if c, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpus", "cto-planb")); err == nil {
		if _, err := os.Stat(c); err == nil {
			dirs = append(dirs, c)
		}
	}
	n := 0
	for _, dir := range dirs {
		ws, err := sotparse.Load(dir, sotparse.Options{NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ws.Docs {
			for _, bl := range readBody(d.Blocks()).blocks {
				for _, s := range bl.sentences() {
					sent := bl.Text[s[0]:s[1]]
					found := set.matcher.scan(sent)
					for _, cc := range set.compiled {
						for _, a := range cc.alts {
							n++
							if a.re.MatchString(sent) && !a.filter.admits(found) {
								t.Errorf("%s: %s: prefilter rejects a matching sentence: %q", d.Path, a.re, sent)
							}
						}
					}
				}
			}
		}
	}
	if n == 0 {
		t.Error("no sentences checked")
	}
}
