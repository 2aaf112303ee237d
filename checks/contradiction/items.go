package contradiction

import (
	"go/token"

	"github.com/svrnty/sotvet/sotparse"
)

// itemSpan is the section of one work item: from the end of its heading
// to the next heading of its level or above.
type itemSpan struct {
	id         string
	start, end token.Pos
}

// itemSpans are a document's work item sections in document order, with
// a cursor for at: a document of many items is read in time linear in
// them, where a search per item and per line would be quadratic.
type itemSpans struct {
	spans []itemSpan
	// live is the first span whose end is past every position asked so
	// far; sorted is set when the spans start in order and the positions
	// asked come in order, which the cursor needs.
	live   int
	last   token.Pos
	sorted bool
}

// itemSections returns d's work item sections. A work item's heading is
// found among d.Headings by a walk in step with the items, both being in
// document order; an item out of order starts the walk again.
func itemSections(d *sotparse.Doc) *itemSpans {
	s := &itemSpans{sorted: true}
	j := 0
	for _, it := range d.WorkItems {
		if j > 0 && d.Headings[j-1].Pos >= it.Pos {
			j = 0
		}
		for j < len(d.Headings) && d.Headings[j].Pos < it.Pos {
			j++
		}
		if j < len(d.Headings) && d.Headings[j].Pos == it.Pos {
			if n := len(s.spans); n > 0 && s.spans[n-1].start > it.End {
				s.sorted = false
			}
			s.spans = append(s.spans, itemSpan{it.ID, it.End, secEnd(d, j)})
			j++
		}
	}
	return s
}

// at returns the id of the first work item, in document order, whose
// section holds p, or "". Asked positions in order, it moves a cursor
// past the sections that have ended: a section that ends before p ends
// before every later position too, and the first live section holds p
// unless it starts after p, when every later one does.
func (s *itemSpans) at(p token.Pos) string {
	if len(s.spans) == 0 {
		return ""
	}
	if !s.sorted || p < s.last {
		for _, sp := range s.spans {
			if sp.start <= p && p < sp.end {
				return sp.id
			}
		}
		return ""
	}
	s.last = p
	for s.live < len(s.spans) && s.spans[s.live].end <= p {
		s.live++
	}
	if s.live < len(s.spans) && s.spans[s.live].start <= p {
		return s.spans[s.live].id
	}
	return ""
}
