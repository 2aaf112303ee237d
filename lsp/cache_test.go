package lsp

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/svrnty/sotvet/cache"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
)

// TestMain keeps every test off the user's summary cache: the servers the
// tests start read and write one of their own.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sotvet-lsp-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv(cache.EnvDir, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
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
		found, added, saved, err = w.writeCache()
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
