package sotparse

import (
	"fmt"
	"go/token"
	"sync"
	"testing"
)

// TestRefsPacked holds what Refs unpack to: the references as added, in
// order, positions going back as well as forward (the parse adds a
// document's work ids before its paths), NoPos included.
func TestRefsPacked(t *testing.T) {
	want := []Ref{
		{RefSource, "x.md", 900, 904},
		{RefWorkID, "CTO-WORK-1", 10, 20},
		{RefSOTPath, ".sot/a.md", 5000000, 5000009},
		{RefWorkID, "CTO-WORK-1", 30, 40},
		{RefCommit, "", token.NoPos, token.NoPos},
		{RefAbsPath, "/tmp/r", 41, 47},
	}
	b := (*modelSlabs)(nil).refsBuilder()
	for _, r := range want {
		b.add(r.Kind, r.Text, r.Pos, r.End)
	}
	rs := b.refs(nil)
	if rs.Len() != len(want) {
		t.Fatalf("Len = %d, want %d", rs.Len(), len(want))
	}
	for i, r := range rs.All() {
		if r != want[i] {
			t.Errorf("ref %d = %+v, want %+v", i, r, want[i])
		}
	}
	set := rs.TextSet(RefWorkID, nil)
	if !set.Has("CTO-WORK-1") || set.Has(".sot/a.md") || set.Has("CTO-WORK-2") || len(set.ids) != 1 {
		t.Errorf("TextSet(RefWorkID) = %v", set.ids)
	}
	if (Refs{}).TextSet(RefWorkID, nil).Has("CTO-WORK-1") {
		t.Error("empty Refs has a text")
	}
}

// TestRefTextsConcurrent gives out ids from several goroutines, as the
// parse does, past the first blocks: every text keeps its id and reads
// back as itself. Run under -race it also holds that reads need no lock.
func TestRefTextsConcurrent(t *testing.T) {
	texts := NewTexts()
	const n = 5000
	ids := make([][n]TextID, 4)
	var wg sync.WaitGroup
	for g := range ids {
		wg.Go(func() {
			for i := range n {
				s := fmt.Sprintf("text-%d", (i*7+g)%n)
				id := texts.ID(s)
				if got := texts.Text(id); got != s {
					t.Errorf("text(%d) = %q, want %q", id, got, s)
					return
				}
				ids[g][(i*7+g)%n] = id
			}
		})
	}
	wg.Wait()
	for g := range ids {
		if ids[g] != ids[0] {
			t.Fatal("one text was given two ids")
		}
	}
	if texts.n != n {
		t.Errorf("%d ids for %d texts", texts.n, n)
	}
}
