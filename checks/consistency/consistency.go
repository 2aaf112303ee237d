package consistency

import (
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/checks/internal/fixsafety"
	"github.com/svrnty/sotvet/sotparse"
)

// Analyzer reports documents that contradict the workspace.
var Analyzer = &analysis.Analyzer{
	Name:     "consistency",
	Doc:      docutil.MustExtract(doc, "consistency"),
	URL:      "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#consistency",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run:      run,
}

func init() {
	Analyzer.Flags.Var(&declared, "schema", "identity keys every document's frontmatter must have, comma-separated (name, title, tier, description, route); empty: the majority of the kind")
}

func run(pass *analysis.Pass) (any, error) {
	ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
	c := &checker{ws: ws, report: pass.Report}
	for i, r := range DocCheck.Each(pass, ws) {
		if stmts, ok := r.([]recordStmt); ok {
			c.records(ws.Docs[i], stmts)
		}
	}
	c.schemas()
	return nil, nil
}

// DocCheck runs the rules that read one document, and finds the
// statements about an admission record's status that run compares with
// the records.
var DocCheck = &sotparse.DocCheck{Run: checkDoc}

func checkDoc(p *sotparse.DocPass) any {
	if !p.Focused() {
		return nil
	}
	d, content := p.Doc, p.Content
	c := &checker{report: p.Report}
	c.draftComplete(d)
	secs := sections(d, len(content))
	c.staleReview(d, content)
	c.headings(d, content, secs)
	c.counts(d, content)
	if stmts := recordStatements(d, content, secs); len(stmts) > 0 {
		return stmts
	}
	return nil // not a nil []recordStmt: the parse keeps no visit for it
}

type checker struct {
	ws     *sotparse.Workspace
	report func(analysis.Diagnostic)
	titles map[*sotparse.Record][]string // see recordTitle
	prefix int                           // recordPrefix's answer plus one; 0: not yet known, -1: none
}

func (c *checker) diag(pos, end token.Pos, category, msg string, rel []analysis.RelatedInformation, fix *analysis.SuggestedFix) {
	d := analysis.Diagnostic{Pos: pos, End: end, Category: category, Message: msg, Related: rel}
	if fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	c.report(d)
}

func related(pos token.Pos, format string, args ...any) []analysis.RelatedInformation {
	return []analysis.RelatedInformation{{Pos: pos, Message: fmt.Sprintf(format, args...)}}
}

// unsafeReplace is a fix that replaces [pos, end) by text. Both fixes of
// this check assert a judgement (a document is validated, a review
// happened), so both are unsafe: only --unsafe-fixes applies them.
func unsafeReplace(msg string, pos, end token.Pos, text string) *analysis.SuggestedFix {
	fix := fixsafety.Unsafe(analysis.SuggestedFix{Message: msg, TextEdits: []analysis.TextEdit{{Pos: pos, End: end, NewText: []byte(text)}}})
	return &fix
}

// itemValidated reports whether the item's Status line starts with
// "validated".
func itemValidated(it *sotparse.WorkItem) bool {
	if it.Status == nil {
		return false
	}
	v := it.Status.Value
	const w = "validated"
	return len(v) >= len(w) && strings.EqualFold(v[:len(w)], w) && (len(v) == len(w) || strings.IndexByte(" .,;:", v[len(w)]) >= 0)
}

// draftComplete reports a draft document whose items are all validated.
// A BLOCKER document is left alone: whether a blocker is resolved once its
// items are validated is a judgement its author makes (the blocker may stay
// open for the stage it blocks), not a contradiction a reviewer would always
// fix.
func (c *checker) draftComplete(d *sotparse.Doc) {
	fm := d.Frontmatter
	if d.Kind == sotparse.KindBlocker {
		return
	}
	if fm == nil || fm.Status == nil || !fm.Status.Scalar || !strings.EqualFold(strings.TrimSpace(fm.Status.Value), "draft") || len(d.WorkItems) == 0 {
		return
	}
	for _, it := range d.WorkItems {
		if !itemValidated(it) {
			return
		}
	}
	last := d.WorkItems[len(d.WorkItems)-1]
	msg := fmt.Sprintf("frontmatter status is draft, but every work item here (%d) is validated", len(d.WorkItems))
	if len(d.WorkItems) == 1 {
		msg = fmt.Sprintf("frontmatter status is draft, but its only work item %s is validated", last.ID)
	}
	c.diag(fm.Status.ValuePos, fm.Status.ValueEnd, "draft-complete", msg,
		related(last.Status.ValuePos, "%s is validated here", last.ID),
		unsafeReplace("set the frontmatter status to validated", fm.Status.ValuePos, fm.Status.ValueEnd, "validated"))
}

// section is the span of a heading's section: from the heading to the next
// heading of the same or a higher level.
type section struct {
	h          *sotparse.Heading
	start, end int // file offsets
	bodyStart  int // after the heading line
	parent     int // index of the parent heading in the slice, or -1
}

func sections(d *sotparse.Doc, size int) []section {
	tf := d.File.Tok
	out := make([]section, len(d.Headings))
	var stack []int
	for i, h := range d.Headings {
		for len(stack) > 0 && d.Headings[stack[len(stack)-1]].Level >= h.Level {
			stack = stack[:len(stack)-1]
		}
		parent := -1
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		end := size
		for _, g := range d.Headings[i+1:] {
			if g.Level <= h.Level {
				end = tf.Offset(g.Pos)
				break
			}
		}
		out[i] = section{h: h, start: tf.Offset(h.Pos), end: end, bodyStart: min(tf.Offset(h.End), end), parent: parent}
		stack = append(stack, i)
	}
	return out
}

// innermost returns the index of the innermost section holding off, or -1.
func innermost(secs []section, off int) int {
	best := -1
	for i, s := range secs {
		if s.start <= off && off < s.end {
			best = i
		}
	}
	return best
}
