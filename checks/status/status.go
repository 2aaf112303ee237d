package status

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"go/token"
	"iter"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/checks/internal/fixsafety"
	"github.com/svrnty/sotvet/checks/internal/owned"
	"github.com/svrnty/sotvet/checks/internal/vocab"
	"github.com/svrnty/sotvet/internal/parallel"
	"github.com/svrnty/sotvet/sotparse"
)

// Analyzer checks that document, work item and workboard statuses agree.
var Analyzer = &analysis.Analyzer{
	Name:     "status",
	Doc:      docutil.MustExtract(doc, "status"),
	URL:      "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#status",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run:      run,
}

var statuses vocab.Statuses

func init() {
	Analyzer.Flags.Var(&statuses, vocab.FlagName, "comma-separated statuses added to the status vocabulary")
	Analyzer.Flags.Var(&extraBlocked, "still-blocked", "comma-separated phrases added to the \"remains blocked\" family (\"is on hold\")")
}

const validated = "validated"

var (
	idPattern = lazyRE.New(`(?i)\bCTO-WORK-\d+\b`)
	// An id, possibly in a code span or emphasis, and lists of them:
	// "`CTO-WORK-078`, `CTO-WORK-079`, and `CTO-WORK-080`".
	idTok  = "[`*_]*CTO-WORK-\\d+[`*_]*"
	idList = idTok + `(?:\s*,\s*(?:and\s+)?` + idTok + `|\s+and\s+` + idTok + `)*`

	statusRemains   = lazyRE.New(`(?i)^status\s+(?:remains|stays|is\s+still)\s+blocked$`)
	statesStatus    = lazyRE.New(`(?i)^(` + idList + `)\s+(?:is|are)\s+(?:now\s+)?([a-z][a-z-]*)\b`)
	workItemLine    = lazyRE.New(`(?i)^work items?:\s+(.*)$`)
	listItemPattern = lazyRE.New(`^\s*(?:[-*+]|\d{1,9}[.)])\s`)
)

func run(pass *analysis.Pass) (any, error) {
	ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
	c := &checker{pass: pass, ws: ws, info: map[*sotparse.Doc]*docInfo{}}
	c.pats = newRemainPatterns()
	focused := ws.FocusedDocs()
	// A document's text is read (indexed) only where a rule needs it: for
	// the remains-blocked rule of its validated items, and when it is read
	// to corroborate a status (mentioning indexes it then).
	var validatedIn []*sotparse.Doc
	for _, d := range focused {
		if slices.ContainsFunc(d.WorkItems, func(it *sotparse.WorkItem) bool { return itemStatus(it) == validated }) {
			validatedIn = append(validatedIn, d)
		}
	}
	c.index(validatedIn)
	for _, d := range focused {
		c.docStatus(d)
		c.pendingValidation(d)
		var stale []staleItem
		for _, it := range d.WorkItems {
			if s, ok := c.workboard(d, it); ok {
				stale = append(stale, s)
			}
			if itemStatus(it) != validated {
				continue
			}
			c.acceptance(it)
			c.blockers(it)
			c.leftoverBlockers(d, it)
			c.remainsBlocked(c.info[d], it)
		}
		c.staleIssues(d, stale)
	}
	// Statements about items defined elsewhere: every focused document
	// that says "blocked" is read.
	var rest []*sotparse.Doc
	for _, d := range focused {
		if c.info[d] == nil {
			rest = append(rest, d)
		}
	}
	c.index(rest)
	for _, d := range focused {
		di := c.info[d]
		c.staleBlockers(di, c.otherBlocked(di))
	}
	return nil, nil
}

// index indexes docs in parallel: it reads every line of every document.
// The parse has indexed the documents it parsed (DocCheck); a document out
// of focus may be a summary, whose content is read back.
func (c *checker) index(docs []*sotparse.Doc) {
	var todo []*sotparse.Doc
	for _, d := range docs {
		if r, ok := DocCheck.Visited(c.ws, d); ok {
			c.info[d] = r.(*docInfo)
		} else {
			todo = append(todo, d)
		}
	}
	c.ws.Prefetch(todo)
	out := make([]*docInfo, len(todo))
	texts := c.ws.Texts()
	parallel.For(len(todo), func(i int) { out[i] = index(todo[i], c.ws.Content(todo[i]), c.pats, texts) })
	for i, d := range todo {
		c.info[d] = out[i]
	}
}

// DocCheck indexes each document as the parse reads it: the rules read
// the index, and a document's text only to report.
var DocCheck = &sotparse.DocCheck{Prepare: func() any { return newRemainPatterns() }, Run: func(p *sotparse.DocPass) any {
	for _, l := range p.Doc.StatusLines {
		if l.Item == nil {
			p.Flag(l.ValuePos, l.End) // docStatus may report it
		}
	}
	// What acceptance may report on a validated item: its first unchecked
	// box. Not the blockers: each of every validated item is a span to
	// keep (on a 10,000-document workspace of validated items ~6 MB more
	// at the peak), where only those that are open are reported, and
	// their files are read back once for the fingerprints.
	for _, it := range p.Doc.WorkItems {
		if itemStatus(it) != validated {
			continue
		}
		if i := slices.IndexFunc(it.Checkboxes, func(cb *sotparse.Checkbox) bool { return !cb.Checked }); i >= 0 {
			p.Flag(it.Checkboxes[i].Pos, it.Checkboxes[i].End)
		}
	}
	return detach(index(p.Doc, p.Content, p.Prepared.(*remainPatterns), p.Texts()))
}, KeepsKeyValue: func(_ any, d *sotparse.Doc, f *sotparse.Fact) bool {
	return resultKinds[d.Kind] && validatorKey(f.Key) // what pendingValidation reads
}}

// detach gives di strings of its own: the index of a document outlives its
// text, which the parse may let go.
func detach(di *docInfo) *docInfo {
	// One copy of each view: a line of many ids, a sentence of each, is
	// held once, as its view was.
	var copies owned.Copies
	own := copies.Own
	if cap(di.stated) > len(di.stated) {
		di.stated = slices.Clone(di.stated) // held to its length, not what append grew
	}
	if di.about != nil {
		about := make(map[string]bool, len(di.about))
		for id, v := range di.about {
			about[own(id)] = v
		}
		di.about = about
	}
	for i := range di.results {
		di.results[i].status = own(di.results[i].status)
	}
	if rx := di.rx; rx != nil && rx != &noRemains {
		// The ids the remain sentences name (upper-cased: an id written
		// in upper case is its own view).
		for k := range rx.sents {
			for j := range rx.sents[k] {
				for i, id := range rx.sents[k][j].ids {
					rx.sents[k][j].ids[i] = own(id)
				}
				for i, id := range rx.sents[k][j].blockers {
					rx.sents[k][j].blockers[i] = own(id)
				}
			}
		}
		byID := make(map[string][]remainRef, len(rx.byID))
		for id, refs := range rx.byID {
			byID[own(id)] = refs
		}
		rx.byID = byID
	}
	return di
}

// mentioning returns the index of every document that may name the work
// item id: those in focus, and those out of focus whose text names it,
// indexed the first time (corroboration reads other documents' text).
//
// The first call indexes every document that is not a summary (each may
// name any id) and files the summaries by the ids they name: a search of
// every document for each id was quadratic in a workspace of many items.
// The result is in the order of ws.Docs.
func (c *checker) mentioning(id string) []*docInfo {
	if c.summariesBy == nil {
		c.summariesBy = map[string][]int{}
		var todo []*sotparse.Doc
		for i, d := range c.ws.Docs {
			ids, summary := d.Mentions()
			if !summary {
				if c.info[d] == nil {
					todo = append(todo, d)
				}
				continue
			}
			for _, m := range ids {
				c.summariesBy[m] = append(c.summariesBy[m], i)
			}
		}
		c.index(todo)
	}
	var todo []*sotparse.Doc
	for _, i := range c.summariesBy[id] {
		if d := c.ws.Docs[i]; c.info[d] == nil {
			todo = append(todo, d)
		}
	}
	c.index(todo)
	if c.docOrder == nil {
		c.docOrder = make(map[*sotparse.Doc]int, len(c.ws.Docs))
		for i, d := range c.ws.Docs {
			c.docOrder[d] = i
		}
	}
	// Every document that is not a summary, and the summaries naming id.
	if c.plain == nil {
		for _, d := range c.ws.Docs {
			if _, summary := d.Mentions(); !summary {
				c.plain = append(c.plain, c.info[d])
			}
		}
	}
	if len(c.summariesBy[id]) == 0 {
		return c.plain
	}
	out := slices.Clone(c.plain)
	for _, i := range c.summariesBy[id] {
		out = append(out, c.info[c.ws.Docs[i]])
	}
	slices.SortFunc(out, func(a, b *docInfo) int { return c.docOrder[a.d] - c.docOrder[b.d] })
	return out
}

// corroborations returns, for the id and status, the documents that state
// it (a sentence, a bare result in a document about it, or a definition
// with that status), from an index of the documents mentioning returns
// built once: the first in document order is the corroboration.
func (c *checker) corroborations(id, status string, docs []*docInfo) []*docInfo {
	if c.corrob == nil {
		c.corrob = map[string][]*docInfo{}
		c.corrobDone = map[*docInfo]bool{}
	}
	for _, di := range docs {
		if c.corrobDone[di] {
			continue
		}
		c.corrobDone[di] = true
		seen := map[string]bool{}
		add := func(id, st string) {
			if k := id + "\x00" + st; !seen[k] {
				seen[k] = true
				c.corrob[k] = append(c.corrob[k], di)
			}
		}
		for s := range di.stated.all {
			add(di.texts.Text(s.id), di.texts.Text(s.status))
		}
		for x := range di.about {
			for _, r := range di.results {
				add(x, r.status)
			}
		}
		for _, it := range di.d.WorkItems {
			if st := itemStatus(it); st != "" {
				add(it.ID, st)
			}
		}
	}
	// Documents were added as they were indexed, not in order.
	out := c.corrob[id+"\x00"+status]
	slices.SortFunc(out, func(a, b *docInfo) int { return c.docOrder[a.d] - c.docOrder[b.d] })
	return out
}

type checker struct {
	pass *analysis.Pass
	ws   *sotparse.Workspace
	info map[*sotparse.Doc]*docInfo // the documents indexed so far

	pats *remainPatterns

	// Indexes built on first use, so that a question about one id reads
	// no more than what concerns it (see mentioning, corroborations,
	// definitions).
	summariesBy map[string][]int // summaries by the ids they name, as indexes in ws.Docs
	docOrder    map[*sotparse.Doc]int
	plain       []*docInfo            // the documents that are not summaries, in order
	corrob      map[string][]*docInfo // id + "\x00" + status -> documents stating it
	corrobDone  map[*docInfo]bool
	defs        map[string][]definition // by upper-cased id
}

// definition is a work item and its document.
type definition struct {
	d  *sotparse.Doc
	it *sotparse.WorkItem
}

// definitions returns the work items with the id (in any case), in
// document order.
func (c *checker) definitions(id string) []definition {
	if c.defs == nil {
		c.defs = map[string][]definition{}
		for _, d := range c.ws.Docs {
			for _, it := range d.WorkItems {
				k := strings.ToUpper(it.ID)
				c.defs[k] = append(c.defs[k], definition{d, it})
			}
		}
	}
	return c.defs[strings.ToUpper(id)]
}

// related is a place a finding points at as its evidence.
func related(pos token.Pos, format string, args ...any) analysis.RelatedInformation {
	return analysis.RelatedInformation{Pos: pos, Message: fmt.Sprintf(format, args...)}
}

// normStatus returns s trimmed, lower-cased and stripped of code-span and
// emphasis markers and trailing punctuation.
func normStatus(s string) string {
	s = strings.Trim(strings.TrimSpace(s), "`*_")
	s = strings.TrimRight(s, ".,;:!")
	return strings.ToLower(strings.Trim(strings.TrimSpace(s), "`*_"))
}

// bareStatus returns the vocabulary status that is the whole of value
// ("validated.", "`blocked`"), or "".
func bareStatus(value string) string {
	s := normStatus(value)
	if strings.ContainsAny(s, " \t") || !statuses.Has(s) {
		return ""
	}
	return s
}

// itemStatus returns the vocabulary status that starts the item's Status
// line, or "".
func itemStatus(it *sotparse.WorkItem) string {
	if it.Status == nil {
		return ""
	}
	w, _, _ := strings.Cut(strings.TrimSpace(it.Status.Value), " ")
	if w = normStatus(w); statuses.Has(w) {
		return w
	}
	return ""
}

// docStatus compares the frontmatter status with document-level body
// "Status:" lines that give a bare vocabulary status.
func (c *checker) docStatus(d *sotparse.Doc) {
	fm := d.Frontmatter
	if fm == nil || fm.Status == nil || !fm.Status.Scalar {
		return
	}
	fs := strings.ToLower(strings.TrimSpace(fm.Status.Value))
	if !statuses.Has(fs) {
		return // the frontmatter check reports it
	}
	for _, l := range d.StatusLines {
		if l.Item != nil {
			continue
		}
		if w := bareStatus(l.Value); w != "" && w != fs {
			c.pass.Report(analysis.Diagnostic{Pos: l.ValuePos, End: l.End, Category: "doc-status",
				Message: fmt.Sprintf("body says \"Status: %s\" but the frontmatter status is %q", l.Value, fm.Status.Value),
				Related: []analysis.RelatedInformation{related(fm.Status.ValuePos, "the frontmatter status is %s", fm.Status.Value)}})
		}
	}
}

// staleItem is a work item its document leaves candidate or blocked while
// the workboard and another document say it is validated.
type staleItem struct {
	it        *sotparse.WorkItem
	status    string    // the document's
	workboard token.Pos // the workboard entry's status
	proof     token.Pos // the statement that corroborates the workboard
	proofDoc  string
}

// workboard compares the item's status with its workboard entry. A
// disagreement another document corroborates is returned as stale when the
// workboard says validated; the caller reports those per document.
func (c *checker) workboard(d *sotparse.Doc, it *sotparse.WorkItem) (staleItem, bool) {
	st := itemStatus(it)
	if st == "" {
		c.uncheckedStale(d, it)
		return staleItem{}, false
	}
	wi := c.ws.Workboard.Item(it.ID)
	if wi == nil || wi.Status == nil || !wi.Status.Scalar {
		return staleItem{}, false // the refs and workboard checks report missing items and statuses
	}
	wst := strings.ToLower(strings.TrimSpace(wi.Status.Value))
	if wst == st || !statuses.Has(wst) {
		return staleItem{}, false
	}
	if pos, where, ok := c.corroborated(it.ID, wst, d); ok {
		if wst == validated && (st == "candidate" || st == "blocked" || st == "draft") {
			return staleItem{it: it, status: st, workboard: wi.Status.ValuePos, proof: pos, proofDoc: where}, true
		}
		return staleItem{}, false
	}
	c.pass.Report(analysis.Diagnostic{Pos: it.Status.ValuePos, End: it.Status.End, Category: "workboard-mismatch",
		Message: fmt.Sprintf("%s is %q here but %q in %s, and no other document states it is %s",
			it.ID, st, wst, c.ws.Workboard.File.Path, wst),
		Related: []analysis.RelatedInformation{related(wi.Status.ValuePos, "the workboard says %s is %s", it.ID, wst)}})
	return staleItem{}, false
}

// uncheckedStale reports, as stale-issue, an item without a Status line
// whose acceptance boxes are all unchecked while the workboard and another
// document say it is validated: its boxes are the document's statement
// that it is not done. There is no Status line to fix.
func (c *checker) uncheckedStale(d *sotparse.Doc, it *sotparse.WorkItem) {
	if it.Status != nil || len(it.Checkboxes) == 0 {
		return // a Status line outside the vocabulary is prose
	}
	for _, cb := range it.Checkboxes {
		if cb.Checked {
			return
		}
	}
	wi := c.ws.Workboard.Item(it.ID)
	if wi == nil || wi.Status == nil || !wi.Status.Scalar || !strings.EqualFold(strings.TrimSpace(wi.Status.Value), validated) {
		return
	}
	pos, where, ok := c.corroborated(it.ID, validated, d)
	if !ok {
		return
	}
	first := it.Checkboxes[0]
	c.pass.Report(analysis.Diagnostic{
		Pos: first.Pos, End: first.End, Category: "stale-issue",
		Message: fmt.Sprintf("%s has no Status line and all %d of its acceptance checkboxes are unchecked here, but %s and %s say it is validated: this document is stale",
			it.ID, len(it.Checkboxes), c.ws.Workboard.File.Path, where),
		Related: []analysis.RelatedInformation{
			related(wi.Status.ValuePos, "the workboard says %s is validated", it.ID),
			related(pos, "this says %s is validated", it.ID),
		},
	})
}

// staleIssues reports the stale items of d, each with a fix that updates
// its Status line; the fix of the last one also updates the frontmatter
// status when every item of d is then validated. The fix asserts a
// validation, so it is unsafe (--unsafe-fixes), and it is not offered for
// an item with an unchecked acceptance box: a validated item with one is
// an error (unchecked-acceptance), and ticking the box is for a person.
func (c *checker) staleIssues(d *sotparse.Doc, stale []staleItem) {
	if len(stale) == 0 {
		return
	}
	rest := 0 // items neither validated nor stale, or not fixable
	isStale := make(map[*sotparse.WorkItem]bool, len(stale))
	for _, s := range stale {
		isStale[s.it] = true
	}
	for _, it := range d.WorkItems {
		if itemStatus(it) != validated && !(isStale[it] && allChecked(it)) {
			rest++
		}
	}
	last := -1 // the last fixable stale item
	for i, s := range stale {
		if allChecked(s.it) {
			last = i
		}
	}
	for i, s := range stale {
		word := s.it.Status.Value
		if j := strings.IndexAny(word, " .,;:"); j >= 0 {
			word = word[:j]
		}
		edits := []analysis.TextEdit{{Pos: s.it.Status.ValuePos, End: s.it.Status.ValuePos + token.Pos(len(word)), NewText: []byte(validated)}}
		msg := "set the Status line to validated"
		if fm := d.Frontmatter; i == last && rest == 0 && fm != nil && fm.Status != nil && fm.Status.Scalar &&
			!strings.EqualFold(strings.TrimSpace(fm.Status.Value), validated) && fm.Status.ValuePos.IsValid() && fm.Status.ValueEnd > fm.Status.ValuePos {
			edits = append(edits, analysis.TextEdit{Pos: fm.Status.ValuePos, End: fm.Status.ValueEnd, NewText: []byte(validated)})
			msg += ", and the frontmatter status: every item is then validated"
		}
		diag := analysis.Diagnostic{
			Pos: s.it.Status.ValuePos, End: s.it.Status.End, Category: "stale-issue",
			Message: fmt.Sprintf("%s is %q here, but %s and %s say it is validated: this document is stale",
				s.it.ID, s.status, c.ws.Workboard.File.Path, s.proofDoc),
			Related: []analysis.RelatedInformation{
				related(s.workboard, "the workboard says %s is validated", s.it.ID),
				related(s.proof, "this says %s is validated", s.it.ID),
			},
		}
		if allChecked(s.it) {
			diag.SuggestedFixes = []analysis.SuggestedFix{fixsafety.Unsafe(analysis.SuggestedFix{Message: msg, TextEdits: edits})}
		}
		c.pass.Report(diag)
	}
}

// allChecked reports whether every acceptance box of it is checked.
func allChecked(it *sotparse.WorkItem) bool {
	for _, cb := range it.Checkboxes {
		if !cb.Checked {
			return false
		}
	}
	return true
}

// corroborated reports whether a document other than except states that
// the item id has the status, and where.
func (c *checker) corroborated(id, status string, except *sotparse.Doc) (token.Pos, string, bool) {
	for _, di := range c.corroborations(id, status, c.mentioning(id)) {
		if di.d == except {
			continue
		}
		if off, ok := di.stateOffset(id, status); ok {
			return di.d.File.Pos(off), di.d.Path, true
		}
		if di.about[id] {
			for _, r := range di.results {
				if r.status == status {
					return r.pos, di.d.Path, true
				}
			}
		}
		for _, it := range di.d.WorkItems {
			if it.ID == id && itemStatus(it) == status {
				return it.Status.ValuePos, di.d.Path, true
			}
		}
	}
	return token.NoPos, "", false
}

// acceptance reports a validated item with unchecked boxes.
func (c *checker) acceptance(it *sotparse.WorkItem) {
	var first *sotparse.Checkbox
	n := 0
	for _, cb := range it.Checkboxes {
		if !cb.Checked {
			if first == nil {
				first = cb
			}
			n++
		}
	}
	if first == nil {
		return
	}
	c.pass.Report(analysis.Diagnostic{Pos: first.Pos, End: first.End, Category: "unchecked-acceptance",
		Message: fmt.Sprintf("%s is validated but %d of its %d acceptance checkboxes %s unchecked", it.ID, n, len(it.Checkboxes), map[bool]string{true: "is", false: "are"}[n == 1]),
		Related: []analysis.RelatedInformation{related(it.Status.ValuePos, "%s is validated here", it.ID)}})
}

// blockers reports a validated item blocked by an item that is not
// validated.
func (c *checker) blockers(it *sotparse.WorkItem) {
	seen := map[string]bool{}
	for _, b := range it.Blockers.All() {
		id := strings.ToUpper(b.Text)
		if id == it.ID || seen[id] {
			continue
		}
		seen[id] = true
		st, where, pos := c.statusOf(id)
		if st == "" || st == validated {
			continue // unknown ids are the refs check's business
		}
		c.pass.Report(analysis.Diagnostic{Pos: b.Pos, End: b.End, Category: "blocked-by-open",
			Message: fmt.Sprintf("%s is validated but its blocker %s is %q in %s", it.ID, id, st, where),
			Related: []analysis.RelatedInformation{related(pos, "%s is %s here", id, st)}})
	}
}

// statusOf returns the status of the item id and where it comes from: the
// workboard, or the first defining document with a Status line.
func (c *checker) statusOf(id string) (status, where string, pos token.Pos) {
	if wi := c.ws.Workboard.Item(id); wi != nil && wi.Status != nil && wi.Status.Scalar && strings.TrimSpace(wi.Status.Value) != "" {
		return strings.ToLower(strings.TrimSpace(wi.Status.Value)), c.ws.Workboard.File.Path, wi.Status.ValuePos
	}
	for _, def := range c.definitions(id) {
		if it := def.it; it.ID == id && it.Status != nil {
			w, _, _ := strings.Cut(strings.TrimSpace(it.Status.Value), " ")
			if w = normStatus(w); w != "" {
				return w, def.d.Path, it.Status.ValuePos
			}
		}
	}
	return "", "", token.NoPos
}

// remainsBlocked reports statements that the validated item it remains
// blocked: as errors where nothing in the document says otherwise, and as
// stale where the document's journal records the validation but the
// statement reads as the current state (see the package doc).
func (c *checker) remainsBlocked(di *docInfo, it *sotparse.WorkItem) {
	tf := di.d.File.Tok
	sec := di.section(it)
	statusEnd := tf.Offset(it.Status.End)
	validAt, journal := di.stateOffset(it.ID, validated)
	validDate := ""
	if journal {
		validDate = di.dateAt(validAt)
	}
	rx := di.rx
	// The sentences that name the item, and those of its own section that
	// say "this remains blocked": an index, not a reading of every
	// sentence for each item, which was quadratic in the items.
	type hit struct{ k, j, end int }
	var hits []hit
	for _, r := range rx.byID[strings.ToUpper(it.ID)] {
		ln := &di.remain[r.k]
		if ln.off < sec.start {
			continue
		}
		inSec := ln.off < sec.end
		if !inSec && ln.off < statusEnd {
			continue
		}
		m := &rx.sents[r.k][r.j]
		if m.byDate != "" && (validDate == "" || m.byDate < validDate) {
			continue // an entry the sentence dates before the validation, or that nothing compares: history
		}
		if inSec || !journal {
			hits = append(hits, hit{r.k, r.j, m.byEnd})
		} else {
			c.staleRemains(di, it, ln.sents[r.j], m, ln.off, validAt)
		}
	}
	from := sort.Search(len(di.remain), func(k int) bool { return di.remain[k].off >= sec.start })
	for k := from; k < len(di.remain) && di.remain[k].off < sec.end; k++ {
		if di.innermostOf(k) != it {
			continue
		}
		for j, m := range rx.sents[k] {
			if m.byEnd < 0 && m.thisEnd >= 0 {
				hits = append(hits, hit{k, j, m.thisEnd})
			}
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if a.k != b.k {
			return a.k - b.k
		}
		return a.j - b.j
	})
	for _, h := range hits {
		s := di.remain[h.k].sents[h.j]
		c.pass.Report(analysis.Diagnostic{Pos: di.d.File.Pos(s.off), End: di.d.File.Pos(s.off + h.end), Category: "remains-blocked",
			Message: fmt.Sprintf("%s is validated but this says it remains blocked", it.ID),
			Related: []analysis.RelatedInformation{related(it.Status.ValuePos, "%s is validated here", it.ID)}})
	}
}

// remainMatch is what the remains-blocked patterns find in one sentence.
type remainMatch struct {
	// byEnd ends the match of remainsByID (outside a code span), or -1;
	// ids are the ids of its subject, upper-cased.
	byEnd int
	ids   []string
	// byDate and blockDate are the dates the sentence gives the two
	// claims ("On 2026-05-12, ..."), or "".
	byDate, blockDate string
	// thisEnd ends the match of remainsThis or statusRemains, or -1.
	thisEnd int
	// blockers are the ids the sentence says something remains blocked
	// by, upper-cased, and blockEnd ends that statement (0: none).
	blockers []string
	blockEnd int
}

type remainRef struct{ k, j int }

// remainIdx is a document's remain lines matched once: each sentence's
// matches, and the sentences by the ids they say remain blocked.
type remainIdx struct {
	sents [][]remainMatch // by line, by sentence
	byID  map[string][]remainRef
}

// remainPatterns are the patterns of the remains-blocked family, with the
// phrases the run's flags add.
type remainPatterns struct {
	// byID matches a sentence whose subject is a list of ids and whose
	// verb is of the "remains blocked" family; this one whose subject is
	// "this issue" and the like; blocker one that names what something
	// remains blocked by ("remains blocked by `CTO-WORK-040`").
	byID, this, blocker *regexp.Regexp
	// aside is byID with an aside between the ids and the verb.
	aside *regexp.Regexp
	// saysBlocked: no flag added a phrase, so every verb of the family
	// says "blocked".
	saysBlocked bool
}

// newRemainPatterns returns the patterns of the phrases -still-blocked adds
// now, compiled once per set of phrases: an editor's session runs the
// checks on every keystroke, and compiling them cost more than the edit's
// own document.
func newRemainPatterns() *remainPatterns {
	key := strings.Join(extraBlocked, "\x00")
	remainMemo.Lock()
	defer remainMemo.Unlock()
	if remainMemo.p == nil || remainMemo.key != key {
		byID, aside, this, blocker := stillBlockedPatterns(extraBlocked)
		remainMemo.key, remainMemo.p = key, &remainPatterns{byID: byID, aside: aside, this: this, blocker: blocker, saysBlocked: len(extraBlocked) == 0}
	}
	return remainMemo.p
}

// remainMemo is the last set of phrases compiled; the patterns are read
// only, and shared by the runs.
var remainMemo struct {
	sync.Mutex
	key string
	p   *remainPatterns
}

// noRemains is the index of a document without remain lines; no one
// writes to it.
var noRemains remainIdx

// match matches the remain sentences of di, whose text is content, once
// for all its validated items and for otherBlocked: what the rules need
// of them, so that the sentences' text need not be kept. A sentence that
// matches nothing is of no rule: it goes, and a line left with none goes
// too (most lines that say "blocked" state nothing a rule reads), so
// that a document keeps what its statements say, not an entry for each
// of its sentences.
func (rp *remainPatterns) match(di *docInfo, content []byte) *remainIdx {
	if len(di.remain) == 0 {
		return &noRemains // most documents: nothing to hold per document
	}
	rx := &remainIdx{byID: map[string][]remainRef{}}
	kept := di.remain[:0] // compacted in place: line k is read before any write at k
	for _, ln := range di.remain {
		var ms []remainMatch
		sents := ln.sents[:0]
		labelEnd := -1
		if ln.off <= len(content) {
			labelEnd = ln.off + labelSpan(content[ln.off:])
		}
		for _, s := range ln.sents {
			m := remainMatch{byEnd: -1, thisEnd: -1}
			if blockers, end, date := rp.blockerClaim(s.text); len(blockers) > 0 && !asks(content, s) {
				// copies: what the run keeps holds no view of the text
				for i := range blockers {
					blockers[i] = strings.Clone(blockers[i])
				}
				m.blockers, m.blockEnd, m.blockDate = blockers, end, strings.Clone(date)
			}
			// The same fact in any of its forms (otherClaim): the id list
			// as the subject of the sentence or of a later clause, under a
			// label, or in a table row.
			if subject, end, date, ok := rp.otherClaim(content, ln.off, labelEnd, s); ok {
				m.byEnd, m.byDate = end, strings.Clone(date)
				m.ids = slices.Collect(ids(subject))
				for i := range m.ids {
					m.ids[i] = strings.Clone(strings.ToUpper(m.ids[i]))
				}
				for i, id := range m.ids {
					if !slices.Contains(m.ids[:i], id) {
						rx.byID[id] = append(rx.byID[id], remainRef{len(kept), len(ms)})
					}
				}
			} else if x := rp.this.FindStringIndex(s.text); x != nil {
				m.thisEnd = x[1]
			} else if t := strings.TrimRight(s.text, " *_"); statusRemains.MatchString(t) {
				m.thisEnd = len(t)
			}
			if m.byEnd < 0 && m.thisEnd < 0 && len(m.blockers) == 0 {
				continue
			}
			sents = append(sents, s)
			ms = append(ms, m)
		}
		if len(ms) > 0 {
			// A copy when some went: the whole line's array would stay.
			if len(sents) < cap(sents) {
				sents = slices.Clone(sents)
			}
			ln.sents = sents
			kept = append(kept, ln)
			rx.sents = append(rx.sents, ms)
		}
	}
	if len(kept) == 0 {
		di.remain = nil
		return &noRemains
	}
	di.remain = slices.Clone(kept)
	return rx
}

// staleRemains judges a "remains blocked" statement about it outside its
// section, in a document whose journal says at validAt that it is
// validated: an entry placed before the validation and dated no later is
// history; one placed after it, dated later (by its section, or by itself
// on or after the validation's day), or the last line of the file that
// names the item reads as the current state.
func (c *checker) staleRemains(di *docInfo, it *sotparse.WorkItem, s sentence, m *remainMatch, lineOff, validAt int) {
	end := m.byEnd
	after := s.off > validAt
	valid := di.dateAt(validAt)
	later := di.dateAt(s.off) > valid && valid != ""
	if m.byDate != "" {
		later = m.byDate >= valid && valid != ""
	}
	lastOff, ok := di.lastLineOf(it.ID)
	if !ok {
		lastOff = lastLineNaming(c.ws.Content(di.d), it.ID)
	}
	last := lastOff == lineOff
	if !after && !later && !last {
		return
	}
	why := "after"
	switch {
	case !after && later:
		why = "in a section dated after"
	case !after:
		why = "as the last word about it, despite"
	}
	c.pass.Report(analysis.Diagnostic{Pos: di.d.File.Pos(s.off), End: di.d.File.Pos(s.off + end), Category: "stale-remains-blocked",
		Message: fmt.Sprintf("%s is said to remain blocked %s the statement that it is validated (line %d)", it.ID, why, di.d.File.Lines().Line(di.d.File.Pos(validAt))),
		Related: []analysis.RelatedInformation{related(di.d.File.Pos(validAt), "%s is declared validated here", it.ID)}})
}

// lastLineNaming returns the offset of the last line of content that names
// the id (as written in upper case, the workspace's convention), or -1.
func lastLineNaming(content []byte, id string) int {
	for end := len(content); ; {
		i := bytes.LastIndex(content[:end], []byte(id))
		if i < 0 {
			return -1
		}
		// A longer id ("CTO-WORK-0161") is another item.
		if j := i + len(id); j < len(content) && '0' <= content[j] && content[j] <= '9' {
			end = i
			continue
		}
		return bytes.LastIndexByte(content[:i], '\n') + 1
	}
}

// lastLinesNaming returns lastLineNaming of content for each of ids. Ids
// that share a prefix (the workspace's "CTO-WORK-") are found in one pass
// over the occurrences of the prefix: a search from the end for each would
// read a document once per validated item.
func lastLinesNaming(content []byte, ids []string) map[string]int {
	out := make(map[string]int, len(ids))
	prefix := ids[0]
	lengths := map[int]bool{}
	for _, id := range ids {
		n := 0
		for n < len(prefix) && n < len(id) && prefix[n] == id[n] {
			n++
		}
		prefix = prefix[:n]
		lengths[len(id)] = true
	}
	if len(ids) == 1 || prefix == "" {
		for _, id := range ids {
			out[id] = lastLineNaming(content, id)
		}
		return out
	}
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = true
		out[id] = -1
	}
	last := make(map[string]int, len(ids)) // the offset of the last occurrence
	for i := 0; ; {
		j := bytes.Index(content[i:], []byte(prefix))
		if j < 0 {
			break
		}
		at := i + j
		for n := range lengths {
			end := at + n
			if end > len(content) || !want[string(content[at:end])] {
				continue
			}
			// A longer id ("CTO-WORK-0161") is another item.
			if end < len(content) && '0' <= content[end] && content[end] <= '9' {
				continue
			}
			last[string(content[at:end])] = at
		}
		i = at + 1
	}
	for id, at := range last {
		out[id] = bytes.LastIndexByte(content[:at], '\n') + 1
	}
	return out
}

// leftoverBlockers reports a validated item whose "Blocked by" list still
// names blockers: list items under an empty "Blocked by:" line, or a line
// whose value is prose rather than ids (an id list is the item's
// dependencies, which blocked-by-open judges).
func (c *checker) leftoverBlockers(d *sotparse.Doc, it *sotparse.WorkItem) {
	bl := it.BlockedBy
	if bl == nil {
		return
	}
	if v := strings.TrimSpace(bl.Value); v != "" {
		rest := strings.Trim(idPattern.ReplaceAllString(v, ""), " \t,;.`*_-")
		rest = strings.TrimSpace(strings.ReplaceAll(rest, "and", ""))
		if rest == "" || noneValue(v) {
			return
		}
		c.pass.Report(analysis.Diagnostic{Pos: bl.ValuePos, End: bl.End, Category: "stale-blocked-by",
			Message: fmt.Sprintf("%s is validated but its \"Blocked by\" line still names a blocker: %q", it.ID, v),
			Related: []analysis.RelatedInformation{related(it.Status.ValuePos, "%s is validated here", it.ID)}})
		return
	}
	var list blockedList
	ok := false
	if di := c.info[d]; di != nil {
		list, ok = di.blockedLists[it]
	}
	if !ok {
		list = blockedListOf(d, c.ws.Content(d), it)
	}
	if list.n == 0 {
		return
	}
	more := ""
	if list.n > 1 {
		more = fmt.Sprintf(" and %d more", list.n-1)
	}
	c.pass.Report(analysis.Diagnostic{Pos: d.File.Pos(list.off), End: d.File.Pos(list.end), Category: "stale-blocked-by",
		Message: fmt.Sprintf("%s is validated but its \"Blocked by\" list still names blockers: %q%s", it.ID, list.first, more),
		Related: []analysis.RelatedInformation{related(it.Status.ValuePos, "%s is validated here", it.ID)}})
}

// blockedList is the list under an empty "Blocked by:" line: where its
// first item is, what it says, and how many items there are.
type blockedList struct {
	off, end int
	first    string
	n        int
}

// blockedListOf reads the list under it's empty "Blocked by:" line.
func blockedListOf(d *sotparse.Doc, content []byte, it *sotparse.WorkItem) blockedList {
	tf := d.File.Tok
	var items []bodylines.Line
	for _, ln := range bodylines.Lines(content, tf.Offset(it.BlockedBy.End), len(content)) {
		t := strings.TrimSpace(ln.Text)
		if t == "" {
			if len(items) > 0 {
				break
			}
			continue
		}
		if !listItemPattern.MatchString(ln.Text) {
			break
		}
		items = append(items, ln)
	}
	if len(items) == 0 {
		return blockedList{}
	}
	first := strings.TrimSpace(listItemPattern.ReplaceAllString(items[0].Text, ""))
	return blockedList{off: items[0].Off, end: items[0].Off + len(items[0].Text), first: strings.Clone(first), n: len(items)}
}

// noneValue reports whether a Blocked by value says there is no blocker:
// "None.", "None - can start immediately", "n/a", "no blockers".
func noneValue(v string) bool {
	w, _, _ := strings.Cut(strings.ToLower(strings.Trim(v, " `*_")), " ")
	switch strings.TrimRight(w, ".,;:") {
	case "none", "nothing", "n/a", "-", "no", "nil":
		return true
	}
	return false
}

func containsID(list, id string) bool {
	for _, m := range idPattern.FindAllString(list, -1) {
		if strings.EqualFold(m, id) {
			return true
		}
	}
	return false
}

// inCodeSpan reports whether the end of s lies inside a code span.
func inCodeSpan(s string) bool { return strings.Count(s, "`")%2 == 1 }

// docInfo is what the check reads from one document beyond the model.
type docInfo struct {
	d        *sotparse.Doc
	sections []span          // of d.WorkItems, by index
	stated   claims          // the ids of its "ID is STATUS" sentences
	texts    *sotparse.Texts // names stated's ids and statuses
	about    map[string]bool // ids the document is about
	results  []result        // document-level bare statuses
	// remain holds the lines that say "blocked" in any case: the only
	// ones remainsBlocked reads, for each validated item.
	remain []remainLine
	// Read for the document's own validated items: the offset of the
	// last line naming each, and the list under an empty "Blocked by:".
	lastNaming   []idOffset // sorted by id: a small map costs hundreds of bytes a document
	blockedLists map[*sotparse.WorkItem]blockedList

	// The remain sentences, matched when the document was indexed.
	rx *remainIdx

	// Built on first use (see section, stateOffset, dateAt, innermost):
	// indexes that answer a question about one item or one offset
	// without reading the whole document again.
	itemIdx  map[*sotparse.WorkItem]int
	stateIdx map[string]int // id + "\x00" + status -> first offset
	dates    []string       // the date in force after each heading
	parent   []int          // of each section, the index of the one holding it, or -1
	ordered  bool           // the sections nest (parent is usable)
}

// idOffset is the offset of the last line naming an id.
type idOffset struct {
	id  string
	off int
}

// lastLineOf returns the offset of the last line of di's text that names
// id, if the index holds it.
func (di *docInfo) lastLineOf(id string) (int, bool) {
	i, ok := slices.BinarySearchFunc(di.lastNaming, id, func(n idOffset, id string) int { return strings.Compare(n.id, id) })
	if !ok {
		return 0, false
	}
	return di.lastNaming[i].off, true
}

// sortedByID returns the offsets of m sorted by id.
func sortedByID(m map[string]int) []idOffset {
	out := make([]idOffset, 0, len(m))
	for id, off := range m {
		out = append(out, idOffset{id, off})
	}
	slices.SortFunc(out, func(a, b idOffset) int { return strings.Compare(a.id, b.id) })
	return out
}

// remainLine is a line that says "remain", split into sentences once for
// all the validated items of its document.
type remainLine struct {
	off   int // file offset of the line
	sents []sentence
	// inner is the innermost work item whose section holds the line,
	// once innerKnown (see innermostOf)
	inner      *sotparse.WorkItem
	innerKnown bool
}

type span struct{ start, end int }

// section returns the span of the section of it, one of the document's
// work items.
func (di *docInfo) section(it *sotparse.WorkItem) span {
	if di.itemIdx == nil {
		di.itemIdx = make(map[*sotparse.WorkItem]int, len(di.d.WorkItems))
		for i, x := range di.d.WorkItems {
			if _, dup := di.itemIdx[x]; !dup {
				di.itemIdx[x] = i
			}
		}
	}
	if i, ok := di.itemIdx[it]; ok && i < len(di.sections) {
		return di.sections[i]
	}
	return span{}
}

// mark records that the document is about the work item id.
func (di *docInfo) mark(id string) {
	if di.about == nil {
		di.about = map[string]bool{}
	}
	di.about[id] = true
}

// stated is an id an "ID is STATUS" sentence gives the status of: a
// sentence of several ids is one stated each, in order.
type stated struct {
	id, status sotparse.TextID // in the run's table of texts (docInfo.texts)
	off        int             // of the sentence
}

// claims are a document's stated, packed: per claim its id, its status
// and its offset less the one before (in order, 0 or more), as varints
// (see add). Held for every document until the check runs: as strings of
// their own a claim took ~72 bytes, ~70 MB on nesting at 10,000 documents
// (a million claims of a hundred ids), and as a struct of ids 12.
type claims []byte

// add appends s; prev is the claim before it (the zero stated before
// the first). A claim of the sentence and status of the one before (a
// sentence of a hundred ids is a hundred claims) is its id alone, flagged
// in its lowest bit: ~3.5 bytes a claim where each was ~5. The id is
// packed as its difference from prev's (zigzag): a sentence's ids are
// given ids in the run's table in the order it names them, so the ids of
// a list no other document names differ by one, a byte each where an id
// took 3-4 (distinct at 10,000 documents: 2 million claims, 7.8 -> 3.3 MB).
func (c *claims) add(s, prev stated) {
	d := zigzag(int64(s.id) - int64(prev.id))
	if len(*c) > 0 && s.status == prev.status && s.off == prev.off {
		*c = binary.AppendUvarint(*c, d<<1|1)
		return
	}
	*c = binary.AppendUvarint(*c, d<<1)
	*c = binary.AppendUvarint(*c, uint64(s.status))
	*c = binary.AppendVarint(*c, int64(s.off-prev.off))
}

// zigzag maps a signed difference to an unsigned one, small for small
// magnitudes of either sign (as binary.AppendVarint does); unzigzag
// undoes it.
func zigzag(d int64) uint64   { return uint64(d<<1) ^ uint64(d>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// all yields the claims in the order they were added.
func (c claims) all(yield func(stated) bool) {
	var prev stated
	for len(c) > 0 {
		v, n := binary.Uvarint(c)
		if n <= 0 {
			panic("status: claims cut short") // only add writes them
		}
		c = c[n:]
		s := stated{id: sotparse.TextID(int64(prev.id) + unzigzag(v>>1)), status: prev.status, off: prev.off}
		if v&1 == 0 {
			st, m := binary.Uvarint(c)
			if m <= 0 {
				panic("status: claims cut short")
			}
			d, k := binary.Varint(c[m:])
			if k <= 0 {
				panic("status: claims cut short")
			}
			c = c[m+k:]
			s.status, s.off = sotparse.TextID(st), prev.off+int(d)
		}
		if !yield(s) {
			return
		}
		prev = s
	}
}

type result struct {
	status string
	pos    token.Pos
}

// stateOffset returns the offset of the first sentence that states the id
// has the status.
func (di *docInfo) stateOffset(id, status string) (int, bool) {
	if di.stateIdx == nil {
		di.stateIdx = map[string]int{}
		for s := range di.stated.all {
			k := di.texts.Text(s.id) + "\x00" + di.texts.Text(s.status)
			if _, ok := di.stateIdx[k]; !ok {
				di.stateIdx[k] = s.off
			}
		}
	}
	off, ok := di.stateIdx[id+"\x00"+status]
	return off, ok
}

// dateAt returns the ISO date of the innermost heading before off that
// names one ("## Runtime Evidence - 2026-06-01"), or "".
func (di *docInfo) dateAt(off int) string {
	hs := di.d.Headings
	if di.dates == nil {
		// The date in force after each heading, computed once: a search
		// of the headings before each statement was quadratic.
		di.dates = make([]string, len(hs))
		date, level := "", 0
		for i, h := range hs {
			if dm := findDate(h.Text); dm != "" {
				date, level = dm, h.Level
			} else if level > 0 && h.Level <= level {
				date, level = "", 0
			}
			di.dates[i] = date
		}
	}
	if i := headingAt(di.d, off); i >= 0 {
		return di.dates[i]
	}
	return ""
}

// headingAt returns the index of the last heading of d at or before the
// file offset off, or -1. The headings are in document order.
func headingAt(d *sotparse.Doc, off int) int {
	tf := d.File.Tok
	hs := d.Headings
	return sort.Search(len(hs), func(i int) bool { return tf.Offset(hs[i].Pos) > off }) - 1
}

// findDate returns the first date (YYYY-MM-DD) of s standing as a word,
// as `\b\d{4}-\d{2}-\d{2}\b` finds it, or "". dateAt reads the headings
// before each statement it dates, many times over a document: a regular
// expression there was a tenth of the check's time.
func findDate(s string) string {
	for i := 0; i+10 <= len(s); i++ {
		if !isDigit(s[i]) || i > 0 && isWordByte(s[i-1]) {
			continue
		}
		d := s[i : i+10]
		if isDigit(d[1]) && isDigit(d[2]) && isDigit(d[3]) && d[4] == '-' && isDigit(d[5]) && isDigit(d[6]) &&
			d[7] == '-' && isDigit(d[8]) && isDigit(d[9]) && (i+10 == len(s) || !isWordByte(s[i+10])) {
			return d
		}
	}
	return ""
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isWordByte reports whether c is a word character of \b: [0-9A-Za-z_].
func isWordByte(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

// innermost returns the work item whose section most closely holds the
// file offset off, or nil.
func (di *docInfo) innermost(off int) *sotparse.WorkItem {
	if i := di.innermostIdx(off); i >= 0 {
		return di.d.WorkItems[i]
	}
	return nil
}

// innermostIdx returns the index of the last section that holds the
// file offset off, or -1. From the last section starting at or before
// off, the walk goes to the last earlier one still open where that one
// started (parent): any section between them ended before then, so
// cannot hold off. Sections out of order (not the parse's) are all read.
func (di *docInfo) innermostIdx(off int) int {
	secs := di.sections[:min(len(di.sections), len(di.d.WorkItems))]
	if di.parent == nil {
		di.parent = make([]int, len(secs))
		di.ordered = true
		var stack []int
		for i, s := range secs {
			if i > 0 && s.start < secs[i-1].start {
				di.ordered = false
				break
			}
			for len(stack) > 0 && s.start >= secs[stack[len(stack)-1]].end {
				stack = stack[:len(stack)-1]
			}
			di.parent[i] = -1
			if len(stack) > 0 {
				di.parent[i] = stack[len(stack)-1]
			}
			stack = append(stack, i)
		}
	}
	if !di.ordered {
		best := -1
		for i, s := range secs {
			if s.start <= off && off < s.end {
				best = i // later items start later: the last match is innermost
			}
		}
		return best
	}
	i := sort.Search(len(secs), func(i int) bool { return secs[i].start > off }) - 1
	for i >= 0 && off >= secs[i].end {
		i = di.parent[i]
	}
	return i
}

// innermostOf returns di.innermost of the remain line k, found once.
func (di *docInfo) innermostOf(k int) *sotparse.WorkItem {
	ln := &di.remain[k]
	if !ln.innerKnown {
		ln.inner, ln.innerKnown = di.innermost(ln.off), true
	}
	return ln.inner
}

// index reads d, whose content is given: d may be a summary.
func index(d *sotparse.Doc, content []byte, pats *remainPatterns, texts *sotparse.Texts) *docInfo {
	tf := d.File.Tok
	size := len(content)
	scratch := linesScratch.Get().(*[]bodylines.Line)
	lines := bodyLines(d, content, (*scratch)[:0])
	defer func() {
		// Cleared, so that the pool holds no document's text; a huge
		// document's slice is not kept.
		if cap(lines) <= maxScratchLines {
			clear(lines[:cap(lines)])
			*scratch = lines[:0]
			linesScratch.Put(scratch)
		}
	}()
	di := &docInfo{d: d, texts: texts}
	var lastClaim stated // the last of di.stated
	cur := d.Refs.Cursor(sotparse.RefWorkID)
	remain := lines // extra phrases need not say "blocked": read every line
	var withID []bodylines.Line
	if pats.saysBlocked {
		found := linesWithEach(lines, content, blockedNeedle, workIDNeedle)
		remain, withID = found[0], found[1]
	} else {
		withID = linesWith(lines, content, workIDNeedle)
	}
	// A line of both lists is split once, for both readings.
	//
	// Of a remain line, only a sentence that says "blocked", or that
	// follows a label which may ("Still blocked: ..."), can be a claim: on
	// a line of many sentences most are not, and were each read by every
	// pattern of match. (A phrase -still-blocked adds need not say it.)
	//
	// Of a line that names an id, only a sentence that starts with one
	// states a status, and says "is" or "are": most sentences that
	// mention an id do not, and most that start with one say it "remains
	// blocked" or the like. They are dropped before the pattern.
	mayStateStatus := func(s sentence) bool {
		t := strings.TrimLeft(s.text, "`*_")
		return len(t) >= 9 && strings.EqualFold(t[:9], "CTO-WORK-") && saysIsOrAre(t)
	}
	var statements []sentence // of one line at a time
	for ri, wi := 0, 0; ri < len(remain) || wi < len(withID); {
		var ln bodylines.Line
		inRemain, named := false, false
		switch {
		case wi == len(withID) || ri < len(remain) && remain[ri].Off < withID[wi].Off:
			ln, inRemain = remain[ri], true
			ri++
		case ri == len(remain) || withID[wi].Off < remain[ri].Off:
			ln, named = withID[wi], true
			wi++
		default:
			ln, inRemain, named = remain[ri], true, true
			ri, wi = ri+1, wi+1
		}
		var sents []sentence
		labelEnd := -1
		if inRemain && pats.saysBlocked {
			labelEnd = ln.Off + labelSpan(content[ln.Off:])
		}
		statements = statements[:0]
		eachSentence(ln, func(s sentence) {
			if inRemain && (!pats.saysBlocked || mayClaim(s, labelEnd)) {
				sents = append(sents, s)
			}
			if named && mayStateStatus(s) {
				statements = append(statements, s)
			}
		})
		if inRemain {
			di.remain = append(di.remain, remainLine{off: ln.Off, sents: sents})
		}
		for _, s := range statements {
			if m := matchStatesStatus(s.text); m != nil && !inCodeSpan(s.text[:m[1]]) {
				st := strings.ToLower(s.text[m[4]:m[5]])
				if statuses.Has(st) {
					status := texts.ID(st)
					list := s.text[m[2]:m[3]]
					for i := 0; ; {
						start, end := nextID(list, i)
						if start < 0 {
							break
						}
						i = end
						// The parse named the id in the table where the
						// text has it in upper case (as the claim does).
						id := strings.ToUpper(list[start:end])
						tid, ok := cur.At(texts, tf.Pos(s.off+m[2]+start), id)
						if !ok {
							tid = texts.ID(id)
						}
						claim := stated{id: tid, status: status, off: s.off}
						di.stated.add(claim, lastClaim)
						lastClaim = claim
					}
				}
			}
		}
	}
	// sectionEnd returns the offset of the first heading after pos with a
	// level at most level, or the end of the file. The headings are in
	// document order: the search starts after pos.
	hs := d.Headings
	sectionEnd := func(pos token.Pos, level int) int {
		for _, h := range hs[sort.Search(len(hs), func(i int) bool { return hs[i].Pos > pos }):] {
			if h.Level <= level {
				return tf.Offset(h.Pos)
			}
		}
		return size
	}
	var validatedIDs []string
	for _, it := range d.WorkItems {
		di.sections = append(di.sections, span{tf.Offset(it.Pos), sectionEnd(it.Pos, it.Level)})
		if itemStatus(it) != validated {
			continue
		}
		validatedIDs = append(validatedIDs, it.ID)
		if bl := it.BlockedBy; bl != nil && strings.TrimSpace(bl.Value) == "" {
			if di.blockedLists == nil {
				di.blockedLists = map[*sotparse.WorkItem]blockedList{}
			}
			di.blockedLists[it] = blockedListOf(d, content, it)
		}
	}
	if len(validatedIDs) > 0 {
		di.lastNaming = sortedByID(lastLinesNaming(content, validatedIDs))
	}
	var workboard []span
	for _, h := range d.Headings {
		if strings.EqualFold(strings.TrimSpace(h.Text), "Workboard") {
			workboard = append(workboard, span{tf.Offset(h.End), sectionEnd(h.Pos, h.Level)})
		}
	}
	inItem := func(off int) bool { return di.innermostIdx(off) >= 0 }
	for _, ln := range lines {
		if m := workItemLineMatch(ln.Text); m != nil && !inItem(ln.Off) {
			for id := range ids(m[1]) {
				di.mark(id)
			}
		}
		for _, s := range workboard {
			if s.start <= ln.Off && ln.Off < s.end && listItemPattern.MatchString(ln.Text) {
				for id := range ids(ln.Text) {
					di.mark(id)
				}
			}
		}
	}
	for _, l := range d.StatusLines {
		if l.Item != nil {
			continue
		}
		if w := bareStatus(l.Value); w != "" {
			di.results = append(di.results, result{w, l.ValuePos})
		}
	}
	for _, f := range d.Facts.Each() {
		if !strings.EqualFold(f.Key, "status") {
			continue
		}
		if w := bareStatus(f.Value); w != "" && !inItem(tf.Offset(f.Pos)) {
			di.results = append(di.results, result{w, f.ValuePos})
		}
	}
	di.rx = pats.match(di, content)
	for i := range di.remain {
		for j := range di.remain[i].sents {
			// Matched: the text would keep the document's alive.
			di.remain[i].sents[j].text = ""
		}
	}
	return di
}

// isNeedle and areNeedle find statesStatus's verbs in any case.
var isNeedle, areNeedle = newNeedle("is"), newNeedle("are")

// saysIsOrAre reports whether s can hold statesStatus's verb: "is" or
// "are" in some case, or a LONG S, which (?i) matches as an "s".
func saysIsOrAre(s string) bool {
	return isNeedle.index(s) >= 0 || areNeedle.index(s) >= 0 || strings.Contains(s, "\u017f")
}

// ids yields the work ids of s that idPattern finds, upper-cased: a
// sentence of claims names a hundred, once a slice of them each.
func ids(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for i := 0; ; {
			start, end := nextID(s, i)
			if start < 0 || !yield(strings.ToUpper(s[start:end])) {
				return
			}
			i = end
		}
	}
}

// nextID returns the bounds of the first match of idPattern in s at or
// after from, or -1: a search for the id's letters and a look at the bytes
// around them, rather than the case-insensitive pattern, which has no
// literal prefix to search for and runs byte by byte on every claim.
func nextID(s string, from int) (start, end int) {
	for from < len(s) {
		j := idStartNeedle.index(s[from:])
		if j < 0 {
			break
		}
		start = from + j
		from = start + 1
		if start > 0 && isWordByte(s[start-1]) {
			continue // \b
		}
		i := start + len(idStartNeedle.word)
		switch {
		case i < len(s) && (s[i] == 'k' || s[i] == 'K'):
			i++
		case strings.HasPrefix(s[i:], "\u212a"): // the KELVIN SIGN matches "k" under (?i)
			i += len("\u212a")
		default:
			continue
		}
		if i >= len(s) || s[i] != '-' {
			continue
		}
		i++
		digits := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == digits || i < len(s) && isWordByte(s[i]) {
			continue // no digits, or no \b after them (nor after fewer)
		}
		return start, i
	}
	return -1, -1
}

// linesScratch holds the slices index reads a document's lines into, one
// per document at a time, which it keeps none of.
var linesScratch = sync.Pool{New: func() any { return new([]bodylines.Line) }}

const maxScratchLines = 1 << 14

// bodyLines returns the body's lines outside fenced code and blockquotes
// (a quote quotes, it does not state), in dst's memory.
func bodyLines(d *sotparse.Doc, content []byte, dst []bodylines.Line) []bodylines.Line {
	starts := bodylines.Starts(d.File.Tok, content, d.File.Content)
	body := d.File.Tok.Offset(d.BodyStart)
	if starts != nil {
		// At most one line each from the body's first on: sized once, not
		// grown by doubling through a large document.
		if n := len(starts) - sort.SearchInts(starts, body); cap(dst) < n {
			dst = make([]bodylines.Line, 0, n)
		}
	}
	bodylines.EachIn(content, starts, body, len(content), func(l bodylines.Line) {
		if !l.Quoted {
			dst = append(dst, l)
		}
	})
	return dst
}

// sentence is a sentence of a line with its list marker, task box and
// leading label removed.
type sentence struct {
	off  int // file offset of the first byte of text
	text string
}

// workItemLineMatch matches workItemLine against a line that can hold it
// (it starts with "work item", in any case): most lines cannot.
func workItemLineMatch(text string) []string {
	t := strings.TrimSpace(text)
	if len(t) < 10 || (t[0] != 'w' && t[0] != 'W') {
		return nil
	}
	return workItemLine.FindStringSubmatch(t)
}

// needle is a word searched for without regard to ASCII case, with what
// the searches use computed once.
type needle struct {
	word, lowerTail, upperTail string
	// rare is the index in word of its rarest letter, what linesWith
	// looks for first.
	rare int
}

var (
	workIDNeedle  = newNeedle("CTO-WORK-")
	blockedNeedle = newNeedle("blocked")
)

// letterRank orders the ASCII letters from the most to the least common in
// English text.
const letterRank = "etaoinshrdlcumwfgypbvkjxqz"

func newNeedle(w string) needle {
	n := needle{word: w, lowerTail: strings.ToLower(w[1:]), upperTail: strings.ToUpper(w[1:])}
	best := -1
	for i := 0; i < len(w); i++ {
		if r := strings.IndexByte(letterRank, lower(w[i])); r > best {
			n.rare, best = i, r
		}
	}
	return n
}

// linesWith returns the lines that contain the needle (see needle.in), in
// order; lines come from content.
func linesWith(lines []bodylines.Line, content []byte, n needle) []bodylines.Line {
	return linesWithEach(lines, content, n)[0]
}

// linesWithEach returns, for each needle, the lines that contain it, as
// linesWith does. Rather than test each line, it looks through content for
// the needles' rarest letters in either case, and tests only the lines
// where a needle is around one: one search of a long text is cheaper than
// many of short ones, and needles with the same rare letter share theirs.
func linesWithEach(lines []bodylines.Line, content []byte, ns ...needle) [][]bodylines.Line {
	out := make([][]bodylines.Line, len(ns))
	if len(lines) == 0 {
		return out
	}
	hits := make([][]int, len(ns)) // indexes in lines
	for k, n := range ns {
		c := lower(n.word[n.rare])
		if slices.ContainsFunc(ns[:k], func(m needle) bool { return lower(m.word[m.rare]) == c }) {
			continue // searched with an earlier needle
		}
		for _, b := range []byte{c, upper(c)} {
			for off := lines[0].Off; off < len(content); {
				at := bytes.IndexByte(content[off:], b)
				if at < 0 {
					break
				}
				at += off
				off = at + 1
				for h := k; h < len(ns); h++ {
					m := &ns[h]
					if lower(m.word[m.rare]) != c {
						continue
					}
					start := at - m.rare
					if start < lines[0].Off || start+len(m.word) > len(content) || !equalFold(content[start:start+len(m.word)], m.word) {
						continue
					}
					// The line that starts last at or before start, if the
					// needle lies in it.
					i := sort.Search(len(lines), func(i int) bool { return lines[i].Off > start }) - 1
					if i >= 0 && start+len(m.word) <= lines[i].Off+len(lines[i].Text) {
						if n := len(hits[h]); n == 0 || hits[h][n-1] != i {
							hits[h] = append(hits[h], i) // once a line, not once a word: a line may name a hundred ids
						}
					}
				}
			}
			if upper(c) == c {
				break
			}
		}
	}
	for k, n := range ns {
		slices.Sort(hits[k])
		for _, i := range slices.Compact(hits[k]) {
			if n.in(lines[i].Text) {
				out[k] = append(out[k], lines[i])
			}
		}
	}
	return out
}

// equalFold reports whether b is the ASCII word w in any case.
func equalFold[T string | []byte](b T, w string) bool {
	for i := range len(w) {
		if lower(b[i]) != lower(w[i]) {
			return false
		}
	}
	return true
}

// in reports whether s contains the needle in any ASCII case. The
// vectorised searches for the word as written and for its tail in lower or
// upper case come first; only then the byte-by-byte fold. (A tail in mixed
// case, "ReMAIN", is not matched: nobody writes that.)
func (n needle) in(s string) bool {
	if strings.Contains(s, n.word) {
		return true
	}
	if !strings.Contains(s, n.lowerTail) && !strings.Contains(s, n.upperTail) {
		return false
	}
	return containsFold(s, n.word)
}

// index returns the offset of the first occurrence of the needle in s in
// any ASCII case, or -1. Unlike in, it is exact: it looks for the rarest
// letter in either case and compares the word around each.
func (n needle) index(s string) int {
	first := -1
	c := lower(n.word[n.rare])
	for _, b := range []byte{c, upper(c)} {
		end := len(s) - len(n.word) + n.rare // the last offset of the letter that leaves room for the word
		if first >= 0 {
			end = first + n.rare - 1 // a later hit cannot come first
		}
		for off := n.rare; off <= end; {
			at := strings.IndexByte(s[off:end+1], b)
			if at < 0 {
				break
			}
			at += off
			if start := at - n.rare; equalFold(s[start:start+len(n.word)], n.word) {
				first = start
				break
			}
			off = at + 1
		}
		if upper(c) == c {
			break
		}
	}
	return first
}

// containsFold reports whether s contains the ASCII word, ignoring case.
func containsFold(s, word string) bool {
	n := len(word)
	for i := 0; i+n <= len(s); i++ {
		j := 0
		for j < n && lower(s[i+j]) == lower(word[j]) {
			j++
		}
		if j == n {
			return true
		}
	}
	return false
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// sentences splits a line into sentences at ".", ";", "!" or "?" followed
// by a space or the end of the line.
func sentences(ln bodylines.Line) []sentence {
	var out []sentence
	eachSentence(ln, func(s sentence) { out = append(out, s) })
	return out
}

// eachSentence calls f with each sentence of ln (see sentences), in order.
func eachSentence(ln bodylines.Line, f func(sentence)) {
	start := markerLen(ln.Text)
	text := ln.Text
	add := func(from, to int) {
		for from < to && (text[from] == ' ' || text[from] == '\t') {
			from++
		}
		from += labelLen(text[from:to])
		if from < to {
			f(sentence{off: ln.Off + from, text: text[from:to]})
		}
	}
	for i := start; i < len(text); i++ {
		switch text[i] {
		case '.', ';', '!', '?':
			if i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\t' {
				add(start, i)
				start = i + 1
			}
		}
	}
	add(start, len(text))
}

// markerLen returns the length of the line's list marker and task box,
// with the blanks around them: what `^\s*(?:(?:[-*+]|\d{1,9}[.)])\s+)?(?:\[[ xX]\]\s+)?`
// matches (lineMarkerRE in the tests), without a regular expression: it
// runs on every line that names a work item.
func markerLen(s string) int {
	i := spaces(s, 0)
	// A list marker counts with the blanks after it, of which it needs one.
	j := i
	if j < len(s) && (s[j] == '-' || s[j] == '*' || s[j] == '+') {
		j++
	} else {
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i || j-i > 9 || j == len(s) || s[j] != '.' && s[j] != ')' {
			j = i // not a marker
		} else {
			j++
		}
	}
	if j > i {
		if k := spaces(s, j); k > j {
			i = k
		}
	}
	// So does a task box.
	if i+3 <= len(s) && s[i] == '[' && (s[i+1] == ' ' || s[i+1] == 'x' || s[i+1] == 'X') && s[i+2] == ']' {
		if k := spaces(s, i+3); k > i+3 {
			i = k
		}
	}
	return i
}

// labelLen returns the length of the label that starts s ("Evidence: "),
// with the blanks after it, or 0: what `^[A-Za-z][A-Za-z ]{0,40}:\s+`
// matches (sentenceLabelRE in the tests).
func labelLen(s string) int {
	if s == "" || !isLetter(s[0]) {
		return 0
	}
	i := 1
	for i < len(s) && (isLetter(s[i]) || s[i] == ' ') {
		i++
	}
	if i > 41 || i == len(s) || s[i] != ':' {
		return 0
	}
	if k := spaces(s, i+1); k > i+1 {
		return k
	}
	return 0
}

// spaces returns the offset of the first byte at or after i in s that is
// not white space as \s means it (ASCII: tab, line feed, form feed,
// carriage return, space).
func spaces(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\f' || s[i] == '\r') {
		i++
	}
	return i
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
