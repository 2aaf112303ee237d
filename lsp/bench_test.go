package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"testing"
	"time"

	"github.com/svrnty/sotvet/cache"
	"github.com/svrnty/sotvet/internal/cputime"
	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
)

// editLoop types into one document of root: each edit adds or removes a
// blank line at its end (a hygiene finding that comes and goes), and the
// time is from the didChange to the publishDiagnostics of that version.
// It reports the p50 and p95 of those latencies.
func editLoop(b *testing.B, root, rel string) {
	c := newClient(b, root, &InitOptions{DebounceMS: -1})
	c.timeout = 5 * time.Minute // a 10,000-document workspace on a loaded machine
	uri := pathURI(filepath.Join(root, rel))
	text := readFileB(b, filepath.Join(root, rel))
	c.open(uri, text)
	c.waitLoaded(uri)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	cpu0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		next := text
		if i%2 == 0 {
			next += "\n"
		}
		want := int32(i + 2)
		start := time.Now()
		c.notify("textDocument/didChange", DidChangeTextDocumentParams{
			TextDocument:   VersionedTextDocumentIdentifier{URI: uri, Version: want},
			ContentChanges: []TextDocumentContentChangeEvent{{Text: next}},
		})
		c.waitVersion(uri, want)
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	b.ReportMetric(float64((cputime.Process()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/edit")
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
}

// waitLoaded waits for the workspace's load: a request is answered once
// the complete diagnostics are out (the first may be the early ones).
func (c *client) waitLoaded(uri string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	var links []DocumentLink
	if _, err := c.conn.Call(ctx, "textDocument/documentLink", DocumentLinkParams{TextDocument: TextDocumentIdentifier{URI: uri}}, &links); err != nil {
		c.t.Fatalf("waiting for the load: %v", err)
	}
}

// waitVersion waits for the diagnostics of uri at version v.
func (c *client) waitVersion(uri string, v int32) {
	for {
		c.mu.Lock()
		p := c.diags[uri]
		c.mu.Unlock()
		if p.Version != nil && *p.Version >= v {
			return
		}
		select {
		case <-c.seen:
		case <-time.After(c.timeout):
			panic(fmt.Sprintf("no diagnostics for %s version %d", uri, v))
		}
	}
}

func readFileB(b *testing.B, p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	return string(data)
}

// BenchmarkEditToDiagnostics is the latency the issue's 50 ms p95 target is
// about: a keystroke in a document of the real corpus, to its diagnostics
// (no debounce).
func BenchmarkEditToDiagnostics(b *testing.B) {
	root := testcorpus.Require(b)
	editLoop(b, root, "CONTEXT.md")
}

// BenchmarkEditToDiagnosticsSample is the same on the small sample.
func BenchmarkEditToDiagnosticsSample(b *testing.B) {
	editLoop(b, sample(b), issuesRel)
}

// BenchmarkStartup is start-up to the first diagnostics of a document of
// the real corpus: initialize, load the workspace, open, check, publish.
func BenchmarkStartup(b *testing.B) {
	root := testcorpus.Require(b)
	text := readFileB(b, filepath.Join(root, "CONTEXT.md"))
	uri := pathURI(filepath.Join(root, "CONTEXT.md"))
	for i := 0; i < b.N; i++ {
		c := newClient(b, root, &InitOptions{DebounceMS: -1})
		c.open(uri, text)
		c.waitDiags(uri, func([]Diagnostic) bool { return true })
		b.StopTimer()
		_ = c.conn.Close()
		b.StartTimer()
	}
}

// BenchmarkLargeWorkspace loads a generated 10,000-document workspace,
// opens one document, and reports the heap in use after the first
// diagnostics and the edit latency there.
func BenchmarkLargeWorkspace(b *testing.B) {
	if testing.Short() {
		b.Skip("generates 10,000 documents")
	}
	root := b.TempDir()
	if err := gencorpus.Write(root, 10000, 1); err != nil {
		b.Fatal(err)
	}
	rel := "CONTEXT.md"
	editLoop(b, root, rel)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
}

// BenchmarkFullRun is the baseline the incremental runs are compared with:
// every file of the real corpus read, parsed and judged, as a
// non-incremental server would on every keystroke.
func BenchmarkFullRun(b *testing.B) {
	root := testcorpus.Require(b)
	w, err := loadWorkspace(root)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		fullRun(b, w)
	}
}

// BenchmarkIncrementalRun is one session update of a document of the real
// corpus: the driver's share of BenchmarkEditToDiagnostics.
func BenchmarkIncrementalRun(b *testing.B) {
	root := testcorpus.Require(b)
	w, err := loadWorkspace(root)
	if err != nil {
		b.Fatal(err)
	}
	runEdits(b, w, "CONTEXT.md", false)
}

// runEdits runs the driver once to load the session, then once per
// iteration on rel, edited (a line break added, then taken away): the
// driver's share of an edit. overlay sets rel's buffer before the first
// run, as an open document has one.
func runEdits(b *testing.B, w *workspace, rel string, overlay bool) {
	text, _ := w.content(rel)
	if overlay {
		w.setOverlay(rel, text)
	}
	if snap := w.freeze().run(nil); snap.err != nil { // loads the session
		b.Fatal(snap.err)
	}
	// SOTVET_BENCH_PROF names a file prefix: the edits' CPU profile
	// (.cpu) and their allocations (.alloc, from a profile taken after the
	// load: use pprof -base PREFIX.alloc0), without the load's.
	if prefix := os.Getenv("SOTVET_BENCH_PROF"); prefix != "" {
		defer profileEdits(b, prefix)()
	}
	i := 0
	cpu0 := cputime.Process()
	defer func() {
		b.ReportMetric(float64((cputime.Process()-cpu0).Microseconds())/1000/float64(max(i, 1)), "cpu-ms/edit")
	}()
	for b.Loop() {
		i++
		next := text
		if i%2 == 0 {
			next = append(slices.Clip(text), '\n')
		}
		w.setOverlay(rel, next)
		if snap := w.freeze().run(nil); snap.err != nil {
			b.Fatal(snap.err)
		}
	}
}

// profileEdits starts the CPU profile and writes the allocation profile
// so far; the func it returns stops the one and writes the other again.
func profileEdits(b *testing.B, prefix string) func() {
	write := func(name string) {
		f, err := os.Create(prefix + name)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		runtime.GC()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			b.Fatal(err)
		}
	}
	write(".alloc0")
	f, err := os.Create(prefix + ".cpu")
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
		write(".alloc")
	}
}

// shapeEnv returns the workspace and document the shape benchmarks run
// on, SOTVET_BENCH_DIR and SOTVET_BENCH_DOC, or skips.
func shapeEnv(b *testing.B) (root, rel string) {
	root, rel = os.Getenv("SOTVET_BENCH_DIR"), os.Getenv("SOTVET_BENCH_DOC")
	if root == "" || rel == "" {
		b.Skip("SOTVET_BENCH_DIR and SOTVET_BENCH_DOC name the workspace and the document")
	}
	return root, rel
}

// BenchmarkEditShape is editLoop on the workspace SOTVET_BENCH_DIR and its
// document SOTVET_BENCH_DOC (relative): the lsp column of scripts/sweep.sh,
// for any generated shape. Skipped when unset.
func BenchmarkEditShape(b *testing.B) {
	root, rel := shapeEnv(b)
	editLoop(b, root, rel)
}

// BenchmarkRunShape is BenchmarkIncrementalRun on the workspace of
// BenchmarkEditShape: the driver's share of an edit there, without the
// protocol (a profile of many runs is mostly the edits', not the load's).
func BenchmarkRunShape(b *testing.B) {
	root, rel := shapeEnv(b)
	w, err := loadWorkspace(root)
	if err != nil {
		b.Fatal(err)
	}
	runEdits(b, w, rel, true)
}

// BenchmarkOpenShape is start-up to the first diagnostics of
// SOTVET_BENCH_DOC in SOTVET_BENCH_DIR: initialize, load the workspace,
// open, check, publish. Skipped when unset. The first start finds the
// summary cache (a directory of its own) empty and writes it, the others
// read it: cold-ms and warm-ms (the median of the others) report each,
// and cold-cpu-ms and warm-cpu-ms the CPU time the process spent in that
// time (the server's share, and the test client's, which is small).
// The first diagnostics may be the early ones (what the document says by
// itself): loaded-ms and loaded-cpu-ms are the first start's time to the
// complete ones, the publication itself (the buffer names a missing
// path, a finding of the complete run only), not a request answered
// after it, which may wait for the summary cache's write.
// SOTVET_BENCH_CACHE keeps the cache in a directory of the caller's.
func BenchmarkOpenShape(b *testing.B) {
	root, rel := shapeEnv(b)
	// SOTVET_BENCH_CACHE names a cache directory to keep between runs: a
	// profile of restarts only.
	dir := os.Getenv("SOTVET_BENCH_CACHE")
	if dir == "" {
		dir = b.TempDir()
	}
	b.Setenv(cache.EnvDir, dir)
	text := readFileB(b, filepath.Join(root, rel)) + "\nSee `.sot/bench-nowhere/`.\n"
	uri := pathURI(filepath.Join(root, rel))
	var cold, coldCPU, full, fullCPU time.Duration
	var warm, warmCPU []time.Duration
	for i := 0; i < b.N; i++ {
		start, cpu0 := time.Now(), cputime.Process()
		c := newClient(b, root, &InitOptions{DebounceMS: -1})
		c.timeout = 5 * time.Minute
		c.open(uri, text)
		c.waitDiags(uri, func([]Diagnostic) bool { return true })
		if i == 0 {
			cold, coldCPU = time.Since(start), cputime.Process()-cpu0
			c.waitDiags(uri, hasCode("refs"))
			full, fullCPU = time.Since(start), cputime.Process()-cpu0
		} else {
			warm, warmCPU = append(warm, time.Since(start)), append(warmCPU, cputime.Process()-cpu0)
		}
		b.StopTimer()
		// The complete run is over before the next start: servers in one
		// process would share the cores, as two editors' do not.
		c.waitDiags(uri, hasCode("refs"))
		// Shutdown is answered once the summary cache is written: the
		// next start finds it, as an editor's does after it quits. (An
		// edit's diagnostics may come first: those of what the document
		// says by itself.)
		c.call("shutdown", nil, nil)
		_ = c.conn.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(cold.Microseconds())/1000, "cold-ms")
	b.ReportMetric(float64(coldCPU.Microseconds())/1000, "cold-cpu-ms")
	b.ReportMetric(float64(full.Microseconds())/1000, "loaded-ms")
	b.ReportMetric(float64(fullCPU.Microseconds())/1000, "loaded-cpu-ms")
	if len(warm) > 0 {
		slices.Sort(warm)
		slices.Sort(warmCPU)
		b.ReportMetric(float64(warm[len(warm)/2].Microseconds())/1000, "warm-ms")
		b.ReportMetric(float64(warmCPU[len(warmCPU)/2].Microseconds())/1000, "warm-cpu-ms")
	}
}
