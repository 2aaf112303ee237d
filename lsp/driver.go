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
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing/fstest"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/cache"
	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/registry"
	"github.com/svrnty/sotvet/config"
	"github.com/svrnty/sotvet/internal/safefs"
	"github.com/svrnty/sotvet/sotparse"
)

// loadGate, when a test sets it, is called before a session loads the
// workspace at root: a test holds a load back to see what precedes it.
var loadGate atomic.Pointer[func(root string)]

// earlyGate, when a test sets it, is called as an early publication of a
// buffer's version starts, before it waits its turn; earlyRuns counts the
// early runs that checked a buffer.
var (
	earlyGate atomic.Pointer[func(version int32)]
	earlyRuns atomic.Int64
)

// runMu serialises check runs: a sotvet.yaml's per-check settings are the
// analyzers' flags, which every workspace shares. applied is the
// configuration whose settings the flags hold (setting some, the claim
// rules, costs a compilation: it is done when the configuration changes,
// not on every run); defaults puts back the values they had before.
// flagMu guards the flags against the early runs, which run beside the
// serialised ones (a load) and read them: a run that sets them holds both.
var (
	runMu    sync.Mutex
	flagMu   sync.RWMutex
	applied  *config.Config
	defaults func()
)

// workspace is one loaded workspace: its configuration, the open buffers
// over its files, and the checks.Session that holds its findings and
// re-checks, on each run, only what the buffers changed since the last.
type workspace struct {
	root string // absolute

	mu        sync.Mutex
	cfg       *config.Config
	cfgErr    error // sotvet.yaml could not be read: reported, defaults used
	analyzers []*analysis.Analyzer
	severity  map[string]checks.Severity
	maxSize   int64
	ignored   func(string, bool) bool
	overlay   map[string][]byte // open buffers, by workspace-relative path
	changed   map[string]bool   // paths whose content the session is yet to be told
	renew     bool              // the configuration changed: a new session
	rewalk    bool              // a file changed on disk: the session lists the files again
	gitAsked  bool              // askGit has been called (git may still be answering)
	gitReady  chan struct{}     // closed once askGit has run: ignored is final
	cacheKey  string            // the build's key in the summary cache; "": none
	unsaved   *cache.Pack       // the cache a load read, to write once published
	saveMu    sync.Mutex        // held while the cache is written (shutdown waits for it)
	earlyMu   sync.Mutex        // held by the early run of a buffer (publishEarly)

	// The session and the files it reads are the checker's: runs are
	// serialised by runMu.
	session *checks.Session
	disk    *cache.Files
}

// snapshot is the outcome of one run.
type snapshot struct {
	findings []checks.Finding
	omitted  map[string]int // findings beyond the cap, by file
	model    *sotparse.Workspace
	versions map[string]int32 // the buffer versions the run saw
	schema   registry.Schema  // what the configured checks accept
	err      error            // the run failed (a check's internal error)
	took     time.Duration
}

// loadWorkspace reads the workspace's configuration; its first run loads
// the files (a new session).
func loadWorkspace(root string) (*workspace, error) {
	dir, err := safefs.Open(root, 0)
	if err != nil {
		return nil, err
	}
	dir.Close()
	w := &workspace{root: root, overlay: map[string][]byte{}, changed: map[string]bool{}, renew: true, gitReady: make(chan struct{})}
	w.loadConfig()
	// git's ignore rules are asked for by the checker, before the first
	// run: git may wait (a FIFO .gitignore), and this runs on the reader.
	return w, nil
}

// gitDone reports whether askGit has finished: ignored is final. Asked
// is not done: a run frozen while git still answers would check the
// ignored files until the configuration changes.
func (w *workspace) gitDone() bool {
	select {
	case <-w.gitReady:
		return true
	default:
		return false
	}
}

// askGit reads git's ignore rules once, for the runs to come, and returns
// once they are read (by this call or another one). It runs on the
// checker goroutine or an early run's, never on the one reading the
// client's messages.
func (w *workspace) askGit() {
	w.mu.Lock()
	asked := w.gitAsked
	w.gitAsked = true
	w.mu.Unlock()
	if asked {
		<-w.gitReady
		return
	}
	defer close(w.gitReady)
	ig, err := sotparse.GitIgnored(w.root)
	if err != nil {
		return
	}
	w.mu.Lock()
	w.ignored = ig
	w.mu.Unlock()
}

// loadConfig reads sotvet.yaml; a broken one is reported and the defaults
// apply, so a half-typed configuration never stops the server.
func (w *workspace) loadConfig() {
	cfg, err := config.LoadIn(w.root, registry.All)
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
	sev := map[string]checks.Severity{}
	for k, v := range cfg.Severity {
		sev[k] = checks.Severity(v)
	}
	out, sev, err := checks.Select(cfg.Enable, cfg.Disable, sev)
	if err != nil {
		return fmt.Errorf("%s: %w", cfg.Path, err)
	}
	w.cfg, w.analyzers, w.severity, w.maxSize = cfg, out, sev, cfg.MaxFileSize
	if w.maxSize <= 0 {
		w.maxSize = sotparse.DefaultMaxFileSize
	}
	return nil
}

// fileChanged notes a file the client says changed on disk: the next run
// tells the session (sotvet.yaml: the next run starts a new one).
func (w *workspace) fileChanged(rel string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if rel == config.FileName {
		w.loadConfig()
		w.renew = true
		return
	}
	// The files on disk are listed again once a file changed there: one
	// a document links to may have appeared or gone (keystrokes reuse
	// the listing).
	w.rewalk = true
	if sotparse.RoleOf(rel) == 0 {
		return
	}
	w.changed[rel] = true
	if w.disk != nil {
		w.disk.Forget(rel)
	}
}

// setOverlay makes content what the checks see for rel; nil removes it.
func (w *workspace) setOverlay(rel string, content []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if content == nil {
		delete(w.overlay, rel)
		if w.disk != nil {
			w.disk.Forget(rel) // saved, or changed while open: read it again
		}
	} else {
		w.overlay[rel] = content
	}
	w.changed[rel] = true
}

// content returns what the checks see for rel, and whether it exists: the
// open buffer, else the file as the session reads it.
func (w *workspace) content(rel string) ([]byte, bool) {
	w.mu.Lock()
	b, ok := w.overlay[rel]
	limit, disk := w.maxSize, w.disk
	w.mu.Unlock()
	if ok {
		return b, true
	}
	var err error
	if disk != nil {
		b, err = safefs.ReadFile(disk, rel, limit)
	} else {
		b, err = safefs.ReadIn(w.root, filepath.FromSlash(rel), limit)
	}
	return b, err == nil
}

// frozen is what one run does: the changes to tell the session, and the
// configuration to check with.
type frozen struct {
	w         *workspace
	cfg       *config.Config
	analyzers []*analysis.Analyzer
	severity  map[string]checks.Severity
	maxSize   int64
	ignored   func(string, bool) bool
	renew     bool              // start a new session
	rewalk    bool              // list the files on disk again
	changes   []string          // paths changed since the last run, sorted
	contents  map[string][]byte // their buffers (absent: the file on disk)
	overlay   map[string][]byte // every open buffer (for a new session)
}

// freeze takes the changes made since the last run (the buffers' contents
// are shared: they are never modified).
func (w *workspace) freeze() *frozen {
	w.mu.Lock()
	defer w.mu.Unlock()
	f := &frozen{w: w, cfg: w.cfg, analyzers: w.analyzers, severity: w.severity, maxSize: w.maxSize, ignored: w.ignored,
		renew: w.renew, rewalk: w.rewalk, contents: map[string][]byte{}, overlay: maps.Clone(w.overlay)}
	for p := range w.changed {
		f.changes = append(f.changes, p)
		if b, ok := w.overlay[p]; ok {
			f.contents[p] = b
		}
	}
	slices.Sort(f.changes)
	w.changed, w.renew, w.rewalk = map[string]bool{}, false, false
	return f
}

// safeRun is run, with a panic (in the driver or here) turned into the
// run's error: the server keeps serving.
func (f *frozen) safeRun(versions map[string]int32) (snap *snapshot) {
	defer func() {
		if r := recover(); r != nil {
			f.failed()
			snap = &snapshot{err: fmt.Errorf("internal error (please report): %v", r), versions: versions}
		}
	}()
	return f.run(versions)
}

// failed makes the next run start over: a session an update failed in
// may hold findings of content it no longer has.
func (f *frozen) failed() {
	f.w.mu.Lock()
	f.w.renew = true
	f.w.mu.Unlock()
}

// options are the checks.Options of the workspace, as check builds them,
// reading its files through fsys.
func (f *frozen) options(fsys fs.FS) checks.Options {
	return checks.Options{
		Root: f.w.root, FS: fsys, Ignored: f.ignored, Analyzers: f.analyzers,
		Severity: f.severity, MaxFileSize: f.maxSize,
		// The session holds at most this many findings of one check in
		// one file: memory stays bounded whatever a buffer holds.
		MaxPerFile: maxDiagnostics,
	}
}

// run tells the session what changed (a new session for a new
// configuration) and takes its findings; versions are the buffer versions
// it holds.
func (f *frozen) run(versions map[string]int32) *snapshot {
	start := time.Now()
	runMu.Lock()
	defer runMu.Unlock()
	if err := f.applyFlags(); err != nil {
		f.failed()
		return &snapshot{err: err, versions: versions}
	}
	schema := registry.CurrentSchema()
	s, err := f.update()
	if err != nil {
		f.failed()
		return &snapshot{err: err, versions: versions, took: time.Since(start)}
	}
	res := s.Result()
	return &snapshot{findings: res.Findings, omitted: res.Omitted.ByFile, model: s.Workspace(), versions: versions, schema: schema, took: time.Since(start)}
}

// applyFlags sets the checks' flags to the run's configuration. Callers
// hold runMu.
func (f *frozen) applyFlags() error {
	if applied == f.cfg {
		return nil
	}
	flagMu.Lock()
	defer flagMu.Unlock()
	// Another configuration's settings go first: back to the defaults the
	// flags had before any was applied.
	if defaults == nil {
		defaults = snapshotFlags()
	}
	defaults()
	applied = nil
	if err := f.cfg.Apply(registry.All, nil); err != nil {
		defaults()
		return err
	}
	applied = f.cfg
	return nil
}

// update brings the session up to date with the frozen changes.
func (f *frozen) update() (*checks.Session, error) {
	s := f.w.session
	if s == nil || f.renew {
		if gate := loadGate.Load(); gate != nil {
			(*gate)(f.w.root)
		}
		// Every file is read anew, under the root.
		root, err := safefs.Open(f.w.root, f.maxSize)
		if err != nil {
			return nil, err
		}
		// The files are read once, and kept: the server reads one
		// again only once the client says it changed (a save, a close, a
		// watched-file event), as an editor's server must not re-read a
		// workspace per keystroke. The cache's stat index gives the
		// content ids of the files unchanged since a run before, whose
		// summaries the load takes without reading them.
		pack := f.w.openCache()
		disk := cache.NewFiles(root, f.maxSize, pack, true)
		f.w.mu.Lock()
		old := f.w.disk
		f.w.disk = disk
		f.w.mu.Unlock()
		if old != nil {
			old.Close()
		}
		opt := f.options(disk)
		opt.Reuse = &sotparse.Reuse{ID: disk.ID}
		if pack != nil {
			opt.Reuse.Store = pack
		}
		// The server shows the open documents' findings only: those the
		// session keeps, re-checking them all on every change.
		// The open buffers over the files it reads: one run loads and
		// judges them.
		if s, err = checks.NewOverlaySession(opt, f.overlay); err != nil {
			return nil, err
		}
		f.w.session = s
		if pack != nil {
			f.w.mu.Lock()
			f.w.unsaved = pack
			f.w.mu.Unlock()
		}
		return s, nil
	}
	if f.rewalk && len(f.changes) == 0 {
		// A file of no role changed (one a document links to): the
		// findings may change all the same.
		if _, err := s.Recheck(); err != nil {
			return nil, err
		}
	} else if f.rewalk {
		s.Rewalk()
	}
	for _, p := range f.changes {
		if _, err := s.Update(p, f.contents[p]); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// openCache opens the workspace's summary cache, or returns nil: no key
// (the client asked for none), or no cache directory.
func (w *workspace) openCache() *cache.Pack {
	w.mu.Lock()
	key := w.cacheKey
	w.mu.Unlock()
	if key == "" {
		return nil
	}
	dir, err := cache.DefaultDir()
	if err != nil {
		return nil
	}
	return cache.Open(dir, w.root, key)
}

// writeCache writes the summaries the last load parsed to the cache it
// read, once: after the diagnostics are out, as the next start-up is what
// it speeds up. It returns how many summaries the load found there, how
// many it added and how many files it read; ok is false when there was
// none to write. Callers hold saveMu (Server.saveCache).
func (w *workspace) writeCache() (found, added, read int, ok bool, err error) {
	w.mu.Lock()
	pack, disk := w.unsaved, w.disk
	w.unsaved = nil
	w.mu.Unlock()
	if pack == nil {
		return 0, 0, 0, false, nil
	}
	// The load is over: the server holds the pack no longer (its
	// summaries are the whole cache), and the ids it found stay known.
	defer disk.Detach(pack)
	found, added = pack.Stats()
	return found, added, disk.Reads(), true, pack.Save()
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
	for _, a := range registry.All {
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
func (w *workspace) sortedPaths(model *sotparse.Workspace) []string {
	set := map[string]bool{}
	if model != nil {
		for _, f := range model.Files {
			set[f.Path] = true
		}
	}
	w.mu.Lock()
	for p := range w.overlay {
		set[p] = true
	}
	w.mu.Unlock()
	return slices.Sorted(maps.Keys(set))
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

// early checks the buffer of rel by itself, with the configured checks
// whose findings in a file depend on that file alone
// (registry.DocumentLocal): what the server can publish while the workspace
// loads. Its findings are a subset of those the full run finds in the
// buffer, never one that run will not confirm. It runs beside the load,
// which holds runMu, reading the flags that run set; it returns nil when
// the flags hold another configuration, or the buffer is not checked.
func (w *workspace) early(rel string, version int32) *snapshot {
	<-w.gitReady // an ignored file is no file of the workspace
	w.mu.Lock()
	b, ok := w.overlay[rel]
	cfg, analyzers, severity, ignored, maxSize := w.cfg, w.analyzers, w.severity, w.ignored, w.maxSize
	w.mu.Unlock()
	if !ok || sotparse.RoleOf(rel) == 0 || int64(len(b)) > maxSize || !w.walked(rel) {
		return nil
	}
	var local []*analysis.Analyzer
	for _, a := range analyzers {
		if registry.DocumentLocal[a.Name] {
			local = append(local, a)
		}
	}
	if len(local) == 0 {
		return nil
	}
	start := time.Now()
	f := &frozen{w: w, cfg: cfg, analyzers: local, severity: severity, maxSize: maxSize, ignored: ignored}
	if !f.readFlags() {
		return nil
	}
	defer flagMu.RUnlock()
	files := fstest.MapFS{rel: &fstest.MapFile{Data: b, Mode: 0o644}}
	opt := f.options(files)
	opt.NoFixes = true // no code action is answered from it
	earlyRuns.Add(1)
	res, model, err := checks.Run(opt)
	if err != nil {
		return nil
	}
	var out []checks.Finding
	for _, x := range res.Findings {
		// Suppression findings are the driver's: whether a comment is
		// used depends on the checks that did not run. A finding a
		// cross-file one may absorb at its place could be shown, once
		// loaded, as that finding's note: it waits too.
		if registry.DocumentLocal[x.Check] && x.File == rel && !checks.AbsorbedOutside(x.Code(), registry.DocumentLocal) {
			out = append(out, x)
		}
	}
	omitted := map[string]int{}
	if n := res.Omitted.ByFile[rel]; n > 0 {
		omitted[rel] = n // of the local checks: at least that many
	}
	return &snapshot{findings: out, omitted: omitted, model: model, versions: map[string]int32{rel: version},
		schema: registry.CurrentSchema(), took: time.Since(start)}
}

// walked reports whether the walk of the workspace reaches rel: each
// directory above it is one, not a link (a link to a directory is not
// walked, wherever it leads; a buffer in it is no file of the workspace,
// nor one in a directory that does not exist). The buffer itself is
// listed whatever is on disk at its path.
func (w *workspace) walked(rel string) bool {
	for d := path.Dir(rel); d != "."; d = path.Dir(d) {
		info, err := os.Lstat(filepath.Join(w.root, filepath.FromSlash(d)))
		if err != nil || !info.IsDir() {
			return false
		}
	}
	return true
}

// readFlags read-locks the flags holding f's configuration, setting them
// when no run is under way, and reports whether it did; the caller then
// holds flagMu's read lock. A run under way (a load) that has yet to set
// them is waited for, briefly.
func (f *frozen) readFlags() bool {
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if runMu.TryLock() {
			err := f.applyFlags()
			if err == nil {
				flagMu.RLock()
			}
			runMu.Unlock()
			return err == nil
		}
		flagMu.RLock()
		if applied == f.cfg {
			return true
		}
		flagMu.RUnlock()
	}
	return false
}

// safeEarly is early, with a panic costing the early publish only: the
// full run follows.
func (w *workspace) safeEarly(rel string, version int32) (snap *snapshot) {
	defer func() {
		if recover() != nil {
			snap = nil
		}
	}()
	return w.early(rel, version)
}
