package sotparse

import (
	"fmt"
	"go/token"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"golang.org/x/tools/go/analysis"
)

// TestReleasedBlocks: the blocks of a released document, parsed again from
// its text read back, are the blocks it had.
func TestReleasedBlocks(t *testing.T) {
	fsys := fstest.MapFS{
		"A-PRD.md": {Data: []byte("---\nname: a\n---\n\n# A\n\nFirst `code` para.\n\n- item one\n- [x] done\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")},
	}
	parse := func(release bool) *Workspace {
		disc, err := Discover(fsys, DiscoverOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return ParseStreaming(token.NewFileSet(), disc, func(p string) ([]byte, error) { return fs.ReadFile(fsys, p) }, 0, nil, &Stream{Release: release})
	}
	show := func(ws *Workspace) string {
		d := ws.Docs[0]
		out := ""
		for _, b := range d.BlocksIn(ws.Content(d)) {
			out += fmt.Sprintf("%v %d %d %q %d-%d\n", b.Kind, b.Level, b.Depth, b.Text, ws.Fset.Position(b.Pos).Offset, ws.Fset.Position(b.End).Offset)
		}
		for b := range new(BlockDecoder).Outline(d, ws.Content(d)) {
			out += fmt.Sprintf("outline: %v %d %d %d-%d\n", b.Kind, b.Level, b.Depth, ws.Fset.Position(b.Pos).Offset, ws.Fset.Position(b.End).Offset)
		}
		return out
	}
	kept, released := parse(false), parse(true)
	if !released.Docs[0].Released() || released.Docs[0].File.Content != nil {
		t.Fatal("the document was not released")
	}
	want, got := show(kept), show(released)
	if want == "" || got != want {
		t.Errorf("blocks of the released document:\n%s\nwant:\n%s", got, want)
	}
}

// TestDocCheckEach: Each hands over what the parse's DocCheck found, runs
// the DocCheck itself on the documents the parse did not visit, and raises
// a DocCheck's panic in the check's Run.
func TestDocCheckEach(t *testing.T) {
	fsys := fstest.MapFS{
		"A-PRD.md":    {Data: []byte("# A\n\nalpha\n")},
		"B-ISSUES.md": {Data: []byte("# B\n\nbeta\n")},
	}
	var calls atomic.Int32
	dc := &DocCheck{
		Prepare: func() any { return "prepared" },
		Run: func(p *DocPass) any {
			calls.Add(1)
			if p.Prepared != "prepared" {
				t.Errorf("Prepared = %v", p.Prepared)
			}
			p.Report(analysis.Diagnostic{Pos: p.Doc.File.Pos(0), Message: p.Doc.Path})
			return len(p.Content)
		},
	}
	parse := func(stream *Stream) *Workspace {
		disc, err := Discover(fsys, DiscoverOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return ParseStreaming(token.NewFileSet(), disc, func(p string) ([]byte, error) { return fs.ReadFile(fsys, p) }, 0, nil, stream)
	}
	each := func(ws *Workspace) ([]any, []string) {
		var msgs []string
		pass := &analysis.Pass{Report: func(d analysis.Diagnostic) { msgs = append(msgs, d.Message) }}
		return dc.Each(pass, ws), msgs
	}
	for _, stream := range []*Stream{nil, {Checks: []*DocCheck{dc}}, {Checks: []*DocCheck{dc}, Release: true}} {
		calls.Store(0)
		ws := parse(stream)
		atParse := calls.Load()
		results, msgs := each(ws)
		if fmt.Sprint(results) != "[11 10]" || fmt.Sprint(msgs) != "[A-PRD.md B-ISSUES.md]" {
			t.Errorf("stream %+v: results %v, messages %v", stream, results, msgs)
		}
		if stream != nil && (atParse != 2 || calls.Load() != 2) {
			t.Errorf("stream %+v: %d calls at parse, %d in all; want 2 and 2", stream, atParse, calls.Load())
		}
		if stream == nil && calls.Load() != 2 {
			t.Errorf("no stream: %d calls, want 2 by Each", calls.Load())
		}
	}
	boom := &DocCheck{Run: func(p *DocPass) any { panic("boom in " + p.Doc.Path) }}
	ws := parse(&Stream{Checks: []*DocCheck{boom}})
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "boom in") {
			t.Errorf("recovered %v, want the DocCheck's panic", r)
		}
	}()
	boom.Each(&analysis.Pass{Report: func(analysis.Diagnostic) {}}, ws)
	t.Error("Each returned after a DocCheck panicked")
}

// TestDocCheckHeldDiagnostics: what a DocCheck reported during the parse
// is handed over as it was reported, whatever form it was held in: a span
// of the document to its last byte, with or without a category, and one
// with related places, a URL, fixes, or no position.
func TestDocCheckHeldDiagnostics(t *testing.T) {
	fsys := fstest.MapFS{
		"A-PRD.md":    {Data: []byte("# A\n\nalpha\n")},
		"B-ISSUES.md": {Data: []byte("# B\n\nbeta\n")},
		"C-PRD.md":    {Data: []byte("# C\n")},
	}
	dc := &DocCheck{Run: func(p *DocPass) any {
		f := p.Doc.File
		size := len(p.Content)
		p.Report(analysis.Diagnostic{Pos: f.Pos(0), End: f.Pos(size), Category: "span", Message: "whole " + p.Doc.Path})
		p.Report(analysis.Diagnostic{Pos: f.Pos(size), Message: "at the end"})
		p.Report(analysis.Diagnostic{Pos: f.Pos(2), End: f.Pos(3), Message: "related", Related: []analysis.RelatedInformation{{Pos: f.Pos(1), Message: "here"}}})
		p.Report(analysis.Diagnostic{Pos: f.Pos(1), Message: "url", URL: "https://example.com"})
		p.Report(analysis.Diagnostic{Pos: f.Pos(1), Message: "fix", SuggestedFixes: []analysis.SuggestedFix{{Message: "drop", TextEdits: []analysis.TextEdit{{Pos: f.Pos(0), End: f.Pos(1)}}}}})
		p.Report(analysis.Diagnostic{Message: "nowhere"})
		if p.Doc.Path == "C-PRD.md" {
			return nil // diagnostics, no result
		}
		return p.Doc.Path
	}}
	parse := func(stream *Stream) *Workspace {
		disc, err := Discover(fsys, DiscoverOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return ParseStreaming(token.NewFileSet(), disc, func(p string) ([]byte, error) { return fs.ReadFile(fsys, p) }, 0, nil, stream)
	}
	each := func(ws *Workspace) string {
		var out []string
		pass := &analysis.Pass{Report: func(d analysis.Diagnostic) {
			p := ws.Fset.Position(d.Pos)
			e := ws.Fset.Position(d.End)
			out = append(out, fmt.Sprintf("%s:%d-%s:%d %s %q %v %s %d", p.Filename, p.Offset, e.Filename, e.Offset, d.Category, d.Message, d.Related, d.URL, len(d.SuggestedFixes)))
		}}
		out = append(out, fmt.Sprint(dc.Each(pass, ws)))
		return strings.Join(out, "\n")
	}
	want := each(parse(nil))
	for _, stream := range []*Stream{{Checks: []*DocCheck{dc}}, {Checks: []*DocCheck{dc}, Release: true}} {
		ws := parse(stream)
		if got := each(ws); got != want {
			t.Errorf("stream %+v: handed over\n%s\nwant\n%s", stream, got, want)
		}
		for _, d := range ws.Docs {
			if d.visits != nil && d.visits.list != nil {
				t.Errorf("%s: the visits were kept after every check took its own", d.Path)
			}
		}
	}
}
