package contradiction

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"
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
			var related []analysis.RelatedInformation
			var by []string
			linked := false
			for _, e := range c.docs {
				s, ok := e.validatedIDs[dn.id]
				if e == di || !ok || !e.validated {
					continue
				}
				if di.links[e.d.Path] || e.links[di.d.Path] {
					linked = true
					break
				}
				by = append(by, e.d.Path)
				related = append(related, rel(s.pos, "%s says: %q", e.d.Path, s.text))
			}
			if linked || len(by) == 0 {
				continue
			}
			related = append(related, rel(it.Status.ValuePos, "WORKBOARD.yaml says %s is validated", dn.id))
			c.report(di.d.Path, dn.stmt.pos, dn.stmt.end, "superseded",
				fmt.Sprintf("this blocked document still says %q, but %s is validated by %s, and nothing links the two: mark this document superseded and link it to what superseded it",
					dn.stmt.text, dn.id, strings.Join(by, ", ")), related)
		}
	}
}
