package contradiction

import (
	"fmt"
	"slices"
	"strings"

	"github.com/svrnty/sotvet/checks/internal/smallset"
	"github.com/svrnty/sotvet/sotparse"
)

// closeoutWorkboard reports a closeout whose Workboard section lists fewer
// of its route's work items than the route's required phrases name.
func (c *checker) closeoutWorkboard() {
	// closes reports whether di is a closeout in focus (reported on)
	// with a Workboard list.
	closes := func(di *docInfo) bool {
		wl := di.workboardList
		return di.d.Kind == sotparse.KindCloseout && wl != nil && len(wl.ids) > 0 && c.ws.Focused(di.d.Path)
	}
	// The routes of those closeouts only: an edit's run has one or two,
	// looked for among every document's stem by comparing strings (no
	// hash of each).
	routes := map[string][]*docInfo{}
	var stems []string
	for _, di := range c.docs {
		if !closes(di) {
			continue
		}
		if _, ok := routes[di.d.Stem]; !ok {
			routes[di.d.Stem] = nil
			stems = append(stems, di.d.Stem)
		}
	}
	if len(stems) == 0 {
		return
	}
	in := smallset.Of(stems)
	for _, di := range c.docs {
		if in(di.d.Stem) {
			routes[di.d.Stem] = append(routes[di.d.Stem], di)
		}
	}
	for _, di := range c.docs {
		wl := di.workboardList
		if !closes(di) {
			continue
		}
		route := routes[di.d.Stem]
		defined := map[string]bool{}
		for _, r := range route {
			for _, it := range r.d.WorkItems {
				defined[it.ID] = true
			}
		}
		var missing []string
		var related relList
		for _, r := range route {
			for _, p := range r.phraseIDs {
				if !defined[p.id] || slices.Contains(wl.ids, p.id) || slices.Contains(missing, p.id) || open(c.ws.Workboard, p.id) {
					continue
				}
				missing = append(missing, p.id)
				if !related.full() {
					related.add(p.stmt.pos, "%s requires the phrase %q", r.d.Path, p.stmt.text)
				}
			}
		}
		if len(missing) == 0 {
			continue
		}
		c.report(di.d.Path, wl.heading.Pos, wl.heading.End, "closeout-workboard",
			fmt.Sprintf("the Workboard section lists %s, but the route's required phrases also name %s, work items the route defines: list every item this closeout closes, or drop the phrase",
				strings.Join(wl.ids, ", "), strings.Join(missing, ", ")), related)
	}
}

// open reports whether the workboard gives id a status other than
// validated: an item still open is no item a closeout closes, whatever a
// phrase names it for ("CTO-WORK-074 remains candidate").
func open(wb *sotparse.Workboard, id string) bool {
	it := wb.Item(id)
	if it == nil || it.Status == nil || !it.Status.Scalar {
		return false
	}
	return !strings.EqualFold(strings.TrimSpace(it.Status.Value), "validated")
}
