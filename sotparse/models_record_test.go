package sotparse

import (
	"testing"
	"testing/fstest"
)

// TestModelsKeepRecords: a run reporting on a few documents takes the
// records out of its focus as a run before decoded them (an edit of one
// document in a workspace of many records decoded every one again); a
// record whose content changed, one in focus, and one with problems (which
// each run must report) are decoded again.
func TestModelsKeepRecords(t *testing.T) {
	const (
		good   = ".sot/03-PROTOCOLS/A-MODEL-PROVIDER-ADMISSION.good.json"
		edited = ".sot/03-PROTOCOLS/A-MODEL-PROVIDER-ADMISSION.edited.json"
		broken = ".sot/03-PROTOCOLS/A-MODEL-PROVIDER-ADMISSION.broken.json"
		doc    = ".sot/03-PROTOCOLS/A-PRD.md"
	)
	fsys := fstest.MapFS{
		good:   {Data: []byte(`{"provider": "p", "model": "m"}` + "\n")},
		edited: {Data: []byte(`{"provider": "p", "model": "one"}` + "\n")},
		broken: {Data: []byte(`{"provider": "p", "provider": "q"}` + "\n")},
		doc:    {Data: []byte("# A\n\nText.\n")},
	}
	ms := NewModels()
	store := &mapStore{m: map[string][]byte{}}
	run := func(focus ...string) map[string]*Record {
		t.Helper()
		disc, err := Discover(fsys, DiscoverOptions{})
		if err != nil {
			t.Fatal(err)
		}
		in := map[string]bool{}
		for _, p := range focus {
			in[p] = true
		}
		ws := ParseReusing(ms.Fset, disc, func(p string) ([]byte, error) { return fsys.ReadFile(p) }, 0,
			&Reuse{Focus: func(p string) bool { return in[p] }, Store: store, Models: ms})
		recs := map[string]*Record{}
		for _, r := range ws.Records {
			recs[r.Path] = r
			if r.File.Tok.Size() != len(r.File.Content) {
				t.Fatalf("%s: content of %d bytes in a file of %d", r.Path, len(r.File.Content), r.File.Tok.Size())
			}
			if m := r.Member("provider"); m == nil || ms.Fset.File(m.Pos) != r.File.Tok {
				t.Fatalf("%s: member positions not in the record's file", r.Path)
			}
		}
		if len(ws.ProblemsFor("syntax")) != 1 {
			t.Fatalf("syntax problems %v, want the broken record's duplicate member", ws.ProblemsFor("syntax"))
		}
		ms.Prune(ws)
		return recs
	}
	first := run(doc)
	second := run(doc)
	if second[good] != first[good] || second[edited] != first[edited] {
		t.Error("records out of focus, unchanged, were decoded again")
	}
	if second[broken] == first[broken] {
		t.Error("a record with problems was kept: its problems would be reported by one run only")
	}
	fsys[edited] = &fstest.MapFile{Data: []byte(`{"provider": "p", "model": "two"}` + "\n")}
	third := run(doc)
	if third[edited] == second[edited] || string(third[edited].Member("model").Value) != `"two"` {
		t.Error("a record whose content changed was not decoded again")
	}
	if third[good] != first[good] {
		t.Error("an unchanged record was decoded again")
	}
	if fourth := run(doc, good); fourth[good] == first[good] {
		t.Error("a record in focus was taken from the run before")
	}
}
