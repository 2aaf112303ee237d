package checks

import "strings"

// One root cause is one finding: where a defect makes several rules fire
// at the same place, the most specific finding stays and carries the
// others as notes, so a line does not show three errors for one stray
// heading.

// absorbs maps a code to the codes whose findings at the same position are
// consequences of it.
var absorbs = map[string][]string{
	// A work-item heading that defines an id already defined elsewhere
	// under another title is a stray or pasted heading: that it has no
	// Status: line and no acceptance criteria follows from it.
	"refs/conflicting-definition": {"structure/item-status", "structure/item-acceptance"},
	// An item with no Status: line and no acceptance criteria is one
	// empty item section.
	"structure/item-status": {"structure/item-acceptance"},
	// A heading repeated with another body, placed out of date order, is
	// one misplaced section: merging it into the first one fixes both.
	"consistency/duplicate-heading": {"consistency/date-order"},
}

// clusterCodes are the codes in absorbs, on either side, by check and
// category.
var clusterCodes = func() map[string]map[string]bool {
	m := map[string]map[string]bool{}
	add := func(code string) {
		check, cat, _ := strings.Cut(code, "/")
		if m[check] == nil {
			m[check] = map[string]bool{}
		}
		m[check][cat] = true
	}
	for a, bs := range absorbs {
		add(a)
		for _, b := range bs {
			add(b)
		}
	}
	return m
}()

// inClusters reports whether a finding of check and category may fold
// into another at its place, or another into it (mergeClusters).
func inClusters(check, category string) bool { return clusterCodes[check][category] }

// absorbed reports whether a finding of code a carries one of code b at the
// same position, directly or through another code.
func absorbedBy(a, b string) bool {
	for _, c := range absorbs[a] {
		if c == b || absorbedBy(c, b) {
			return true
		}
	}
	return false
}

// mergeClusters folds, among findings at the same file and offset (fs is
// sorted, so they are adjacent), each finding another one absorbs into it
// as a note: "also [code] message", followed by its own notes. A finding
// is folded only into one at least as severe, so that no configured
// severity is lost.
func mergeClusters(fs []Finding) []Finding {
	out := fs[:0]
	for i := 0; i < len(fs); {
		j := i + 1
		for j < len(fs) && fs[j].File == fs[i].File && fs[j].Offset == fs[i].Offset {
			j++
		}
		if j-i == 1 {
			out = append(out, fs[i])
			i = j
			continue
		}
		group := fs[i:j]
		if !anyAbsorbs(group) {
			// Nothing to fold (many prose alerts at one word, say): the
			// group stays as it is, without the pairwise comparison of
			// its codes and a copy of it.
			out = append(out, group...)
			i = j
			continue
		}
		codes := make([]string, len(group))
		for k := range group {
			codes[k] = group[k].Code()
		}
		into := foldInto(len(group), func(k int) string { return codes[k] }, func(k int) int { return group[k].Severity.Rank() })
		kept := make([]Finding, len(group))
		copy(kept, group)
		for k := range group {
			if m := into[k]; m >= 0 && into[m] < 0 {
				f := &group[k]
				kept[m].Related = append(kept[m].Related, Related{File: f.File, Line: f.Line, Col: f.Col, Message: "also [" + codes[k] + "] " + f.Message})
				kept[m].Related = append(kept[m].Related, f.Related...)
			}
		}
		for k := range kept {
			if stays(into, k) {
				out = append(out, kept[k])
			}
		}
		i = j
	}
	return out
}

// absorberChecks are the checks with a code in absorbs.
var absorberChecks = func() map[string]bool {
	m := map[string]bool{}
	for a := range absorbs {
		check, _, _ := strings.Cut(a, "/")
		m[check] = true
	}
	return m
}()

// anyAbsorbs reports whether a finding of group may absorb another: only
// a check with a code in absorbs can.
func anyAbsorbs(group []Finding) bool {
	for k := range group {
		if absorberChecks[group[k].Check] {
			return true
		}
	}
	return false
}

// foldInto returns, for each of n findings at one place, the index of the
// one it is folded into, following chains to the one that stays, or -1.
func foldInto(n int, code func(int) string, rank func(int) int) []int {
	into := make([]int, n)
	for k := range into {
		into[k] = -1
		for m := range n {
			if m != k && absorbedBy(code(m), code(k)) && rank(m) >= rank(k) {
				into[k] = m
				break
			}
		}
	}
	// Follow chains to the finding that stays.
	for k := range into {
		for c := 0; into[k] >= 0 && into[into[k]] >= 0 && c < n; c++ {
			into[k] = into[into[k]]
		}
	}
	return into
}

// stays reports whether finding k of a place is reported (foldInto).
func stays(into []int, k int) bool { return into[k] < 0 || into[into[k]] >= 0 }

// AbsorbedOutside reports whether a finding of code ("check/category")
// may be folded, at its place, into a finding of a check outside within:
// a run of the checks within alone reports it where a run of every check
// may show it as another finding's note.
func AbsorbedOutside(code string, within map[string]bool) bool {
	for a := range absorbs {
		check, _, _ := strings.Cut(a, "/")
		if !within[check] && absorbedBy(a, code) {
			return true
		}
	}
	return false
}
