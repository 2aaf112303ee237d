package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/svrnty/sotvet/checks"
)

// publication is what was last published for a document: its
// diagnostics, encoded, and the version they were for.
type publication struct {
	diags   string
	version int32
}

// diagnosticsToPublish converts the run's findings for every open document
// of w and returns those whose diagnostics or version changed since last
// sent: a document the edit fixed gets its empty list, and an edit that
// changes nothing its diagnostics again under the new version (LSP allows
// publishing again), so that a client waiting for the diagnostics of a
// version gets them. A document another document's edit leaves unchanged
// gets nothing. Callers hold s.mu.
func (s *Server) diagnosticsToPublish(w *workspace, snap *snapshot) []PublishDiagnosticsParams {
	if snap.model == nil {
		return nil
	}
	byFile := map[string][]checks.Finding{}
	for _, f := range snap.findings {
		byFile[f.File] = append(byFile[f.File], f)
	}
	var out []PublishDiagnosticsParams
	for uri, d := range s.docs {
		if d.ws != w {
			continue
		}
		v, ok := snap.versions[d.rel]
		if !ok || v != d.version {
			continue // a newer run is coming for this buffer
		}
		fs := byFile[d.rel]
		more := snap.omitted[d.rel]
		if len(fs) > maxDiagnostics {
			// An editor cannot use a million diagnostics, and the server
			// would hold them all, encoded, for the next comparison.
			more += len(fs) - maxDiagnostics
			fs = fs[:maxDiagnostics]
		}
		diags := s.diagnostics(w, snap, fs)
		if more > 0 {
			diags = append(diags, Diagnostic{
				Severity: SeverityInformation, Source: "sotvet", Code: "omitted",
				Message: fmt.Sprintf("%d more findings in this file are not shown: the first %d are", more, len(fs)),
			})
		}
		key, _ := json.Marshal(diags)
		if prev, ok := s.published[uri]; ok && prev.diags == string(key) && prev.version == v {
			continue
		}
		s.published[uri] = publication{diags: string(key), version: v}
		out = append(out, PublishDiagnosticsParams{URI: uri, Version: &v, Diagnostics: diags})
	}
	return out
}

// diagnostics converts one file's findings.
func (s *Server) diagnostics(w *workspace, snap *snapshot, fs []checks.Finding) []Diagnostic {
	out := make([]Diagnostic, 0, len(fs))
	idx := map[string]*lineIndex{}
	index := func(rel string) *lineIndex {
		if x, ok := idx[rel]; ok {
			return x
		}
		x := newLineIndex(snap.text(w, rel), s.enc)
		idx[rel] = x
		return x
	}
	for _, f := range fs {
		out = append(out, s.diagnostic(w, f, index))
	}
	return out
}

func (s *Server) diagnostic(w *workspace, f checks.Finding, index func(string) *lineIndex) Diagnostic {
	x := index(f.File)
	start := x.lineCol(f.Line, f.Col)
	end := x.lineCol(f.EndLine, f.EndCol)
	if f.EndLine == 0 || end.Line < start.Line || end.Line == start.Line && end.Character < start.Character {
		end = start
	}
	code := f.Check
	if f.Category != "" {
		code += "/" + f.Category
	}
	d := Diagnostic{
		Range:           Range{Start: start, End: end},
		Severity:        lspSeverity(f.Severity),
		Code:            code,
		CodeDescription: &CodeDescription{Href: docsHref(f.Check)},
		Source:          "sotvet",
		// The driver redacts messages; a second pass costs little and
		// keeps the promise if a message ever escapes it.
		Message: s.redact(f.Message),
		Data:    &DiagnosticData{Fingerprint: f.Fingerprint},
	}
	for _, r := range f.Related {
		p := index(r.File).lineCol(r.Line, r.Col)
		d.RelatedInformation = append(d.RelatedInformation, DiagnosticRelatedInformation{
			Location: Location{URI: pathURI(filepath.Join(w.root, filepath.FromSlash(r.File))), Range: Range{Start: p, End: p}},
			Message:  s.redact(r.Message),
		})
	}
	return d
}

func lspSeverity(s checks.Severity) int {
	switch s {
	case checks.SeverityError:
		return SeverityError
	case checks.SeverityWarning:
		return SeverityWarning
	}
	return SeverityInformation
}
