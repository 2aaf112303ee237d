package contradiction

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/sotparse"
)

// blockersWorkspace writes ndocs ISSUES documents of items items each,
// every item blocked by the item before it and by up to three others,
// some named twice in different documents.
func blockersWorkspace(t *testing.T, ndocs, items int) *sotparse.Workspace {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"WORKBOARD.yaml": "items: []\n"}
	id := func(n int) string { return fmt.Sprintf("CTO-WORK-%03d", n) }
	for d := range ndocs {
		var b strings.Builder
		fmt.Fprintf(&b, "# D%d\n\n", d)
		for i := range items {
			n := d*items + i
			// documents after the first restate earlier items' blockers
			if d > 0 && i == 0 {
				n = (d - 1) * items
			}
			fmt.Fprintf(&b, "## %s - Item\n\nStatus: open.\n\nBlocked by: `%s`, `%s`", id(n), id(n+1), id((n*7)%(ndocs*items)))
			if n%3 == 0 {
				fmt.Fprintf(&b, ", `%s`, `%s`", id(n+1), id(n/2))
			}
			b.WriteString("\n\n")
		}
		files[fmt.Sprintf(".sot/D%02d-ISSUES.md", d)] = b.String()
	}
	checktest.WriteFiles(t, dir, files)
	ws, err := sotparse.Load(dir, sotparse.Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// TestLiveBlockersPlaces: the run's blockers looked up by pair are the
// places the index of strings (the kept documents') gives, in its order.
func TestLiveBlockersPlaces(t *testing.T) {
	ws := blockersWorkspace(t, 6, 20)
	want := indexBlockers(ws.Docs)
	live := indexLiveBlockers(ws.Docs)
	n := 0
	for item, bs := range want {
		for _, by := range bs {
			var w []blocker
			for _, b := range bs {
				if b.id == by.id {
					w = append(w, b)
				}
			}
			got := live.places(item, by.id)
			if !slices.Equal(got, w) {
				t.Fatalf("%s blocked by %s: %v, want %v", item, by.id, got, w)
			}
			n++
		}
	}
	if n < 200 {
		t.Fatalf("only %d blockers compared", n)
	}
	if got := live.places("CTO-WORK-001", "CTO-WORK-999"); got != nil {
		t.Errorf("a pair no document states: %v", got)
	}
}

// TestLiveBlockersRetained: the index of the run's blockers is one slice
// of edges and a map of the ids' strings, one each: what it holds grows
// with the ids, and with the blockers only by their edges, here with each blocker named once and eight times. A map of every
// item's blockers as strings (40 bytes a blocker, a slice and a map entry
// an item) held ~15 MB on graph at 10,000 documents while the rule ran.
// It reads no run's table of texts, whose index the parse lets go.
func TestLiveBlockersRetained(t *testing.T) {
	retained := func(times int) (uint64, int) {
		dir := t.TempDir()
		var b strings.Builder
		b.WriteString("# D\n\n")
		for i := range 200 {
			fmt.Fprintf(&b, "## CTO-WORK-%03d - Item\n\nBlocked by: `CTO-WORK-%03d`", i, i+1)
			for range times - 1 {
				fmt.Fprintf(&b, ", `CTO-WORK-%03d`", i+1)
			}
			b.WriteString("\n\n")
		}
		checktest.WriteFiles(t, dir, map[string]string{"WORKBOARD.yaml": "items: []\n", ".sot/D-ISSUES.md": b.String()})
		ws, err := sotparse.Load(dir, sotparse.Options{NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC() // twice: the first leaves pools' victims
		runtime.GC()
		runtime.ReadMemStats(&before)
		lb := indexLiveBlockers(ws.Docs)
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(ws)
		return after.HeapAlloc - before.HeapAlloc, len(lb.edges)
	}
	r1, e1 := retained(1)
	r8, e8 := retained(8)
	if e1 != 200 || e8 != 1600 {
		t.Fatalf("%d and %d edges indexed, want 200 and 1600", e1, e8)
	}
	edges := uint64(e8-e1) * uint64(unsafe.Sizeof(blockEdge{}))
	if r8 > r1+edges+8<<10 {
		t.Errorf("indexing %d blockers held %d bytes, %d blockers of the same ids %d: more than their %d bytes of edges", e1, r1, e8, r8, edges)
	}
}
