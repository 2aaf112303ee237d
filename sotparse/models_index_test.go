package sotparse

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/fstest"
)

type mapStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *mapStore) Summary(path, id string) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[path+"@"+id]
}

func (s *mapStore) PutSummary(path, id string, sum []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[path+"@"+id] = sum
}

// TestIndexWithSharesOnlyWhatHolds runs a session's parses through one
// Models: edits of a document in focus, a document out of focus changed,
// one added and one removed. After each, File, Doc and Exists answer with
// the run's own files and documents (a shared index answering with an
// earlier run's would hand the checks old text), and the runs whose paths
// stay share one index.
func TestIndexWithSharesOnlyWhatHolds(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := range 12 {
		fsys[fmt.Sprintf(".sot/D%02d-PRD.md", i)] = &fstest.MapFile{Data: fmt.Appendf(nil, "# D%d\n\nText.\n", i)}
	}
	const open = ".sot/D03-PRD.md"
	ms, store := NewModels(), &mapStore{m: map[string][]byte{}}
	parse := func() *Workspace {
		t.Helper()
		disc, err := Discover(fsys, DiscoverOptions{})
		if err != nil {
			t.Fatal(err)
		}
		read := func(p string) ([]byte, error) { return fsys.ReadFile(p) }
		ws := ParseReusing(ms.Fset, disc, read, 0, &Reuse{Focus: func(p string) bool { return p == open }, Store: store, Models: ms})
		for _, f := range ws.Files {
			if got := ws.File(f.Path); got != f {
				t.Fatalf("File(%s) is not the run's file", f.Path)
			}
			if !ws.Exists(f.Path) {
				t.Fatalf("Exists(%s) is false", f.Path)
			}
		}
		for _, d := range ws.Docs {
			if got := ws.Doc(d.Path); got != d {
				t.Fatalf("Doc(%s) is not the run's document", d.Path)
			}
		}
		return ws
	}
	edit := func(p, text string) { fsys[p] = &fstest.MapFile{Data: []byte(text)} }
	parse()
	parse() // the first with every summary kept
	shared := ms.index
	for i := range 3 {
		edit(open, fmt.Sprintf("# D3\n\nEdit %d.\n", i))
		ws := parse()
		if ms.index != shared || len(ws.newFiles) != 1 || len(ws.newDocs) != 1 {
			t.Fatalf("edit %d in focus: index shared %v, %d files and %d documents of its own, want shared, 1 and 1", i, ms.index == shared, len(ws.newFiles), len(ws.newDocs))
		}
	}
	edit(".sot/D07-PRD.md", "# D7\n\nChanged on disk.\n")
	parse()
	edit(".sot/D99-PRD.md", "# D99\n")
	if ws := parse(); ws.Doc(".sot/D99-PRD.md") == nil {
		t.Fatal("a document added is not found")
	}
	delete(fsys, ".sot/D05-PRD.md")
	if ws := parse(); ws.Doc(".sot/D05-PRD.md") != nil || ws.Exists(".sot/D05-PRD.md") {
		t.Fatal("a document removed is still found")
	}
}

// TestChangedAt: the elements changed at their index, by path; false when
// an index holds another path or more than len/8+8 changed.
func TestChangedAt(t *testing.T) {
	mk := func(n int) []*Doc {
		s := make([]*Doc, n)
		for i := range s {
			s[i] = &Doc{Path: fmt.Sprintf("d%03d.md", i)}
		}
		return s
	}
	path := func(d *Doc) string { return d.Path }
	prev := mk(16)
	cur := slices.Clone(prev)
	if got, ok := changedAt(cur, prev, path); !ok || len(got) != 0 {
		t.Fatalf("unchanged: %v %v", got, ok)
	}
	cur[3] = &Doc{Path: prev[3].Path}
	if got, ok := changedAt(cur, prev, path); !ok || len(got) != 1 || got["d003.md"] != cur[3] {
		t.Fatalf("one edit: %v %v", got, ok)
	}
	cur[5] = &Doc{Path: "other.md"}
	if _, ok := changedAt(cur, prev, path); ok {
		t.Fatal("another path at an index shared")
	}
	cur = mk(16) // every one new: 16 > 16/8+8
	if _, ok := changedAt(cur, prev, path); ok {
		t.Fatal("all changed shared")
	}
	cur = slices.Clone(prev)
	for i := range 10 { // 10 = 16/8+8: the most that share
		cur[i] = &Doc{Path: prev[i].Path}
	}
	if got, ok := changedAt(cur, prev, path); !ok || len(got) != 10 {
		t.Fatalf("10 changed: %d %v", len(got), ok)
	}
}
