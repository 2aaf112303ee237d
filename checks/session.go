package checks

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/svrnty/sotvet/checks/internal/smallset"
	"github.com/svrnty/sotvet/sotparse"
)

// A Session is a workspace loaded once and held in memory, then re-checked
// a document at a time: what an editor (sotvet lsp) or a watcher needs.
// Each document's typed model is kept as a summary, so a re-check parses
// only the documents it is asked about and takes the others from their
// summaries; the workspace's source and ASTs are not kept.
//
// Update gives a file new content (an unsaved buffer: an overlay over the
// files on disk) and re-runs, for that document, the per-file checks and
// the cross-file rules, and for the documents the change can touch the
// cross-file rules; it returns the findings of every file.
// A Session is safe for concurrent use; updates are serialised.
type Session struct {
	mu      sync.Mutex
	opt     Options
	base    fs.FS
	overlay map[string][]byte // workspace-relative path -> unsaved content
	store   *memStore         // document summaries, by path and content id
	// earlier holds the summaries of earlier processes (opt.Reuse.Store):
	// the first load takes what it finds there and adds what it parses.
	earlier sotparse.SummaryStore
	byFile  map[string][]Finding // the findings of every file, each file's sorted
	omitted map[string]int       // the findings of each file beyond Options.MaxPerFile
	checked []string
	files   int

	// What decides which documents a change can touch: each document's
	// work ids, and the documents by work id and by route stem.
	docIDs map[string][]string // document -> the work ids it defines or names
	byID   map[string][]string // work id -> the documents naming it
	byStem map[string][]string // route stem -> its documents
	// What the other documents read of the glossary: its terms and where
	// they are. An edit of CONTEXT.md that keeps it is a document's edit.
	glossary string

	model *sotparse.Workspace // the latest run's

	// What the runs keep between them: the walk of the files on disk
	// (nil: walk again), the names derived from it (newListing of disc,
	// with the index of each entry by path), and the documents decoded
	// from their summaries.
	disc   *sotparse.Discovery
	list   *listing
	models *sotparse.Models

	// overlaysOnly: the session reports on the files with an overlay
	// only (see NewOverlaySession).
	overlaysOnly bool
}

// NewSession loads the workspace opt describes and runs every check once.
// Of opt.Reuse only ID and Store are used, when set: ID, the content ids of
// opt.FS's files (it must answer for the content opt.FS holds); Store, the
// summaries of earlier processes (a cache on disk), which the first load
// reads before parsing and adds to. The session keeps its own summaries
// between runs.
func NewSession(opt Options) (*Session, error) {
	return newSession(opt, map[string][]byte{}, false)
}

// NewOverlaySession is NewSession for an editor, which shows the findings of
// its open buffers only: the session reports on the files with an overlay
// and no others, and re-checks every one of them on every update, so that
// their findings, cross-file ones included, are always those of the
// workspace as it is, whatever the change, with no inference of what it
// can touch. Loading it parses every document (for the summaries) and
// judges those of overlay, the buffers open already.
func NewOverlaySession(opt Options, overlay map[string][]byte) (*Session, error) {
	return newSession(opt, maps.Clone(overlay), true)
}

func newSession(opt Options, overlay map[string][]byte, overlaysOnly bool) (*Session, error) {
	if overlay == nil {
		overlay = map[string][]byte{} // maps.Clone of none
	}
	s := &Session{opt: opt, base: opt.FS, overlay: overlay, byFile: map[string][]Finding{}, models: sotparse.NewModels(), overlaysOnly: overlaysOnly}
	s.opt.redacted = &redactMemo{}
	if opt.Reuse != nil {
		s.earlier = opt.Reuse.Store
		// The session holds the store no longer than its first load:
		// a cache on disk holds every summary it read.
		s.opt.Reuse = &sotparse.Reuse{ID: opt.Reuse.ID}
	}
	if _, err := s.Reload(); err != nil {
		return nil, err
	}
	return s, nil
}

// Reload forgets the summaries and checks every file again (the overlays
// stay): after changes on disk the session was not told of, such as a
// checkout.
func (s *Session) Reload() (*Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// The earlier summaries are read by the load only: the runs after it
	// find the documents they keep in the session's own.
	s.store = &memStore{m: map[string]storedSummary{}, earlier: s.earlier, open: s.overlay}
	s.disc, s.models = nil, sotparse.NewModels()
	res, ws, err := s.run(s.scope(func(string) bool { return true }))
	s.store.mu.Lock()
	s.store.earlier, s.store.open = nil, nil
	s.store.mu.Unlock()
	s.earlier = nil
	if err != nil {
		return nil, err
	}
	s.index(ws)
	s.byFile = map[string][]Finding{}
	for _, f := range res.Findings {
		s.byFile[f.File] = append(s.byFile[f.File], f)
	}
	s.omitted = maps.Clone(res.Omitted.ByFile)
	s.checked, s.files = res.Checked, res.Files
	return s.result(), nil
}

// Workspace returns the typed model of the latest run: the documents it
// reported on (the changed ones and every file with an overlay) in full,
// the others as summaries.
func (s *Session) Workspace() *sotparse.Workspace {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.model
}

// Result returns the findings of every file, sorted as Run sorts them.
func (s *Session) Result() *Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.result()
}

func (s *Session) result() *Result {
	paths := make([]string, 0, len(s.byFile))
	n := 0
	for p, fs := range s.byFile {
		paths = append(paths, p)
		n += len(fs)
	}
	sort.Strings(paths)
	out := &Result{Checked: slices.Clone(s.checked), Files: s.files, Findings: make([]Finding, 0, n)}
	for _, p := range paths {
		out.Findings = append(out.Findings, s.byFile[p]...)
	}
	// Counts by file only: what an editor shows.
	for _, p := range slices.Sorted(maps.Keys(s.omitted)) {
		if n := s.omitted[p]; n > 0 {
			if out.Omitted.ByFile == nil {
				out.Omitted.ByFile = map[string]int{}
			}
			out.Omitted.ByFile[p] = n
			out.Omitted.Total += n
		}
	}
	return out
}

// Update sets the content of the workspace file at path (slash-separated,
// relative to the root) to content, without writing it; nil content drops
// the overlay, so the file on disk counts again (a buffer closed or saved).
// It reports anew on path and on every file the change can touch: for a
// document, the files with an overlay, the documents of its route, those
// naming one of its work ids (before or after the change), every file of a
// finding in it or pointing into it, the documents whose text a check
// compared with it, and the workboard (an edit of CONTEXT.md that changes
// a glossary term: every file); for any other file (the workboard, a
// record) or a document new to the workspace, every file. Documents not
// reported on are taken from their summaries. It returns the findings of
// every file (of a session of overlays only, of the files with an
// overlay, every one of them checked again).
func (s *Session) Update(p string, content []byte) (*Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if content == nil {
		delete(s.overlay, p)
		// The file on disk may have changed, appeared or gone.
		s.disc = nil
	} else {
		s.overlay[p] = slices.Clone(content)
	}
	if s.overlaysOnly {
		return s.recheck(s.scope(nil), nil)
	}
	_, known := s.docIDs[p]
	if sotparse.RoleOf(p) != sotparse.RoleDoc || !known {
		// The workboard, a record, or a document new to the workspace:
		// any document may read it. Check everything.
		return s.recheck(func(string) bool { return true }, nil)
	}
	// A document: what it says can change findings in the documents of
	// its route, in those naming the same work ids (before or after the
	// change), in the places its findings point to or are pointed to
	// from, and in the workboard. The files with an overlay are checked
	// on every update: they are what an editor shows.
	focus := map[string]bool{p: true}
	for q := range s.overlay {
		focus[q] = true
	}
	for _, q := range s.byStem[stemOf(p)] {
		focus[q] = true
	}
	for _, id := range s.docIDs[p] {
		for _, q := range s.byID[id] {
			focus[q] = true
		}
	}
	// A finding in the document or pointing into it: its file and every
	// place it points to (a contradiction the edit resolves may leave the
	// other side of it to report).
	for file, fs := range s.byFile {
		for _, f := range fs {
			if file != p && !slices.ContainsFunc(f.Related, func(r Related) bool { return r.File == p }) {
				continue
			}
			focus[file] = true
			for _, r := range f.Related {
				focus[r.File] = true
			}
		}
	}
	all := false
	return s.recheck(func(q string) bool { return all || focus[q] || sotparse.RoleOf(q) == sotparse.RoleWorkboard }, func(ws *sotparse.Workspace) bool {
		if p == sotparse.GlossaryPath && glossarySignature(ws) != s.glossary {
			// A term added, removed, redefined or moved: every document
			// may use it.
			all = true
			return true
		}
		// Work ids the new content names that other documents name too,
		// not in focus yet, and the documents a check compared with those
		// in focus by their text (the contradiction check's role rule
		// reads every document's sentences): check again with them.
		grown := false
		for _, q := range ws.TextRead() {
			if !focus[q] {
				focus[q], grown = true, true
			}
		}
		for _, id := range workIDs(ws.Doc(p)) {
			for _, q := range s.byID[id] {
				if !focus[q] {
					focus[q], grown = true, true
				}
			}
		}
		return grown
	})
}

// Rewalk makes the next update list the workspace's files on disk again:
// a file may have appeared or gone that no update named (a file a
// document links to, created outside the editor).
func (s *Session) Rewalk() {
	s.mu.Lock()
	s.disc = nil
	s.mu.Unlock()
}

// Recheck checks again, with the files on disk listed anew, the files it
// reports on (of a session of overlays only, the files with an overlay;
// else every file), the summaries kept: after a change on disk to a file
// no document is (Rewalk).
func (s *Session) Recheck() (*Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.disc = nil
	return s.recheck(s.scope(func(string) bool { return true }), nil)
}

// scope returns focus, or for a session of overlays only the files with
// an overlay.
func (s *Session) scope(focus func(string) bool) func(string) bool {
	if !s.overlaysOnly {
		return focus
	}
	// A copy (smallset keeps its own): the model keeps the focus after
	// the run. The checks ask about every document, most of them out of
	// focus.
	return smallset.Of(slices.Collect(maps.Keys(s.overlay)))
}

// recheck runs the checks reporting on the files in focus and keeps their
// findings; when again, given the workspace of the run, says the focus
// grew, it runs once more.
func (s *Session) recheck(focus func(string) bool, again func(*sotparse.Workspace) bool) (*Result, error) {
	res, ws, err := s.run(focus)
	if err != nil {
		return nil, err
	}
	if again != nil && again(ws) {
		if res, ws, err = s.run(focus); err != nil {
			return nil, err
		}
	}
	for q := range s.byFile {
		if focus(q) || s.overlaysOnly {
			delete(s.byFile, q)
		}
	}
	for q := range s.omitted {
		if focus(q) || s.overlaysOnly {
			delete(s.omitted, q)
		}
	}
	for q, n := range res.Omitted.ByFile {
		if s.omitted == nil {
			s.omitted = map[string]int{}
		}
		s.omitted[q] = n
	}
	for _, f := range res.Findings {
		s.byFile[f.File] = append(s.byFile[f.File], f)
	}
	s.checked, s.files = res.Checked, res.Files
	s.index(ws)
	return s.result(), nil
}

// index records each document's stem and work ids.
func (s *Session) index(ws *sotparse.Workspace) {
	s.model = ws
	if s.overlaysOnly {
		return // it re-checks every overlay whatever changed: no index needed
	}
	s.docIDs = make(map[string][]string, len(ws.Docs))
	s.byID = map[string][]string{}
	s.byStem = map[string][]string{}
	s.glossary = glossarySignature(ws)
	for _, d := range ws.Docs {
		ids := workIDs(d)
		s.docIDs[d.Path] = ids
		for _, id := range ids {
			s.byID[id] = append(s.byID[id], d.Path)
		}
		s.byStem[d.Stem] = append(s.byStem[d.Stem], d.Path)
	}
}

// workIDs returns the work ids d defines or names, upper-cased, sorted,
// without repeats.
func workIDs(d *sotparse.Doc) []string {
	if d == nil {
		return nil
	}
	var ids []string
	for _, it := range d.WorkItems {
		ids = append(ids, strings.ToUpper(it.ID))
		for _, r := range it.Blockers.All() {
			ids = append(ids, strings.ToUpper(r.Text))
		}
	}
	for _, r := range d.Refs.All() {
		if r.Kind == sotparse.RefWorkID {
			ids = append(ids, strings.ToUpper(r.Text))
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// glossarySignature is what the documents read of the glossary: each term,
// its definition and its place.
func glossarySignature(ws *sotparse.Workspace) string {
	if ws.Glossary == nil {
		return fmt.Sprint(ws.File(sotparse.GlossaryPath) != nil)
	}
	var b strings.Builder
	for _, t := range ws.Glossary.Terms {
		fmt.Fprintf(&b, "%q %q %q %d %d\n", t.Name, t.Qualifier, t.Definition, ws.Fset.Position(t.Pos).Offset, ws.Fset.Position(t.End).Offset)
	}
	return b.String()
}

func stemOf(p string) string {
	_, stem := sotparse.KindOf(p)
	return stem
}

// run checks the workspace with its overlays, reporting on the files in
// focus.
func (s *Session) run(focus func(string) bool) (*Result, *sotparse.Workspace, error) {
	opt := s.opt
	// A copy of the overlays: the model outlives the run, and reads a
	// summarized document back through this file system.
	opt.FS = &overlayFS{base: s.base, files: maps.Clone(s.overlay)}
	// A session of overlays reports on them only; another checks again
	// the documents the checks compared with those in focus (Update).
	reuse := &sotparse.Reuse{Focus: focus, Store: s.store, FollowCompared: !s.overlaysOnly}
	if s.opt.Reuse != nil && s.opt.Reuse.ID != nil {
		// The caller knows the content ids of the files of s.base: the
		// files without an overlay are neither read nor hashed again.
		id, overlay := s.opt.Reuse.ID, opt.FS.(*overlayFS).files
		// Asked of every file, most of them without an overlay.
		isOverlay := smallset.Of(slices.Collect(maps.Keys(overlay)))
		reuse.ID = func(p string) (string, bool) {
			if isOverlay(p) {
				return "", false
			}
			return id(p)
		}
	}
	reuse.Models = s.models
	opt.Reuse = reuse
	disc, err := s.discovery(opt.FS.(*overlayFS).files)
	if err != nil {
		return nil, nil, err
	}
	opt.Discovery = disc
	if disc != nil {
		// The names of the walk's files, derived once per walk (in
		// discovery): an overlay changes a size only.
		opt.listing = s.list
	}
	res, ws, err := Run(opt)
	if err == nil {
		s.models.Prune(ws)
	}
	return res, ws, err
}

// discovery returns the files of the workspace with overlay over them, as
// a walk of the overlay file system lists them, walking the disk only when
// no walk is kept (after Reload, or an update from disk); nil when an
// overlay is of a file the walk did not list, so that the run walks.
func (s *Session) discovery(overlay map[string][]byte) (*sotparse.Discovery, error) {
	if s.disc == nil {
		disc, err := sotparse.Discover(s.base, sotparse.DiscoverOptions{Ignored: s.opt.Ignored})
		if err != nil {
			return nil, fmt.Errorf("reading workspace: %w", err)
		}
		s.disc, s.list = disc, newListing(s.opt.Root, disc)
	}
	if len(overlay) == 0 {
		return s.disc, nil
	}
	d := *s.disc
	d.Entries = slices.Clone(d.Entries)
	for p, b := range overlay {
		i, ok := s.list.at[p]
		if !ok {
			return nil, nil
		}
		d.Entries[i].Size = int64(len(b))
	}
	return &d, nil
}

// memStore keeps document summaries in memory: one a path, of the content
// it had last; with earlier, it reads the summaries it lacks there and
// adds those put to it.
type memStore struct {
	mu      sync.Mutex
	m       map[string]storedSummary
	earlier sotparse.SummaryStore
	open    map[string][]byte // overlays: an unsaved buffer's summary stays out of earlier
}

type storedSummary struct {
	id      string
	summary []byte
}

func (m *memStore) Summary(path, id string) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok := m.m[path]; ok && s.id == id {
		return s.summary
	}
	if m.earlier != nil {
		return m.earlier.Summary(path, id)
	}
	return nil
}

func (m *memStore) PutSummary(path, id string, summary []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[path] = storedSummary{id, summary}
	if _, open := m.open[path]; m.earlier != nil && !open {
		m.earlier.PutSummary(path, id, summary)
	}
}

// overlayFS is base with some files' content replaced (or added) from
// memory: the unsaved buffers of an editor.
type overlayFS struct {
	base  fs.FS
	files map[string][]byte
}

func (o *overlayFS) Open(name string) (fs.File, error) {
	if b, ok := o.files[name]; ok {
		return &memFile{info: memInfo{name: path.Base(name), size: int64(len(b))}, data: b}, nil
	}
	return o.base.Open(name)
}

func (o *overlayFS) Stat(name string) (fs.FileInfo, error) {
	if b, ok := o.files[name]; ok {
		return memInfo{name: path.Base(name), size: int64(len(b))}, nil
	}
	return fs.Stat(o.base, name)
}

// ReadDir lists base's directory with the overlaid files in it, sized by
// their overlay.
func (o *overlayFS) ReadDir(name string) ([]fs.DirEntry, error) {
	ents, err := fs.ReadDir(o.base, name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var added []fs.DirEntry
	for p, b := range o.files {
		if path.Dir(p) != name {
			continue
		}
		e := fs.FileInfoToDirEntry(memInfo{name: path.Base(p), size: int64(len(b))})
		if i := slices.IndexFunc(ents, func(d fs.DirEntry) bool { return d.Name() == e.Name() }); i >= 0 {
			ents[i] = e
		} else {
			added = append(added, e)
		}
	}
	if err != nil && len(added) == 0 {
		return nil, err
	}
	ents = append(ents, added...)
	slices.SortFunc(ents, func(a, b fs.DirEntry) int {
		switch {
		case a.Name() < b.Name():
			return -1
		case a.Name() > b.Name():
			return 1
		}
		return 0
	})
	return ents, nil
}

type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o644 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }

type memFile struct {
	info memInfo
	data []byte
	off  int
}

// Bytes is safefs.InMemory: a buffer is handed on, not copied.
func (f *memFile) Bytes() []byte { return f.data }

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }
func (f *memFile) Read(b []byte) (int, error) {
	if f.off >= len(f.data) {
		return 0, io.EOF
	}
	n := copy(b, f.data[f.off:])
	f.off += n
	return n, nil
}
