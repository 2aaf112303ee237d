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
	cycles := map[[2]string]bool{} // pairs reported, either way round
	pair := func(a, b string) [2]string {
		if a > b {
			a, b = b, a
		}
		return [2]string{a, b}
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
				cycles[pair(it.ID, p.id)] = true
				c.report(di.d.Path, p.stmt.pos, p.stmt.end, "circular-readiness",
					fmt.Sprintf("%s needs %s first (%q), but %s is blocked by %s: neither can be done first; drop %s from the blockers of %s, or stop making it a prerequisite here",
						it.ID, p.id, p.stmt.text, p.id, it.ID, it.ID, p.id), related)
			}
		}
	}
	// An item's own Blocked by line names what it needs first, too: two
	// items blocked by each other are the same cycle. One the workboard
	// alone states is the workboard check's.
	for _, di := range c.docs {
		for _, it := range di.d.WorkItems {
			for _, r := range it.Blockers {
				if r.Text == it.ID || cycles[pair(it.ID, r.Text)] {
					continue
				}
				var related []analysis.RelatedInformation
				for _, b := range blockedBy[r.Text] {
					if b.id == it.ID {
						related = append(related, rel(b.pos, "%s says %s is blocked by %s", b.where, r.Text, it.ID))
					}
				}
				if len(related) == 0 {
					continue
				}
				cycles[pair(it.ID, r.Text)] = true
				c.report(di.d.Path, r.Pos, r.End, "circular-readiness",
					fmt.Sprintf("%s is blocked by %s, but %s is blocked by %s: neither can be done first; drop one of the two from the other's blockers",
						it.ID, r.Text, r.Text, it.ID), related)
			}
		}
	}
}
