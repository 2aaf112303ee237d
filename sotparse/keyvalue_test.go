package sotparse

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// lineKeyPattern and factPattern specify matchLineKey and matchFact.
var (
	lineKeyPattern = regexp.MustCompile(`^(Type|Status|Blocked by|Validator):[ \t]*(.*?)\s*$`)
	factPattern    = regexp.MustCompile("^`?([A-Za-z][A-Za-z0-9_ ./()-]{0,63}?)`?:[ \t]+(\\S.*?)\\s*$")
	// workItemHeading specifies matchWorkItemHeading.
	workItemHeading = regexp.MustCompile(`^(?:(Issue:)\s+)?(CTO-WORK-\d+)(?:\s+-\s+|:\s+)(\S.*)$`)
)

// keyValueLines are lines to hold matchLineKey and matchFact to their
// patterns with: edge cases, and every line of the sample and real corpus.
func keyValueLines(t testing.TB) []string {
	lines := []string{
		"Status: validated.", "Status:validated", "Status:", "Status:\n", "Status: \r\n", "Status: a\nb", "Status: \f x",
		"Status : x", "status: x", "Blocked by: CTO-WORK-1", "Blocked by:", "Type: AFK\t \n", "Validator: `x`  ",
		"key: value", "`key`: value", "`key: value", "key:value", "key:  \t value \t", "key: \fvalue", "key:\t\u00a0v",
		"1key: v", "k" + strings.Repeat("e", 63) + ": v", "k" + strings.Repeat("e", 64) + ": v", "a b/c.(d)-e_f: g",
		"key`: v", "key``: v", "key: v\nw", "key: v\n", "key:", "key: ", "é: v", "ké: v", "Key:: v", "Key: :",
	}
	for _, dir := range sampleAndCorpus(t) {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
				return nil
			}
			b, _ := os.ReadFile(p)
			for _, l := range strings.SplitAfter(string(b), "\n") {
				lines = append(lines, l, strings.TrimLeft(l, "-*+ \t"), strings.TrimRight(l, " \t\r\n"))
			}
			return nil
		})
	}
	return lines
}

func TestMatchLineKeyAndFact(t *testing.T) {
	for _, l := range keyValueLines(t) {
		checkKeyValue(t, l)
	}
}

func checkKeyValue(t *testing.T, l string) {
	if got, want := matchLineKey([]byte(l)), lineKeyPattern.FindSubmatchIndex([]byte(l)); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("matchLineKey(%q) = %v, pattern %v", l, got, want)
	}
	if got, want := matchFact(l), factPattern.FindStringSubmatchIndex(l); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("matchFact(%q) = %v, pattern %v", l, got, want)
	}
}

func FuzzMatchKeyValue(f *testing.F) {
	for _, l := range keyValueLines(f)[:40] {
		f.Add(l)
	}
	f.Fuzz(checkKeyValue)
}

// plainReference is PlainText as first written, a rune at a time: the
// byte-wise version must agree with it on every text.
func plainReference(s string) string {
	s = markupReplacer.Replace(s)
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			space = b.Len() > 0
			continue
		case r == '*' || r == '_':
			if r == '_' {
				break
			}
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

func TestPlainTextMatchesReference(t *testing.T) {
	for _, l := range append(keyValueLines(t), "", "  a  ", "*x* **y** `z` __w__ snake_case", "\xff a\tb", "é  ü\n*", "___a", "_`_ _**_", "\xc3`\xa9 \xc3*\xa9", "a `` b", "x_") {
		if got, want := PlainText(l), plainReference(l); got != want {
			t.Errorf("PlainText(%q) = %q, want %q", l, got, want)
		}
	}
}

func FuzzPlainText(f *testing.F) {
	f.Add("*x* **y** `z` __w__ snake_case  \t\n")
	f.Add("\xff a\tb")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := PlainText(s), plainReference(s); got != want {
			t.Errorf("PlainText(%q) = %q, want %q", s, got, want)
		}
	})
}

func checkWorkItemHeading(t *testing.T, s string) {
	if got, want := matchWorkItemHeading(s), workItemHeading.FindStringSubmatchIndex(s); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("matchWorkItemHeading(%q) = %v, pattern %v", s, got, want)
	}
}

// TestMatchWorkItemHeading holds matchWorkItemHeading to workItemHeading
// on the lines of the sample and real corpus and on random headings built
// of its parts and their near misses.
func TestMatchWorkItemHeading(t *testing.T) {
	for _, l := range keyValueLines(t) {
		checkWorkItemHeading(t, l)
		checkWorkItemHeading(t, strings.TrimLeft(l, "# "))
	}
	pieces := []string{"Issue:", "Issue", "issue:", "CTO-WORK-", "CTO-WORK-12", "CTO-WORK-007", "CTO-WORK", "cto-work-1",
		"1", "42", "x", "-", " - ", "--", ":", ": ", " ", "  ", "\t", "\n", "\r", "\f", "\v", "\u00a0", "Title", "é", "\xff", "Issue: CTO-WORK-1"}
	rng := rand.New(rand.NewPCG(7, 8))
	matched := 0
	for range sampled(200000) {
		var b strings.Builder
		for range 1 + rng.IntN(7) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if workItemHeading.MatchString(s) {
			matched++
		}
		checkWorkItemHeading(t, s)
	}
	if matched < sampled(1000) {
		t.Fatalf("only %d headings matched: the test saw too little", matched)
	}
}

func FuzzMatchWorkItemHeading(f *testing.F) {
	for _, s := range []string{"Issue: CTO-WORK-1 - T", "CTO-WORK-2: T", "CTO-WORK-3 -  x\n", "Issue:\tCTO-WORK-4:\fé"} {
		f.Add(s)
	}
	f.Fuzz(checkWorkItemHeading)
}

// TestKeyValues reads the facts stated in table rows and bold labels, with
// the line and column of each value; definition tables, quoted tables and
// labels without a value state none.
func TestKeyValues(t *testing.T) {
	const doc = `---
name: x
---

# X

| Property | Value |
| --- | --- |
| Runtime default activation | on |
| ` + "`default_backend`" + ` | Case |

| Field | Meaning |
| --- | --- |
| approval_granted | Whether JP approved. |

| Lane | Default backend | Result |
| --- | --- | --- |
| Case | yes | pass |

> | Key | Value |
> | --- | --- |
> | quoted | true |

- **Default backend:** ` + "`codex`" + `
- __Approval__: granted (JP chat)
- **Bold** text: no label

**Status:** validated
**Empty:**
`
	ws := load(t, map[string]string{".sot/03-PROTOCOLS/X-PRD.md": doc})
	d := ws.Doc(".sot/03-PROTOCOLS/X-PRD.md")
	var got []string
	for _, f := range d.KeyValues {
		p := ws.Fset.Position(f.ValuePos)
		got = append(got, fmt.Sprintf("%d %s|%s|%s @%d:%d", f.Form, f.Subject, f.Key, f.Value, p.Line, p.Column))
	}
	want := []string{
		"1 |Runtime default activation|on @9:32",
		"2 Runtime default activation|Value|on @9:32",
		"1 |default_backend|Case @10:23",
		"2 `default_backend`|Value|Case @10:23",
		"2 Case|Default backend|yes @18:10",
		"2 Case|Result|pass @18:16",
		"3 |Default backend|`codex` @24:24",
		"3 |Approval|granted (JP chat) @25:17",
		"3 |Status|validated @28:13",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("key values:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range d.KeyValues {
		if s := ws.Fset.Position(f.ValuePos).Offset; !strings.HasPrefix(doc[s:], f.Value) {
			t.Errorf("%s: value %q not at its position (%q)", f.Key, f.Value, doc[s:min(len(doc), s+20)])
		}
		// A row's or a label's fact starts at its key, as a list item's does.
		if s := ws.Fset.Position(f.Pos).Offset; f.Form != FactHeaderCell && !strings.HasPrefix(strings.TrimLeft(doc[s:], "`"), f.Key) {
			t.Errorf("%s: fact does not start at its key (%q)", f.Key, doc[s:min(len(doc), s+20)])
		}
	}
}
