package checks_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/registry"
	"github.com/svrnty/sotvet/internal/safefs"
)

// TestReleaseMatchesFullRun is the guarantee of a run that lets the texts
// go after the per-document checks (Options.ReleaseText) and the typed
// model after the checks (Options.ForgetModel): it reports exactly what a
// run keeping both reports, fingerprints and related places included, on
// every test workspace with every check enabled.
func TestReleaseMatchesFullRun(t *testing.T) {
	for name, dir := range testWorkspaces(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			root, err := filepath.Abs(dir)
			if err != nil {
				t.Fatal(err)
			}
			fsys, err := safefs.Open(root, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer fsys.Close()
			run := func(release bool) []string {
				t.Helper()
				var parsed, forgotten atomic.Int32
				res, ws, err := checks.Run(checks.Options{Root: root, FS: fsys, Analyzers: registry.All, ReleaseText: release, NoFixes: release, ForgetModel: release,
					Parsed: func() { parsed.Add(1) }, Forgotten: func() { forgotten.Add(1) }})
				if err != nil {
					t.Fatal(err)
				}
				if n := parsed.Load(); n != 1 {
					t.Errorf("Parsed called %d times, want once", n)
				}
				want := int32(0)
				if release {
					want = 1
				}
				if n := forgotten.Load(); n != want {
					t.Errorf("Forgotten called %d times, want %d", n, want)
				}
				if release && (ws.Workboard != nil || len(ws.Docs) > 0 && (ws.Docs[0].Frontmatter != nil || ws.Docs[0].Headings != nil)) {
					t.Error("the run kept its typed model")
				}
				var out []string
				for _, f := range res.Findings {
					out = append(out, show(f)+fmt.Sprint(f.Related))
					if release && len(f.Fixes) > 0 {
						t.Errorf("%s: a run without fixes has %d", show(f), len(f.Fixes))
					}
				}
				return out
			}
			kept, released := run(false), run(true)
			if d := diffLines(kept, released); d != "" {
				t.Errorf("a run letting texts go differs from one keeping them:\n%s", d)
			}
		})
	}
}

// diffLines lists the lines only one of a and b has.
func diffLines(a, b []string) string {
	count := map[string]int{}
	for _, l := range a {
		count[l]++
	}
	for _, l := range b {
		count[l]--
	}
	var out []string
	for l, n := range count {
		switch {
		case n > 0:
			out = append(out, "- "+l)
		case n < 0:
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}

// changingFS gives one file new content (of the same size) from its second
// read on: a document edited while the run had let its text go.
type changingFS struct {
	fs.FS
	path, later string
	reads       atomic.Int32
}

func (c *changingFS) Open(name string) (fs.File, error) {
	if name == c.path && c.reads.Add(1) > 1 {
		return fstest.MapFS{name: {Data: []byte(c.later)}}.Open(name)
	}
	return c.FS.Open(name)
}

func (c *changingFS) ReadFile(name string) ([]byte, error) { return fs.ReadFile(c, name) }

// growingFS reports one file smaller than it is when the workspace is
// walked: a document that grew between discovery and its read.
type growingFS struct {
	fs.FS
	path string
}

func (g growingFS) Stat(name string) (fs.FileInfo, error) {
	info, err := fs.Stat(g.FS, name)
	if err == nil && name == g.path {
		return sizedInfo{info, info.Size() - 5}, nil
	}
	return info, err
}

func (g growingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(g.FS, name)
	for i, e := range entries {
		if filepath.ToSlash(filepath.Join(name, e.Name())) == g.path {
			entries[i] = fs.FileInfoToDirEntry(mustInfo(g.Stat(g.path)))
		}
	}
	return entries, err
}

func mustInfo(info fs.FileInfo, err error) fs.FileInfo {
	if err != nil {
		panic(err)
	}
	return info
}

// sizedInfo is a FileInfo that says another size.
type sizedInfo struct {
	fs.FileInfo
	size int64
}

func (i sizedInfo) Size() int64 { return i.size }

// TestReleaseEdgeCases: a text that changed before a check read it back
// makes the run start over keeping the texts; a file that grew since
// discovery is still read whole. Both give a full run's answer.
func TestReleaseEdgeCases(t *testing.T) {
	// Blank lines and trailing spaces: hygiene findings in the CLOSEOUT too.
	dir, files := phrasesRoute(t, "\n\n\nTrailing  \n")
	run := func(fsys fs.FS, release bool) []string {
		t.Helper()
		return shown(t, checks.Options{Root: dir, FS: fsys, Analyzers: registry.All, ReleaseText: release, NoFixes: release})
	}
	want := run(os.DirFS(dir), false)
	if !strings.Contains(fmt.Sprint(want), "Second phrase.") {
		t.Fatalf("the phrases check, which reads another document's text, found nothing: %v", want)
	}
	// The CLOSEOUT is read back by the phrases check: by then it says
	// something else, of the same size.
	closeout := files[".sot/R-CLOSEOUT.md"]
	changed := &changingFS{FS: os.DirFS(dir), path: ".sot/R-CLOSEOUT.md", later: strings.Replace(closeout, "First", "Fir5t", 1)}
	got := run(changed, true)
	if changed.reads.Load() < 3 {
		t.Errorf("the CLOSEOUT was read %d times: want the parse's, the check's read back, the new run's", changed.reads.Load())
	}
	// The run started over and read the new text: it answers as a run of
	// the workspace as it now is.
	later := t.TempDir()
	files[".sot/R-CLOSEOUT.md"] = changed.later
	checktest.WriteFiles(t, later, files)
	if now := run(os.DirFS(later), false); fmt.Sprint(got) != fmt.Sprint(now) {
		t.Errorf("after the text changed:\n%s", diffLines(now, got))
	}
	if got := run(growingFS{FS: os.DirFS(dir), path: ".sot/R-CLOSEOUT.md"}, true); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("a file that grew since discovery:\n%s", diffLines(want, got))
	}
}

// TestReleaseAtAnySize checks that a run lets every text go however small
// the workspace, with no size under which it keeps them (there once was
// one: a cliff in cost for the workspaces just over it), and that it
// reports what a run keeping them reports, fingerprints included.
func TestReleaseAtAnySize(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "testdata", "workspace"))
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := safefs.Open(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	run := func(release bool) (released, docs int, out []string) {
		t.Helper()
		res, ws, err := checks.Run(checks.Options{Root: root, FS: fsys, Analyzers: registry.All, ReleaseText: release, NoFixes: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ws.Docs {
			if d.Released() {
				released++
			}
		}
		for _, f := range res.Findings {
			out = append(out, show(f)+fmt.Sprint(f.Related)+f.Fingerprint)
		}
		return released, len(ws.Docs), out
	}
	_, _, want := run(false)
	released, docs, got := run(true)
	// The glossary stays: the checks read its text as a model.
	if docs == 0 || released < docs-1 {
		t.Errorf("%d of %d texts let go in a workspace of a few KB, want all but the glossary", released, docs)
	}
	if d := diffLines(want, got); d != "" {
		t.Errorf("a run letting the texts go differs:\n%s", d)
	}
}

// TestReleaseFlagsCrossFileSpans checks that the cross-file findings most
// documents of a large workspace may have (a frontmatter source that does
// not exist, a body status that contradicts the frontmatter) read no text
// back for their fingerprints: their checks flag the spans at parse time.
func TestReleaseFlagsCrossFileSpans(t *testing.T) {
	dir := t.TempDir()
	doc := "---\nname: x\nowner: jp\nstatus: draft\nsource: .sot/GONE.md\ncreated: 2026-06-01\nlast_reviewed: 2026-06-01\nlifecycle_classification: planning\ncore_promotion_status: not-promoted\n---\n\n# X\n\nStatus: validated.\n"
	checktest.WriteFiles(t, dir, map[string]string{"WORKBOARD.yaml": "items: []\n", ".sot/A-PRD.md": doc, ".sot/B-PRD.md": doc})
	res, ws, err := checks.Run(checks.Options{Root: dir, FS: os.DirFS(dir), Analyzers: registry.All, ReleaseText: true, NoFixes: true})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, f := range res.Findings {
		codes = append(codes, f.Code())
	}
	for _, want := range []string{"refs/missing-source", "status/doc-status"} {
		if !strings.Contains(fmt.Sprint(codes), want) {
			t.Errorf("no %s finding: %v", want, codes)
		}
	}
	if n := ws.ReadBacks(); n != 0 {
		t.Errorf("%d texts read back, want none", n)
	}
}
