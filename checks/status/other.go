package status

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/sotparse"
)

// staleStatement is the last sentence of a document that says an item
// remains blocked (stale-other-blocked) or blocks something
// (stale-blocker), and how many such sentences it has.
type staleStatement struct {
	s     sentence
	end   int    // of the statement, in s.text
	date  string // the sentence gives itself ("On 2026-05-12, ..."), or ""
	count int
}

// otherBlocked reports, once per document and item, the last sentence of
// a document that says an item defined elsewhere remains blocked while the
// item is validated. It is a warning: the sentence may be history written
// before the validation, which only a dated section can tell.
func (c *checker) otherBlocked(di *docInfo) (reported map[string]bool) {
	if len(di.remain) == 0 {
		return nil // most documents say nothing stays blocked
	}
	defines := map[string]bool{}
	for _, it := range di.d.WorkItems {
		defines[strings.ToUpper(it.ID)] = true
	}
	order, last := lastStatements(di, func(m *remainMatch) ([]string, int, string) {
		if m.byEnd < 0 {
			return nil, 0, ""
		}
		return m.ids, m.byEnd, m.byDate
	}, func(id string) bool {
		return defines[id] // the item's own document: remains-blocked and stale-remains-blocked judge it
	})
	for _, id := range order {
		if c.reportStale(di, id, last[id], "stale-other-blocked", "it remains blocked", "is validated") {
			if reported == nil {
				reported = map[string]bool{}
			}
			reported[id] = true
		}
	}
	return reported
}

// otherClaim reads a sentence into the fact "these items remain blocked":
// it returns the text that names the items and the end of the statement in
// s.text. The fact is the same whatever the form: the id list as the
// sentence's subject ("`CTO-WORK-016` remains blocked ..."), as the subject
// of a later clause ("The endpoint answered, but `CTO-WORK-016` remains
// blocked"), after a noun it names ("The Stage 2 item `CTO-WORK-016`
// continues to be blocked"), under a label that says it ("Still blocked:
// `CTO-WORK-016`"), or in a table row whose cells are the id and the
// phrase ("| `CTO-WORK-016` | remains blocked |"). Emphasis is not a word.
//
// labelEnd is the offset in content where the line's label may end at the
// latest (labelSpan). date is the date a phrase before the subject gives
// the claim ("On 2026-05-12, `CTO-WORK-016` remains blocked"), or "".
func (rp *remainPatterns) otherClaim(content []byte, lineOff, labelEnd int, s sentence) (subject string, end int, date string, ok bool) {
	text := strings.ReplaceAll(s.text, "*", "")
	if conditional(text) {
		return "", 0, "", false // "If the record is revoked, `CTO-WORK-016` remains blocked."
	}
	if strings.HasPrefix(strings.TrimSpace(text), "|") {
		// A table row: its cells read as one sentence.
		text = strings.Join(strings.Fields(strings.ReplaceAll(text, "|", " ")), " ")
		if m := rp.byID.FindStringSubmatchIndex(text); m != nil && !inCodeSpan(text[:m[1]]) {
			return text[m[2]:m[3]], len(s.text), "", true
		}
		return "", 0, "", false
	}
	for _, at := range clauseStarts(text) {
		t := text[at:]
		skip := 0
		if m := itemNoun.FindStringIndex(t); m != nil {
			skip = m[1]
		}
		if m := rp.byID.FindStringSubmatchIndex(t[skip:]); m != nil && !inCodeSpan(text[:at+skip+m[1]]) {
			past, date := historical(text[:at+skip+m[0]])
			if aside := asideOf(t[skip:], m); aside != "" && !past {
				// "`CTO-WORK-016` (at the time) remains blocked", "...
				// (checked 2026-06-03) stays blocked": the aside is a
				// phrase set off before the verb.
				past = historyPhrase(aside)
				if date == "" {
					date = phraseDate(aside)
				}
			}
			if past {
				return "", 0, "", false // "Originally, `CTO-WORK-016` remains blocked."
			}
			return t[skip+m[2] : skip+m[3]], min(len(s.text), at+skip+m[1]), date, true
		}
	}
	// A label that says it: "Still blocked: `CTO-WORK-016`, until ...".
	// Only what can be a label is read: the words of a later sentence's
	// line before it hold the end of the sentence before, and reading
	// them for each sentence was quadratic in a long line.
	if lineOff <= s.off && s.off <= labelEnd {
		label := strings.ToLower(strings.TrimSpace(strings.ReplaceAll(string(content[lineOff:s.off]), "*", "")))
		label = strings.TrimSpace(strings.TrimLeft(label, "-+ []x"))
		if blockedLabels[strings.TrimSuffix(label, ":")] && strings.HasSuffix(label, ":") {
			if m := leadingIDs.FindStringIndex(text); m != nil {
				return text[:m[1]], min(len(s.text), m[1]), "", true
			}
		}
	}
	return "", 0, "", false
}

// asideOf returns the aside byID matched between the ids and the verb, or
// "".
func asideOf(t string, m []int) string {
	for g := 2; g <= 3; g++ {
		if m[2*g] >= 0 {
			return strings.Trim(t[m[2*g]:m[2*g+1]], "() ")
		}
	}
	return ""
}

// labelSpan returns the length of the start of line that can be part of
// a label of blockedLabels, with its emphasis, list marker and task box:
// letters, white space and "*-+[]:", and any byte of a multi-byte
// character (Unicode white space is trimmed), up to the line's end. A
// label never reaches past it.
func labelSpan(line []byte) int {
	for i, c := range line {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c >= 0x80:
		case c == ' ', c == '\t', c == '\v', c == '\f', c == '\r':
		case c == '*', c == '-', c == '+', c == '[', c == ']', c == ':':
		default:
			return i
		}
	}
	return len(line)
}

// blockedLabels are labels that say the ids after them remain blocked.
var blockedLabels = map[string]bool{"still blocked": true, "remains blocked": true, "remain blocked": true, "stays blocked": true, "blocked": true}

var (
	// itemNoun is a noun phrase naming the item before its id: "The Stage
	// 2 item ", "this work item ", or "Both " before an id list.
	itemNoun = lazyRE.New(`(?i)^(?:both\s+|(?:the|this|that)\s+(?:[\w-]+\s+){0,3}?(?:item|work\s+item|issue|slice)\s+)`)
	// leadingIDs is an id list that starts a sentence.
	leadingIDs = lazyRE.New(`(?i)^` + idList + `(?:\s|[,.;:]|$)`)
)

// clauseStarts returns the offsets in text where a clause starts: the
// sentence's start, after ", but", ", and", ", so", ", while", ", yet",
// ", although", "; " or ", ", and after "that" following a verb that
// reports a finding ("we confirmed that", "the notes record that").
func clauseStarts(text string) []int {
	out := make([]int, 1, strings.Count(text, ",")+1)
	for i := 0; i < len(text); i++ {
		if text[i] == ' ' && len(text)-i > len(" that ") && strings.EqualFold(text[i:i+len(" that ")], " that ") && reportsBefore(text[:i]) {
			out = append(out, spaces(text, i+len(" that ")))
			continue
		}
		if text[i] != ',' {
			continue
		}
		j := spaces(text, i+1)
		for _, w := range []string{"but ", "and ", "so ", "while ", "yet ", "although ", "though "} {
			// The word's length of text, not the rest of it: lowering the
			// rest at every comma made a long list line quadratic.
			if len(text)-j >= len(w) && strings.EqualFold(text[j:j+len(w)], w) {
				j = spaces(text, j+len(w))
				break
			}
		}
		out = append(out, j)
	}
	return out
}

// reportingVerbs, before "that", report what someone found, so that the
// clause after it states a fact ("On 2026-06-09 we confirmed that
// `CTO-WORK-040` continues to be blocked"). A verb that asks for a state
// ("ensure that", "verify that") does not, nor one that gives what a
// document says ("The route states that ..."): its content, not a finding.
var reportingVerbs = map[string]bool{
	"confirmed": true, "confirms": true, "confirm": true, "noted": true, "notes": true, "note": true,
	"recorded": true, "records": true, "record": true, "found": true, "finds": true, "observed": true,
	"reported": true, "reports": true, "shows": true, "showed": true, "show": true, "said": true,
	"stated": true, "indicates": true, "indicated": true, "verified": true, "checked": true,
	"learned": true, "saw": true,
}

// reportsBefore reports whether the last word of text is a reporting
// verb. Only the last few bytes are read, so that a long line stays
// linear.
func reportsBefore(text string) bool {
	j := len(text)
	i := j
	for i > 0 && j-i < 12 && ('a' <= text[i-1] && text[i-1] <= 'z' || 'A' <= text[i-1] && text[i-1] <= 'Z') {
		i--
	}
	if i == j || i > 0 && text[i-1] != ' ' && text[i-1] != ',' {
		return false
	}
	return reportingVerbs[strings.ToLower(text[i:j])]
}

// hypotheticalHeadings start the headings of sections that describe a
// possible outcome ("### Branch A - External Provider Approved"): what
// such a section says stays blocked is a consequence of that outcome, not
// the current state.
var hypotheticalHeadings = []string{"branch ", "option ", "alternative ", "scenario ", "if "}

// hypothetical reports whether the innermost heading before off starts a
// section about a possible outcome.
func hypothetical(d *sotparse.Doc, off int) bool {
	text := strings.ToLower(strings.TrimSpace(sectionHeading(d, off)))
	for _, p := range hypotheticalHeadings {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

// sectionHeading returns the text of the innermost heading before off, or
// "".
func sectionHeading(d *sotparse.Doc, off int) string {
	if i := headingAt(d, off); i >= 0 {
		return d.Headings[i].Text
	}
	return ""
}

// reportStale reports st, a statement about id of di, when id is validated
// and the statement is not dated (or placed, in id's own defining
// document) before the validation: "id is validated but this says
// <claim>...: update it now that id <now>". It reports whether it did.
func (c *checker) reportStale(di *docInfo, id string, st *staleStatement, category, claim, now string) bool {
	wb, def, defDoc := c.validatedPlaces(id)
	if len(wb)+len(def) == 0 {
		return false
	}
	said := di.dateAt(st.s.off)
	if st.date != "" {
		said = st.date // the sentence dates itself: "On 2026-05-12, ..."
	}
	valid := ""
	if defDoc == di.d {
		// A journal entry placed before the entry of the same document
		// that validates the item, and dated no later, is history.
		if off, ok := di.stateOffset(id, validated); ok {
			valid = di.dateAt(off)
			if st.s.off < off && (said == "" || valid == "" || said <= valid) {
				return false
			}
		}
	} else {
		valid = c.validationDate(id, defDoc)
	}
	if said != "" && valid != "" && said < valid {
		return false // a dated entry older than the validation is history
	}
	if st.date != "" && valid == "" {
		return false // an entry of its day, which nothing dates the validation against
	}
	var when string
	switch {
	case st.date != "":
		when = fmt.Sprintf(" in a sentence dated %s, on or after its validation (%s)", said, valid)
	case said != "" && valid != "":
		when = fmt.Sprintf(" in a section dated %s, on or after its validation (%s)", said, valid)
	case said != "":
		when = fmt.Sprintf(" (this may be history: its section is dated %s, but nothing dates the validation)", said)
	default:
		when = " (this may be history written before the validation: nothing dates the sentence)"
	}
	more := ""
	if st.count > 1 {
		more = fmt.Sprintf("; the last of %d such statements in this document", st.count)
	}
	c.pass.Report(analysis.Diagnostic{Pos: di.d.File.Pos(st.s.off), End: di.d.File.Pos(st.s.off + st.end), Category: category,
		Message: fmt.Sprintf("%s is validated but this says %s%s%s: mark the sentence as history, or update it now that %s %s",
			id, claim, when, more, id, now),
		Related: append(wb, def...)})
	return true
}

// validatedPlaces returns where id is validated: its workboard status and
// the Status lines of its defining documents. The item counts as validated
// when the workboard says so, or, when the workboard gives it no status,
// when every definition with a Status line does; otherwise it returns
// nothing.
func (c *checker) validatedPlaces(id string) (wb, def []analysis.RelatedInformation, defDoc *sotparse.Doc) {
	wbStatus := ""
	if wi := c.ws.Workboard.Item(id); wi != nil && wi.Status != nil && wi.Status.Scalar {
		wbStatus = strings.ToLower(strings.TrimSpace(wi.Status.Value))
		if wbStatus == validated {
			wb = append(wb, related(wi.Status.ValuePos, "%s is validated in %s", id, c.ws.Workboard.File.Path))
		}
	}
	if wbStatus != "" && wbStatus != validated {
		return nil, nil, nil
	}
	for _, dd := range c.definitions(id) {
		d, it := dd.d, dd.it
		{
			if it.Status == nil {
				continue
			}
			if itemStatus(it) != validated {
				if wbStatus == "" {
					return nil, nil, nil
				}
				continue
			}
			def = append(def, related(it.Status.ValuePos, "%s is validated in its defining document", id))
			if defDoc == nil {
				defDoc = d
			}
		}
	}
	return wb, def, defDoc
}

// validationDate returns the date of the section of d, the item's defining
// document, that states id validated ("Result: `CTO-WORK-016` is
// validated" under "## ... Evidence - 2026-06-01"), or "".
func (c *checker) validationDate(id string, d *sotparse.Doc) string {
	if d == nil {
		return ""
	}
	if c.info[d] == nil {
		c.index([]*sotparse.Doc{d})
	}
	di := c.info[d]
	if off, ok := di.stateOffset(id, validated); ok {
		return di.dateAt(off)
	}
	return ""
}
