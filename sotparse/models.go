package sotparse

import (
	"go/token"
	"reflect"
	"slices"
	"sync"
)

// Models keeps the documents (and the workboard) a run took from summaries,
// decoded, for the runs after it: a session re-checking one document of a
// large workspace then decodes only what changed, not every summary on
// every run. A decoded document is kept by path and content id, with its
// token.File in Fset, which every run given these Models places its files
// in (Reuse.Models). A kept document is never modified by a run.
type Models struct {
	Fset *token.FileSet

	mu   sync.Mutex
	m    map[string]model
	toks map[*token.File]bool // the files of the kept documents
	prev map[*token.File]bool // the files not kept of the run before the last (Prune)
	// What Prune looks at, instead of every file of Fset: the files not
	// kept that it let stay, those put let go of, and those added since
	// it last ran (from mark, Fset's base then, on).
	loose   map[*token.File]bool
	evicted []*token.File
	mark    int

	gen  uint64                 // of the kept documents of the last run (generation)
	kept []*Doc                 // those documents
	aggs map[*MemoKey]aggregate // what checks gathered from them (Aggregate)

	// The paths of the last run (knownFrom), and what checks derived
	// from them (PathsMemo).
	known       map[string]bool
	knownPaths  []string
	knownOthers []string
	pathMemo    map[*MemoKey]any

	// The index of a run before (indexWith), which the runs with the
	// same paths share.
	index *sharedIndex
}

// sharedIndex is a run's files and documents, in path order, and its
// maps of them by path. No run modifies it.
type sharedIndex struct {
	files  []*File
	docs   []*Doc
	byPath map[string]*File
	byDoc  map[string]*Doc
}

type model struct {
	id   string
	file *File
	doc  *Doc
	wb   *Workboard
	rec  *Record // a record keeps its file's content: records are small
}

// NewModels returns empty Models with a file set of their own.
func NewModels() *Models {
	return &Models{Fset: token.NewFileSet(), m: map[string]model{}, toks: map[*token.File]bool{}}
}

func (ms *Models) get(path, id string) (model, bool) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	m, ok := ms.m[path]
	return m, ok && m.id == id
}

func (ms *Models) put(path, id string, f *File, d *Doc, wb *Workboard, rec *Record) {
	ms.mu.Lock()
	if old, ok := ms.m[path]; ok {
		delete(ms.toks, old.file.Tok)
		ms.evicted = append(ms.evicted, old.file.Tok)
	}
	ms.m[path] = model{id: id, file: f, doc: d, wb: wb, rec: rec}
	ms.toks[f.Tok] = true
	ms.mu.Unlock()
}

// Prune lets go of the documents of paths ws no longer has and of the files
// in Fset that neither ws, the run before it, nor a kept document uses:
// each run adds the files it parsed, which would otherwise pile up. The
// files of the run before ws stay, as an answer computed from that run may
// still be resolving its positions. It looks at the files that can go
// only (those added since it last ran, and those not kept it let stay or
// that stopped being kept), not at every file: the kept ones are most of
// them, and an edit in a large workspace adds a few.
func (ms *Models) Prune(ws *Workspace) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	cur := map[*token.File]bool{} // the files of ws not kept
	for _, f := range ws.Files {
		if !ms.toks[f.Tok] {
			cur[f.Tok] = true
		}
	}
	for _, p := range ws.Problems {
		if tf := ms.Fset.File(p.Pos); tf != nil && !ms.toks[tf] {
			cur[tf] = true
		}
	}
	for p, m := range ms.m {
		if ws.File(p) == nil {
			delete(ms.toks, m.file.Tok)
			ms.evicted = append(ms.evicted, m.file.Tok)
			delete(ms.m, p)
		}
	}
	cand, ok := ms.added()
	if !ok {
		// Not laid out one after another: look at every file.
		ms.Fset.Iterate(func(tf *token.File) bool {
			cand = append(cand, tf)
			return true
		})
	}
	for tf := range ms.loose {
		cand = append(cand, tf)
	}
	cand = append(cand, ms.evicted...)
	loose := map[*token.File]bool{}
	for _, tf := range cand {
		switch {
		case ms.toks[tf] || loose[tf]:
		case cur[tf] || ms.prev[tf]:
			loose[tf] = true
		case ms.Fset.File(token.Pos(tf.Base())) == tf:
			ms.Fset.RemoveFile(tf)
		}
	}
	ms.loose, ms.evicted, ms.prev, ms.mark = loose, nil, cur, ms.Fset.Base()
}

// added returns the files added to Fset since the last Prune, walking
// from one to the next (AddFile with base -1 places each right after the
// one before); false when a place holds none.
func (ms *Models) added() ([]*token.File, bool) {
	var out []*token.File
	for pos := max(ms.mark, 1); pos < ms.Fset.Base(); {
		tf := ms.Fset.File(token.Pos(pos))
		if tf == nil || tf.Base() != pos {
			return nil, false
		}
		out = append(out, tf)
		pos = tf.Base() + tf.Size() + 1
	}
	return out, true
}

// generation returns the number of the set of kept documents a run took
// (in path order): the same as the run before when it took the same ones,
// so that what checks gathered from them (Aggregate) still holds.
func (ms *Models) generation(kept []*Doc) uint64 {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if ms.gen == 0 || !slices.Equal(kept, ms.kept) {
		ms.gen++
		ms.kept = kept
		ms.aggs = map[*MemoKey]aggregate{}
	}
	return ms.gen
}

type aggregate struct {
	gen uint64
	v   any
}

// Aggregate returns f(kept), kept being the documents of ws decoded from
// summaries, in path order: what a check gathers from all of them (an
// index of ids, say), computed once for as long as the runs of a session
// take the same documents from its Models. The check then reads only the
// other documents (Live) each run: those in focus and those parsed. f must
// read the documents only, and what it returns must not be changed.
func Aggregate[T any](ws *Workspace, key *MemoKey, f func(kept []*Doc) T) T {
	ms := ws.models
	if ms == nil {
		return f(ws.Kept())
	}
	ms.mu.Lock()
	a, ok := ms.aggs[key]
	ms.mu.Unlock()
	if ok && a.gen == ws.keptGen {
		return a.v.(T)
	}
	v := f(ws.kept)
	if ws.ReadBackErr() != nil {
		// A kept text could not be read back: blank text stood for it,
		// and the run starts over; what f derived from it is not kept.
		return v
	}
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if ms.gen == ws.keptGen {
		if a, ok := ms.aggs[key]; ok && a.gen == ws.keptGen {
			return a.v.(T) // computed meanwhile: one value for every check
		}
		ms.aggs[key] = aggregate{ws.keptGen, v}
	}
	return v
}

// Kept returns the documents of ws decoded from summaries, in path order.
func (ws *Workspace) Kept() []*Doc {
	if ws.models != nil {
		return ws.kept
	}
	var out []*Doc
	for _, d := range ws.Docs {
		if d.summary {
			out = append(out, d)
		}
	}
	return out
}

// Live returns the documents of ws not decoded from summaries (those
// Aggregate does not cover), in path order.
func (ws *Workspace) Live() []*Doc {
	out := make([]*Doc, 0, len(ws.Docs)-len(ws.kept))
	for _, d := range ws.Docs {
		if !d.summary {
			out = append(out, d)
		}
	}
	return out
}

// setModels records the run's kept documents (Aggregate).
func (ws *Workspace) setModels(ms *Models) {
	ws.models = ms
	for _, d := range ws.Docs {
		if d.summary {
			ws.kept = append(ws.kept, d)
		}
	}
	ws.keptGen = ms.generation(ws.kept)
}

// knownFrom is the package's knownFrom, kept for as long as the runs list
// the same paths: a session's run re-checks a few of many files, and the
// listing changes only when a file appears or goes. What PathsMemo derived
// from it is kept with it. ms may be nil.
func (ms *Models) knownFrom(entries []Entry, others []string) map[string]bool {
	if ms == nil {
		return knownFrom(entries, others)
	}
	ms.mu.Lock()
	defer ms.mu.Unlock()
	same := ms.known != nil && len(ms.knownPaths) == len(entries) && slices.Equal(ms.knownOthers, others)
	for i := 0; same && i < len(entries); i++ {
		same = ms.knownPaths[i] == entries[i].Path
	}
	if same {
		return ms.known
	}
	ms.known = knownFrom(entries, others)
	ms.knownPaths = make([]string, len(entries))
	for i, e := range entries {
		ms.knownPaths[i] = e.Path
	}
	ms.knownOthers = slices.Clone(others)
	ms.pathMemo = map[*MemoKey]any{}
	return ms.known
}

// PathsMemo returns f(), computed once for as long as a session's runs
// list the same paths (the paths EachPath and Exists answer for): what a
// check derives from every path of the workspace (an index by base name)
// then costs one edit nothing. f must read the paths only (ws.EachPath,
// ws.Exists), and what it returns must not be changed.
func PathsMemo[T any](ws *Workspace, key *MemoKey, f func() T) T {
	ms := ws.models
	if ms == nil {
		return f()
	}
	ms.mu.Lock()
	v, ok := ms.pathMemo[key]
	same := ms.known != nil && sameMap(ms.known, ws.known)
	ms.mu.Unlock()
	if ok && same {
		return v.(T)
	}
	r := f()
	if !same {
		return r
	}
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if sameMap(ms.known, ws.known) {
		if v, ok := ms.pathMemo[key]; ok {
			return v.(T) // computed meanwhile: one value for every check
		}
		ms.pathMemo[key] = r
	}
	return r
}

// sameMap reports whether a and b are one map (not two equal ones).
func sameMap(a, b map[string]bool) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// indexWith is index, sharing the maps by path of an earlier run of ms
// whose files had the same paths in the same order (a session's edit
// changes the content of a few of many): the files and documents that
// differ from its are looked up first (File, Doc). Building two maps of
// every file on every edit cost more than checking the edited document.
func (ws *Workspace) indexWith(ms *Models) {
	ms.mu.Lock()
	b := ms.index
	ms.mu.Unlock()
	if b != nil && len(b.files) == len(ws.Files) && len(b.docs) == len(ws.Docs) {
		newFiles, same := changedAt(ws.Files, b.files, func(f *File) string { return f.Path })
		var newDocs map[string]*Doc
		if same {
			newDocs, same = changedAt(ws.Docs, b.docs, func(d *Doc) string { return d.Path })
		}
		if same {
			// In path order as the shared run's were: only the records
			// and problems are sorted here.
			ws.sortOthers()
			ws.byPath, ws.docs, ws.newFiles, ws.newDocs = b.byPath, b.byDoc, newFiles, newDocs
			return
		}
	}
	ws.index()
	ms.mu.Lock()
	ms.index = &sharedIndex{files: slices.Clone(ws.Files), docs: slices.Clone(ws.Docs), byPath: ws.byPath, byDoc: ws.docs}
	ms.mu.Unlock()
}

// changedAt returns, by path, the elements of cur that are not those of prev
// at the same index, and false when an index holds another path or too many
// differ for sharing prev's index to pay.
func changedAt[T comparable](cur, prev []T, path func(T) string) (map[string]T, bool) {
	changed := map[string]T{}
	for i, x := range cur {
		if y := prev[i]; x != y {
			if path(x) != path(y) || len(changed) >= len(cur)/8+8 {
				return nil, false
			}
			changed[path(x)] = x
		}
	}
	return changed, true
}
