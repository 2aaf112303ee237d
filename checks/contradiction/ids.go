package contradiction

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/svrnty/sotvet/sotparse"
)

// splitID splits a work id into its prefix and its number, the longest
// run of ASCII digits that ends it; ok is false when it ends in no digit or
// holds a line break. It is what ^(.*?)(\d+)$ matches, without the
// regular expression: every work id of the workspace goes through it.
func splitID(id string) (prefix, digits string, ok bool) {
	i := len(id)
	for i > 0 && '0' <= id[i-1] && id[i-1] <= '9' {
		i--
	}
	if i == len(id) || strings.IndexByte(id[:i], '\n') >= 0 {
		return "", "", false
	}
	return id[:i], id[i:], true
}

type definedID struct {
	n     int
	path  string
	pos   token.Pos
	end   token.Pos
	width int
}

// idIndex is where some documents define and mention work ids.
type idIndex struct {
	defs     map[string][]definedID // prefix -> each number's first definition, by number
	mentions map[string][]mention   // work id -> its mentions, in path order
}

type mention struct {
	path string
	pos  token.Pos // where the reference is: all a finding reads of it
}

// definer collects definitions by prefix, in the order they are made;
// sorted keeps each number's first, in place. A document defines
// CTO-WORK- ids only (sotparse's work item headings), so a prefix holds
// many numbers: default at 10,000 documents has one, of 9,484. A slice
// allocates a little more than the map by number did, in its growing
// copies (define 4,098 -> 4,543 kB on default-10000, counted exactly:
// GODEBUG=memprofilerate=1, pprof -sample_index=alloc_space), but sorts
// in place, where the map was copied into a sorted slice (897 kB).
type definer map[string][]definedID

func (df definer) define(id, path string, pos, end token.Pos) {
	prefix, digits, ok := splitID(id)
	if !ok {
		return
	}
	n, err := strconv.Atoi(digits)
	if err != nil {
		return
	}
	df[prefix] = append(df[prefix], definedID{n: n, path: path, pos: pos, end: end, width: len(digits)})
}

// sorted returns each prefix's first definition of each number, by number.
func (df definer) sorted() map[string][]definedID {
	for p, nums := range df {
		slices.SortStableFunc(nums, func(a, b definedID) int { return cmp.Compare(a.n, b.n) })
		df[p] = slices.CompactFunc(nums, func(a, b definedID) bool { return a.n == b.n })
	}
	return df
}

// indexIDs indexes docs, in path order: the index a session keeps of the
// documents it keeps, mentions included, read again every run.
func indexIDs(docs []*sotparse.Doc) *idIndex {
	ix := definedIDs(docs)
	ix.mentions = mentionsOf(docs, nil)
	return ix
}

// definedIDs indexes where docs define work ids, in path order, and none
// of their mentions: a run needs the mentions of the ids in a gap only,
// few or none, where an index of all of them held every work id any
// document names while the check ran (4,844 kB allocated on
// default-10000, counted as for definer).
func definedIDs(docs []*sotparse.Doc) *idIndex {
	df := definer{}
	for _, d := range docs {
		for _, it := range d.WorkItems {
			df.define(it.ID, d.Path, it.Pos, it.End)
		}
	}
	return &idIndex{defs: df.sorted()}
}

// mentionsOf returns the mentions docs make of the work ids want accepts,
// or of every work id if want is nil, each id's in path order.
func mentionsOf(docs []*sotparse.Doc, want func(id string) bool) map[string][]mention {
	mentions := map[string][]mention{}
	for _, d := range docs {
		for _, r := range d.Refs.All() {
			if r.Kind == sotparse.RefWorkID && (want == nil || want(r.Text)) {
				mentions[r.Text] = append(mentions[r.Text], mention{d.Path, r.Pos})
			}
		}
	}
	return mentions
}

// idsKey keeps the index of the documents a session keeps.
var idsKey sotparse.MemoKey

// find returns the definition of number n of prefix in defs, if any, and
// the number before it.
func find(defs []definedID, n int) (def definedID, found bool, before definedID, hasBefore bool) {
	i := sort.Search(len(defs), func(i int) bool { return defs[i].n >= n })
	if i > 0 {
		before, hasBefore = defs[i-1], true
	}
	if i < len(defs) && defs[i].n == n {
		return defs[i], true, before, hasBefore
	}
	return definedID{}, false, before, hasBefore
}

// wbIDsKey keeps the workboard's index of ids while a session keeps it.
var wbIDsKey sotparse.MemoKey

// workboardIDs returns the ids the workboard defines, by prefix and number.
func workboardIDs(wb *sotparse.Workboard) map[string][]definedID {
	defs := definer{}
	for _, it := range wb.Items {
		if it.ID != nil && it.ID.Scalar {
			defs.define(it.ID.Value, wb.File.Path, it.ID.ValuePos, it.ID.ValueEnd)
		}
	}
	return defs.sorted()
}

// missingIDs reports gaps in the sequence of defined work ids. A number is
// defined first by the workboard, else by the first document in path
// order; a gap is reported at the definition after it. The documents a
// session keeps are indexed once (sotparse.Aggregate), the others each run,
// and only the gaps before a definition in focus are looked at.
func (c *checker) missingIDs() {
	wb := c.ws.Workboard
	if wb == nil || !wb.Complete {
		return
	}
	layers := []map[string][]definedID{sotparse.MemoWorkboard(wb, &wbIDsKey, workboardIDs)}
	kept := sotparse.Aggregate(c.ws, &idsKey, indexIDs)
	liveDocs := c.ws.Live()
	live := definedIDs(liveDocs)
	layers = append(layers, kept.defs, live.defs)
	// firstDef returns the first definition of number n of prefix: the
	// workboard's, else that of the document first in path order.
	firstDef := func(prefix string, n int) (definedID, bool) {
		var def definedID
		ok := false
		for k, layer := range layers {
			d, found, _, _ := find(layer[prefix], n)
			if !found {
				continue
			}
			if k == 0 {
				return d, true
			}
			if !ok || d.path < def.path {
				def, ok = d, true
			}
		}
		return def, ok
	}
	// before returns the greatest number of prefix under n defined.
	before := func(prefix string, n int) (int, bool) {
		lo, ok := 0, false
		for _, layer := range layers {
			if _, _, b, hasB := find(layer[prefix], n); hasB && (!ok || b.n > lo) {
				lo, ok = b.n, true
			}
		}
		return lo, ok
	}
	type gapAt struct {
		prefix string
		hi, lo definedID
	}
	var gaps []gapAt
	seen := map[string]map[int]bool{}
	for _, layer := range []map[string][]definedID{layers[0], live.defs} {
		for prefix, defs := range layer {
			for _, d := range defs {
				if !c.ws.Focused(d.path) || seen[prefix][d.n] {
					continue
				}
				if seen[prefix] == nil {
					seen[prefix] = map[int]bool{}
				}
				seen[prefix][d.n] = true
				hi, _ := firstDef(prefix, d.n)
				if !c.ws.Focused(hi.path) {
					continue
				}
				if loN, ok := before(prefix, d.n); ok && hi.n-loN >= 2 {
					lo, _ := firstDef(prefix, loN)
					gaps = append(gaps, gapAt{prefix, hi, lo})
				}
			}
		}
	}
	sort.Slice(gaps, func(i, j int) bool {
		if gaps[i].prefix != gaps[j].prefix {
			return gaps[i].prefix < gaps[j].prefix
		}
		return gaps[i].hi.n < gaps[j].hi.n
	})
	// spell is id n of g's gap as the report spells it: zero-padded to the
	// width of the definition after the gap.
	spell := func(g gapAt, n int) string { return fmt.Sprintf("%s%0*d", g.prefix, g.hi.width, n) }
	reported := gaps[:0]
	byPrefix := map[string][]int{} // indexes into reported, in order of hi.n
	for _, g := range gaps {
		if c.skipped(g.prefix, g.lo.n+1, g.hi.n-1) {
			continue // recorded as skipped on purpose
		}
		byPrefix[g.prefix] = append(byPrefix[g.prefix], len(reported))
		reported = append(reported, g)
	}
	// gapOf returns the reported gap text is an id of, spelled as the
	// report spells it, and its number. It compares the digits with the
	// gap's width rather than formatting the id: a width may run to
	// thousands of digits, and every mention goes through here.
	gapOf := func(text string) (k, n int, ok bool) {
		prefix, digits, ok := splitID(text)
		gs := byPrefix[prefix]
		if !ok || gs == nil {
			return 0, 0, false
		}
		n, err := strconv.Atoi(digits)
		if err != nil {
			return 0, 0, false
		}
		i := sort.Search(len(gs), func(i int) bool { return reported[gs[i]].hi.n > n })
		if i == len(gs) || reported[gs[i]].lo.n >= n {
			return 0, 0, false
		}
		// %0*d spells n in exactly the width: n is under hi.n, whose
		// digits are never fewer than its width, so n is never wider.
		return gs[i], n, len(digits) == reported[gs[i]].hi.width
	}
	var liveMentions map[string][]mention
	if len(reported) > 0 {
		liveMentions = mentionsOf(liveDocs, func(text string) bool { _, _, ok := gapOf(text); return ok })
	}
	// The ids mentioned in each gap, by number: found from the mentions,
	// never by walking the numbers of a gap, which may span billions.
	type mentionedID struct {
		n  int
		id string
	}
	inGap := make([][]mentionedID, len(reported))
	for _, ms := range []map[string][]mention{kept.mentions, liveMentions} {
		if len(reported) == 0 {
			break
		}
		for text := range ms {
			if k, n, ok := gapOf(text); ok {
				inGap[k] = append(inGap[k], mentionedID{n, text})
			}
		}
	}
	for k, g := range reported {
		lo, hi := g.lo, g.hi
		id := func(n int) string { return spell(g, n) }
		gap := id(lo.n + 1)
		if hi.n-lo.n > 2 {
			gap += " to " + id(hi.n-1)
		}
		related := relList{rel(lo.pos, "%s, the id before the gap, is defined here", id(lo.n))}
		mentioned := 0
		// A number has one spelling in a gap: an id both the kept and
		// the live documents mention is listed once.
		ids := inGap[k]
		slices.SortFunc(ids, func(a, b mentionedID) int { return cmp.Compare(a.n, b.n) })
		ids = slices.CompactFunc(ids, func(a, b mentionedID) bool { return a.n == b.n })
		for _, mid := range ids {
			for _, m := range mergeByPath(kept.mentions[mid.id], liveMentions[mid.id], func(m mention) string { return m.path }) {
				mentioned++
				if !related.full() {
					related.add(m.pos, "%s is mentioned here, but defined nowhere", mid.id)
				}
			}
		}
		what := "nothing defines or mentions them"
		if mentioned > 0 {
			what = "nothing defines them (mentions are listed)"
		}
		if hi.n-lo.n == 2 {
			what = "nothing defines or mentions it"
			if mentioned > 0 {
				what = "nothing defines it"
			}
		}
		c.report(hi.path, hi.pos, hi.end, "missing-id",
			fmt.Sprintf("the id sequence skips %s before %s: %s; define the missing items, or record that the ids were skipped on purpose", gap, id(hi.n), what), related)
	}
}

// idRange is a run of work ids, lo to hi, of one prefix ("CTO-WORK-").
type idRange struct {
	prefix string
	lo, hi int
}

var (
	// skipWord marks a statement that ids were left unused on purpose:
	// "CTO-WORK-051..053 were skipped on purpose", "Ids ... are
	// intentionally unused", "reserved for a withdrawn route".
	skipWord = lazyRE.New(`(?i)\b(?:skipped|unused|reserved|withdrawn|retired|intentionally|deliberately|on purpose|never (?:be )?(?:used|assigned)|not (?:be )?(?:used|assigned))\b`)
	// idOrRange is an id, or a range of them: "CTO-WORK-051..053",
	// "CTO-WORK-051 to CTO-WORK-053", "CTO-WORK-051 through 053".
	idOrRange = lazyRE.New(`\b([A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*-)(\d+)(?:\s*(?:\.\.\.?|to|through|–|—)\s*(?:[A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*-)?(\d+))?`)
)

// readSkips reads the ids a line records as skipped.
func readSkips(text string) []idRange {
	text = strings.NewReplacer("`", "", "*", "").Replace(text)
	var out []idRange
	for _, m := range idOrRange.FindAllStringSubmatch(text, -1) {
		lo, err := strconv.Atoi(m[2])
		if err != nil {
			continue
		}
		hi := lo
		if m[3] != "" {
			if h, err := strconv.Atoi(m[3]); err == nil && h >= lo {
				hi = h
			}
		}
		out = append(out, idRange{prefix: m[1], lo: lo, hi: hi})
	}
	return out
}

// skipped reports whether the ids prefix lo..hi are each recorded as
// skipped on purpose, by a document or a workboard comment.
func (c *checker) skipped(prefix string, lo, hi int) bool {
	if c.skips == nil {
		// Read once, at the first gap.
		c.text(func(*docInfo) bool { return true })
		c.skips = map[string][]idRange{}
		add := func(rs []idRange) {
			for _, r := range rs {
				c.skips[r.prefix] = append(c.skips[r.prefix], r)
			}
		}
		for _, di := range c.docs {
			add(di.skips)
		}
		if wb := c.ws.Workboard; wb != nil && wb.File != nil {
			for _, l := range strings.Split(string(wb.File.Content), "\n") {
				if maySaySkipped(l) && skipWord.MatchString(l) {
					add(readSkips(l))
				}
			}
		}
		for _, rs := range c.skips {
			sort.Slice(rs, func(i, j int) bool { return rs[i].lo < rs[j].lo })
		}
	}
	// Is [lo, hi] inside the union of the records? Walk them by start,
	// extending the covered stretch: never number by number, a gap may
	// span millions.
	next := lo // the first number not yet covered
	for _, r := range c.skips[prefix] {
		if r.lo > next {
			break
		}
		if r.hi >= next {
			next = r.hi + 1
		}
		if next > hi {
			return true
		}
	}
	return false
}
