package status

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/sotparse"
)

// otherStatement is the last sentence of a document that says another
// document's item remains blocked, and how many such sentences it has.
type otherStatement struct {
	s     sentence
	end   int // of the matched subject and verb, in s.text
	count int
}

// otherBlocked reports, once per document and item, the last sentence of
// a document that says an item defined elsewhere remains blocked while the
// item is validated. It is a warning: the sentence may be history written
// before the validation, which only a dated section can tell.
func (c *checker) otherBlocked(di *docInfo) {
	if len(di.remain) == 0 {
		return // most documents say nothing stays blocked
	}
	defines := map[string]bool{}
	for _, it := range di.d.WorkItems {
		defines[strings.ToUpper(it.ID)] = true
	}
	var order []string
	last := map[string]*otherStatement{}
	rx := c.remainIndex(di)
	for k, ln := range di.remain {
		for j, s := range ln.sents {
			m := rx.sents[k][j]
			if m.byEnd < 0 || hypothetical(di.d, s.off) {
				continue
			}
			for _, id := range m.ids {
				if defines[id] {
					continue // the item's own document: remains-blocked and stale-remains-blocked judge it
				}
				st := last[id]
				if st == nil {
					st = &otherStatement{}
					last[id] = st
					order = append(order, id)
				}
				st.s, st.end = s, m.byEnd
				st.count++
			}
		}
	}
	for _, id := range order {
		c.reportOther(di, id, last[id])
	}
}

// hypotheticalHeadings start the headings of sections that describe a
// possible outcome ("### Branch A - External Provider Approved"): what
// such a section says stays blocked is a consequence of that outcome, not
// the current state.
var hypotheticalHeadings = []string{"branch ", "option ", "alternative ", "scenario ", "if "}

// hypothetical reports whether the innermost heading before off starts a
// section about a possible outcome.
func hypothetical(d *sotparse.Doc, off int) bool {
	text := ""
	if i := headingAt(d, off); i >= 0 {
		text = d.Headings[i].Text
	}
	text = strings.ToLower(strings.TrimSpace(text))
	for _, p := range hypotheticalHeadings {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

func (c *checker) reportOther(di *docInfo, id string, st *otherStatement) {
	wb, def, defDoc := c.validatedPlaces(id)
	if len(wb)+len(def) == 0 {
		return
	}
	said := di.dateAt(st.s.off)
	valid := c.validationDate(id, defDoc)
	if said != "" && valid != "" && said < valid {
		return // a dated entry older than the validation is history
	}
	var when string
	switch {
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
	related := append(wb, def...)
	c.pass.Report(analysis.Diagnostic{Pos: di.d.File.Pos(st.s.off), End: di.d.File.Pos(st.s.off + st.end), Category: "stale-other-blocked",
		Message: fmt.Sprintf("%s is validated but this says it remains blocked%s%s: mark the sentence as history, or update it now that %s is validated",
			id, when, more, id),
		Related: related})
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
