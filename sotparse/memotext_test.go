package sotparse

import (
	"testing"
	"testing/fstest"
)

// TestMemoText: what a check derives from the text of a document a session
// keeps is derived once; a text that could not be read back (changed on
// disk since its summary) is derived from the blanks standing for it but
// not remembered, so that a later call reads it again; either way the
// document counts as read (TextRead).
func TestMemoText(t *testing.T) {
	a, b, fsys := twoPRDs()
	ws := keptRuns(t, fsys, a)()
	d := ws.Doc(b)
	if !d.Summarized() {
		t.Fatal("the document out of focus is not kept from its summary")
	}
	var key MemoKey
	calls := 0
	derive := func(_ *Doc, text []byte) string { calls++; return string(text) }

	fsys[b] = &fstest.MapFile{Data: []byte("# B\n\nBETA, longer\n")}
	for i := range 2 {
		if got := MemoText(ws, d, &key, derive); got != "          " {
			t.Fatalf("call %d on a changed text: %q, want the blanks standing for it", i, got)
		}
	}
	if calls != 2 || ws.ReadBackErr() == nil {
		t.Fatalf("a text that could not be read back: derived %d times of 2, error %v; want each call to read it again, and an error", calls, ws.ReadBackErr())
	}
	fsys[b] = &fstest.MapFile{Data: []byte("# B\n\nbeta\n")}
	for range 3 {
		if got := MemoText(ws, d, &key, derive); got != "# B\n\nbeta\n" {
			t.Fatalf("MemoText = %q, want the text", got)
		}
	}
	if calls != 3 {
		t.Errorf("derived %d times; want once more once the text reads back", calls)
	}
	if got := ws.TextRead(); len(got) != 1 || got[0] != b {
		t.Errorf("TextRead = %q, want the kept document", got)
	}
	// A document parsed in the run is derived from its content each time.
	pa := ws.Doc(a)
	for range 2 {
		if got := MemoText(ws, pa, &key, derive); got != "# A\n\nalpha\n" {
			t.Fatalf("MemoText of a parsed document = %q", got)
		}
	}
	if calls != 5 {
		t.Errorf("a parsed document derived %d times of 2 calls, want each time", calls-3)
	}
}

// twoPRDs is a workspace of two PRDs, a and b, for keptRuns.
func twoPRDs() (a, b string, fsys fstest.MapFS) {
	a, b = ".sot/03-PROTOCOLS/A-PRD.md", ".sot/03-PROTOCOLS/B-PRD.md"
	return a, b, fstest.MapFS{
		a: {Data: []byte("# A\n\nalpha\n")},
		b: {Data: []byte("# B\n\nbeta\n")},
	}
}

// keptRuns returns a function that parses fsys as the runs of one
// session do, focus in focus and every other document kept from its
// summary (one store, one Models for all the runs).
func keptRuns(t *testing.T, fsys fstest.MapFS, focus string) func() *Workspace {
	ms := NewModels()
	store := &mapStore{m: map[string][]byte{}}
	return func() *Workspace {
		t.Helper()
		disc, err := Discover(fsys, DiscoverOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return ParseReusing(ms.Fset, disc, func(p string) ([]byte, error) { return fsys.ReadFile(p) }, 0,
			&Reuse{Focus: func(p string) bool { return p == focus }, Store: store, Models: ms})
	}
}
