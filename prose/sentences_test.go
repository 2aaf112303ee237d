package prose

import (
	"reflect"
	"strings"
	"testing"
)

// TestSentenceScans: a rule of sentence scope runs on each sentence of a
// block, a rule of block scope on the whole block, and each text, numbered
// as the engine splits the blocks, has its own words: a later sentence is
// never handed an earlier one's (or its block's) scan, whether the block
// has one sentence or several, or sits in the frontmatter.
func TestSentenceScans(t *testing.T) {
	passive := `raw: '\b(?:is|was)\b\s*\w+ed\b'` + "\n"
	rules := map[string]string{
		"S":  "extends: existence\nmessage: \"s %s\"\nscope: sentence\n" + passive,
		"B":  "extends: existence\nmessage: \"b %s\"\nscope: paragraph\n" + passive,
		"ST": "extends: existence\nmessage: \"st %s\"\nscope: sentence\ntokens: [was walked, is kept, was played]\n",
		"T":  "extends: existence\nmessage: \"t %s\"\n" + passive,
	}
	src := strings.Join([]string{
		"---",
		"title: it was titled here",
		"---",
		"Alpha beta gamma delta. The dog was walked here. And it was played again.",
		"",
		"One sentence that is kept.",
		"",
		"- It was listed. It is checked too.",
		"",
	}, "\n")
	got := lintWith(t, rules, src)
	want := []string{
		// A frontmatter field is no sentence: the rules of text scope only.
		`2:11 T.T suggestion "t was titled"`,
		`4:33 T.B suggestion "b was walked"`, `4:33 T.S suggestion "s was walked"`, `4:33 T.ST suggestion "st was walked"`, `4:33 T.T suggestion "t was walked"`,
		`4:57 T.B suggestion "b was played"`, `4:57 T.S suggestion "s was played"`, `4:57 T.ST suggestion "st was played"`, `4:57 T.T suggestion "t was played"`,
		`6:19 T.ST suggestion "st is kept"`,
		`8:6 T.S suggestion "s was listed"`, `8:6 T.T suggestion "t was listed"`,
		`8:21 T.S suggestion "s is checked"`, `8:21 T.T suggestion "t is checked"`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
