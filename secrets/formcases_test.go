package secrets

import (
	"strings"
	"testing"
)

// formCase is a document and the rule that must report it ("" for no
// finding, "*" for any rule, "a|b" for either, "!a|b" for no finding by
// those rules whatever others report).
type formCase struct{ path, text, rule string }

func checkFormCases(t *testing.T, cases []formCase) {
	t.Helper()
	s := defaultScanner(t)
	for _, c := range cases {
		fs := s.Scan(c.path, []byte(c.text))
		var got []string
		for _, f := range fs {
			got = append(got, f.RuleID)
		}
		switch {
		case c.rule == "":
			if len(fs) > 0 {
				t.Errorf("%s %q: want no finding, got %v", c.path, c.text, got)
			}
		case strings.HasPrefix(c.rule, "!"):
			for _, id := range got {
				if strings.Contains("|"+c.rule[1:]+"|", "|"+id+"|") {
					t.Errorf("%s %q: want no %s finding, got %v", c.path, c.text, c.rule[1:], got)
				}
			}
		case c.rule == "*":
			if len(fs) == 0 {
				t.Errorf("%s %q: want a finding, got none", c.path, c.text)
			}
		case len(fs) != 1 || !strings.Contains("|"+c.rule+"|", "|"+fs[0].RuleID+"|"):
			t.Errorf("%s %q: want one %s finding, got %v", c.path, c.text, c.rule, got)
		}
	}
}

// checkNoteCases is checkFormCases of texts in a note.
func checkNoteCases(t *testing.T, cases []noteCase) {
	t.Helper()
	fc := make([]formCase, len(cases))
	for i, c := range cases {
		fc[i] = formCase{"notes/howto.md", c.text, c.rule}
	}
	checkFormCases(t, fc)
}

// noteCase is a note's text and the rule that must report it, as in
// formCase.
type noteCase struct{ text, rule string }
