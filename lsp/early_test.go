package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/registry"
	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
	"github.com/svrnty/sotvet/sotparse"
)

// TestEarlyIsSubset checks every file of the sample, of generated shapes
// and of the real corpus by itself, as the server does before a load
// (early), and compares with a full run over the workspace: each finding
// the early run reports in the file is one the full run reports there, at
// the same place with the same message and fingerprint. A check listed in
// registry.DocumentLocal that reads another file breaks it.
func TestEarlyIsSubset(t *testing.T) {
	roots := map[string]string{"sample": sample(t)}
	for _, shape := range []string{"default", "mesh"} {
		dir := t.TempDir()
		if err := gencorpus.WriteShape(dir, shape, 40, 3, gencorpus.Options{Force: true}); err != nil {
			t.Fatal(err)
		}
		roots[shape] = dir
	}
	// A configuration that raises one check's findings and silences
	// another's: the early run judges with it too.
	conf := t.TempDir()
	if err := gencorpus.WriteShape(conf, "default", 40, 3, gencorpus.Options{Force: true}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(conf, "sotvet.yaml"), []byte("severity:\n  hygiene: error\n  structure: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	roots["configured"] = conf
	if dir := testcorpus.Optional(t); dir != "" {
		roots["corpus"] = dir
	}
	for name, root := range roots {
		t.Run(name, func(t *testing.T) {
			w, err := loadWorkspace(root)
			if err != nil {
				t.Fatal(err)
			}
			want := fullRun(t, w)
			w.askGit()
			model, err := sotparse.Load(root, sotparse.Options{NoGit: true})
			if err != nil {
				t.Fatal(err)
			}
			found := 0
			for _, f := range model.Files {
				b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
				if err != nil {
					t.Fatal(err)
				}
				w.setOverlay(f.Path, b)
				// As during a load: another run holds runMu, with the
				// flags of this configuration set (tests run in parallel,
				// and a run of theirs may hold it).
				runMu.Lock()
				if err := w.freeze().applyFlags(); err != nil {
					t.Fatal(err)
				}
				snap := w.early(f.Path, 1)
				runMu.Unlock()
				w.setOverlay(f.Path, nil)
				if snap == nil {
					t.Fatalf("%s: no early run", f.Path)
				}
				got, full := findingLines(snap.findings, f.Path), findingLines(want.Findings, f.Path)
				for _, g := range got {
					if !slices.Contains(full, g) {
						t.Errorf("%s: the early run reports a finding the full run does not:\n%s\nfull run:\n%s", f.Path, g, strings.Join(full, "\n"))
					}
				}
				sev := map[string]checks.Severity{}
				for _, x := range want.Findings {
					if x.File == f.Path {
						sev[fmt.Sprintf("%d:%d %s %s", x.Line, x.Col, x.Code(), x.Message)] = x.Severity
					}
				}
				for _, x := range snap.findings {
					if x.File != f.Path || !registry.DocumentLocal[x.Check] {
						t.Errorf("%s: the early run reports %s in %s", f.Path, x.Code(), x.File)
					}
					if k := fmt.Sprintf("%d:%d %s %s", x.Line, x.Col, x.Code(), x.Message); sev[k] != x.Severity {
						t.Errorf("%s: %s is %s early, %q in the full run", f.Path, k, x.Severity, sev[k])
					}
				}
				found += len(got)
			}
			if name != "sample" && found == 0 {
				t.Fatal("no early finding at all: the comparison proves nothing")
			}
			t.Logf("%d files, %d early findings", len(model.Files), found)
		})
	}
}

// TestEarlyPublish: a document opened as the server starts gets the
// findings it has by itself (hygiene) first, then, once the workspace is
// loaded, the same and those other files give it (an unknown work id),
// under the same version.
func TestEarlyPublish(t *testing.T) {
	root := sample(t)
	// The load waits for the early publication: a sample loads in less
	// time than an early run takes to start.
	published := make(chan struct{})
	holdLoad(t, root, published, 10*time.Second)
	c := newClient(t, root, &InitOptions{DebounceMS: -1, NoCache: true})
	docPath := filepath.Join(root, issuesRel)
	doc := pathURI(docPath)
	text := readFile(t, docPath) + "\nBlocked by: CTO-WORK-987\t\n"
	c.open(doc, text)
	c.waitDiags(doc, hasCode("hygiene"))
	close(published)
	c.waitDiags(doc, hasCode("refs"))
	c.mu.Lock()
	hist := slices.Clone(c.hist[doc])
	c.mu.Unlock()
	if len(hist) != 2 {
		t.Fatalf("%d publications, want the early one and the complete one: %+v", len(hist), hist)
	}
	first, last := hist[0], hist[1]
	if !hasCode("hygiene")(first.Diagnostics) || hasCode("refs")(first.Diagnostics) {
		t.Errorf("early publication: %+v", first.Diagnostics)
	}
	if *first.Version != 1 || *last.Version != 1 {
		t.Errorf("versions %d, %d; want 1", *first.Version, *last.Version)
	}
	key := func(d Diagnostic) string { b, _ := json.Marshal(d); return string(b) }
	for _, d := range first.Diagnostics {
		if !slices.ContainsFunc(last.Diagnostics, func(e Diagnostic) bool { return key(e) == key(d) }) {
			t.Errorf("early diagnostic %s is not in the complete set %+v", key(d), last.Diagnostics)
		}
	}
}

// TestEarlyPublishOnChange: a buffer changed while its workspace loads
// gets the new version's own findings before the load is done.
func TestEarlyPublishOnChange(t *testing.T) {
	root := sample(t)
	release := make(chan struct{})
	holdLoad(t, root, release, 30*time.Second)
	c := newClient(t, root, &InitOptions{DebounceMS: -1, NoCache: true})
	docPath := filepath.Join(root, issuesRel)
	doc := pathURI(docPath)
	text := readFile(t, docPath)
	c.open(doc, text)
	c.waitVersion(doc, 1)
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{
		TextDocument:   VersionedTextDocumentIdentifier{URI: doc, Version: 2},
		ContentChanges: []TextDocumentContentChangeEvent{{Text: text + "trailing \n"}},
	})
	// The load is held back until this test lets it go: version 2's
	// diagnostics now can only be the early ones.
	var p PublishDiagnosticsParams
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		c.mu.Lock()
		p = c.diags[doc]
		c.mu.Unlock()
		if p.Version != nil && *p.Version == 2 {
			break
		}
		if time.Now().After(deadline) {
			close(release)
			t.Fatal("no diagnostics for version 2 while the workspace loads")
		}
	}
	if !hasCode("hygiene")(p.Diagnostics) {
		t.Errorf("version 2, before the load: %+v", p.Diagnostics)
	}
	close(release)
	c.waitLoaded(doc)
	if ds := c.waitDiags(doc, hasCode("hygiene")); len(ds) == 0 {
		t.Error("no diagnostics after the load")
	}
}

// TestEarlyOneRunPerBurst: keystrokes typed while the workspace loads
// start one early publication each, but only the buffer's latest version
// is checked: those it overtook while waiting their turn are dropped.
func TestEarlyOneRunPerBurst(t *testing.T) {
	root := sample(t)
	release := make(chan struct{})
	holdLoad(t, root, release, 30*time.Second)
	const edits = 10
	started := make(chan int32, edits+1)
	hold := make(chan struct{})
	egate := func(v int32) {
		started <- v
		<-hold
	}
	earlyGate.Store(&egate)
	t.Cleanup(func() { earlyGate.Store(nil) })
	before := earlyRuns.Load()
	c := newClient(t, root, &InitOptions{DebounceMS: -1, NoCache: true})
	docPath := filepath.Join(root, issuesRel)
	doc := pathURI(docPath)
	text := readFile(t, docPath)
	c.open(doc, text)
	for v := int32(2); v <= edits+1; v++ {
		text += "trailing \n"
		c.notify("textDocument/didChange", DidChangeTextDocumentParams{
			TextDocument:   VersionedTextDocumentIdentifier{URI: doc, Version: v},
			ContentChanges: []TextDocumentContentChangeEvent{{Text: text}},
		})
	}
	// Every version's publication has started (each after its change was
	// applied): the buffer is at the last one.
	for range edits + 1 {
		select {
		case <-started:
		case <-time.After(10 * time.Second):
			close(hold)
			close(release)
			t.Fatal("the early publications did not start")
		}
	}
	close(hold)
	c.waitVersion(doc, edits+1)
	if n := earlyRuns.Load() - before; n != 1 {
		t.Errorf("%d early runs for %d versions typed before any ran; want 1, the last", n, edits+1)
	}
	close(release)
	c.waitLoaded(doc)
}

// TestEarlyGitAskedIsNotDone: a workspace whose git rules are being asked
// for is not ready to run (the run would freeze no rules), and a second
// asker waits for the first.
func TestEarlyGitAskedIsNotDone(t *testing.T) {
	w := &workspace{gitReady: make(chan struct{}), gitAsked: true}
	if w.gitDone() {
		t.Fatal("gitDone while git is still being asked")
	}
	done := make(chan struct{})
	go func() { w.askGit(); close(done) }()
	select {
	case <-done:
		t.Fatal("askGit returned before the rules were read")
	case <-time.After(50 * time.Millisecond):
	}
	close(w.gitReady)
	<-done
	if !w.gitDone() {
		t.Fatal("not done once the rules are read")
	}
}

// TestEarlyOnlyWalkedFiles: a buffer the workspace's walk does not reach
// (in a linked directory leading out of the root, in a directory not on
// disk) gets no early findings, as the complete run finds nothing in it;
// one at a link to a file out of the root is the buffer's, early and
// complete alike. Whatever the case, the early findings are in the
// complete set.
func TestEarlyOnlyWalkedFiles(t *testing.T) {
	const text = "# X\n\ntrailing \n"
	for _, tc := range []struct {
		name, rel string
		setup     func(t *testing.T, root, out string)
		early     bool
	}{
		{"linked directory", ".sot/ext/out.md", func(t *testing.T, root, out string) {
			if err := os.Symlink(out, filepath.Join(root, ".sot", "ext")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"directory not on disk", ".sot/new/out.md", func(t *testing.T, root, out string) {}, false},
		{"linked file", ".sot/out.md", func(t *testing.T, root, out string) {
			if err := os.Symlink(filepath.Join(out, "out.md"), filepath.Join(root, ".sot", "out.md")); err != nil {
				t.Fatal(err)
			}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, out := sample(t), t.TempDir()
			if err := os.WriteFile(filepath.Join(out, "out.md"), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			tc.setup(t, root, out)
			release := make(chan struct{})
			holdLoad(t, root, release, 30*time.Second)
			before := earlyRuns.Load()
			c := newClient(t, root, &InitOptions{DebounceMS: -1, NoCache: true})
			doc := pathURI(filepath.Join(root, filepath.FromSlash(tc.rel)))
			c.open(doc, text)
			if tc.early {
				c.waitVersion(doc, 1)
			} else {
				// No publication to wait for: the early run, had it run,
				// takes far less.
				time.Sleep(200 * time.Millisecond)
			}
			c.mu.Lock()
			early := slices.Clone(c.hist[doc])
			c.mu.Unlock()
			if ran := earlyRuns.Load() > before; ran != tc.early || (len(early) > 0) != tc.early {
				t.Errorf("early run: %v, early publications %+v; want an early run: %v", ran, early, tc.early)
			}
			close(release)
			c.waitLoaded(doc)
			c.mu.Lock()
			last := c.diags[doc]
			c.mu.Unlock()
			key := func(d Diagnostic) string { b, _ := json.Marshal(d); return string(b) }
			for _, p := range early {
				for _, d := range p.Diagnostics {
					if !slices.ContainsFunc(last.Diagnostics, func(e Diagnostic) bool { return key(e) == key(d) }) {
						t.Errorf("early diagnostic %s is not in the complete set %+v", key(d), last.Diagnostics)
					}
				}
			}
		})
	}
}

// holdLoad holds the loading of the workspace at root until release is
// closed, or for at most max, for the rest of t.
func holdLoad(t *testing.T, root string, release <-chan struct{}, max time.Duration) {
	gate := func(r string) {
		if r == root {
			select {
			case <-release:
			case <-time.After(max):
			}
		}
	}
	loadGate.Store(&gate)
	t.Cleanup(func() { loadGate.Store(nil) })
}
