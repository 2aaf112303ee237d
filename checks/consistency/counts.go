package consistency

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
	"github.com/svrnty/sotvet/sotparse"
)

var numberWords = []string{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}

// countPattern matches a statement of how many items the document's
// sequence has: "This is intentionally two slices", "split into 3 issues".
var countPattern = regexp.MustCompile(`(?i)\b(?:this is|these are|split into|sequence (?:is|has))\s+(?:intentionally\s+|exactly\s+|only\s+)?(\d{1,3}|` +
	strings.Join(numberWords, "|") + `)\s+(?:[a-z-]+\s+)?(slices?|issues?|work items?)\b`)

func number(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	for i, w := range numberWords {
		if strings.EqualFold(s, w) {
			return i + 1
		}
	}
	return -1
}

// counts reports a stated count of the document's sequence that differs
// from the number of work items it defines.
func (c *checker) counts(d *sotparse.Doc, content []byte) {
	ids := map[string]bool{}
	for _, it := range d.WorkItems {
		ids[it.ID] = true
	}
	if len(ids) == 0 {
		return
	}
	for _, ln := range bodylines.Lines(content, d.File.Tok.Offset(d.BodyStart), len(content)) {
		if ln.Quoted || !mayCount(ln.Text) {
			continue
		}
		for _, m := range countPattern.FindAllStringSubmatchIndex(ln.Text, -1) {
			n := number(ln.Text[m[2]:m[3]])
			if n < 0 || n == len(ids) || strings.Count(ln.Text[:m[0]], "`")%2 == 1 {
				continue
			}
			last := d.WorkItems[len(d.WorkItems)-1]
			c.diag(d.File.Pos(ln.Off+m[0]), d.File.Pos(ln.Off+m[1]), "count-mismatch",
				fmt.Sprintf("says %s %s, but the document defines %d work items", ln.Text[m[2]:m[3]], ln.Text[m[4]:m[5]], len(ids)),
				related(last.Pos, "work item %d of %d, %s", len(ids), len(ids), last.ID), nil)
		}
	}
}

// countNouns are what a count statement counts, as written in lower and
// title case: the cheap test that spares most lines the pattern.
var countNouns = []string{"slice", "Slice", "issue", "Issue", "work item", "Work item", "Work Item"}

func mayCount(line string) bool {
	for _, n := range countNouns {
		if strings.Contains(line, n) {
			return true
		}
	}
	return false
}
