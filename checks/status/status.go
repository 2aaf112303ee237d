package status

import (
	"bytes"
	"fmt"
	"go/token"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/checks/internal/vocab"
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
}

const validated = "validated"

var (
	idPattern = regexp.MustCompile(`(?i)\bCTO-WORK-\d+\b`)
	// An id, possibly in a code span or emphasis, and lists of them:
	// "`CTO-WORK-078`, `CTO-WORK-079`, and `CTO-WORK-080`".
	idTok  = "[`*_]*CTO-WORK-\\d+[`*_]*"
	idList = idTok + `(?:\s*,\s*(?:and\s+)?` + idTok + `|\s+and\s+` + idTok + `)*`

	remainsByID     = regexp.MustCompile(`(?i)^(` + idList + `)\s+remains?\s+blocked\b`)
	remainsThis     = regexp.MustCompile(`(?i)^(?:this issue|this item|this work item|the item|the issue)\s+remains?\s+blocked\b`)
	statusRemains   = regexp.MustCompile(`(?i)^status\s+remains\s+blocked$`)
	statesStatus    = regexp.MustCompile(`(?i)^(` + idList + `)\s+(?:is|are)\s+(?:now\s+)?([a-z][a-z-]*)\b`)
	workItemLine    = regexp.MustCompile(`(?i)^work items?:\s+(.*)$`)
	lineMarker      = regexp.MustCompile(`^\s*(?:(?:[-*+]|\d{1,9}[.)])\s+)?(?:\[[ xX]\]\s+)?`)
	sentenceLabel   = regexp.MustCompile(`^[A-Za-z][A-Za-z ]{0,40}:\s+`)
	listItemPattern = regexp.MustCompile(`^\s*(?:[-*+]|\d{1,9}[.)])\s`)
)

func run(pass *analysis.Pass) (any, error) {
	ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
	c := &checker{pass: pass, ws: ws, info: map[*sotparse.Doc]*docInfo{}}
	var focused []*sotparse.Doc
	for _, d := range ws.Docs {
		if ws.Focused(d.Path) {
			focused = append(focused, d)
		}
	}
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
		for _, it := range d.WorkItems {
			c.workboard(d, it)
			if itemStatus(it) != validated {
				continue
			}
			c.acceptance(it)
			c.blockers(it)
			c.remainsBlocked(c.info[d], it)
		}
	}
	return nil, nil
}

// index indexes docs in parallel: it reads every line of every document.
// A document out of focus may be a summary, whose content is read back.
func (c *checker) index(docs []*sotparse.Doc) {
	c.ws.Prefetch(docs)
	out := make([]*docInfo, len(docs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = index(docs[i], c.ws.Content(docs[i]))
			}
		}()
	}
	for i := range docs {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, d := range docs {
		c.info[d] = out[i]
	}
}

// mentioning returns the index of every document that may name the work
// item id: those in focus, and those out of focus whose text names it,
// indexed the first time (corroboration reads other documents' text).
func (c *checker) mentioning(id string) []*docInfo {
	var todo []*sotparse.Doc
	for _, d := range c.ws.Docs {
		if c.info[d] == nil && d.MayMention(id) {
			todo = append(todo, d)
		}
	}
	c.index(todo)
	var out []*docInfo
	for _, d := range c.ws.Docs {
		if di := c.info[d]; di != nil && d.MayMention(id) {
			out = append(out, di)
		}
	}
	return out
}

type checker struct {
	pass *analysis.Pass
	ws   *sotparse.Workspace
	info map[*sotparse.Doc]*docInfo // the documents indexed so far
}

func (c *checker) report(pos, end token.Pos, category, format string, args ...any) {
	c.pass.Report(analysis.Diagnostic{Pos: pos, End: end, Category: category, Message: fmt.Sprintf(format, args...)})
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
			c.report(l.ValuePos, l.End, "doc-status", "body says \"Status: %s\" but the frontmatter status is %q", l.Value, fm.Status.Value)
		}
	}
}

// workboard compares the item's status with its workboard entry.
func (c *checker) workboard(d *sotparse.Doc, it *sotparse.WorkItem) {
	st := itemStatus(it)
	if st == "" {
		return
	}
	wi := c.ws.Workboard.Item(it.ID)
	if wi == nil || wi.Status == nil || !wi.Status.Scalar {
		return // the refs and workboard checks report missing items and statuses
	}
	wst := strings.ToLower(strings.TrimSpace(wi.Status.Value))
	if wst == st || !statuses.Has(wst) {
		return
	}
	if c.corroborated(it.ID, wst, d) {
		return
	}
	c.report(it.Status.ValuePos, it.Status.End, "workboard-mismatch",
		"%s is %q here but %q in %s, and no other document states it is %s",
		it.ID, st, wst, c.ws.Workboard.File.Path, wst)
}

// corroborated reports whether a document other than except states that
// the item id has the status.
func (c *checker) corroborated(id, status string, except *sotparse.Doc) bool {
	for _, di := range c.mentioning(id) {
		if di.d == except {
			continue
		}
		if di.states(id, status) {
			return true
		}
		if di.about[id] && slices.Contains(di.results, status) {
			return true
		}
		for _, it := range di.d.WorkItems {
			if it.ID == id && itemStatus(it) == status {
				return true
			}
		}
	}
	return false
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
	c.report(first.Pos, first.End, "unchecked-acceptance", "%s is validated but %d of its %d acceptance checkboxes %s unchecked", it.ID, n, len(it.Checkboxes), map[bool]string{true: "is", false: "are"}[n == 1])
}

// blockers reports a validated item blocked by an item that is not
// validated.
func (c *checker) blockers(it *sotparse.WorkItem) {
	seen := map[string]bool{}
	for _, b := range it.Blockers {
		id := strings.ToUpper(b.Text)
		if id == it.ID || seen[id] {
			continue
		}
		seen[id] = true
		st, where := c.statusOf(id)
		if st == "" || st == validated {
			continue // unknown ids are the refs check's business
		}
		c.report(b.Pos, b.End, "blocked-by-open", "%s is validated but its blocker %s is %q in %s", it.ID, id, st, where)
	}
}

// statusOf returns the status of the item id and where it comes from: the
// workboard, or the first defining document with a Status line.
func (c *checker) statusOf(id string) (status, where string) {
	if wi := c.ws.Workboard.Item(id); wi != nil && wi.Status != nil && wi.Status.Scalar && strings.TrimSpace(wi.Status.Value) != "" {
		return strings.ToLower(strings.TrimSpace(wi.Status.Value)), c.ws.Workboard.File.Path
	}
	for _, d := range c.ws.Docs {
		for _, it := range d.WorkItems {
			if it.ID == id && it.Status != nil {
				w, _, _ := strings.Cut(strings.TrimSpace(it.Status.Value), " ")
				if w = normStatus(w); w != "" {
					return w, d.Path
				}
			}
		}
	}
	return "", ""
}

// remainsBlocked reports statements that the validated item it remains
// blocked.
func (c *checker) remainsBlocked(di *docInfo, it *sotparse.WorkItem) {
	tf := di.d.File.Tok
	sec := di.sections[it]
	statusEnd := tf.Offset(it.Status.End)
	journal := di.states(it.ID, validated)
	for _, ln := range di.remain {
		if ln.off < sec.start {
			continue
		}
		inSec := ln.off < sec.end
		if !inSec && ln.off < statusEnd {
			continue
		}
		own := inSec && di.innermost(ln.off) == it
		for _, s := range ln.sents {
			end := -1
			if m := remainsByID.FindStringSubmatchIndex(s.text); m != nil && !inCodeSpan(s.text[:m[1]]) {
				if containsID(s.text[m[2]:m[3]], it.ID) && (inSec || !journal) {
					end = m[1]
				}
			} else if own {
				if m := remainsThis.FindStringIndex(s.text); m != nil {
					end = m[1]
				} else if statusRemains.MatchString(strings.TrimRight(s.text, " *_")) {
					end = len(strings.TrimRight(s.text, " *_"))
				}
			}
			if end < 0 {
				continue
			}
			c.report(di.d.File.Pos(s.off), di.d.File.Pos(s.off+end), "remains-blocked", "%s is validated but this says it remains blocked", it.ID)
		}
	}
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
	sections map[*sotparse.WorkItem]span
	stated   []stated        // "ID is STATUS" sentences
	about    map[string]bool // ids the document is about
	results  []string        // document-level bare statuses
	// remain holds the lines that say "remain" in any case: the only ones
	// remainsBlocked reads, for each validated item.
	remain []remainLine
}

// remainLine is a line that says "remain", split into sentences once for
// all the validated items of its document.
type remainLine struct {
	off   int // file offset of the line
	sents []sentence
}

type span struct{ start, end int }

type stated struct {
	ids    []string
	status string
}

func (di *docInfo) states(id, status string) bool {
	for _, s := range di.stated {
		if s.status == status && slices.Contains(s.ids, id) {
			return true
		}
	}
	return false
}

// innermost returns the work item whose section most closely holds the
// file offset off, or nil.
func (di *docInfo) innermost(off int) *sotparse.WorkItem {
	var best *sotparse.WorkItem
	for _, it := range di.d.WorkItems {
		if s := di.sections[it]; s.start <= off && off < s.end {
			best = it // later items start later: the last match is innermost
		}
	}
	return best
}

// index reads d, whose content is given: d may be a summary.
func index(d *sotparse.Doc, content []byte) *docInfo {
	tf := d.File.Tok
	size := len(content)
	lines := bodyLines(d, content)
	di := &docInfo{d: d, sections: map[*sotparse.WorkItem]span{}, about: map[string]bool{}}
	for _, ln := range linesWith(lines, content, remainNeedle) {
		di.remain = append(di.remain, remainLine{ln.Off, sentences(ln)})
	}
	// sectionEnd returns the offset of the first heading after pos with a
	// level at most level, or the end of the file.
	sectionEnd := func(pos token.Pos, level int) int {
		for _, h := range d.Headings {
			if h.Pos > pos && h.Level <= level {
				return tf.Offset(h.Pos)
			}
		}
		return size
	}
	for _, it := range d.WorkItems {
		di.sections[it] = span{tf.Offset(it.Pos), sectionEnd(it.Pos, it.Level)}
	}
	var workboard []span
	for _, h := range d.Headings {
		if strings.EqualFold(strings.TrimSpace(h.Text), "Workboard") {
			workboard = append(workboard, span{tf.Offset(h.End), sectionEnd(h.Pos, h.Level)})
		}
	}
	inItem := func(off int) bool {
		for _, s := range di.sections {
			if s.start <= off && off < s.end {
				return true
			}
		}
		return false
	}
	// Only a sentence that starts with a work id states a status.
	for _, ln := range linesWith(lines, content, workIDNeedle) {
		for _, s := range sentences(ln) {
			// A statement starts with its id: most sentences that mention an
			// id do not, and are rejected before the pattern.
			if t := strings.TrimLeft(s.text, "`*_"); len(t) < 9 || !strings.EqualFold(t[:9], "CTO-WORK-") {
				continue
			}
			if m := statesStatus.FindStringSubmatchIndex(s.text); m != nil && !inCodeSpan(s.text[:m[1]]) {
				st := strings.ToLower(s.text[m[4]:m[5]])
				if statuses.Has(st) {
					di.stated = append(di.stated, stated{ids: ids(s.text[m[2]:m[3]]), status: st})
				}
			}
		}
	}
	for _, ln := range lines {
		if m := workItemLineMatch(ln.Text); m != nil && !inItem(ln.Off) {
			for _, id := range ids(m[1]) {
				di.about[id] = true
			}
		}
		for _, s := range workboard {
			if s.start <= ln.Off && ln.Off < s.end && listItemPattern.MatchString(ln.Text) {
				for _, id := range ids(ln.Text) {
					di.about[id] = true
				}
			}
		}
	}
	for _, l := range d.StatusLines {
		if l.Item != nil {
			continue
		}
		if w := bareStatus(l.Value); w != "" {
			di.results = append(di.results, w)
		}
	}
	for _, f := range d.Facts {
		if !strings.EqualFold(f.Key, "status") {
			continue
		}
		if w := bareStatus(f.Value); w != "" && !inItem(tf.Offset(f.Pos)) {
			di.results = append(di.results, w)
		}
	}
	return di
}

func ids(s string) []string {
	var out []string
	for _, m := range idPattern.FindAllString(s, -1) {
		out = append(out, strings.ToUpper(m))
	}
	return out
}

// bodyLines returns the body's lines outside fenced code and blockquotes:
// a quote quotes, it does not state.
func bodyLines(d *sotparse.Doc, content []byte) []bodylines.Line {
	lines := bodylines.Lines(content, d.File.Tok.Offset(d.BodyStart), len(content))
	out := lines[:0] // in place: the lines are the index's to keep or drop
	for _, l := range lines {
		if !l.Quoted {
			out = append(out, l)
		}
	}
	return out
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
	workIDNeedle = newNeedle("CTO-WORK-")
	remainNeedle = newNeedle("remain")
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
// order; lines come from content. Rather than test each line, it looks
// through content for the needle's rarest letter in either case, and tests
// only the lines where the needle is around one: one search of a long text
// is cheaper than many of short ones.
func linesWith(lines []bodylines.Line, content []byte, n needle) []bodylines.Line {
	if len(lines) == 0 {
		return nil
	}
	var hits []int // indexes in lines
	c := n.word[n.rare]
	for _, b := range []byte{lower(c), upper(c)} {
		for off := lines[0].Off + n.rare; off < len(content); {
			k := bytes.IndexByte(content[off:], b)
			if k < 0 {
				break
			}
			start := off + k - n.rare
			off += k + 1
			if start+len(n.word) > len(content) || !equalFold(content[start:start+len(n.word)], n.word) {
				continue
			}
			// The line that starts last at or before start, if the
			// needle lies in it.
			i := sort.Search(len(lines), func(i int) bool { return lines[i].Off > start }) - 1
			if i >= 0 && start+len(n.word) <= lines[i].Off+len(lines[i].Text) {
				hits = append(hits, i)
			}
		}
		if upper(c) == lower(c) {
			break
		}
	}
	slices.Sort(hits)
	var out []bodylines.Line
	for _, i := range slices.Compact(hits) {
		if n.in(lines[i].Text) {
			out = append(out, lines[i])
		}
	}
	return out
}

// equalFold reports whether b is the ASCII word w in any case.
func equalFold(b []byte, w string) bool {
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
	start := len(lineMarker.FindString(ln.Text))
	text := ln.Text
	var out []sentence
	add := func(from, to int) {
		for from < to && (text[from] == ' ' || text[from] == '\t') {
			from++
		}
		if loc := sentenceLabel.FindStringIndex(text[from:to]); loc != nil {
			from += loc[1]
		}
		if from < to {
			out = append(out, sentence{off: ln.Off + from, text: text[from:to]})
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
	return out
}
