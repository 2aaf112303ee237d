package contradiction

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"

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
// It indexes the documents a session keeps (Aggregate), whose references'
// texts are not those of the run's table; the run's own documents are
// indexed by indexLiveBlockers.
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

// blockEdge is a place in a document that says item is blocked by by:
// the two as numbers liveBlockers gives the ids, the document as its
// index among those indexed. A map of every item's blockers as strings,
// each with its document's path (40 bytes a blocker, and a slice and a
// map entry an item), held ~15 MB on graph at 10,000 documents (190,000
// blockers) while the rule ran; an edge takes 16 bytes.
type blockEdge struct {
	item, by int32
	doc      int32
	pos      token.Pos
}

// liveBlockers are the edges of the run's documents, sorted by item and
// blocker, each pair's in path order and, within a document, in the
// order of its items and their blockers. The ids are numbered by a map
// of the model's own strings (one entry an id, not a blocker): the run's
// table of texts would do, but its index is let go once the parse is
// done, and a lookup makes it again for every text.
type liveBlockers struct {
	ids   map[string]int32
	docs  []*sotparse.Doc
	edges []blockEdge
}

// indexLiveBlockers indexes the blockers docs (in path order) give their
// items.
func indexLiveBlockers(docs []*sotparse.Doc) liveBlockers {
	n := 0
	for _, d := range docs {
		for _, it := range d.WorkItems {
			n += it.Blockers.Len()
		}
	}
	lb := liveBlockers{ids: map[string]int32{}, docs: docs, edges: make([]blockEdge, 0, n)}
	id := func(s string) int32 {
		i, ok := lb.ids[s]
		if !ok {
			i = int32(len(lb.ids))
			lb.ids[s] = i
		}
		return i
	}
	for i, d := range docs {
		for _, it := range d.WorkItems {
			if it.Blockers.Len() == 0 {
				continue
			}
			item := id(it.ID)
			for _, r := range it.Blockers.All() {
				lb.edges = append(lb.edges, blockEdge{item, id(r.Text), int32(i), r.Pos})
			}
		}
	}
	// Stable: the edges of a pair keep the order they were found in.
	slices.SortStableFunc(lb.edges, func(a, b blockEdge) int {
		if c := cmp.Compare(a.item, b.item); c != 0 {
			return c
		}
		return cmp.Compare(a.by, b.by)
	})
	return lb
}

// places returns the places that say item is blocked by by.
func (lb liveBlockers) places(item, by string) []blocker {
	i, ok := lb.ids[item]
	if !ok {
		return nil
	}
	b, ok := lb.ids[by]
	if !ok {
		return nil
	}
	lo, _ := slices.BinarySearchFunc(lb.edges, [2]int32{i, b}, func(e blockEdge, k [2]int32) int {
		if c := cmp.Compare(e.item, k[0]); c != 0 {
			return c
		}
		return cmp.Compare(e.by, k[1])
	})
	var out []blocker
	for _, e := range lb.edges[lo:] {
		if e.item != i || e.by != b {
			break
		}
		out = append(out, blocker{by, e.pos, lb.docs[e.doc].Path})
	}
	return out
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
	// The kept documents' blockers are indexed once a session; the run's
	// own are looked up by pair, merged with them in path order.
	kept := sotparse.Aggregate(c.ws, &blockersKey, indexBlockers)
	live := indexLiveBlockers(c.ws.Live())
	// blockedPlaces returns the places that say item is blocked by by.
	blockedPlaces := func(item, by string) []analysis.RelatedInformation {
		var out []analysis.RelatedInformation
		for _, b := range blockedBy[item] {
			if b.id == by {
				out = append(out, rel(b.pos, "%s says %s is blocked by %s", b.where, item, by))
			}
		}
		var fromKept []blocker
		for _, b := range kept[item] {
			if b.id == by {
				fromKept = append(fromKept, b)
			}
		}
		for _, b := range mergeByPath(fromKept, live.places(item, by), func(b blocker) string { return b.where }) {
			out = append(out, rel(b.pos, "%s says %s is blocked by %s", b.where, item, by))
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
