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
// blocked") or of a clause a finding reports ("we confirmed that
// `CTO-WORK-016` stays blocked"), after a noun it names ("The Stage 2
// item `CTO-WORK-016` continues to be blocked"), with an aside before
// the verb that frames it ("`CTO-WORK-016` (checked 2026-06-03) stays
// blocked"), under a label that says it ("Still blocked:
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
	listEnd := 0 // the end of the last id list read that no verb followed
	for _, at := range clauseStarts(text) {
		if at < listEnd {
			// Inside an id list already read ("`A`, `B`, `C` ..."): a
			// later part of it is followed by what followed the whole.
			// Reading each part again was quadratic in the list.
			continue
		}
		t := text[at:]
		skip := 0
		if m := itemNoun.FindStringIndex(t); m != nil {
			skip = m[1]
		}
		if claimWork != nil {
			claimWork(len(t) - skip)
		}
		m := rp.byID.FindStringSubmatchIndex(t[skip:])
		if m == nil {
			l := leadingIDs.FindStringIndex(t[skip:])
			if l == nil {
				continue
			}
			listEnd = at + skip + l[1]
			rest := strings.TrimLeft(t[skip+l[1]-1:], " \t")
			if rest == "" || rest[0] != '(' && rest[0] != ',' {
				continue
			}
			if m = rp.aside.FindStringSubmatchIndex(t[skip:]); m == nil {
				continue
			}
		}
		if inCodeSpan(text[:at+skip+m[1]]) {
			continue
		}
		past, date := historical(text[:at+skip+m[0]])
		if !past && at > 0 {
			// A clause after "that": the words that report it may place
			// it in the past ("The May retro recorded that ...").
			past = historyPhrase(reportingClause(text[:at]))
		}
		if aside := asideOf(t[skip:], m); aside != "" && !past {
			// "`CTO-WORK-016` (at the time) remains blocked", "...
			// (checked 2026-06-03) stays blocked": the aside is a
			// phrase set off before the verb; one that states a
			// condition makes the claim one ("(if the audit fails)").
			if conditional(aside) {
				return "", 0, "", false
			}
			past = historyPhrase(aside)
			if date == "" {
				date = asideDate(aside)
			}
		}
		if past {
			return "", 0, "", false // "Originally, `CTO-WORK-016` remains blocked."
		}
		return t[skip+m[2] : skip+m[3]], min(len(s.text), at+skip+m[1]), date, true
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

// claimWork, set by tests only, is told the bytes otherClaim hands byID
// at each clause start: the measure of its work, which must grow
// linearly with the sentence.
var claimWork func(n int)

// reportingClause returns, when before (a sentence up to a clause's
// start) ends with "that", the words of the clause that reports it: from
// the last mark that sets a phrase off, or the sentence's start.
func reportingClause(before string) string {
	b := strings.TrimRight(before, " \t")
	if len(b) < 4 || !strings.EqualFold(b[len(b)-4:], "that") {
		return ""
	}
	if i := strings.LastIndexAny(b, setOff); i >= 0 {
		b = b[i+1:]
	}
	return b
}

// asideDate returns the date an aside gives the claim it sits in: a date
// alone ("(2026-06-03)") or after a word that dates an observation
// ("checked 2026-06-03", "as of the 2026-05-15 standup"). A date after a
// word that names another event ("validated 2026-06-01", "due
// 2026-06-30", "filed 2026-05-10") dates that event, not the claim.
func asideDate(aside string) string {
	d := findDate(aside)
	if d == "" {
		return ""
	}
	first, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(aside)), " ")
	if findDate(first) != "" || asideDatingWords[strings.Trim(first, ",:")] {
		return phraseDate(aside)
	}
	return ""
}

// asideDatingWords open an aside that dates the claim it sits in.
var asideDatingWords = map[string]bool{"on": true, "as": true, "per": true, "at": true, "in": true, "during": true,
	"checked": true, "confirmed": true, "updated": true, "reviewed": true, "seen": true, "observed": true, "status": true, "verified": true}

// asideOf returns the aside the aside pattern matched between the ids and
// the verb, or "" (byID has no aside group).
func asideOf(t string, m []int) string {
	for g := 2; 2*g+1 < len(m); g++ {
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
	// A question asks whether the clause holds ("Who confirmed that ...?").
	question := strings.HasSuffix(strings.TrimRight(text, " \t*_"), "?")
	for i := 0; i < len(text); i++ {
		if !question && text[i] == ' ' && len(text)-i > len(" that ") && strings.EqualFold(text[i:i+len(" that ")], " that ") && reportsBefore(text[:i]) {
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
// `CTO-WORK-040` continues to be blocked", "The log shows that ..."). A
// verb that gives what someone said or a document says ("said",
// "stated", "states") quotes it, and one that asks for a state ("ensure",
// "verify") wants it: neither is one.
var reportingVerbs = map[string]bool{
	"confirmed": true, "confirms": true, "noted": true, "notes": true, "recorded": true, "records": true,
	"found": true, "finds": true, "observed": true, "reported": true, "reports": true, "shows": true, "showed": true,
	"indicates": true, "indicated": true, "verified": true, "checked": true, "learned": true, "saw": true,
	// The plain form after a subject ("The standup notes confirm that");
	// first in its sentence it asks ("Confirm that ...").
	"confirm": true, "note": true, "record": true, "show": true, "indicate": true,
}

var plainReporting = map[string]bool{"confirm": true, "note": true, "record": true, "show": true, "indicate": true}

// notReporting, among the two words before a reporting verb, make it no
// finding: a negation ("Nobody has confirmed that"), a modal or a request
// ("We need to confirm", "must note"), a question's auxiliary.
var notReporting = map[string]bool{
	"not": true, "never": true, "no": true, "nobody": true, "none": true, "neither": true, "nor": true, "to": true,
	"please": true, "must": true, "should": true, "need": true, "needs": true, "can": true, "could": true,
	"will": true, "would": true, "may": true, "might": true, "did": true, "does": true, "do": true, "who": true,
	"whether": true, "if": true, "unless": true, "cannot": true, "can't": true, "hasn't": true, "haven't": true,
	"didn't": true, "wasn't": true, "isn't": true,
}

// reportsBefore reports whether the last word of text is a reporting
// verb that states a finding. Only the last few dozen bytes are read, so
// that a long line stays linear.
func reportsBefore(text string) bool {
	words := strings.Fields(strings.ToLower(text[max(0, len(text)-48):]))
	if len(text) > 48 && len(words) > 0 {
		words = words[1:] // the first may be cut
	}
	for len(words) > 0 && strings.Trim(words[0], "-+*[]x>") == "" {
		words = words[1:] // a list marker, a task box, a quote mark
	}
	n := len(words)
	if n == 0 || !reportingVerbs[words[n-1]] {
		return false
	}
	if n == 1 && len(text) <= 48 && plainReporting[words[0]] {
		return false // first in its sentence: "Confirm that ...", a request
	}
	for _, w := range words[max(0, n-3) : n-1] {
		if notReporting[strings.Trim(w, ",;:()\"'`*_")] {
			return false
		}
	}
	return true
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
