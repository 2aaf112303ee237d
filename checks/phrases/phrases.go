package phrases

import (
	"fmt"
	"go/token"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/checks/internal/flagutil"
	"github.com/svrnty/sotvet/checks/internal/smallset"
	"github.com/svrnty/sotvet/sotparse"
)

// Analyzer checks that required phrases appear where they are required.
var Analyzer = &analysis.Analyzer{
	Name:     "phrases",
	Doc:      docutil.MustExtract(doc, "phrases"),
	URL:      "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#phrases",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run:      run,
}

// Defaults of the flags.
var (
	DefaultScope = []string{".sot/**"}
	// DefaultTargets are the kinds a route's phrase lists are checked
	// against, in order of preference.
	DefaultTargets = []sotparse.Kind{sotparse.KindEvidence, sotparse.KindCloseout, sotparse.KindRecord}
)

var (
	scope    = flagutil.Globs(slices.Clone(DefaultScope))
	targets  = flagutil.Kinds(slices.Clone(DefaultTargets))
	sections = sectionList(slices.Clone(sotparse.PhraseSections))
	rules    RuleSet
)

func init() {
	Analyzer.Flags.Var(&scope, "scope", "comma-separated doublestar globs of the documents whose phrase lists are checked")
	Analyzer.Flags.Var(&targets, "targets", "comma-separated document kinds, in order of preference, a route's phrase lists are checked against")
	Analyzer.Flags.Var(&sections, "sections", "comma-separated phrase sections whose lists are checked (Required Phrases, Required Evidence, Validator Summary Phrases)")
	Analyzer.Flags.Var(&rules, "rules", "configured phrase requirements: a YAML list of {docs: glob | item: id, in: self | route | path, phrases: [...]}")
}

func run(pass *analysis.Pass) (any, error) {
	ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
	c := &checker{pass: pass, ws: ws, routes: map[string][]*sotparse.Doc{}, plain: map[*sotparse.Doc]string{}}
	// The routes of the documents in focus only: those are reported on.
	// An edit's run has a few, looked for among every document's stem by
	// comparing strings (no hash of each).
	var stems []string
	for _, d := range ws.FocusedDocs() {
		if _, ok := c.routes[d.Stem]; !ok {
			c.routes[d.Stem] = nil
			stems = append(stems, d.Stem)
		}
	}
	inRoute := smallset.Of(stems)
	for _, d := range ws.Docs {
		if inRoute(d.Stem) {
			c.routes[d.Stem] = append(c.routes[d.Stem], d)
		}
	}
	// The lists of one route are checked together, against the texts of
	// its targets, which then go: a run holds the texts of one route at a
	// time, not of every target it read.
	var order []string
	listing := map[string][]*sotparse.Doc{}
	for _, d := range ws.FocusedDocs() {
		if !scope.Match(d.Path) || !slices.ContainsFunc(d.PhraseLists, checked) {
			continue
		}
		if _, ok := listing[d.Stem]; !ok {
			order = append(order, d.Stem)
		}
		listing[d.Stem] = append(listing[d.Stem], d)
	}
	for _, stem := range order {
		for _, d := range listing[stem] {
			for _, pl := range d.PhraseLists {
				if checked(pl) {
					c.list(d, pl)
				}
			}
		}
		clear(c.plain)
	}
	for i, r := range rules.rules {
		c.rule(i+1, &r)
	}
	return nil, nil
}

// checked reports whether pl is in a section the run checks.
func checked(pl *sotparse.PhraseList) bool { return slices.Contains(sections, pl.Section) }

type checker struct {
	pass   *analysis.Pass
	ws     *sotparse.Workspace
	routes map[string][]*sotparse.Doc
	plain  map[*sotparse.Doc]string // PlainText of each body read, for one route or rule
}

func (c *checker) report(pos, end token.Pos, category, format string, args ...any) {
	c.pass.Report(analysis.Diagnostic{Pos: pos, End: end, Category: category, Message: fmt.Sprintf(format, args...)})
}

// target returns the documents the route of d is checked against: those of
// the first -targets kind the route has, or d itself.
func (c *checker) target(d *sotparse.Doc) []*sotparse.Doc {
	route, ok := c.routes[d.Stem]
	if !ok {
		// A route out of focus: not gathered above.
		for _, o := range c.ws.Docs {
			if o.Stem == d.Stem {
				route = append(route, o)
			}
		}
		c.routes[d.Stem] = route
	}
	for _, k := range targets {
		var out []*sotparse.Doc
		for _, r := range route {
			if r.Kind == k {
				out = append(out, r)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return []*sotparse.Doc{d}
}

// text returns the plain text of the body of d.
func (c *checker) text(d *sotparse.Doc) string {
	if t, ok := c.plain[d]; ok {
		return t
	}
	// A target out of focus may be a summary: its text is read on demand.
	t := sotparse.PlainText(string(c.ws.TransientContent(d)[d.File.Tok.Offset(d.BodyStart):]))
	c.plain[d] = t
	return t
}

// rangeText returns the plain text of the part of the body of d, whose
// text is content, in the file offsets [from, to).
func rangeText(d *sotparse.Doc, content []byte, from, to int) string {
	from = max(from, d.File.Tok.Offset(d.BodyStart))
	to = min(to, len(content))
	if to <= from {
		return ""
	}
	return sotparse.PlainText(string(content[from:to]))
}

// section returns the file offsets of the section that starts with the
// heading at pos: up to the next heading of the same or a higher level.
func section(d *sotparse.Doc, pos token.Pos) (int, int) {
	start := d.File.Tok.Offset(pos)
	end := d.File.Tok.Size()
	level := 0
	for _, h := range d.Headings {
		switch {
		case h.Pos == pos:
			level = h.Level
		case level > 0 && h.Pos > pos && h.Level <= level:
			return start, d.File.Tok.Offset(h.Pos)
		}
	}
	return start, end
}

// list checks the phrases of one phrase list against the route's target.
func (c *checker) list(d *sotparse.Doc, pl *sotparse.PhraseList) {
	tgt := c.target(d)
	self := slices.Contains(tgt, d)
	if self && pl.Section == "Validator Summary Phrases" {
		// In the document a validator summarises, this section is the
		// summary itself: it states the phrases rather than requiring them
		// elsewhere. Listed in another document, it is a requirement.
		return
	}
	// Outside its own section, the list's document is read once for all
	// its phrases.
	var before, after string
	if self {
		secStart, secEnd := section(d, pl.Pos)
		content := c.ws.TransientContent(d)
		before, after = rangeText(d, content, 0, secStart), rangeText(d, content, secEnd, d.File.Tok.Size())
	}
	for _, ph := range pl.Phrases {
		if ph.Text == "" {
			continue
		}
		found := false
		for _, t := range tgt {
			if t == d {
				// The list itself does not count: the rest of the document must
				// say it.
				found = strings.Contains(before, ph.Text) || strings.Contains(after, ph.Text)
			} else {
				found = strings.Contains(c.text(t), ph.Text)
			}
			if found {
				break
			}
		}
		if found {
			continue
		}
		if len(tgt) == 1 && self {
			c.report(ph.Pos, ph.End, "missing-phrase", "required phrase %q not found in this document outside its %s section", ph.Text, pl.Section)
			continue
		}
		c.report(ph.Pos, ph.End, "missing-phrase", "required phrase %q not found in %s", ph.Text, paths(tgt))
	}
}

func paths(ds []*sotparse.Doc) string {
	var s []string
	for _, d := range ds {
		s = append(s, d.Path)
	}
	return strings.Join(s, " or ")
}

// rule applies one configured rule.
func (c *checker) rule(n int, r *Rule) {
	defer clear(c.plain)
	if r.Docs != "" {
		for _, d := range c.ws.FocusedDocs() {
			if ok, _ := doublestar.Match(r.Docs, d.Path); ok {
				pos, end := docPos(d)
				c.apply(n, r, d, pos, end)
			}
		}
		return
	}
	found := false
	for _, d := range c.ws.Docs {
		for _, it := range d.WorkItems {
			if it.ID == r.Item {
				found = true
				if c.ws.Focused(d.Path) {
					c.apply(n, r, d, it.Pos, it.End)
				}
			}
		}
	}
	if !found {
		// Nowhere to report but the workboard entry, if there is one.
		if wi := c.ws.Workboard.Item(r.Item); wi != nil && wi.ID != nil {
			c.report(wi.ID.ValuePos, wi.ID.ValueEnd, "missing-target", "no document defines %s, which phrases rule %d of the configuration names", r.Item, n)
		}
	}
}

// docPos returns the position of the H1 of d, or of the start of its body.
func docPos(d *sotparse.Doc) (token.Pos, token.Pos) {
	for _, h := range d.Headings {
		if h.Level == 1 {
			return h.Pos, h.End
		}
	}
	return d.BodyStart, d.BodyStart
}

// apply checks the phrases of rule n for document d, reporting at pos.
func (c *checker) apply(n int, r *Rule, d *sotparse.Doc, pos, end token.Pos) {
	var tgt []*sotparse.Doc
	switch in := r.in(); in {
	case InSelf:
		tgt = []*sotparse.Doc{d}
	case InRoute:
		tgt = c.target(d)
	default:
		t := c.ws.Doc(in)
		if t == nil {
			c.report(pos, end, "missing-target", "phrases rule %d of the configuration looks in %s, which is not a document of the workspace", n, in)
			return
		}
		tgt = []*sotparse.Doc{t}
	}
	where := paths(tgt)
	if len(tgt) == 1 && tgt[0] == d {
		where = "this document"
	}
	for _, p := range r.Phrases {
		text := sotparse.PlainText(p)
		found := false
		for _, t := range tgt {
			if strings.Contains(c.text(t), text) {
				found = true
				break
			}
		}
		if !found {
			c.report(pos, end, "missing-phrase", "required phrase %q not found in %s (phrases rule %d of the configuration)", text, where, n)
		}
	}
	if in := r.in(); in == InSelf || in == InRoute {
		// The next document's targets are others; a path is every
		// document's target, read once per rule (rule clears it).
		clear(c.plain)
	}
}
