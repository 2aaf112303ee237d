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

// TestDocCheckScratch: the parse runs a document's DocChecks in memory
// reused from check to check and document to document; what each check
// reported and flagged, handed to AfterDoc and then over to the check,
// is what it reported, with few and many diagnostics (more than the
// scratch keeps room for), with a check that panics after reporting, and
// the same as when the checks run outside the parse.
func TestDocCheckScratch(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := range 60 {
		fsys[fmt.Sprintf("D%02d-PRD.md", i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf("# D%d\n\n%s\n", i, strings.Repeat("text ", i)))}
	}
	// count is how many diagnostics check k reports on the i-th document.
	count := func(k int, path string) int {
		var i int
		fmt.Sscanf(path, "D%d", &i)
		switch (i + k) % 5 {
		case 0:
			return 0
		case 1:
			return 1
		case 2:
			return 7 + k
		case 3:
			return maxScratch/3 + i
		}
		return maxScratch + 50*k + i
	}
	var checks []*DocCheck
	for k := range 4 {
		checks = append(checks, &DocCheck{Run: func(p *DocPass) any {
			f := p.Doc.File
			n := count(k, p.Doc.Path)
			for j := range n {
				p.Report(analysis.Diagnostic{Pos: f.Pos(j % len(p.Content)), Message: fmt.Sprintf("%d/%d", k, j)})
				if j%3 == 0 {
					p.Flag(f.Pos(0), f.Pos(j%len(p.Content)))
				}
			}
			if k == 2 && n == 1 {
				panic("after reporting")
			}
			if n == 0 {
				return nil
			}
			return fmt.Sprint(k, p.Doc.Path)
		}})
	}
	parse := func(stream *Stream) *Workspace {
		disc, err := Discover(fsys, DiscoverOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return ParseStreaming(token.NewFileSet(), disc, func(p string) ([]byte, error) { return fs.ReadFile(fsys, p) }, 0, nil, stream)
	}
	// each hands over every check's findings, as text; a check that
	// panics is one line (what it reported before depends on where it
	// ran: Each stops at the document that panicked).
	each := func(ws *Workspace) string {
		var out []string
		for k, dc := range checks {
			pass := &analysis.Pass{Report: func(d analysis.Diagnostic) {
				out = append(out, fmt.Sprintf("%d %s %d %s", k, ws.Fset.Position(d.Pos).Filename, ws.Fset.Position(d.Pos).Offset, d.Message))
			}}
			start := len(out)
			func() {
				defer func() {
					if r := recover(); r != nil {
						out = append(out[:start], fmt.Sprintf("%d panicked: %v", k, strings.Contains(fmt.Sprint(r), "after reporting")))
					}
				}()
				out = append(out, fmt.Sprint(dc.Each(pass, ws)))
			}()
		}
		return strings.Join(out, "\n")
	}
	want := each(parse(nil))
	for _, release := range []bool{false, true} {
		var afterDoc atomic.Int32
		stream := &Stream{Checks: checks, Release: release, AfterDoc: func(d *Doc, content []byte, diags [][]analysis.Diagnostic) {
			afterDoc.Add(1)
			for k := range checks {
				n := count(k, d.Path)
				flagged := (n + 2) / 3
				if len(diags[k]) != n+flagged {
					t.Errorf("%s: AfterDoc got %d diagnostics of check %d, want %d and %d flagged", d.Path, len(diags[k]), k, n, flagged)
					continue
				}
				for j, diag := range diags[k][flagged:] {
					if diag.Message != fmt.Sprintf("%d/%d", k, j) {
						t.Fatalf("%s: AfterDoc's diagnostic %d of check %d says %q", d.Path, j, k, diag.Message)
					}
				}
			}
		}}
		ws := parse(stream)
		if afterDoc.Load() != int32(len(ws.Docs)) {
			t.Errorf("AfterDoc ran on %d documents, want %d", afterDoc.Load(), len(ws.Docs))
		}
		if got := each(ws); got != want {
			t.Errorf("release %v: handed over what the checks run outside the parse do not find (%d and %d bytes)", release, len(got), len(want))
		}
	}
}

// TestKeepsKeyValue: a parse that lets the texts go keeps of a document's
// KeyValues only those a DocCheck keeps, after every DocCheck read all of
// them; one that keeps the texts keeps all.
func TestKeepsKeyValue(t *testing.T) {
	fsys := fstest.MapFS{
		"A-PRD.md": {Data: []byte("# A\n\n| Lane | Owner | Validator |\n|---|---|---|\n| one | jp | passed |\n| two | mk | pending |\n\n**Owner:** jp\n")},
	}
	var seen atomic.Int32
	reads := &DocCheck{Run: func(p *DocPass) any {
		seen.Add(int32(len(p.Doc.KeyValues)))
		return nil
	}}
	keeps := &DocCheck{Run: func(*DocPass) any { return nil }, KeepsKeyValue: func(prepared any, d *Doc, f *Fact) bool {
		return f.Key == "Validator"
	}}
	show := func(fs []*Fact) string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Subject+"."+f.Key+"="+f.Value)
		}
		return strings.Join(out, " ")
	}
	const all = "one.Owner=jp one.Validator=passed two.Owner=mk two.Validator=pending .Owner=jp"
	for _, release := range []bool{false, true} {
		seen.Store(0)
		ws := parseStreamOf(t, fsys, release, reads, keeps)
		want := all
		if release {
			want = "one.Validator=passed two.Validator=pending"
		}
		if got := show(ws.Docs[0].KeyValues); got != want {
			t.Errorf("release %v: KeyValues %q, want %q", release, got, want)
		}
		if seen.Load() != 5 {
			t.Errorf("release %v: the DocCheck saw %d KeyValues, want all 5", release, seen.Load())
		}
	}
}

// TestKeepsField: a parse that lets the texts go keeps of a document's
// frontmatter fields those of KnownKeys (duplicates and all, their slots
// pointing at them) and the unknown ones a DocCheck keeps, after every
// DocCheck read all of them; one that keeps the texts keeps all.
func TestKeepsField(t *testing.T) {
	fsys := fstest.MapFS{
		"A-PRD.md": {Data: []byte("---\nname: a\nextra: one\nstatus: draft\nkept_key: two\nstatus: done\nlist:\n  - x\nlate: three\n---\n# A\n")},
	}
	var seen atomic.Int32
	reads := &DocCheck{Run: func(p *DocPass) any {
		seen.Add(int32(len(p.Doc.Frontmatter.Unknown)))
		return nil
	}}
	keeps := &DocCheck{Run: func(*DocPass) any { return nil }, KeepsField: func(prepared any, d *Doc, f *Field) bool {
		return f.Key == "kept_key"
	}}
	show := func(fs []*Field) string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Key+"="+f.Value)
		}
		return strings.Join(out, " ")
	}
	const all = "name=a extra=one status=draft kept_key=two status=done list= late=three"
	for _, release := range []bool{false, true} {
		seen.Store(0)
		ws := parseStreamOf(t, fsys, release, reads, keeps)
		fm := ws.Docs[0].Frontmatter
		want, wantUnknown := all, "extra=one kept_key=two list= late=three"
		if release {
			want, wantUnknown = "name=a status=draft kept_key=two status=done", "kept_key=two"
		}
		if got := show(fm.Fields); got != want {
			t.Errorf("release %v: Fields %q, want %q", release, got, want)
		}
		if got := show(fm.Unknown); got != wantUnknown {
			t.Errorf("release %v: Unknown %q, want %q", release, got, wantUnknown)
		}
		if fm.Name != fm.Fields[0] || fm.Status != fm.Get("status") || fm.Status.Value != "draft" {
			t.Errorf("release %v: the slots do not point at the fields kept", release)
		}
		if seen.Load() != 4 {
			t.Errorf("release %v: the DocCheck saw %d unknown fields, want all 4", release, seen.Load())
		}
	}
}

// parseStreamOf parses fsys with checks run as each document is parsed,
// letting the texts go with release.
func parseStreamOf(t *testing.T, fsys fs.FS, release bool, checks ...*DocCheck) *Workspace {
	t.Helper()
	disc, err := Discover(fsys, DiscoverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ParseStreaming(token.NewFileSet(), disc, func(p string) ([]byte, error) { return fs.ReadFile(fsys, p) }, 0, nil, &Stream{Checks: checks, Release: release})
}
