package authority

import (
	"slices"
	"strings"
	"testing"
)

// TestCanonical pins each rewrite of canonical, and the forms it leaves
// alone: a verb group broken by a negation, and text no rewrite names.
func TestCanonical(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"As the runtime default, the Pi lane was switched on by this closeout.", "this closeout activated the Pi lane as the runtime default."},
		{"Runtime default activation flipped from false to true for Case.", "Runtime default activation is true for Case."},
		{"The lane was switched on.", "The lane was activated."},
		{"Claude serves as the default engine.", "Claude is the default engine."},
		{"Codex acted as the default engine.", "Codex was the default engine."},
		{"Case was made the default backend by this closeout.", "Case became the default backend by this closeout."},
		{"Case replaced the fake lane as the default backend.", "Case became the default backend."},
		{"The CTO Harness now defaults to Pi for every task.", "the default of The CTO Harness is Pi for every task."},
		{"We should check whether the harness defaults to Pi.", "We should check whether the default of the harness is Pi."},
		{"The request has been approved by JP, and execution may proceed.", "JP approved The request, and execution may proceed."},
		{"Approval for this request was given by JP in chat.", "JP given Approval for this request in chat."},
		{"We should confirm that the request was approved by JP.", "We should confirm that JP approved the request."},
		{"Approved by JP: the request for CTO-WORK-049.", "JP Approved the request for CTO-WORK-049."},
		// Left alone.
		{"Case was not made the default backend.", "Case was not made the default backend."},
		{"The request was not approved by JP.", "The request was not approved by JP."},
		{"Blocked by: CTO-WORK-001.", "Blocked by: CTO-WORK-001."},
		{"The harness does not default to Pi.", "The harness does not default to Pi."},
		{"Case is a candidate default.", "Case is a candidate default."},
		{"The lane is disabled by default.", "The lane is disabled by default."},
		{"A setting that is proven by the validator.", "A setting that is proven by the validator."},
	} {
		if got := canonical(c.in); got != c.want {
			t.Errorf("canonical(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// cueWords returns the words of s that the negation rules read (cueBefore,
// cueInside, cueAfter), in lower case, sorted.
func cueWords(s string) []string {
	var out []string
	for _, re := range []interface{ FindAllString(string, int) []string }{cueBefore, cueInside, cueAfter} {
		for _, m := range re.FindAllString(s, -1) {
			out = append(out, strings.ToLower(m))
		}
	}
	slices.Sort(out)
	return out
}

// TestCanonicalKeepsCues reads every sentence of the package's test
// workspaces, the corpus and generated ones in its canonical form: a
// rewrite drops no word the negation rules read, and a sentence that
// holds no rewrite's literal is its own canonical form.
func TestCanonicalKeepsCues(t *testing.T) {
	changed := 0
	for _, ws := range testWorkspaces(t) {
		for _, d := range ws.Docs {
			for _, bl := range d.Blocks() {
				if !isProse(bl) {
					continue
				}
				for _, s := range sentences(bl.Text) {
					sent := bl.Text[s[0]:s[1]]
					c := canonical(sent)
					if c == sent {
						continue
					}
					if rewriteBits(sent) == 0 {
						t.Errorf("%s: %q rewritten to %q, holding no rewrite's literal", d.Path, sent, c)
					}
					changed++
					if got, want := cueWords(c), cueWords(sent); !slices.Equal(got, want) {
						t.Errorf("%s: %q -> %q: cue words %v, want %v", d.Path, sent, c, got, want)
					}
				}
			}
		}
	}
	if changed == 0 {
		t.Error("no sentence rewritten: the test reads nothing")
	}
	t.Logf("%d sentences rewritten", changed)
}
