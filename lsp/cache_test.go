package lsp

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/svrnty/sotvet/cache"
	"github.com/svrnty/sotvet/internal/testtmp"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
)

// TestMain keeps every test off the user's summary cache: the servers the
// tests start read and write one of their own.
func TestMain(m *testing.M) {
	os.Exit(testtmp.Run(testtmp.RunFunc(func() int {
		dir, err := os.MkdirTemp("", "sotvet-lsp-cache-")
		if err != nil {
			panic(err)
		}
		os.Setenv(cache.EnvDir, dir)
		code := m.Run()
		os.RemoveAll(dir)
		plainSotvet.Remove()
		return code
	})))
}

// TestLoadReadsSummaryCache: a workspace's first run writes the summaries
// it parsed to the cache, and the first run of a later server takes them
// from there instead of parsing, with the same findings, cross-file ones
// included.
func TestLoadReadsSummaryCache(t *testing.T) {
	t.Setenv(cache.EnvDir, t.TempDir())
	root := t.TempDir()
	if err := gencorpus.WriteShape(root, "default", 40, 3, gencorpus.Options{Force: true}); err != nil {
		t.Fatal(err)
	}
	// The document a full run finds most findings in, cross-file ones
	// first.
	w, err := loadWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	score := map[string]int{}
	for _, f := range fullRun(t, w).Findings {
		if strings.HasSuffix(f.File, ".md") {
			score[f.File] += 1 + 100*len(f.Related)
		}
	}
	rel := ""
	for _, p := range slices.Sorted(maps.Keys(score)) {
		if rel == "" || score[p] > score[rel] {
			rel = p
		}
	}
	load := func() (snap *snapshot, found, added int) {
		w, err := loadWorkspace(root)
		if err != nil {
			t.Fatal(err)
		}
		w.cacheKey = "test key"
		text, ok := w.content(rel)
		if !ok {
			t.Fatalf("%s: not in the workspace", rel)
		}
		w.setOverlay(rel, text)
		snap = w.freeze().run(nil)
		if snap.err != nil {
			t.Fatal(snap.err)
		}
		var saved bool
		found, added, _, saved, err = w.writeCache()
		if err != nil || !saved {
			t.Fatalf("saving the cache: %v (a cache to save: %v)", err, saved)
		}
		return snap, found, added
	}
	cold, found, parsed := load()
	if found != 0 || parsed < 39 {
		// 40 documents and the workboard, less the open buffer, whose
		// summary (unsaved text) stays out of the cache.
		t.Fatalf("first load: %d summaries found, %d added; want 0 and every file but the open one", found, parsed)
	}
	warm, found, added := load()
	if found < parsed || added > 0 {
		// The open buffer is parsed, and its summary kept out of the
		// cache (unsaved text).
		t.Fatalf("second load: %d summaries found, %d added; want %d found and none added", found, added, parsed)
	}
	got, want := findingLines(warm.findings, rel), findingLines(cold.findings, rel)
	if len(want) == 0 {
		t.Fatalf("no findings in %s: the comparison shows nothing", rel)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("findings after a load from the cache differ:\n%v\nwant:\n%v", got, want)
	}
}

// TestServerWritesSummaryCache: a server writes the cache once it has
// published, unless the client asks for none (noCache).
func TestServerWritesSummaryCache(t *testing.T) {
	for _, noCache := range []bool{false, true} {
		dir := t.TempDir()
		t.Setenv(cache.EnvDir, dir)
		root := sample(t)
		c := newClient(t, root, &InitOptions{DebounceMS: -1, NoCache: noCache})
		uri := pathURI(filepath.Join(root, issuesRel))
		c.open(uri, readFile(t, filepath.Join(root, issuesRel)))
		c.waitDiags(uri, func([]Diagnostic) bool { return true })
		packs := func() []string {
			m, _ := filepath.Glob(filepath.Join(dir, "summaries", "*.pack"))
			return m
		}
		if noCache {
			// The checker saves before its next run: once an edit's
			// diagnostics are out, a save would have happened.
			c.notify("textDocument/didChange", DidChangeTextDocumentParams{
				TextDocument:   VersionedTextDocumentIdentifier{URI: uri, Version: 2},
				ContentChanges: []TextDocumentContentChangeEvent{{Text: readFile(t, filepath.Join(root, issuesRel)) + "\n"}},
			})
			c.waitVersion(uri, 2)
			if p := packs(); len(p) > 0 {
				t.Fatalf("noCache: the server wrote %v", p)
			}
			continue
		}
		deadline := time.Now().Add(c.timeout)
		for len(packs()) == 0 {
			if time.Now().After(deadline) {
				t.Fatal("no summary cache written after the first diagnostics")
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// TestRestartReadsOnlyChangedFiles: a restart finds the unchanged files'
// summaries by the cache's stat index, without reading them, and reads a
// file whose content changed on disk while no server ran, even with its
// size and modification time kept: the open document's cross-file
// findings are a full run's.
func TestRestartReadsOnlyChangedFiles(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("the stat index keeps no stamps on " + runtime.GOOS)
	}
	t.Setenv(cache.EnvDir, t.TempDir())
	// The files were written just now: the runs happen an hour later, when
	// their stamps are old enough to trust.
	old := cache.SetClock(func() time.Time { return time.Now().Add(time.Hour) })
	t.Cleanup(func() { cache.SetClock(old) })
	root := t.TempDir()
	doc := func(name, key string) string {
		return fmt.Sprintf("---\n%s: x-%s\nstatus: draft\n---\n\n# %s\n\nLocal planning SOT only. Not a Core Protocol. Not active Core authority.\n", key, name, name)
	}
	// The open PRD says title where most PRDs say name: a finding that
	// depends on the other PRDs (consistency/schema-drift).
	const rel = ".sot/X-A-PRD.md"
	files := map[string]string{rel: doc("A", "title"), ".sot/X-B-PRD.md": doc("B", "name"), ".sot/X-C-PRD.md": doc("C", "name")}
	for i := range 8 {
		files[fmt.Sprintf(".sot/X-%d-ISSUES.md", i)] = doc(fmt.Sprint(i), "name")
	}
	for p, text := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	load := func() ([]string, int) {
		w, err := loadWorkspace(root)
		if err != nil {
			t.Fatal(err)
		}
		w.cacheKey = "test key"
		text, _ := w.content(rel)
		w.setOverlay(rel, text)
		snap := w.freeze().run(nil)
		if snap.err != nil {
			t.Fatal(snap.err)
		}
		_, _, read, saved, err := w.writeCache()
		if err != nil || !saved {
			t.Fatalf("saving the cache: %v (a cache to save: %v)", err, saved)
		}
		return findingLines(snap.findings, rel), read
	}
	full := func() []string {
		w, err := loadWorkspace(root)
		if err != nil {
			t.Fatal(err)
		}
		return findingLines(fullRun(t, w).Findings, rel)
	}
	drift := func(lines []string) bool { return strings.Contains(strings.Join(lines, "\n"), "schema-drift") }
	cold, coldRead := load()
	warm, warmRead := load()
	if !drift(cold) || !slices.Equal(cold, full()) || !slices.Equal(warm, cold) {
		t.Fatalf("first start:\n%v\nrestart:\n%v\nwant (with a schema-drift finding):\n%v", cold, warm, full())
	}
	// The open document is its buffer: never read through the cache.
	if coldRead != len(files)-1 || warmRead != 0 {
		t.Errorf("files read: %d at the first start, %d at a restart; want every one but the open one, then none", coldRead, warmRead)
	}

	// The other PRDs now say title: same sizes, modification times put
	// back. The change times moved: they are read, and the finding goes.
	for _, p := range []string{".sot/X-B-PRD.md", ".sot/X-C-PRD.md"} {
		abs := filepath.Join(root, p)
		info, err := os.Stat(abs)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Replace(files[p], "name: x-", "title: x", 1)
		if len(text) != len(files[p]) {
			t.Fatal("the change must keep the size")
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(abs, info.ModTime(), info.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	after, afterRead := load()
	if want := full(); drift(want) || !slices.Equal(after, want) {
		t.Fatalf("after two PRDs changed on disk (sizes and modification times kept):\n%v\nwant (no schema-drift):\n%v", after, want)
	}
	if afterRead != 2 {
		t.Errorf("%d files read after two changed; want those two", afterRead)
	}
}
