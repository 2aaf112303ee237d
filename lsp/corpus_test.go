package lsp

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/internal/safefs"

	"github.com/svrnty/sotvet/internal/testcorpus"
)

// TestCorpusParity opens every file of the real corpus that has findings,
// one at a time, and compares its diagnostics with the findings of a full
// run of the driver over the same workspace: the incremental run must
// report what `sotvet check` reports, at the same places.
func TestCorpusParity(t *testing.T) {
	root := testcorpus.Require(t)
	w, err := loadWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	want := fullRun(t, w) // every file, no summaries: what check does
	byFile := map[string][]string{}
	for _, f := range want.Findings {
		code := f.Check
		if f.Category != "" {
			code += "/" + f.Category
		}
		byFile[f.File] = append(byFile[f.File], fmt.Sprintf("%d:%s:%s", f.Line, code, f.Message))
	}
	if len(byFile) == 0 {
		t.Fatal("the corpus has no findings: the comparison would prove nothing")
	}
	c := newClient(t, root, &InitOptions{DebounceMS: -1})
	for rel, wantLines := range byFile {
		text, ok := w.content(rel)
		if !ok {
			continue // a file the run could not read (over the size limit, say)
		}
		uri := pathURI(filepath.Join(root, filepath.FromSlash(rel)))
		c.open(uri, string(text))
		ds := c.waitDiags(uri, func([]Diagnostic) bool { return true })
		var got []string
		for _, d := range ds {
			got = append(got, fmt.Sprintf("%d:%s:%s", d.Range.Start.Line+1, d.Code, d.Message))
		}
		slices.Sort(got)
		slices.Sort(wantLines)
		if !slices.Equal(got, wantLines) {
			t.Errorf("%s: diagnostics differ from the full run\ngot:\n%s\nwant:\n%s", rel, strings.Join(got, "\n"), strings.Join(wantLines, "\n"))
		}
		c.notify("textDocument/didClose", DidCloseTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: uri}})
		c.waitDiags(uri, none)
	}
}

// fullRun checks every file of w from disk, as check does.
func fullRun(tb testing.TB, w *workspace) *checks.Result {
	tb.Helper()
	f := w.freeze()
	runMu.Lock()
	defer runMu.Unlock()
	if err := f.applyFlags(); err != nil {
		tb.Fatal(err)
	}
	root, err := safefs.Open(w.root, f.maxSize)
	if err != nil {
		tb.Fatal(err)
	}
	defer root.Close()
	res, _, err := checks.Run(f.options(root))
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

// TestCorpusGlossary: a glossary term used in a document that is not
// CONTEXT.md resolves to its definition there, and hovers with it.
func TestCorpusGlossary(t *testing.T) {
	root := testcorpus.Require(t)
	c := newClient(t, root, &InitOptions{DebounceMS: -1})
	text := "# Notes\n\nThe Core Protocol stays local.\n"
	uri := pathURI(filepath.Join(root, ".sot", "00-INTENT", "NOTES-TEST.md"))
	c.open(uri, text)
	c.waitDiags(uri, func([]Diagnostic) bool { return true })
	at := TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: uri}, Position: Position{Line: 2, Character: 10}}
	var defs []Location
	c.call("textDocument/definition", at, &defs)
	if len(defs) != 1 || !strings.HasSuffix(defs[0].URI, "/CONTEXT.md") || defs[0].Range.Start.Line != 22 {
		t.Errorf("definition of Core Protocol: %+v", defs)
	}
	var h Hover
	c.call("textDocument/hover", at, &h)
	if !strings.HasPrefix(h.Contents.Value, "**Core Protocol**:") {
		t.Errorf("hover: %q", h.Contents.Value)
	}
}
