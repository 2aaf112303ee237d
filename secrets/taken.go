package secrets

import (
	"slices"
	"sort"
)

// takenSet is the set of accepted candidates a later one is checked
// against in detect: is there one with the same start that ends no
// earlier? A map held this, but a line dense with candidates put
// 200,000 in it and a lookup per candidate missed the cache each time.
// Rules run one after the other and each offers its candidates mostly
// in text order: the earlier rules' are kept sorted and read with a
// cursor, the current rule's appended and merged in when it ends.
type takenSet struct {
	done   []span // earlier rules': by start, one per start (the farthest end)
	cursor int    // into done, where the last query stopped
	cur    []span // the current rule's, as accepted
	// curMap holds cur once a candidate came before the one accepted
	// last (then cur is not sorted).
	curMap map[int]int
}

func (t *takenSet) reset() {
	t.done, t.cur = t.done[:0], t.cur[:0]
	t.cursor, t.curMap = 0, nil
}

// covers reports whether an accepted candidate starts at s and ends at
// e or later.
func (t *takenSet) covers(s, e int) bool {
	if n := len(t.done); n > 0 {
		i := min(t.cursor, n)
		switch {
		case i > 0 && t.done[i-1].start >= s, i+8 < n && t.done[i+8].start < s:
			i = sort.Search(n, func(k int) bool { return t.done[k].start >= s })
		default:
			for i < n && t.done[i].start < s {
				i++
			}
		}
		t.cursor = i
		if i < n && t.done[i].start == s && t.done[i].end >= e {
			return true
		}
	}
	if t.curMap != nil {
		end, ok := t.curMap[s]
		return ok && end >= e
	}
	i := sort.Search(len(t.cur), func(k int) bool { return t.cur[k].start >= s })
	for ; i < len(t.cur) && t.cur[i].start == s; i++ {
		if t.cur[i].end >= e {
			return true
		}
	}
	return false
}

// add records an accepted candidate of the current rule.
func (t *takenSet) add(s, e int) {
	if t.curMap == nil && len(t.cur) > 0 && t.cur[len(t.cur)-1].start > s {
		t.curMap = make(map[int]int, len(t.cur)+1)
		for _, c := range t.cur {
			t.curMap[c.start] = max(t.curMap[c.start], c.end)
		}
	}
	t.cur = append(t.cur, span{s, e})
	if t.curMap != nil {
		if old, ok := t.curMap[s]; !ok || old < e {
			t.curMap[s] = e
		}
	}
}

// endRule merges the current rule's candidates into the earlier ones'.
// The merge runs from the back of done, grown in place, so that the set
// holds two arrays, not three: a dense text's rules accept 100,000s of
// candidates (a line of "PIN 48213, " held 18 MB of them in three).
func (t *takenSet) endRule() {
	t.cursor = 0
	if len(t.cur) == 0 {
		return
	}
	if t.curMap != nil {
		sort.Slice(t.cur, func(a, b int) bool { return t.cur[a].start < t.cur[b].start })
		t.curMap = nil
	}
	if len(t.done) == 0 {
		// the first rule's become the set, and its array the next rule's
		t.done, t.cur = oneEndPerStart(t.cur), t.done[:0]
		return
	}
	n, m := len(t.done), len(t.cur)
	t.done = slices.Grow(t.done, m)[:n+m]
	for i, j, k := n-1, m-1, n+m-1; j >= 0; k-- {
		if i >= 0 && t.done[i].start > t.cur[j].start {
			t.done[k], i = t.done[i], i-1
		} else {
			t.done[k], j = t.cur[j], j-1
		}
	}
	t.done = oneEndPerStart(t.done)
	t.cur = t.cur[:0]
}

// oneEndPerStart keeps, of spans sorted by start, one a start: the
// farthest end.
func oneEndPerStart(s []span) []span {
	w := 0
	for _, x := range s {
		if w > 0 && s[w-1].start == x.start {
			s[w-1].end = max(s[w-1].end, x.end)
			continue
		}
		s[w], w = x, w+1
	}
	return s[:w]
}

// overlapIndex answers whether any of a set of spans overlaps a query
// span, in O(log n) a query: the spans sorted by start, each holding the
// farthest end of it and the spans before it. A span overlapping [s, e)
// starts before e and ends after s; of those starting before e, the one
// ending farthest ends after s exactly when such a span exists. The
// finders asked a plain loop over every earlier candidate, and a line
// dense with both (a password= before each of 77,000 Atlassian-shaped
// tokens) cost the product: 3.9 s of a 4 MB file's 7.4 s.
type overlapIndex []span // {start, farthest end so far}, by start

// newOverlapIndex indexes the spans of cs.
func newOverlapIndex(cs []cand) overlapIndex {
	x := make(overlapIndex, len(cs))
	for i, c := range cs {
		x[i] = span{int(c.start), int(c.end)}
	}
	slices.SortFunc(x, func(a, b span) int { return a.start - b.start })
	for i := 1; i < len(x); i++ {
		x[i].end = max(x[i].end, x[i-1].end)
	}
	return x
}

// overlaps reports whether an indexed span overlaps [s, e).
func (x overlapIndex) overlaps(s, e int) bool {
	k := sort.Search(len(x), func(i int) bool { return x[i].start >= e }) // the spans starting before e
	return k > 0 && x[k-1].end > s
}
