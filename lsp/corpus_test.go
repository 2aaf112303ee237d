package lsp

import (
	"fmt"
	"maps"
	"os"
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
	for i, rel := range slices.Sorted(maps.Keys(byFile)) {
		// Under -race every third file: each open is a whole check run,
		// several times dearer there, and the plain run opens them all.
		if raceEnabled && i%3 != 0 {
			continue
		}
		wantLines := byFile[rel]
		text, ok := w.content(rel)
		if !ok {
			continue // a file the run could not read (over the size limit, say)
		}
		uri := pathURI(filepath.Join(root, filepath.FromSlash(rel)))
		c.open(uri, string(text))
		c.waitLoaded(uri) // the first diagnostics may be the early ones
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

// TestCorpusCrossDocumentContradiction types, in a document of the real
// corpus that shares no work id or route with the others, sentences that
// make a provider/model pair "primary" more often than other documents
// make it "fallback": the contradiction check then reports the fallback
// sentences of other open documents, and no longer the one "primary" it
// reported. Every open document's diagnostics must be those of a full run
// with the edit on disk, as the contradiction appears and disappears.
func TestCorpusCrossDocumentContradiction(t *testing.T) {
	src := testcorpus.Require(t)
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	const rel = ".sot/00-INTENT/CTO-WORKSPACE-INTENT.md"
	opened := []string{rel,
		".sot/03-PROTOCOLS/CTO-CASE-PROVIDER-DECISION-RECORD.md",
		".sot/03-PROTOCOLS/CTO-CASE-MODEL-PROVIDER-ADMISSION-ISSUES.md",
		".sot/03-PROTOCOLS/CTO-CASE-PROVIDER-DECISION-PACKET-PRD.md",
		"CONTEXT.md",
	}
	orig, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	edited := string(orig) + "\n## Provider\n\n`openai-codex` / `gpt-5.5` is the primary path.\n\n" +
		"The primary path is `openai-codex` / `gpt-5.5` for every stage.\n\n" +
		"We keep `openai-codex` / `gpt-5.5` as the primary path.\n"
	w, err := loadWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t, root, &InitOptions{DebounceMS: -1})
	uri := func(p string) string { return pathURI(filepath.Join(root, filepath.FromSlash(p))) }
	for _, p := range opened {
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		c.open(uri(p), string(text))
	}
	for i, content := range []string{edited, string(orig), edited} {
		c.notify("textDocument/didChange", DidChangeTextDocumentParams{
			TextDocument:   VersionedTextDocumentIdentifier{URI: uri(rel), Version: int32(i + 2)},
			ContentChanges: []TextDocumentContentChangeEvent{{Text: content}},
		})
		if err := os.WriteFile(filepath.Join(root, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		want := map[string][]string{}
		roleElsewhere := false
		for _, f := range fullRun(t, w).Findings {
			want[f.File] = append(want[f.File], findingLine(f.Line, f.Check, f.Category, f.Message))
			roleElsewhere = roleElsewhere || f.Category == "role" && f.File != rel && strings.Contains(f.Message, "`openai-codex` / `gpt-5.5` is the fallback path here")
		}
		if roleElsewhere != (content == edited) {
			t.Fatalf("step %d: the full run's role contradictions in other documents: %v (the corpus changed?)", i, roleElsewhere)
		}
		for _, p := range opened {
			wantLines := want[p]
			slices.Sort(wantLines)
			var got []string
			c.waitDiags(uri(p), func(ds []Diagnostic) bool {
				got = got[:0]
				for _, d := range ds {
					got = append(got, fmt.Sprintf("%d:%s:%s", d.Range.Start.Line+1, d.Code, d.Message))
				}
				slices.Sort(got)
				return slices.Equal(got, wantLines)
			})
		}
	}
}

// findingLine is how TestCorpusParity compares a finding with a diagnostic.
func findingLine(line int, check, category, msg string) string {
	code := check
	if category != "" {
		code += "/" + category
	}
	return fmt.Sprintf("%d:%s:%s", line, code, msg)
}
