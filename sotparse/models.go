package sotparse

import (
	"go/token"
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
	prev map[*token.File]bool // the files of the run before the last (Prune)
}

type model struct {
	id   string
	file *File
	doc  *Doc
	wb   *Workboard
}

// NewModels returns empty Models with a file set of their own.
func NewModels() *Models {
	return &Models{Fset: token.NewFileSet(), m: map[string]model{}}
}

func (ms *Models) get(path, id string) (model, bool) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	m, ok := ms.m[path]
	return m, ok && m.id == id
}

func (ms *Models) put(path, id string, f *File, d *Doc, wb *Workboard) {
	ms.mu.Lock()
	ms.m[path] = model{id: id, file: f, doc: d, wb: wb}
	ms.mu.Unlock()
}

// Prune lets go of the documents of paths ws no longer has and of the files
// in Fset that neither ws, the run before it, nor a kept document uses:
// each run adds the files it parsed, which would otherwise pile up. The
// files of the run before ws stay, as an answer computed from that run may
// still be resolving its positions.
func (ms *Models) Prune(ws *Workspace) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	cur := make(map[*token.File]bool, len(ws.Files))
	for _, f := range ws.Files {
		cur[f.Tok] = true
	}
	for _, p := range ws.Problems {
		if tf := ms.Fset.File(p.Pos); tf != nil {
			cur[tf] = true
		}
	}
	for p := range ms.m {
		if ws.byPath[p] == nil {
			delete(ms.m, p)
		}
	}
	keep := func(tf *token.File) bool {
		return cur[tf] || ms.prev[tf]
	}
	kept := make(map[*token.File]bool, len(ms.m))
	for _, m := range ms.m {
		kept[m.file.Tok] = true
	}
	var drop []*token.File
	ms.Fset.Iterate(func(tf *token.File) bool {
		if !keep(tf) && !kept[tf] {
			drop = append(drop, tf)
		}
		return true
	})
	for _, tf := range drop {
		ms.Fset.RemoveFile(tf)
	}
	ms.prev = cur
}
