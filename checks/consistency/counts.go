package consistency

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
	"github.com/svrnty/sotvet/sotparse"
)

var numberWords = []string{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}

// countPattern matches a statement of how many items the document's
// sequence has: "This is intentionally two slices", "split into 3 issues".
var countPattern = lazyRE.New(`(?i)\b(?:this is|these are|split into|sequence (?:is|has))\s+(?:intentionally\s+|exactly\s+|only\s+)?(\d{1,3}|` +
	strings.Join(numberWords, "|") + `)\s+(?:[a-z-]+\s+)?(slices?|issues?|work items?)\b`)

// countPhrases are the openings of countPattern, in lower case.
var countPhrases = []string{"this is", "these are", "split into", "sequence "}

// mayCount reports whether countPattern may match line: a match holds one
// of countPhrases in some ASCII case, or the line has a non-ASCII byte
// (under (?i) the long s, U+017F, matches s). Most lines with a count
// noun state no count, and the pattern is slow to say so.
func mayCount(line string) bool {
	for i := 0; i < len(line); i++ {
		if line[i] >= 0x80 {
			return true
		}
	}
	for _, p := range countPhrases {
		if bodylines.ContainsFold(line, p) {
			return true
		}
	}
	return false
}

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
	ids := distinctIDs(d.WorkItems)
	if ids == 0 {
		return
	}
	// The nouns are looked for in the body's bytes, and only the lines that
	// hold one are read: most lines of most documents count nothing.
	body := d.File.Tok.Offset(d.BodyStart)
	var lines []bodylines.Line // outside fenced code; read at the first statement
	var buf [16]int
	for _, ls := range nounLines(content, body, buf[:0]) {
		le := len(content)
		if e := bytes.IndexByte(content[ls:], '\n'); e >= 0 {
			le = ls + e
		}
		text := strings.TrimSuffix(string(content[ls:le]), "\r")
		if !mayCount(text) {
			continue
		}
		for _, m := range countPattern.FindAllStringSubmatchIndex(text, -1) {
			n := number(text[m[2]:m[3]])
			if n < 0 || n == ids || strings.Count(text[:m[0]], "`")%2 == 1 {
				continue
			}
			if lines == nil {
				lines = bodylines.Lines(content, body, len(content))
			}
			i := sort.Search(len(lines), func(i int) bool { return lines[i].Off >= ls })
			if i == len(lines) || lines[i].Off != ls || lines[i].Quoted {
				continue // fenced code or a quote
			}
			last := d.WorkItems[len(d.WorkItems)-1]
			c.diag(d.File.Pos(ls+m[0]), d.File.Pos(ls+m[1]), "count-mismatch",
				fmt.Sprintf("says %s %s, but the document defines %d work items", text[m[2]:m[3]], text[m[4]:m[5]], ids),
				related(last.Pos, "work item %d of %d, %s", ids, ids, last.ID), nil)
		}
	}
}

// distinctIDs returns how many distinct ids the items have. Most documents
// have a few items, compared with each other rather than put in a map.
func distinctIDs(items []*sotparse.WorkItem) int {
	if len(items) > 16 {
		ids := make(map[string]bool, len(items))
		for _, it := range items {
			ids[it.ID] = true
		}
		return len(ids)
	}
	n := 0
	for i, it := range items {
		if !slices.ContainsFunc(items[:i], func(o *sotparse.WorkItem) bool { return o.ID == it.ID }) {
			n++
		}
	}
	return n
}

// countNouns are what a count statement counts, as written in lower and
// title case.
var countNouns = []string{"slice", "Slice", "issue", "Issue", "work item", "Work item", "Work Item"}

// nounAnchors are what nounLines searches for: every count noun holds one
// at a fixed offset (back bytes in), so one search finds the nouns of a
// group, and three bytes in a row are much rarer in prose than any one.
var nounAnchors = []struct {
	*bodylines.Anchor
	back int
}{{bodylines.NewAnchor("lic", false), 1}, {bodylines.NewAnchor("ssu", false), 1}, {bodylines.NewAnchor("rk ", false), 2}}

// nounLines appends to starts the offsets of the lines of content that
// hold a count noun starting at or after body, in order, each once.
func nounLines(content []byte, body int, starts []int) []int {
	for _, a := range nounAnchors {
		for off := body + a.back; off < len(content); {
			k := a.Index(content[off:])
			if k < 0 {
				break
			}
			at := off + k - a.back
			off += k + 1
			if !isNounAt(content, at) {
				continue
			}
			starts = append(starts, bytes.LastIndexByte(content[:at], '\n')+1)
			// The line is found: on to the next one.
			e := bytes.IndexByte(content[at:], '\n')
			if e < 0 {
				break
			}
			off = max(off, at+e+1+a.back)
		}
	}
	slices.Sort(starts)
	return slices.Compact(starts)
}

// isNounAt reports whether a count noun starts at content[at].
func isNounAt(content []byte, at int) bool {
	for _, noun := range countNouns {
		if bytes.HasPrefix(content[at:], []byte(noun)) {
			return true
		}
	}
	return false
}
