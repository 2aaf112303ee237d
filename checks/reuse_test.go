package checks_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/registry"
	"github.com/svrnty/sotvet/internal/safefs"
	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
	"github.com/svrnty/sotvet/sotparse"
)

// memStore is a SummaryStore in memory.
type memStore struct {
	mu sync.Mutex
	m  map[[2]string][]byte
}

func (s *memStore) Summary(path, id string) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[[2]string{path, id}]
}

func (s *memStore) PutSummary(path, id string, b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[[2]string{path, id}] = b
}

// TestReuseMatchesFullRun is the cache's guarantee: a run focused on one
// file, with every other document taken from a summary, reports in that
// file exactly what a full run reports there. It is checked for every file
// of the sample workspace, the real corpus, a synthetic workspace and the
// workspace of every testscript scenario (which between them hold a
// finding of every rule), with every check enabled.
func TestReuseMatchesFullRun(t *testing.T) {
	dirs := testWorkspaces(t)
	for name, dir := range dirs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			root, err := filepath.Abs(dir)
			if err != nil {
				t.Fatal(err)
			}
			run := func(reuse *sotparse.Reuse) *checks.Result {
				t.Helper()
				res, _, err := checks.Run(checks.Options{Root: root, FS: os.DirFS(root), Analyzers: registry.All, Reuse: reuse})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			full := run(nil)
			byFile := map[string][]string{}
			for _, f := range full.Findings {
				byFile[f.File] = append(byFile[f.File], show(f))
			}
			store := &memStore{m: map[[2]string][]byte{}}
			// Fill the store: nothing in focus, every document summarized.
			if res := run(&sotparse.Reuse{Focus: func(string) bool { return false }, Store: store}); len(res.Findings) != 0 {
				t.Errorf("a run with nothing in focus reported %d findings", len(res.Findings))
			}
			ws, err := sotparse.Load(root, sotparse.Options{NoGit: true})
			if err != nil {
				t.Fatal(err)
			}
			files := ws.Files
			limit := 60
			if raceEnabled {
				limit = 12
			}
			if len(files) > limit { // a spread of the large ones
				var some []*sotparse.File
				for i := 0; i < len(files); i += len(files)/limit + 1 {
					some = append(some, files[i])
				}
				files = some
			}
			for _, f := range files {
				res := run(&sotparse.Reuse{Focus: func(p string) bool { return p == f.Path }, Store: store})
				var got []string
				for _, g := range res.Findings {
					got = append(got, show(g))
				}
				if fmt.Sprint(got) != fmt.Sprint(byFile[f.Path]) {
					t.Errorf("%s: focused run differs from the full run\nfocused:\n  %s\nfull:\n  %s",
						f.Path, strings.Join(got, "\n  "), strings.Join(byFile[f.Path], "\n  "))
				}
			}
		})
	}
}

// phrasesRoute writes a workspace whose PRD requires two phrases that its
// CLOSEOUT (First phrase., then tail) holds one of: the phrases check reads
// another document's text to say so. It returns the directory and files.
func phrasesRoute(t *testing.T, tail string) (string, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	doc := "---\nname: x\nowner: jp\nstatus: draft\ncreated: 2026-06-01\nlast_reviewed: 2026-06-01\nlifecycle_classification: planning\ncore_promotion_status: not-promoted\n---\n\n# X\n\n"
	files := map[string]string{
		"WORKBOARD.yaml":       "items: []\n",
		".sot/R-PRD.md":        doc + "## Required Evidence\n\n- First phrase.\n- Second phrase.\n",
		".sot/R-CLOSEOUT.md":   doc + "First phrase.\n" + tail,
		".sot/OTHER-ISSUES.md": doc + "Nothing.\n",
	}
	checktest.WriteFiles(t, dir, files)
	return dir, files
}

// shown runs the checks and shows their findings.
func shown(t *testing.T, opt checks.Options) []string {
	t.Helper()
	res, _, err := checks.Run(opt)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range res.Findings {
		out = append(out, show(f))
	}
	return out
}

func show(f checks.Finding) string {
	return fmt.Sprintf("%s:%d:%d-%d:%d %s/%s %s %s %s", f.File, f.Line, f.Col, f.EndLine, f.EndCol, f.Check, f.Category, f.Severity, f.Message, f.Fingerprint)
}

// flakyFS fails the first open of one file: a document a summary stood for
// that cannot be read back when a check asks for its text.
type flakyFS struct {
	fs.FS
	path   string
	failed atomic.Bool
}

func (f *flakyFS) Open(name string) (fs.File, error) {
	if name == f.path && f.failed.CompareAndSwap(false, true) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("transient failure")}
	}
	return f.FS.Open(name)
}

// TestReuseFallsBack: when a check needs the text of a summarized document
// and it cannot be read, the run starts over without summaries and still
// gives the full run's answer.
func TestReuseFallsBack(t *testing.T) {
	dir, files := phrasesRoute(t, "")
	phrases := []*analysis.Analyzer{checks.Lookup("phrases")}
	run := func(fsys fs.FS, reuse *sotparse.Reuse) []string {
		t.Helper()
		return shown(t, checks.Options{Root: dir, FS: fsys, Analyzers: phrases, Reuse: reuse})
	}
	want := run(os.DirFS(dir), nil)
	if len(want) != 1 || !strings.Contains(want[0], "Second phrase.") {
		t.Fatalf("full run: %v", want)
	}
	// Content ids known without reading, as git gives them with --staged.
	id := func(p string) (string, bool) {
		c, ok := files[p]
		return sotparse.BlobID([]byte(c)), ok
	}
	store := &memStore{m: map[[2]string][]byte{}}
	run(os.DirFS(dir), &sotparse.Reuse{Focus: func(string) bool { return false }, ID: id, Store: store})
	flaky := &flakyFS{FS: os.DirFS(dir), path: ".sot/R-CLOSEOUT.md"}
	focus := func(p string) bool { return p == ".sot/R-PRD.md" }
	got := run(flaky, &sotparse.Reuse{Focus: focus, ID: id, Store: store})
	if !flaky.failed.Load() {
		t.Fatal("the summarized CLOSEOUT was never read back")
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after a failed read back: %v, want %v", got, want)
	}
}

// testWorkspaces returns the sample workspace, the real corpus when it is
// here, a synthetic workspace and the workspace of every testscript
// scenario, by name: between them they hold a finding of every rule.
func testWorkspaces(t *testing.T) map[string]string {
	t.Helper()
	dirs := map[string]string{"sample": filepath.Join("..", "testdata", "workspace")}
	syn := t.TempDir()
	if err := gencorpus.Write(syn, 120, 11); err != nil {
		t.Fatal(err)
	}
	dirs["synthetic"] = syn
	if c := testcorpus.Optional(t); c != "" {
		dirs["corpus"] = c
	}
	_, scenarios := testcorpus.Scenarios(t)
	for name, dir := range scenarios {
		// most scenarios keep their workspaces in directories of their own
		// (ws/, big/, clean/): a run on the archive's root finds no
		// document, so each directory holding one is a workspace here
		for _, ws := range scenarioWorkspaces(dir) {
			if !runs(ws) {
				continue // a scenario's broken configuration (check_prose's badini): an error, not findings
			}
			rel, _ := filepath.Rel(dir, ws)
			dirs["script/"+name+"/"+filepath.ToSlash(rel)] = ws
		}
	}
	return dirs
}

// runs reports whether a run of every check on dir returns findings
// rather than an error.
func runs(dir string) bool {
	fsys, err := safefs.Open(dir, 0)
	if err != nil {
		return false
	}
	defer fsys.Close()
	_, _, err = checks.Run(checks.Options{Root: dir, FS: fsys, Analyzers: registry.All})
	return err == nil
}

// scenarioWorkspaces returns the directories under root (root included)
// that hold a .sot directory or a WORKBOARD.yaml.
func scenarioWorkspaces(root string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if d.Name() == ".sot" {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(p, ".sot")); err == nil {
			out = append(out, p)
		} else if _, err := os.Stat(filepath.Join(p, "WORKBOARD.yaml")); err == nil {
			out = append(out, p)
		}
		return nil
	})
	return out
}
