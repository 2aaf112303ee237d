package refs

import (
	"cmp"
	_ "embed"
	"fmt"
	"go/token"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/checks/internal/pathutil"
	"github.com/svrnty/sotvet/sotparse"
)

//go:embed doc.go
var doc string

// Analyzer checks the references documents make.
var Analyzer = &analysis.Analyzer{
	Name:     "refs",
	Doc:      docutil.MustExtract(doc, "refs"),
	URL:      "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#refs",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
	c := &checker{pass: pass, ws: ws, res: pathutil.NewResolver(ws)}
	if readable(ws) {
		// The workboard's own index of its items by id: built once as it
		// is read, not on every run of a session that keeps it.
		c.wb = ws.Workboard
	}
	conts := DocCheck.Each(pass, ws)
	for i, d := range ws.Docs {
		if !ws.Focused(d.Path) {
			continue // definitions below still see every document
		}
		open, _ := conts[i].([]bool)
		c.paths(d, open)
		c.source(d)
		c.ids(d)
	}
	c.definitions()
	return nil, nil
}

type checker struct {
	pass *analysis.Pass
	ws   *sotparse.Workspace
	res  *pathutil.Resolver
	wb   *sotparse.Workboard // nil unless the workboard was read in full
}

func (c *checker) report(pos, end token.Pos, category, format string, args ...any) {
	if end < pos {
		end = pos
	}
	c.pass.Report(analysis.Diagnostic{Pos: pos, End: end, Category: category, Message: fmt.Sprintf(format, args...)})
}

// readable reports whether the workboard exists and was read in full, so
// that an id it lacks is really absent.
func readable(ws *sotparse.Workspace) bool {
	return ws.Workboard != nil && ws.Workboard.Complete
}

// placeholder runes: a path continuing with one of these is a glob or a
// template, not a reference to one file.
const placeholder = "*<{[$…"

// continuation returns the text that directly follows the reference in its
// file, up to the next white space, quote, closing bracket or sentence
// punctuation: what the parser's path pattern stopped short of.
func continuation(d *sotparse.Doc, content []byte, end token.Pos) string {
	off := d.File.Tok.Offset(end)
	b := content
	i := off
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if unicode.IsSpace(r) || strings.ContainsRune("`'\"),;|>]}?!", r) {
			break
		}
		i += size
	}
	return string(b[off:i])
}

// DocCheck reads, for each .sot/ path of a document, whether the text
// right after it continues it with a placeholder: paths reads the answer,
// not the text.
var DocCheck = &sotparse.DocCheck{Run: func(p *sotparse.DocPass) any {
	if !p.Focused() {
		return nil
	}
	var open []bool // by index in Refs
	for i, r := range p.Doc.Refs.Of(sotparse.RefSource, sotparse.RefSOTPath) {
		if r.Kind == sotparse.RefSource {
			p.Flag(r.Pos, r.End) // source may report it missing
		}
		if r.Kind != sotparse.RefSOTPath {
			continue
		}
		if strings.ContainsAny(continuation(p.Doc, p.Content, r.End), placeholder) {
			if open == nil {
				open = make([]bool, p.Doc.Refs.Len())
			}
			open[i] = true
		} else if sp, ok := sotPath(r.Text); ok && !p.Exists(sp) {
			p.Flag(r.Pos, r.End) // paths may report it missing
		}
	}
	if open == nil {
		return nil // not a nil []bool: the parse keeps no visit for it
	}
	return open
}}

// sotPath returns the workspace path a .sot/ path of a body names, and
// false for one that names none: a placeholder, or a path out of the
// workspace.
func sotPath(text string) (string, bool) {
	if strings.ContainsAny(text, placeholder) {
		return "", false
	}
	p := path.Clean(text)
	if strings.HasPrefix(p, "../") || p == ".." {
		return "", false
	}
	if strings.HasSuffix(text, "/") {
		p += "/"
	}
	return p, true
}

// paths checks the .sot/ paths of the document body (rule a); open says
// which of them the text continues with a placeholder (DocCheck).
func (c *checker) paths(d *sotparse.Doc, open []bool) {
	seen := map[string]bool{}
	for i, r := range d.Refs.Of(sotparse.RefSOTPath) {
		if r.Kind != sotparse.RefSOTPath || seen[r.Text] {
			continue
		}
		seen[r.Text] = true
		if open != nil && open[i] {
			continue
		}
		p, ok := sotPath(r.Text)
		if !ok || c.res.Exists(p) {
			continue
		}
		what := p
		if strings.HasSuffix(p, "/") {
			what = "directory " + p
		}
		if m := c.res.Moved(p); m != "" {
			c.report(r.Pos, r.End, "missing-path", "%s does not exist (a file of that name is at %s)", what, m)
		} else {
			c.report(r.Pos, r.End, "missing-path", "%s does not exist", what)
		}
	}
}

// source checks the frontmatter source (rule b).
func (c *checker) source(d *sotparse.Doc) {
	for _, r := range d.Refs.Of(sotparse.RefSource) {
		if r.Kind != sotparse.RefSource {
			continue
		}
		p, ok := pathutil.SourcePath(r.Text)
		if !ok || c.res.Exists(p) {
			continue
		}
		if m := c.res.Moved(p); m != "" {
			c.report(r.Pos, r.End, "missing-source", "source %s does not exist (a file of that name is at %s)", p, m)
		} else {
			c.report(r.Pos, r.End, "missing-source", "source %s does not exist", p)
		}
	}
}

// ids checks that the work ids a planning document mentions are on the
// workboard (rule c).
func (c *checker) ids(d *sotparse.Doc) {
	if c.wb == nil || !strings.HasPrefix(d.Path, ".sot/") {
		return
	}
	// Only the unknown ids are remembered, each reported at its first
	// reference: a set of every id a document names, built per document,
	// cost a tenth of a run whose documents name hundreds.
	var reported map[string]bool
	for _, r := range d.Refs.All() {
		if r.Kind != sotparse.RefWorkID || c.wb.Item(r.Text) != nil || reported[r.Text] {
			continue
		}
		if reported == nil {
			reported = map[string]bool{}
		}
		reported[r.Text] = true
		c.report(r.Pos, r.End, "unknown-id", "%s is not in %s", r.Text, c.ws.Workboard.File.Path)
	}
}

type def struct {
	doc  *sotparse.Doc
	item *sotparse.WorkItem
}

// definitions checks work item headings against each other (rule d) and
// against the workboard (rule e).
//
// Only the ids defined in focus are looked at; the definitions of the
// documents a session keeps are indexed once (sotparse.Aggregate), those
// of the others each run.
func (c *checker) definitions() {
	kept := sotparse.Aggregate(c.ws, &defsKey, indexDefs)
	liveDocs := c.ws.Live()
	live := indexDefs(liveDocs)
	var order []string
	seen := map[string]bool{}
	for _, d := range liveDocs {
		if !c.ws.Focused(d.Path) {
			continue
		}
		for _, it := range d.WorkItems {
			if !seen[it.ID] {
				seen[it.ID] = true
				order = append(order, it.ID)
			}
		}
	}
	byID := make(map[string][]def, len(order))
	for _, id := range order {
		byID[id] = mergeDefs(kept[id], live[id])
	}
	// In the order of each id's first definition in the workspace.
	slices.SortStableFunc(order, func(a, b string) int {
		da, db := byID[a][0], byID[b][0]
		if c := strings.Compare(da.doc.Path, db.doc.Path); c != 0 {
			return c
		}
		return cmp.Compare(da.item.Pos, db.item.Pos)
	})
	for _, id := range order {
		defs := byID[id]
		wbi := c.wb.Item(id)
		first := 0
		if wbi != nil && wbi.Source != nil {
			for i, df := range defs {
				if namesDoc(wbi.Source.Value, df.doc.Path) {
					first = i
					break
				}
			}
		}
		conflicting := map[int]bool{}
		f := defs[first]
		for i, df := range defs {
			if i == first {
				continue
			}
			where := "in " + f.doc.Path
			if df.doc == f.doc {
				where = "earlier in this document"
				if i < first {
					where = "later in this document"
				}
			}
			if sameTitle(df.item.Title, f.item.Title) {
				c.report(df.item.Pos, df.item.End, "duplicate-definition", "%s %q is also defined %s", id, df.item.Title, where)
				continue
			}
			conflicting[i] = true
			c.report(df.item.Pos, df.item.End, "conflicting-definition", "%s is defined here as %q but %s as %q", id, df.item.Title, where, f.item.Title)
		}
		if wbi == nil || wbi.Title == nil || strings.TrimSpace(wbi.Title.Value) == "" {
			continue
		}
		for i, df := range defs {
			if conflicting[i] || sameTitle(df.item.Title, wbi.Title.Value) {
				continue
			}
			c.report(df.item.Pos, df.item.End, "title-mismatch", "%s is titled %q here but %q in %s", id, df.item.Title, wbi.Title.Value, c.ws.Workboard.File.Path)
		}
	}
}

// defsKey keeps the definitions of the documents a session keeps.
var defsKey sotparse.MemoKey

// indexDefs returns the definitions of each work id in docs, in path order.
func indexDefs(docs []*sotparse.Doc) map[string][]def {
	byID := map[string][]def{}
	for _, d := range docs {
		for _, it := range d.WorkItems {
			byID[it.ID] = append(byID[it.ID], def{d, it})
		}
	}
	return byID
}

// mergeDefs merges two lists of definitions in path order (a document is
// in one of them only).
func mergeDefs(a, b []def) []def {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]def, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].doc.Path < a[0].doc.Path {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// namesDoc reports whether a workboard source value names the document at
// docPath: the same path, or the same file name when the source gives no
// directory.
func namesDoc(source, docPath string) bool {
	p, ok := pathutil.SourcePath(source)
	if !ok {
		return false
	}
	if !strings.Contains(p, "/") {
		return p == path.Base(docPath)
	}
	return p == docPath
}

// sameTitle compares titles ignoring case, punctuation and white space:
// the same letters and digits in the same order, lower case. It compares
// them in place: it runs on every work item of the workspace.
func sameTitle(a, b string) bool {
	i, j := 0, 0
	for {
		ra, na := nextFolded(a, i)
		rb, nb := nextFolded(b, j)
		if ra != rb {
			return false
		}
		if ra < 0 {
			return true
		}
		i, j = na, nb
	}
}

// nextFolded returns the first letter or digit of s at or after i, lower
// case, and the index after it; -1 at the end of s.
func nextFolded(s string, i int) (rune, int) {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r), i
		}
	}
	return -1, i
}
