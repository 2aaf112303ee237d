package contradiction

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// superseded reports a blocked document that forbids marking an item
// validated when the workboard and a validated document say it is, and
// neither document links to the other.
func (c *checker) superseded() {
	wb := c.ws.Workboard
	for _, di := range c.docs {
		for _, dn := range di.doNotMark {
			c.text(func(o *docInfo) bool { return o.d.MayMention(dn.id) })
			it := wb.Item(dn.id)
			if it == nil || it.Status == nil || !strings.EqualFold(strings.TrimSpace(it.Status.Value), "validated") {
				continue
			}
			var related relList
			var by []string
			linked := false
			for _, e := range c.docs {
				if e == di || !e.validated {
					continue
				}
				s, ok := e.validatedStatement(dn.id)
				if !ok {
					continue
				}
				if di.links.Has(e.d.Path) || e.links.Has(di.d.Path) || di.namesFile(path.Base(e.d.Path)) || e.namesFile(path.Base(di.d.Path)) {
					linked = true
					break
				}
				by = append(by, e.d.Path)
				if !related.full() {
					related.add(s.pos, "%s says: %q", e.d.Path, s.text)
				}
			}
			if linked || len(by) == 0 {
				continue
			}
			related.add(it.Status.ValuePos, "WORKBOARD.yaml says %s is validated", dn.id)
			c.report(di.d.Path, dn.stmt.pos, dn.stmt.end, "superseded",
				fmt.Sprintf("this blocked document still says %q, but %s is validated by %s, and nothing links the two: mark this document superseded and link it to what superseded it",
					dn.stmt.text, dn.id, strings.Join(by, ", ")), related)
		}
	}
}

// docFileNames returns the document file names text holds ("Superseded
// by: `CTO-...-PASS-EVIDENCE.md`": a link as much as its .sot path), as
// the pattern \b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\.md\b finds them
// (docFileName, in the tests). A match is a run of [A-Z0-9-] and the
// ".md" after it, so each ".md" is read with the run before it; the run
// is read here, not by the pattern: on a workspace whose documents link
// each other, running it on each cost more than the line's other tests.
func docFileNames(text string) []string {
	var out []string
	for i := 0; ; {
		j := strings.Index(text[i:], ".md")
		if j < 0 {
			return out
		}
		at := i + j
		start := at
		for start > i && fileNameByte(text[start-1]) {
			start--
		}
		i = at + len(".md")
		if i < len(text) && wordByte(text[i]) {
			continue // no \b after ".md"
		}
		if p := nameStart(text, start, at); p >= 0 {
			out = append(out, text[p:i])
		}
	}
}

// nameStart returns where the leftmost match of \b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+
// that ends at end starts in text[start:end], a run of [A-Z0-9-], or -1.
// A match holds a '-', and none next to another or at its end; it starts
// at the run's start (if a word boundary is there) or after one of its
// '-'.
func nameStart(text string, start, end int) int {
	if start == end || text[end-1] == '-' {
		return -1
	}
	from, lastDash := start, -1 // the first start after every "--"; the last '-'
	for k := start; k < end; k++ {
		if text[k] == '-' {
			if k > start && text[k-1] == '-' {
				from = k + 1
			}
			lastDash = k
		}
	}
	for p := from; p < lastDash; p++ {
		c := text[p]
		if c < 'A' || c > 'Z' {
			continue
		}
		if p == start && (p == 0 || !wordByte(text[p-1])) || p > start && text[p-1] == '-' {
			return p
		}
	}
	return -1
}

// wordByte reports whether c is a byte of a word, as \b reads it:
// [0-9A-Za-z_].
func wordByte(c byte) bool { return isAlnumASCII(c) || c == '_' }

// fileNameByte reports whether c is of the run docFileName matches before
// ".md": [A-Z0-9-].
func fileNameByte(c byte) bool { return 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' }

// A denial is an instruction that an item is not to be validated, read as a
// fact (the item; its status; not validated) from any of its forms: "Do not
// mark `ID` validated", "`ID` must not be marked validated", "`ID` must
// remain candidate", "Leave `ID` unvalidated", "Nobody may set `ID` to
// validated", "Validated status for `ID` is not allowed", or a table row
// whose other cell says no ("| mark `ID` validated | no |"). A clause with
// a condition or a scope ("until the pass", "on this attempt") is no
// standing instruction, nor is a statement of what this document does
// ("This attempt does not validate `ID`").
var (
	denialForm = lazyRE.New(`(?i)\b(?:do not|don't|must not|may not|should not|shall not|cannot|never|nobody may|no one may)\b[^.;]*\b(?:mark|set|record|call|treat|move|promote|declare|be)\b[^.;]*\bvalidated\b` +
		`|\bvalidated\b[^.;]*\b(?:is|are) not (?:allowed|permitted)\b` +
		`|\b(?:leave|keep)s?\b[^.;]*\bunvalidated\b` +
		`|\b(?:must|should|shall|will) (?:remain|stay) (?:a )?(?:candidate|open|blocked|unvalidated)\b`)
	denialCondition = lazyRE.New(`(?i)\b(?:until|unless|once|if|after|before)\b|\b(?:on|for|in|from|by) this\b`)
	clauseBreak     = lazyRE.New(`;|:\s|,? and |, then | - | — `)
	noCell          = map[string]bool{"no": true, "false": true, "not allowed": true, "forbidden": true, "never": true}
)

// deniedValidation returns the ids of ids (those of a line) that the line
// says are not to be validated.
func deniedValidation(text string, ids []string) []string {
	if len(ids) == 0 {
		return nil
	}
	text = strings.NewReplacer("*", "", "`", "", "_", " ").Replace(text)
	var out []string
	if t := strings.TrimSpace(text); strings.HasPrefix(t, "|") {
		cells := strings.Split(strings.Trim(t, "|"), "|")
		no := slices.ContainsFunc(cells, func(c string) bool {
			return noCell[strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(c), ".")))]
		})
		for _, c := range cells {
			for _, id := range ids {
				if no && strings.Contains(c, id) && strings.Contains(strings.ToLower(c), "validated") && !slices.Contains(out, id) {
					out = append(out, id)
				}
			}
		}
		return out
	}
	for _, clause := range clauseBreak.Split(text, -1) {
		if !denialForm.MatchString(clause) || denialCondition.MatchString(clause) || strings.Contains(clause, "This ") {
			continue
		}
		for _, id := range ids {
			if strings.Contains(clause, id) && !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}
