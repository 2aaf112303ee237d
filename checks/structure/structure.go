package structure

import (
	"bytes"
	"fmt"
	"go/token"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/sotparse"
)

// Analyzer checks document outlines.
var Analyzer = &analysis.Analyzer{
	Name:     "structure",
	Doc:      docutil.MustExtract(doc, "structure"),
	URL:      "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#structure",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run:      run,
}

// DefaultPRDSections are the sections every PRD convention of the corpus
// has (see the package documentation).
var DefaultPRDSections = []string{
	"Problem Statement|Problem",
	"Non-Goals|Explicit Non-Goals|Out of Scope",
	"Acceptance Criteria|Acceptance Evidence",
}

var prdSections = mustSections(strings.Join(DefaultPRDSections, ","))

func init() {
	Analyzer.Flags.Var(prdSections, "prd-sections", `sections every PRD must have: a comma-separated or YAML list; "A|B" means a section named A or B`)
}

// DocCheck is the whole check: every rule reads one document.
var DocCheck = &sotparse.DocCheck{Prepare: prepare, Run: checkDoc}

// prepared is what the flags say, made once per run.
type prepared struct {
	frame *framing   // -framing-words, for near-duplicate-line
	prd   []prdGroup // -prd-sections
}

// prdGroup is a required PRD section: the headings that count, in the
// form they are compared in, and the message a PRD without one gets (the
// PRDs of a legacy workspace share it).
type prdGroup struct {
	norms []string
	msg   string
}

func prepare() any {
	p := &prepared{frame: newFraming(framingWords)}
	for _, alts := range prdSections.groups {
		g := prdGroup{msg: "PRD has no " + quoteAlts(alts) + " section"}
		for _, a := range alts {
			g.norms = append(g.norms, normHeading(a))
		}
		p.prd = append(p.prd, g)
	}
	return p
}

func run(pass *analysis.Pass) (any, error) {
	DocCheck.Each(pass, pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace))
	return nil, nil
}

func checkDoc(p *sotparse.DocPass) any {
	if !p.Focused() {
		return nil
	}
	d := p.Doc
	pr := p.Prepared.(*prepared)
	c := &checker{pass: p, content: p.Content, frame: pr.frame, prd: pr.prd}
	c.headings(d)
	if d.Kind == sotparse.KindPRD {
		c.sections(d)
	}
	if d.Kind == sotparse.KindIssues {
		c.items(d)
	}
	c.duplicates(d)
	c.nearDuplicates(d)
	return nil
}

// checker checks one document.
type checker struct {
	pass    *sotparse.DocPass
	content []byte     // the document's text
	frame   *framing   // -framing-words, for near-duplicate-line
	prd     []prdGroup // -prd-sections
}

func (c *checker) report(pos, end token.Pos, category, format string, args ...any) {
	if end < pos {
		end = pos
	}
	c.pass.Report(analysis.Diagnostic{Pos: pos, End: end, Category: category, Message: fmt.Sprintf(format, args...)})
}

// headings checks that there is one H1 and that levels do not skip.
func (c *checker) headings(d *sotparse.Doc) {
	var first *sotparse.Heading
	for i, h := range d.Headings {
		if h.Level == 1 {
			if first == nil {
				first = h
			} else {
				c.report(h.Pos, h.End, "h1", "second H1 heading %q; the document already has the H1 %q", h.Text, first.Text)
			}
		}
		if i > 0 {
			if prev := d.Headings[i-1]; h.Level > prev.Level+1 {
				c.report(h.Pos, h.End, "heading-level", "H%d %q follows H%d %q, skipping a level; use H%d", h.Level, h.Text, prev.Level, prev.Text, prev.Level+1)
			}
		}
	}
	if first == nil {
		c.report(d.BodyStart, d.BodyStart, "h1", "document has no H1 heading")
	}
}

// normHeading is the form headings are compared in.
func normHeading(s string) string {
	s = strings.Trim(strings.TrimSpace(s), "*_`")
	s = strings.TrimSuffix(strings.TrimSpace(s), ":")
	s = strings.ReplaceAll(strings.ToLower(s), "-", " ")
	return strings.Join(strings.Fields(s), " ")
}

// sections reports the required sections a PRD lacks.
func (c *checker) sections(d *sotparse.Doc) {
	have := map[string]bool{}
	for _, h := range d.Headings {
		have[normHeading(h.Text)] = true
	}
	pos, end := d.BodyStart, d.BodyStart
	for _, h := range d.Headings {
		if h.Level == 1 {
			pos, end = h.Pos, h.End
			break
		}
	}
	for _, g := range c.prd {
		found := false
		for _, a := range g.norms {
			if have[a] {
				found = true
				break
			}
		}
		if !found {
			c.pass.Report(analysis.Diagnostic{Pos: pos, End: end, Category: "missing-section", Message: g.msg})
		}
	}
}

func quoteAlts(alts []string) string {
	q := make([]string, len(alts))
	for i, a := range alts {
		q[i] = fmt.Sprintf("%q", a)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

var (
	acceptanceLabel   = lazyRE.New(`(?i)^\s{0,3}(?:\*\*|__)?acceptance(?:\s+(?:criteria|evidence))?(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.*?)\s*$`)
	acceptanceHeading = lazyRE.New(`(?i)^\s{0,3}#{1,6}\s+acceptance(?:\s+(?:criteria|evidence))?\s*:?\s*#*\s*$`)
	listItem          = lazyRE.New(`^\s*(?:[-*+]|\d{1,9}[.)])\s+\S`)
)

// mentionsAcceptance reports whether s holds "acceptance" in any letter
// case, as acceptanceLabel and acceptanceHeading need it to (none of its
// letters has a non-ASCII case fold).
func mentionsAcceptance(s string) bool {
	const word = "acceptance"
	for i := 0; i+len(word) <= len(s); i++ {
		j := 0
		for j < len(word) && s[i+j]|0x20 == word[j] {
			j++
		}
		if j == len(word) {
			return true
		}
	}
	return false
}

// acceptanceWord is "acceptance", which every acceptance label holds.
var acceptanceWord = bodylines.NewWord("acceptance")

// items checks that each work item of an ISSUES document has a status and
// acceptance.
func (c *checker) items(d *sotparse.Doc) {
	tf := d.File.Tok
	for _, it := range d.WorkItems {
		switch {
		case it.Status == nil:
			c.report(it.Pos, it.End, "item-status", "%s has no \"Status:\" line", it.ID)
		case strings.TrimSpace(strings.Trim(it.Status.Value, ".*_` ")) == "":
			c.report(it.Status.Pos, it.Status.End, "item-status", "%s has an empty \"Status:\" line", it.ID)
		}
		if len(it.Checkboxes) > 0 {
			continue
		}
		start, end := tf.Offset(it.End), sectionEnd(d, it)
		if start >= end || !acceptanceWord.In(c.content[start:min(end, len(c.content))]) {
			// No line can hold a label: most items of a legacy list.
			c.noAcceptance(it)
			continue
		}
		lines := bodylines.Lines(c.content, start, end)
		label := -1
		ok := false
		for i, ln := range lines {
			if !mentionsAcceptance(ln.Text) {
				continue // both patterns need the word: skip the regexps
			}
			if acceptanceHeading.MatchString(ln.Text) {
				label = i
			} else if m := acceptanceLabel.FindStringSubmatch(ln.Text); m != nil {
				label = i
				if m[1] != "" {
					ok = true
					break
				}
			} else {
				continue
			}
			for _, next := range lines[i+1:] {
				if strings.TrimSpace(next.Text) == "" {
					continue
				}
				ok = listItem.MatchString(next.Text)
				break
			}
			if ok {
				break
			}
		}
		switch {
		case ok:
		case label >= 0:
			ln := lines[label]
			c.report(d.File.Pos(ln.Off), d.File.Pos(ln.Off+len(ln.Text)), "item-acceptance", "%s has an acceptance label with no criteria after it", it.ID)
		default:
			c.noAcceptance(it)
		}
	}
}

func (c *checker) noAcceptance(it *sotparse.WorkItem) {
	// Most items of a legacy list: the message is joined, not formatted.
	c.pass.Report(analysis.Diagnostic{Pos: it.Pos, End: max(it.End, it.Pos), Category: "item-acceptance",
		Message: it.ID + " has no acceptance criteria: no task boxes and no \"Acceptance:\" list"})
}

// sectionEnd returns the file offset where the work item's section ends:
// the next heading of its level or above, or the end of the file.
func sectionEnd(d *sotparse.Doc, it *sotparse.WorkItem) int {
	// The headings are in document order: the search starts after the
	// item, not from the first heading for every item.
	hs := d.Headings
	for _, h := range hs[sort.Search(len(hs), func(i int) bool { return hs[i].Pos > it.Pos }):] {
		if h.Level <= it.Level {
			return d.File.Tok.Offset(h.Pos)
		}
	}
	return d.File.Tok.Size()
}

var (
	markerOnly = lazyRE.New(`^\s*(?:(?:[-*+]|\d{1,9}[.)])(?:\s+\[[ xX]\])?)?\s*$`)
	separator  = lazyRE.New(`^\s{0,3}(?:(?:[-*_]\s*){3,}|=+|-+)\s*$`)
	htmlTag    = lazyRE.New(`^\s*</?[A-Za-z][^<>]*>\s*$`)
)

// duplicates reports a body line identical to the line before it.
func (c *checker) duplicates(d *sotparse.Doc) {
	content := c.content
	start := d.File.Tok.Offset(d.BodyStart)
	if !repeatsLineIn(content, bodylines.Starts(d.File.Tok, content, d.File.Content), start) {
		return // most documents: no line repeats the one before it
	}
	lines := bodylines.Lines(content, start, len(content))
	for i := 1; i < len(lines); i++ {
		prev, cur := lines[i-1], lines[i]
		a, b := strings.TrimRight(prev.Text, " \t"), strings.TrimRight(cur.Text, " \t")
		if a != b || strings.TrimSpace(b) == "" || !adjacent(content, prev, cur) {
			continue // different, blank, or not adjacent (a fence between)
		}
		t := strings.TrimSpace(b)
		if strings.HasPrefix(t, "|") || markerOnly.MatchString(b) || separator.MatchString(b) || htmlTag.MatchString(b) {
			continue
		}
		// The fix deletes the repeated line and its line break.
		delEnd := cur.Off + len(cur.Text)
		if delEnd < len(content) && content[delEnd] == '\r' {
			delEnd++
		}
		if delEnd < len(content) && content[delEnd] == '\n' {
			delEnd++
		}
		pos := d.File.Pos(cur.Off)
		c.pass.Report(analysis.Diagnostic{
			Pos: pos, End: d.File.Pos(cur.Off + len(b)), Category: "duplicate-line",
			Message: fmt.Sprintf("line repeats the line before it: %s", shorten(t)),
			SuggestedFixes: []analysis.SuggestedFix{{
				Message:   "delete the repeated line",
				TextEdits: []analysis.TextEdit{{Pos: pos, End: d.File.Pos(delEnd)}},
			}},
		})
	}
}

// adjacent reports whether cur is the line right after prev in content.
// repeatsLine reports whether a non-blank line of text is the line before
// it, compared as duplicates compares them (line ending and trailing
// blanks dropped). Lines next to each other in a document's body are next
// to each other in its text, so a document without such a pair has no
// duplicate line: this cheap pass spares it the line split.
func repeatsLine(text []byte) bool {
	var prev []byte
	for first := true; len(text) > 0; first = false {
		line := text
		if k := bytes.IndexByte(text, '\n'); k >= 0 {
			line, text = text[:k], text[k+1:]
		} else {
			text = nil
		}
		line = bytes.TrimRight(bytes.TrimSuffix(line, []byte("\r")), " \t")
		if !first && bytes.Equal(line, prev) && len(bytes.TrimSpace(line)) > 0 {
			return true
		}
		prev = line
	}
	return false
}

// repeatsLineIn is repeatsLine(content[start:]) read with content's line
// table, starts (bodylines.Starts), which has every line's end: only
// lines of the same length are compared. Without a table, or when start
// is not a line's, it is repeatsLine.
func repeatsLineIn(content []byte, starts []int, start int) bool {
	i := sort.SearchInts(starts, start)
	if i == len(starts) || starts[i] != start {
		return repeatsLine(content[start:])
	}
	prevStart, prevEnd := -1, -1
	for ; i < len(starts); i++ {
		s, e := starts[i], len(content)
		if i+1 < len(starts) {
			e = starts[i+1] - 1
		} else if e > s && content[e-1] == '\n' {
			e--
		}
		if e > s && content[e-1] == '\r' {
			e--
		}
		for e > s && (content[e-1] == ' ' || content[e-1] == '\t') {
			e--
		}
		if prevStart >= 0 && e-s == prevEnd-prevStart && bytes.Equal(content[s:e], content[prevStart:prevEnd]) && len(bytes.TrimSpace(content[s:e])) > 0 {
			return true
		}
		prevStart, prevEnd = s, e
	}
	return false
}

func adjacent(content []byte, prev, cur bodylines.Line) bool {
	next := prev.Off + len(prev.Text)
	if next < len(content) && content[next] == '\r' {
		next++
	}
	return next+1 == cur.Off
}

func shorten(s string) string {
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "..."
	}
	return fmt.Sprintf("%q", s)
}
