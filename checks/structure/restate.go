package structure

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
	"github.com/svrnty/sotvet/checks/internal/flagutil"
	"github.com/svrnty/sotvet/sotparse"
)

// DefaultFramingWords are the words that frame a statement without changing
// what it is about: "Require no X." and "No X occurs." state the same X.
var DefaultFramingWords = []string{"require", "requires", "required", "ensure", "ensures", "record", "records",
	"keep", "keeps", "state", "states", "must", "should", "shall", "occur", "occurs", "happens", "is", "are", "be"}

var framingWords = flagutil.Words(append([]string(nil), DefaultFramingWords...))

func init() {
	Analyzer.Flags.Var(&framingWords, "framing-words", "comma-separated words near-duplicate-line drops before comparing two list items")
}

// nearDuplicates reports a list item that restates the list item right
// before it: different lines with the same words once framing words are
// dropped ("- Require no Target Repository path exposure." then "- No
// Target Repository path exposure.").
func (c *checker) nearDuplicates(d *sotparse.Doc) {
	frame := map[string]bool{}
	for _, w := range framingWords {
		frame[strings.ToLower(w)] = true
	}
	content := d.File.Content
	var prevKey, prevWords string
	var prevLine bodylines.Line
	bodylines.Each(content, d.File.Tok.Offset(d.BodyStart), len(content), func(l bodylines.Line) {
		item, ok := listItemText(l.Text)
		if !ok || l.Quoted {
			prevKey = ""
			return
		}
		words, key, n := restateKey(item, frame)
		if prevKey != "" && n >= 2 && key == prevKey && words != prevWords {
			start := l.Off + len(l.Text) - len(strings.TrimLeft(l.Text, " \t"))
			end := l.Off + len(strings.TrimRight(l.Text, " \t\r"))
			c.pass.Report(analysis.Diagnostic{
				Pos: d.File.Pos(start), End: d.File.Pos(end), Category: "near-duplicate-line",
				Message: fmt.Sprintf("list item restates the item before it in other words: %s; keep one", shorten(strings.TrimSpace(item))),
				Related: []analysis.RelatedInformation{{Pos: d.File.Pos(prevLine.Off), Message: fmt.Sprintf("the item before: %s", shorten(strings.TrimSpace(prevLine.Text)))}},
			})
		}
		prevKey, prevWords, prevLine = key, words, l
	})
}

// listItemText returns the text of a list item line after its marker and
// task box.
func listItemText(line string) (string, bool) {
	t := strings.TrimLeft(line, " \t")
	i := 0
	switch {
	case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "), strings.HasPrefix(t, "+ "):
		i = 2
	default:
		for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == 0 || i+1 >= len(t) || (t[i] != '.' && t[i] != ')') || t[i+1] != ' ' {
			return "", false
		}
		i += 2
	}
	t = t[i:]
	for _, box := range []string{"[ ] ", "[x] ", "[X] "} {
		t = strings.TrimPrefix(t, box)
	}
	return t, true
}

// restateKey returns the item's words, lower-cased, and the same without
// framing words, both joined by spaces, and how many words the key has.
func restateKey(s string, frame map[string]bool) (words, key string, n int) {
	var all, kept []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '/' || r == '-' || r > 127)
	}) {
		w = strings.Trim(w, ".")
		if w == "" {
			continue
		}
		all = append(all, w)
		if !frame[w] {
			kept = append(kept, w)
		}
	}
	return strings.Join(all, " "), strings.Join(kept, " "), len(kept)
}
