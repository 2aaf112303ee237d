package lsp

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/svrnty/sotvet/checks"
)

// fixAllKind is the code action kind of "apply every fix of this document"
// (editors run source.fixAll.* on save when asked to).
const fixAllKind = "source.fixAll.sotvet"

// codeAction offers, for the findings in the requested range: each of their
// suggested fixes, and a comment that ignores the finding on its line with a
// reason; and, for the document, every first fix at once.
func (s *Server) codeAction(ctx context.Context, p CodeActionParams) ([]CodeAction, error) {
	d, snap, err := s.snapshotFor(ctx, p.TextDocument.URI)
	if err != nil || snap == nil || snap.model == nil {
		return []CodeAction{}, err
	}
	wantQuick, wantAll := true, true
	if len(p.Context.Only) > 0 {
		wantQuick, wantAll = false, false
		for _, k := range p.Context.Only {
			wantQuick = wantQuick || k == "quickfix" || strings.HasPrefix("quickfix", k)
			wantAll = wantAll || k == "source" || k == "source.fixAll" || k == fixAllKind
		}
	}
	file := snap.model.File(d.rel)
	if file == nil {
		return []CodeAction{}, nil
	}
	x := newLineIndex(file.Content, s.enc)
	var version *int32
	if v, ok := snap.versions[d.rel]; ok {
		version = &v
	}
	var mine []checks.Finding
	for _, f := range snap.findings {
		if f.File == d.rel {
			mine = append(mine, f)
		}
	}
	out := []CodeAction{}
	if wantQuick {
		for _, f := range mine {
			r := Range{Start: x.lineCol(f.Line, f.Col), End: x.lineCol(f.EndLine, f.EndCol)}
			if f.EndLine == 0 {
				r.End = r.Start
			}
			if !overlaps(r, p.Range) {
				continue
			}
			diag := s.diagnostic(d.ws, f, func(string) *lineIndex { return x })
			for i, fix := range f.Fixes {
				edit := s.fixEdit(d, snap, fix, version)
				if edit == nil {
					continue
				}
				out = append(out, CodeAction{Title: s.redact(fix.Message), Kind: "quickfix", Diagnostics: []Diagnostic{diag}, IsPreferred: i == 0, Edit: edit})
			}
			if f.Check != checks.SuppressionCheck {
				out = append(out, s.ignoreAction(d, file.Content, x, f, diag, version))
			}
		}
	}
	if wantAll {
		fixed, n := checks.ApplyFixes(snap.model, mine)
		if b, ok := fixed[d.rel]; ok && n > 0 {
			end := x.pos(len(file.Content))
			out = append(out, CodeAction{
				Title: fmt.Sprintf("Apply every sotvet fix in %s (%d)", path.Base(d.rel), n),
				Kind:  fixAllKind,
				Edit: &WorkspaceEdit{DocumentChanges: []TextDocumentEdit{{
					TextDocument: OptionalVersionedTextDocumentIdentifier{URI: d.uri, Version: version},
					Edits:        []TextEdit{{Range: Range{End: end}, NewText: string(b)}},
				}}},
			})
		}
	}
	return out, nil
}

// fixEdit converts a suggested fix into a workspace edit; edits of other
// files name their disk version (none).
func (s *Server) fixEdit(d *document, snap *snapshot, fix checks.Fix, version *int32) *WorkspaceEdit {
	byFile := map[string][]TextEdit{}
	var order []string
	for _, e := range fix.Edits {
		content := snap.text(d.ws, e.File)
		if e.Start < 0 || e.End < e.Start || e.End > len(content) {
			return nil
		}
		x := newLineIndex(content, s.enc)
		if _, ok := byFile[e.File]; !ok {
			order = append(order, e.File)
		}
		byFile[e.File] = append(byFile[e.File], TextEdit{Range: Range{Start: x.pos(e.Start), End: x.pos(e.End)}, NewText: e.New})
	}
	we := &WorkspaceEdit{}
	for _, rel := range order {
		td := OptionalVersionedTextDocumentIdentifier{URI: d.uri, Version: version}
		if rel != d.rel {
			td = OptionalVersionedTextDocumentIdentifier{URI: pathURI(d.ws.abs(rel))}
			if v, ok := snap.versions[rel]; ok {
				td.Version = &v
			}
		}
		we.DocumentChanges = append(we.DocumentChanges, TextDocumentEdit{TextDocument: td, Edits: byFile[rel]})
	}
	return we
}

// ignoreAction inserts, on the line before the finding, the suppression
// comment the suppression check accepts, with the reason left for the user
// to write: until they do, the comment is itself a finding ("has no reason")
// and suppresses nothing.
func (s *Server) ignoreAction(d *document, text []byte, x *lineIndex, f checks.Finding, diag Diagnostic, version *int32) CodeAction {
	ls := 0
	if f.Line >= 1 && f.Line <= len(x.starts) {
		ls = x.starts[f.Line-1]
	}
	indent := text[ls:ls]
	for i := ls; i < len(text) && (text[i] == ' ' || text[i] == '\t'); i++ {
		indent = text[ls : i+1]
	}
	eol := "\n"
	if bytes.Contains(text, []byte("\r\n")) {
		eol = "\r\n"
	}
	var comment string
	if yamlLine(d.rel, text, ls) {
		comment = fmt.Sprintf("%s# sotvet:ignore %s -- %s", indent, f.Check, eol)
	} else {
		comment = fmt.Sprintf("%s<!-- sotvet:ignore %s -- -->%s", indent, f.Check, eol)
	}
	at := x.pos(ls)
	return CodeAction{
		Title:       fmt.Sprintf("Ignore %s here, with a reason (write it after --)", f.Check),
		Kind:        "quickfix",
		Diagnostics: []Diagnostic{diag},
		Edit: &WorkspaceEdit{DocumentChanges: []TextDocumentEdit{{
			TextDocument: OptionalVersionedTextDocumentIdentifier{URI: d.uri, Version: version},
			Edits:        []TextEdit{{Range: Range{Start: at, End: at}, NewText: comment}},
		}}},
	}
}

// yamlLine reports whether the line at off is YAML: a YAML file, or a
// markdown document's frontmatter.
func yamlLine(rel string, text []byte, off int) bool {
	if strings.HasSuffix(rel, ".yaml") || strings.HasSuffix(rel, ".yml") {
		return true
	}
	t := bytes.TrimPrefix(text, []byte("\ufeff"))
	if !bytes.HasPrefix(t, []byte("---\n")) && !bytes.HasPrefix(t, []byte("---\r\n")) {
		return false
	}
	skip := len(text) - len(t)
	lines := bytes.SplitAfter(t, []byte("\n"))
	pos := skip + len(lines[0])
	for _, l := range lines[1:] {
		if s := strings.TrimRight(string(l), "\r\n"); s == "---" || s == "..." {
			return off < pos
		}
		pos += len(l)
	}
	return false
}

func overlaps(a, b Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

func before(a, b Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}
