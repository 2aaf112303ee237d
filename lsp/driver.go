package lsp

// This file is the server's only use of the checks driver: loading a
// workspace, holding the editor's unsaved buffers as overlays, running the
// checks and handing back findings, fixes and the parsed model. Re-wiring
// the server to another driver API (a loaded workspace that re-checks one
// changed document) means changing this file alone.

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing/fstest"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/config"
	"github.com/svrnty/sotvet/internal/safefs"
	"github.com/svrnty/sotvet/sotparse"
)

// runMu serialises check runs: a sotvet.yaml's per-check settings are the
// analyzers' flags, which every workspace shares. applied is the
// configuration whose settings the flags hold (setting some, the claim
// rules, costs a compilation: it is done when the configuration changes,
// not on every run); defaults puts back the values they had before.
var (
	runMu    sync.Mutex
	applied  *config.Config
	defaults func()
)

// workspace is one loaded workspace: the files of its directory as they were
// read (at load, or when the client said they changed), the open buffers
// over them, and its configuration. Runs read memory only.
type workspace struct {
	root string // absolute

	mu        sync.Mutex
	cfg       *config.Config
	cfgErr    error // sotvet.yaml could not be read: reported, defaults used
	analyzers []*analysis.Analyzer
	severity  map[string]checks.Severity
	maxSize   int64
	ignored   func(string, bool) bool
	disk      map[string][]byte // workspace-relative path -> content
	ids       map[string]string // content id of each disk file, hashed once
	others    map[string]bool   // files outside the model: they exist
	overlay   map[string][]byte // open buffers, by workspace-relative path
	summaries *summaryStore     // parsed documents out of focus, by content
}

// summaryStore keeps one summary per path, the latest content's: the
// driver parses a document again only when its content changed, and the
// store never holds more than one summary for each file of the workspace.
type summaryStore struct {
	mu sync.Mutex
	m  map[string]storedSummary
}

type storedSummary struct {
	id      string
	summary []byte
}

func (st *summaryStore) Summary(path, id string) []byte {
	st.mu.Lock()
	defer st.mu.Unlock()
	if s, ok := st.m[path]; ok && s.id == id {
		return s.summary
	}
	return nil
}

func (st *summaryStore) PutSummary(path, id string, summary []byte) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.m[path] = storedSummary{id, summary}
}

// snapshot is the outcome of one run.
type snapshot struct {
	findings []checks.Finding
	model    *sotparse.Workspace
	versions map[string]int32 // the buffer versions the run saw
	schema   checks.Schema    // what the configured checks accept
	err      error            // the run failed (a check's internal error)
	took     time.Duration
}

// loadWorkspace reads the workspace at root: its configuration and every
// file the checks read, resolved under root (no link leads out of it).
func loadWorkspace(root string) (*workspace, error) {
	w := &workspace{root: root, overlay: map[string][]byte{}, summaries: &summaryStore{m: map[string]storedSummary{}}}
	w.loadConfig()
	if ig, err := sotparse.GitIgnored(root); err == nil {
		w.ignored = ig
	}
	if err := w.readDisk(); err != nil {
		return nil, err
	}
	return w, nil
}

// loadConfig reads sotvet.yaml; a broken one is reported and the defaults
// apply, so a half-typed configuration never stops the server.
func (w *workspace) loadConfig() {
	cfg, err := config.LoadIn(w.root, checks.All)
	if errors.Is(err, fs.ErrNotExist) {
		cfg, err = &config.Config{Severity: map[string]string{}}, nil
	}
	if err == nil {
		err = w.applyConfig(cfg)
	}
	if err != nil {
		w.cfgErr = err
		cfg = &config.Config{Severity: map[string]string{}}
		_ = w.applyConfig(cfg)
		return
	}
	w.cfgErr = nil
}

// applyConfig derives the checks and severities of cfg, as check does.
func (w *workspace) applyConfig(cfg *config.Config) error {
	var out []*analysis.Analyzer
	for _, name := range append(slices.Clone(cfg.Enable), cfg.Disable...) {
		if checks.Lookup(name) == nil {
			return fmt.Errorf("%s: unknown check %q", cfg.Path, name)
		}
	}
	for _, a := range checks.All {
		if len(cfg.Enable) > 0 && !slices.Contains(cfg.Enable, a.Name) || slices.Contains(cfg.Disable, a.Name) {
			continue
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return fmt.Errorf("%s: no checks enabled", cfg.Path)
	}
	sev := map[string]checks.Severity{}
	for k, v := range cfg.Severity {
		sev[k] = checks.Severity(v)
	}
	w.cfg, w.analyzers, w.severity, w.maxSize = cfg, out, sev, cfg.MaxFileSize
	if w.maxSize <= 0 {
		w.maxSize = sotparse.DefaultMaxFileSize
	}
	return nil
}

// readDisk reads every model file of the workspace into memory.
func (w *workspace) readDisk() error {
	root, err := safefs.Open(w.root, w.maxSize)
	if err != nil {
		return err
	}
	defer root.Close()
	disc, err := sotparse.Discover(root, sotparse.DiscoverOptions{Ignored: w.ignored})
	if err != nil {
		return fmt.Errorf("reading workspace: %w", err)
	}
	disk := make(map[string][]byte, len(disc.Entries))
	ids := make(map[string]string, len(disc.Entries))
	for _, e := range disc.Entries {
		if e.Size > w.maxSize {
			continue // the run reports it as over the limit
		}
		if b, err := safefs.ReadFile(root, e.Path, w.maxSize); err == nil {
			disk[e.Path], ids[e.Path] = b, sotparse.BlobID(b)
		}
	}
	others := make(map[string]bool, len(disc.Others))
	for _, p := range disc.Others {
		others[p] = true
	}
	w.mu.Lock()
	w.disk, w.ids, w.others = disk, ids, others
	w.mu.Unlock()
	return nil
}

// fileChanged re-reads one file the client says changed on disk.
func (w *workspace) fileChanged(rel string) {
	if rel == config.FileName {
		w.mu.Lock()
		w.loadConfig()
		w.mu.Unlock()
	}
	if sotparse.RoleOf(rel) == 0 {
		return
	}
	b, err := safefs.ReadIn(w.root, filepath.FromSlash(rel), w.maxSize)
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		delete(w.disk, rel)
		delete(w.ids, rel)
		return
	}
	w.disk[rel], w.ids[rel] = b, sotparse.BlobID(b)
}

// setOverlay makes content what the checks see for rel; nil removes it.
func (w *workspace) setOverlay(rel string, content []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if content == nil {
		delete(w.overlay, rel)
		return
	}
	w.overlay[rel] = content
}

// content returns what the checks see for rel, and whether it exists.
func (w *workspace) content(rel string) ([]byte, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if b, ok := w.overlay[rel]; ok {
		return b, true
	}
	b, ok := w.disk[rel]
	return b, ok
}

// frozen is a workspace's state at one instant: what a run checks.
type frozen struct {
	w         *workspace
	mem       fstest.MapFS
	cfg       *config.Config
	analyzers []*analysis.Analyzer
	severity  map[string]checks.Severity
	maxSize   int64
	ignored   func(string, bool) bool
	focus     map[string]bool   // the open documents: the run reports on them
	ids       map[string]string // content ids of the files no buffer covers
}

// freeze copies the workspace's file set, the open buffers over the disk's
// content (the contents themselves are shared: they are never modified).
func (w *workspace) freeze() *frozen {
	w.mu.Lock()
	defer w.mu.Unlock()
	mem := make(fstest.MapFS, len(w.disk)+len(w.others)+len(w.overlay))
	for p := range w.others {
		mem[p] = &fstest.MapFile{Mode: 0o644}
	}
	for p, b := range w.disk {
		mem[p] = &fstest.MapFile{Data: b, Mode: 0o644}
	}
	for p, b := range w.overlay {
		mem[p] = &fstest.MapFile{Data: b, Mode: 0o644}
	}
	// The glossary is parsed from its document's text: in focus always,
	// so that terms resolve while it is not open.
	focus := map[string]bool{sotparse.GlossaryPath: true}
	for p := range w.overlay {
		focus[p] = true
	}
	// Ids of unchanged files let the driver take their summaries without
	// reading or hashing them again.
	ids := make(map[string]string, len(w.ids))
	for p, id := range w.ids {
		if _, open := w.overlay[p]; !open {
			ids[p] = id
		}
	}
	return &frozen{w: w, mem: mem, cfg: w.cfg, analyzers: w.analyzers, severity: w.severity, maxSize: w.maxSize, ignored: w.ignored, focus: focus, ids: ids}
}

// safeRun is run, with a panic (in the driver or here) turned into the
// run's error: the server keeps serving.
func (f *frozen) safeRun(versions map[string]int32) (snap *snapshot) {
	defer func() {
		if r := recover(); r != nil {
			snap = &snapshot{err: fmt.Errorf("internal error (please report): %v", r), versions: versions}
		}
	}()
	return f.run(versions)
}

// run checks the frozen state with every enabled check, reading memory
// only; versions are the buffer versions it holds.
func (f *frozen) run(versions map[string]int32) *snapshot {
	start := time.Now()
	runMu.Lock()
	defer runMu.Unlock()
	if applied != f.cfg {
		// Another configuration's settings go first: back to the defaults
		// the flags had before any was applied.
		if defaults == nil {
			defaults = snapshotFlags()
		}
		defaults()
		applied = nil
		if err := f.cfg.Apply(checks.All, nil); err != nil {
			defaults()
			return &snapshot{err: err, versions: versions}
		}
		applied = f.cfg
	}
	schema := checks.CurrentSchema()
	res, model, err := checks.Run(checks.Options{
		Root: f.w.root, FS: f.mem, Ignored: f.ignored, Analyzers: f.analyzers,
		Severity: f.severity, MaxFileSize: f.maxSize,
		Reuse: f.reuse(),
	})
	if err != nil {
		return &snapshot{err: err, versions: versions, took: time.Since(start)}
	}
	return &snapshot{findings: res.Findings, model: model, versions: versions, schema: schema, took: time.Since(start)}
}

// reuse makes the run incremental: the open documents are parsed and judged
// in full, the others come from the summaries of their unchanged content,
// for the cross-file rules. A nil focus judges every file.
func (f *frozen) reuse() *sotparse.Reuse {
	if f.focus == nil {
		return nil
	}
	return &sotparse.Reuse{
		Focus: func(p string) bool { return f.focus[p] },
		ID: func(p string) (string, bool) {
			id, ok := f.ids[p]
			return id, ok
		},
		Store: f.w.summaries,
	}
}

// snapshotFlags records every check flag's value and returns a func that
// puts them back, so that one workspace's settings do not leak into the next.
func snapshotFlags() func() {
	type saved struct {
		a    *analysis.Analyzer
		name string
		v    string
	}
	var all []saved
	for _, a := range checks.All {
		a.Flags.VisitAll(func(f *flag.Flag) { all = append(all, saved{a, f.Name, f.Value.String()}) })
	}
	return func() {
		for _, s := range all {
			if f := s.a.Flags.Lookup(s.name); f != nil && f.Value.String() != s.v {
				_ = s.a.Flags.Set(s.name, s.v)
			}
		}
	}
}

// relPath names an absolute file of the workspace by its workspace path.
func (w *workspace) relPath(abs string) (string, bool) {
	return sotparse.RelPath(w.root, abs)
}

// sortedPaths lists the workspace paths the checks see, overlays included.
func (w *workspace) sortedPaths() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	set := maps.Clone(w.disk)
	for p, b := range w.overlay {
		set[p] = b
	}
	out := slices.Collect(maps.Keys(set))
	slices.Sort(out)
	return out
}

// docsHref is where a finding's check is documented.
func docsHref(check string) string {
	if a := checks.Lookup(check); a != nil && a.URL != "" {
		return a.URL
	}
	return "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#" + strings.ToLower(check)
}

// text returns the content of rel as the run saw it: the model holds only
// the documents in focus in full, the others are in memory here.
func (sn *snapshot) text(w *workspace, rel string) []byte {
	if sn.model != nil {
		if f := sn.model.File(rel); f != nil && len(f.Content) > 0 {
			return f.Content
		}
	}
	b, _ := w.content(rel)
	return b
}
