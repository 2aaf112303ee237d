package contradiction

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/analysis"
)

// circularReadiness reports an item whose section names another item as
// its prerequisite while that item is blocked by it.
func (c *checker) circularReadiness() {
	// blockers: item -> the places that say what blocks it.
	type blocker struct {
		id    string
		pos   token.Pos
		where string
	}
	blockedBy := map[string][]blocker{}
	if wb := c.ws.Workboard; wb != nil {
		for _, it := range wb.Items {
			if it.ID == nil {
				continue
			}
			for _, b := range it.BlockedBy {
				blockedBy[it.ID.Value] = append(blockedBy[it.ID.Value], blocker{b.Value, b.ValuePos, wb.File.Path})
			}
		}
	}
	for _, di := range c.docs {
		for _, it := range di.d.WorkItems {
			for _, r := range it.Blockers {
				blockedBy[it.ID] = append(blockedBy[it.ID], blocker{r.Text, r.Pos, di.d.Path})
			}
		}
	}
	for _, di := range c.docs {
		for _, it := range di.d.WorkItems {
			seen := map[string]bool{}
			for _, p := range di.prerequisites[it.ID] {
				if seen[p.id] {
					continue
				}
				var related []analysis.RelatedInformation
				for _, b := range blockedBy[p.id] {
					if b.id == it.ID {
						related = append(related, rel(b.pos, "%s says %s is blocked by %s", b.where, p.id, it.ID))
					}
				}
				if len(related) == 0 {
					continue
				}
				seen[p.id] = true
				c.report(di.d.Path, p.stmt.pos, p.stmt.end, "circular-readiness",
					fmt.Sprintf("%s needs %s first (%q), but %s is blocked by %s: neither can be done first; drop %s from the blockers of %s, or stop making it a prerequisite here",
						it.ID, p.id, p.stmt.text, p.id, it.ID, it.ID, p.id), related)
			}
		}
	}
}
