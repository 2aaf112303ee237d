package sotparse

import (
	"go/token"
	"io/fs"
	"testing"
	"testing/fstest"
)

// TestTransientContent: a released text read back by TransientContent is
// the text parsed, counted in ReadBacks, and not kept by the workspace; one
// that changed since the parse is an error in ReadBackErr, with blanks of
// its size in its place.
func TestTransientContent(t *testing.T) {
	fsys := fstest.MapFS{
		"A-PRD.md":    {Data: []byte("# A\n\nalpha\n")},
		"B-ISSUES.md": {Data: []byte("# B\n\nbeta\n")},
	}
	disc, err := Discover(fsys, DiscoverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dc := &DocCheck{Run: func(p *DocPass) any { return nil }}
	ws := ParseStreaming(token.NewFileSet(), disc, func(p string) ([]byte, error) { return fs.ReadFile(fsys, p) }, 0, nil, &Stream{Checks: []*DocCheck{dc}, Release: true})
	a, b := ws.Doc("A-PRD.md"), ws.Doc("B-ISSUES.md")
	if !a.Released() || !b.Released() {
		t.Fatal("texts not released")
	}
	for range 2 {
		if got := string(ws.TransientContent(a)); got != "# A\n\nalpha\n" {
			t.Errorf("TransientContent(A) = %q", got)
		}
	}
	if n := ws.ReadBacks(); n != 2 {
		t.Errorf("ReadBacks = %d after reading one text back twice, want 2 (each read counts)", n)
	}
	if len(ws.reread) != 0 {
		t.Errorf("the workspace keeps %d texts read back transiently", len(ws.reread))
	}
	fsys["B-ISSUES.md"].Data = []byte("# B\n\nBETA\n")
	if got := string(ws.TransientContent(b)); got != "          " || ws.ReadBackErr() == nil {
		t.Errorf("a changed text read back as %q, error %v; want blanks and an error", got, ws.ReadBackErr())
	}
}
