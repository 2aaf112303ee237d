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
				// An unsafe fix asserts a judgement (a review, a validation):
				// offered, said so, never preferred, as --unsafe-fixes.
				title := s.redact(fix.Message)
				if fix.Unsafe {
					title += " (unsafe: asserts a person's judgement)"
				}
				out = append(out, CodeAction{Title: title, Kind: "quickfix", Diagnostics: []Diagnostic{diag}, IsPreferred: i == 0 && !fix.Unsafe, Edit: edit})
			}
			if f.Check != checks.SuppressionCheck {
				if a, ok := s.ignoreAction(d, file.Content, x, f, diag, version); ok {
					out = append(out, a)
				}
			}
		}
	}
	if wantAll {
		// Fix-all applies the safe fixes only, as --fix does.
		fixed, count := checks.ApplyFixes(snap.model, mine, false)
		if b, ok := fixed[d.rel]; ok && count.Applied > 0 {
			n := count.Applied
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
// and suppresses nothing. It returns false where no comment can go.
func (s *Server) ignoreAction(d *document, text []byte, x *lineIndex, f checks.Finding, diag Diagnostic, version *int32) (CodeAction, bool) {
	off, comment, ok := ignoreComment(d.rel, text, f.Line, f.Code())
	if !ok {
		return CodeAction{}, false
	}
	at := x.pos(off)
	return CodeAction{
		Title:       fmt.Sprintf("Ignore %s here, with a reason (write it after --)", f.Code()),
		Kind:        "quickfix",
		Diagnostics: []Diagnostic{diag},
		Edit: &WorkspaceEdit{DocumentChanges: []TextDocumentEdit{{
			TextDocument: OptionalVersionedTextDocumentIdentifier{URI: d.uri, Version: version},
			Edits:        []TextEdit{{Range: Range{Start: at, End: at}, NewText: comment}},
		}}},
	}, true
}

// ignoreComment returns where the ignore comment for a finding on line
// (1-based) goes, the start of that line, and the comment: YAML's in a YAML
// file and in frontmatter, markdown's elsewhere, indented like the line. A
// finding on a document's opening "---" has no line before it that would
// not break the frontmatter.
func ignoreComment(rel string, text []byte, line int, check string) (int, string, bool) {
	ls := lineStart(text, max(line, 1)-1)
	if ls < 0 {
		ls = len(text)
	}
	indent := text[ls:ls]
	for i := ls; i < len(text) && (text[i] == ' ' || text[i] == '\t'); i++ {
		indent = text[ls : i+1]
	}
	eol := "\n"
	if bytes.Contains(text, []byte("\r\n")) {
		eol = "\r\n"
	}
	yaml := strings.HasSuffix(rel, ".yaml") || strings.HasSuffix(rel, ".yml")
	if !yaml {
		open, closeAt, ok := frontmatterSpan(text)
		if ok && ls < open {
			return 0, "", false
		}
		yaml = ok && ls <= closeAt
	}
	if yaml {
		return ls, fmt.Sprintf("%s# sotvet:ignore %s -- %s", indent, check, eol), true
	}
	return ls, fmt.Sprintf("%s<!-- sotvet:ignore %s -- -->%s", indent, check, eol), true
}

// frontmatterSpan returns the offset just after a document's opening "---"
// line and the offset of its closing line.
func frontmatterSpan(text []byte) (open, closeAt int, ok bool) {
	t := bytes.TrimPrefix(text, []byte("\ufeff"))
	skip := len(text) - len(t)
	if !bytes.HasPrefix(t, []byte("---\n")) && !bytes.HasPrefix(t, []byte("---\r\n")) {
		return 0, 0, false
	}
	lines := bytes.SplitAfter(t, []byte("\n"))
	pos := skip + len(lines[0])
	open = pos
	for _, l := range lines[1:] {
		if s := strings.TrimRight(string(l), "\r\n"); s == "---" || s == "..." {
			return open, pos, true
		}
		pos += len(l)
	}
	return 0, 0, false
}

// yamlLine reports whether the line at off is YAML: a YAML file, or a
// markdown document's frontmatter.
func yamlLine(rel string, text []byte, off int) bool {
	if strings.HasSuffix(rel, ".yaml") || strings.HasSuffix(rel, ".yml") {
		return true
	}
	open, closeAt, ok := frontmatterSpan(text)
	return ok && off >= open && off < closeAt
}

func overlaps(a, b Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

func before(a, b Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}
