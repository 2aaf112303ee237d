package contradiction

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/sotparse"
)

// blocker is a place that says what blocks an item.
type blocker struct {
	id    string
	pos   token.Pos
	where string
}

// blockersKey keeps the blockers of the documents a session keeps.
var blockersKey sotparse.MemoKey

// indexBlockers returns the blockers docs give each item, in path order.
func indexBlockers(docs []*sotparse.Doc) map[string][]blocker {
	blockedBy := map[string][]blocker{}
	for _, d := range docs {
		for _, it := range d.WorkItems {
			for _, r := range it.Blockers.All() {
				blockedBy[it.ID] = append(blockedBy[it.ID], blocker{r.Text, r.Pos, d.Path})
			}
		}
	}
	return blockedBy
}

// circularReadiness reports an item whose section names another item as
// its prerequisite while that item is blocked by it. Only the documents
// in focus are reported on: the blockers of the items they name as
// prerequisites are looked up, the kept documents' indexed once.
func (c *checker) circularReadiness() {
	needed := map[string]bool{}
	for _, di := range c.docs {
		if !c.ws.Focused(di.d.Path) {
			continue
		}
		for _, ps := range di.prerequisites {
			for _, p := range ps {
				needed[p.id] = true
			}
		}
		// An item's Blocked by line names what it needs first too.
		for _, it := range di.d.WorkItems {
			for _, r := range it.Blockers.All() {
				needed[r.Text] = true
			}
		}
	}
	if len(needed) == 0 {
		return
	}
	// blockers: item -> the places that say what blocks it, the
	// workboard first, then the documents in path order.
	blockedBy := map[string][]blocker{}
	if wb := c.ws.Workboard; wb != nil {
		for _, it := range wb.Items {
			if it.ID == nil || !needed[it.ID.Value] {
				continue
			}
			for _, b := range it.BlockedBy {
				blockedBy[it.ID.Value] = append(blockedBy[it.ID.Value], blocker{b.Value, b.ValuePos, wb.File.Path})
			}
		}
	}
	kept := sotparse.Aggregate(c.ws, &blockersKey, indexBlockers)
	live := indexBlockers(c.ws.Live())
	for id := range needed {
		blockedBy[id] = append(blockedBy[id], mergeByPath(kept[id], live[id], func(b blocker) string { return b.where })...)
	}
	// blockedPlaces returns the places that say item is blocked by by.
	blockedPlaces := func(item, by string) []analysis.RelatedInformation {
		var out []analysis.RelatedInformation
		for _, b := range blockedBy[item] {
			if b.id == by {
				out = append(out, rel(b.pos, "%s says %s is blocked by %s", b.where, item, by))
			}
		}
		return out
	}
	cycles := map[[2]string]bool{} // pairs reported, either way round
	pair := func(a, b string) [2]string {
		if a > b {
			a, b = b, a
		}
		return [2]string{a, b}
	}
	for _, di := range c.docs {
		if !c.ws.Focused(di.d.Path) {
			continue
		}
		for _, it := range di.d.WorkItems {
			seen := map[string]bool{}
			for _, p := range di.prerequisites[it.ID] {
				if seen[p.id] {
					continue
				}
				related := blockedPlaces(p.id, it.ID)
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
		if !c.ws.Focused(di.d.Path) {
			continue
		}
		for _, it := range di.d.WorkItems {
			for _, r := range it.Blockers.All() {
				if r.Text == it.ID || cycles[pair(it.ID, r.Text)] {
					continue
				}
				related := blockedPlaces(r.Text, it.ID)
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

// mergeByPath merges two lists in the order of the paths of their
// elements, a's first where paths tie (they never do: each list is of
// other documents).
func mergeByPath[T any](a, b []T, path func(T) string) []T {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]T, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if path(b[0]) < path(a[0]) {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}
