package contradiction

import (
	"fmt"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

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

// missingIDs reports gaps in the sequence of defined work ids.
func (c *checker) missingIDs() {
	wb := c.ws.Workboard
	if wb == nil || !wb.Complete {
		return
	}
	// prefix -> number -> where it is first defined (the workboard first).
	defined := map[string]map[int]definedID{}
	define := func(id, path string, pos, end token.Pos) {
		prefix, digits, ok := splitID(id)
		if !ok {
			return
		}
		n, err := strconv.Atoi(digits)
		if err != nil {
			return
		}
		byNumber := defined[prefix]
		if byNumber == nil {
			byNumber = map[int]definedID{}
			defined[prefix] = byNumber
		}
		if _, ok := byNumber[n]; !ok {
			byNumber[n] = definedID{n: n, path: path, pos: pos, end: end, width: len(digits)}
		}
	}
	for _, it := range wb.Items {
		if it.ID != nil && it.ID.Scalar {
			define(it.ID.Value, wb.File.Path, it.ID.ValuePos, it.ID.ValueEnd)
		}
	}
	for _, d := range c.ws.Docs {
		for _, it := range d.WorkItems {
			define(it.ID, d.Path, it.Pos, it.End)
		}
	}
	mentions := map[string][]*sotparse.Ref{}
	for _, di := range c.docs {
		for _, r := range di.d.Refs {
			if r.Kind == sotparse.RefWorkID {
				mentions[r.Text] = append(mentions[r.Text], r)
			}
		}
	}
	var prefixes []string
	for p := range defined {
		prefixes = append(prefixes, p)
	}
	sort.Strings(prefixes)
	for _, p := range prefixes {
		var nums []definedID
		for _, d := range defined[p] {
			nums = append(nums, d)
		}
		sort.Slice(nums, func(i, j int) bool { return nums[i].n < nums[j].n })
		for i := 1; i < len(nums); i++ {
			lo, hi := nums[i-1], nums[i]
			if hi.n-lo.n < 2 {
				continue
			}
			if c.skipped(p, lo.n+1, hi.n-1) {
				continue // recorded as skipped on purpose
			}
			id := func(n int) string { return fmt.Sprintf("%s%0*d", p, hi.width, n) }
			gap := id(lo.n + 1)
			if hi.n-lo.n > 2 {
				gap += " to " + id(hi.n-1)
			}
			related := []analysis.RelatedInformation{rel(lo.pos, "%s, the id before the gap, is defined here", id(lo.n))}
			mentioned := 0
			for n := lo.n + 1; n < hi.n; n++ {
				for _, r := range mentions[id(n)] {
					mentioned++
					related = append(related, rel(r.Pos, "%s is mentioned here, but defined nowhere", id(n)))
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
