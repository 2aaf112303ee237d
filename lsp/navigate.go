package lsp

import (
	"context"
	"fmt"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/svrnty/sotvet/internal/lazyre"
	"github.com/svrnty/sotvet/sotparse"
)

var (
	workIDPattern  = lazyre.New(`\bCTO-WORK-\d+\b`)
	sotPathPattern = lazyre.New("(?:^|[\\s`'\"(\\[<])(\\.sot/[A-Za-z0-9_./@+-]*[A-Za-z0-9_/])")
)

// target is what the cursor is on.
type target struct {
	kind       string // "id", "path", "term"
	text       string
	start, end int // byte offsets in the buffer
}

// targetAt finds the work item id, .sot/ path or glossary term at off.
func targetAt(text []byte, off int, model *sotparse.Workspace) *target {
	ls := strings.LastIndexByte(string(text[:min(off, len(text))]), '\n') + 1
	le := len(text)
	if i := strings.IndexByte(string(text[off:]), '\n'); i >= 0 {
		le = off + i
	}
	line := text[ls:le]
	at := off - ls
	for _, m := range workIDPattern.FindAllIndex(line, -1) {
		if m[0] <= at && at <= m[1] {
			return &target{"id", string(line[m[0]:m[1]]), ls + m[0], ls + m[1]}
		}
	}
	for _, m := range sotPathPattern.FindAllSubmatchIndex(line, -1) {
		if m[2] <= at && at <= m[3] {
			return &target{"path", string(line[m[2]:m[3]]), ls + m[2], ls + m[3]}
		}
	}
	if model != nil && model.Glossary != nil {
		if t := termAt(model.Glossary, line, at); t != nil {
			t.start, t.end = ls+t.start, ls+t.end
			return t
		}
	}
	return nil
}

// maxTermLen bounds the names termAt looks for: it tries every span of
// each name length around the cursor.
const maxTermLen = 256

// termAt finds the longest glossary term that spans at in line, as whole
// words: for each length of name the glossary has, the spans of the line
// around at that start and end at word boundaries are looked up in the
// glossary's index. The cost does not grow with the number of terms.
func termAt(g *sotparse.Glossary, line []byte, at int) *target {
	isWord := func(i int) bool {
		if i < 0 || i >= len(line) {
			return false
		}
		r, _ := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError {
			r, _ = utf8.DecodeLastRune(line[:i+1])
		}
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	lengths := g.KeyLengths()
	for k := len(lengths) - 1; k >= 0; k-- {
		n := lengths[k]
		if n == 0 || n > maxTermLen || n > len(line) {
			continue
		}
		for s := max(0, at-n); s <= at && s+n <= len(line); s++ {
			e := s + n
			if isWord(s-1) && isWord(s) || isWord(e-1) && isWord(e) {
				continue // inside a word
			}
			if ts := g.Named(string(line[s:e])); len(ts) > 0 {
				return &target{"term", ts[0].Name, s, e}
			}
		}
	}
	return nil
}

// cursor resolves a request's document and position to what it is on.
func (s *Server) cursor(ctx context.Context, p TextDocumentPositionParams) (*document, *snapshot, *target, error) {
	d, snap, err := s.snapshotFor(ctx, p.TextDocument.URI)
	if err != nil || snap == nil || snap.model == nil {
		return d, snap, nil, err
	}
	text := d.text
	off := offsetOf(text, p.Position, s.enc)
	return d, snap, targetAt(text, off, snap.model), nil
}

// location names a place of the run's model.
func (s *Server) location(w *workspace, snap *snapshot, rel string, start, end int) Location {
	x := newLineIndex(snap.text(w, rel), s.enc)
	return Location{URI: pathURI(w.abs(rel)), Range: Range{Start: x.pos(start), End: x.pos(end)}}
}

func (s *Server) definition(ctx context.Context, p TextDocumentPositionParams) ([]Location, error) {
	d, snap, t, err := s.cursor(ctx, p)
	if err != nil || t == nil {
		return []Location{}, err
	}
	model, w := snap.model, d.ws
	out := []Location{}
	switch t.kind {
	case "id":
		for _, doc := range model.Docs {
			for _, it := range doc.WorkItems {
				if it.ID == t.text {
					out = append(out, s.nodeLocation(w, snap, it.Pos, it.End))
				}
			}
		}
		if model.Workboard != nil {
			for _, it := range model.Workboard.Items {
				if it.ID != nil && it.ID.Value == t.text {
					out = append(out, s.nodeLocation(w, snap, it.ID.ValuePos, it.ID.ValueEnd))
				}
			}
		}
	case "path":
		rel := strings.TrimSuffix(t.text, "/")
		if model.Exists(rel) {
			out = append(out, Location{URI: pathURI(w.abs(rel))})
		}
	case "term":
		for _, term := range model.Glossary.Named(t.text) {
			out = append(out, s.nodeLocation(w, snap, term.Pos, term.End))
		}
	}
	return out, nil
}

// nodeLocation resolves a span of the model's positions.
func (s *Server) nodeLocation(w *workspace, snap *snapshot, pos, end token.Pos) Location {
	model := snap.model
	tf := model.Fset.File(pos)
	if tf == nil {
		return Location{}
	}
	rel, ok := w.relPath(tf.Name())
	if !ok {
		rel = tf.Name()
	}
	e := tf.Offset(pos)
	if end.IsValid() && model.Fset.File(end) == tf && end >= pos {
		e = tf.Offset(end)
	}
	return s.location(w, snap, rel, tf.Offset(pos), e)
}

func (s *Server) references(ctx context.Context, p ReferenceParams) ([]Location, error) {
	d, snap, t, err := s.cursor(ctx, p.TextDocumentPositionParams)
	if err != nil || t == nil || t.kind == "term" {
		return []Location{}, err
	}
	out := []Location{}
	for _, path := range d.ws.sortedPaths(snap.model) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		content := snap.text(d.ws, path)
		var x *lineIndex
		add := func(s0, e0 int) {
			if x == nil {
				x = newLineIndex(content, s.enc)
			}
			out = append(out, Location{URI: pathURI(d.ws.abs(path)), Range: Range{Start: x.pos(s0), End: x.pos(e0)}})
		}
		switch t.kind {
		case "id":
			if !strings.Contains(string(content), t.text) {
				continue
			}
			for _, m := range workIDPattern.FindAllIndex(content, -1) {
				if string(content[m[0]:m[1]]) == t.text {
					add(m[0], m[1])
				}
			}
		case "path":
			for _, m := range sotPathPattern.FindAllSubmatchIndex(content, -1) {
				if strings.TrimSuffix(string(content[m[2]:m[3]]), "/") == strings.TrimSuffix(t.text, "/") {
					add(m[2], m[3])
				}
			}
		}
	}
	return out, nil
}

func (s *Server) documentLinks(ctx context.Context, p DocumentLinkParams) ([]DocumentLink, error) {
	d, snap, err := s.snapshotFor(ctx, p.TextDocument.URI)
	if err != nil || snap == nil || snap.model == nil {
		return []DocumentLink{}, err
	}
	x := newLineIndex(d.text, s.enc)
	out := []DocumentLink{}
	for _, m := range sotPathPattern.FindAllSubmatchIndex(d.text, -1) {
		rel := strings.TrimSuffix(string(d.text[m[2]:m[3]]), "/")
		if !snap.model.Exists(rel) {
			continue // a broken reference is the refs check's finding
		}
		out = append(out, DocumentLink{Range: Range{Start: x.pos(m[2]), End: x.pos(m[3])}, Target: pathURI(d.ws.abs(rel))})
	}
	return out, nil
}

// hover on a work item id: its title, its status in the workboard and in
// every document, its blockers, and whether the statuses disagree.
func (s *Server) hover(ctx context.Context, p TextDocumentPositionParams) (*Hover, error) {
	d, snap, t, err := s.cursor(ctx, p)
	if err != nil || t == nil {
		return nil, err
	}
	x := newLineIndex(d.text, s.enc)
	r := &Range{Start: x.pos(t.start), End: x.pos(t.end)}
	var b strings.Builder
	switch t.kind {
	case "id":
		hoverID(&b, snap.model, t.text)
	case "term":
		for _, term := range snap.model.Glossary.Named(t.text) {
			fmt.Fprintf(&b, "**%s**", term.Name)
			if term.Qualifier != "" {
				fmt.Fprintf(&b, " (%s)", term.Qualifier)
			}
			fmt.Fprintf(&b, ": %s\n", term.Definition)
		}
	case "path":
		rel := strings.TrimSuffix(t.text, "/")
		if snap.model.Exists(rel) {
			fmt.Fprintf(&b, "`%s`", rel)
			if doc := snap.model.Doc(rel); doc != nil && len(doc.Headings) > 0 {
				fmt.Fprintf(&b, ": %s", doc.Headings[0].Text)
			}
		} else {
			fmt.Fprintf(&b, "`%s` does not exist in the workspace", rel)
		}
	}
	if b.Len() == 0 {
		return nil, nil
	}
	return &Hover{Contents: MarkupContent{Kind: "markdown", Value: s.redact(b.String())}, Range: r}, nil
}

func hoverID(b *strings.Builder, model *sotparse.Workspace, id string) {
	type status struct{ where, value string }
	var statuses []status
	var blockers []string
	title := ""
	if it := model.Workboard.Item(id); it != nil {
		if it.Title != nil {
			title = it.Title.Value
		}
		if it.Status != nil {
			statuses = append(statuses, status{"WORKBOARD.yaml", it.Status.Value})
		}
		for _, f := range it.BlockedBy {
			blockers = append(blockers, f.Value)
		}
	}
	for _, doc := range model.Docs {
		for _, it := range doc.WorkItems {
			if it.ID != id {
				continue
			}
			if title == "" {
				title = it.Title
			}
			if it.Status != nil {
				statuses = append(statuses, status{doc.Path, firstWord(it.Status.Value)})
			}
			for _, r := range it.Blockers.All() {
				blockers = append(blockers, r.Text)
			}
		}
	}
	if title == "" && len(statuses) == 0 {
		fmt.Fprintf(b, "**%s**: not defined in the workboard or any document", id)
		return
	}
	fmt.Fprintf(b, "**%s**", id)
	if title != "" {
		fmt.Fprintf(b, " — %s", title)
	}
	b.WriteString("\n\n")
	values := map[string]bool{}
	for _, st := range statuses {
		fmt.Fprintf(b, "- status `%s` in %s\n", st.value, st.where)
		values[strings.ToLower(st.value)] = true
	}
	if len(blockers) > 0 {
		sort.Strings(blockers)
		blockers = uniq(blockers)
		fmt.Fprintf(b, "\nBlocked by: %s\n", strings.Join(blockers, ", "))
	}
	if len(values) > 1 {
		b.WriteString("\n**The statuses disagree**: ")
		var parts []string
		for _, st := range statuses {
			parts = append(parts, fmt.Sprintf("%s says %s", st.where, st.value))
		}
		b.WriteString(strings.Join(parts, "; "))
		b.WriteString("\n")
	}
}

func firstWord(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t.,;("); i > 0 {
		return s[:i]
	}
	return s
}

func uniq(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// abs is the absolute path of a workspace file.
func (w *workspace) abs(rel string) string {
	return filepath.Join(w.root, filepath.FromSlash(rel))
}
