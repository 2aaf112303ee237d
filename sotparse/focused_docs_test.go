package sotparse

import (
	"fmt"
	"testing"
	"testing/fstest"
)

// TestFocusedDocsOnce: with a partial focus, FocusedDocs returns the
// documents in focus, in path order, from one slice built once per run
// (its callers ask several times per run); with no focus, Docs itself.
func TestFocusedDocsOnce(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := range 6 {
		fsys[fmt.Sprintf(".sot/D%02d-PRD.md", i)] = &fstest.MapFile{Data: fmt.Appendf(nil, "# D%d\n\nText.\n", i)}
	}
	disc, err := Discover(fsys, DiscoverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	read := func(p string) ([]byte, error) { return fsys.ReadFile(p) }
	in := map[string]bool{".sot/D04-PRD.md": true, ".sot/D01-PRD.md": true}
	ms := NewModels()
	ws := ParseReusing(ms.Fset, disc, read, 0, &Reuse{Focus: func(p string) bool { return in[p] }})
	got := ws.FocusedDocs()
	if len(got) != 2 || got[0].Path != ".sot/D01-PRD.md" || got[1].Path != ".sot/D04-PRD.md" {
		var paths []string
		for _, d := range got {
			paths = append(paths, d.Path)
		}
		t.Fatalf("FocusedDocs = %v, want D01 and D04", paths)
	}
	if again := ws.FocusedDocs(); &again[0] != &got[0] {
		t.Fatal("a second call built another slice")
	}
	if n := testing.AllocsPerRun(10, func() { ws.FocusedDocs() }); n != 0 {
		t.Fatalf("FocusedDocs allocates %v times per call after the first", n)
	}

	all := ParseReusing(ms.Fset, disc, read, 0, &Reuse{})
	if d := all.FocusedDocs(); len(d) != len(all.Docs) || &d[0] != &all.Docs[0] {
		t.Fatal("without a focus FocusedDocs is not Docs")
	}
}
