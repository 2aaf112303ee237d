package contradiction

import (
	"fmt"
	"slices"
	"strings"
	"testing"

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
	live := indexLiveBlockers(ws.Texts(), ws.Docs)
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

// TestLiveBlockersAllocs: the index of the run's blockers is one slice of
// edges (ids in the run's table of texts), whatever the number of items
// and blockers; a map of every item's blockers as strings (40 bytes a
// blocker, a slice and a map entry an item) held ~15 MB on graph at
// 10,000 documents while the rule ran.
func TestLiveBlockersAllocs(t *testing.T) {
	ws := blockersWorkspace(t, 8, 40)
	texts := ws.Texts()
	var edges int
	allocs := testing.AllocsPerRun(5, func() {
		edges = len(indexLiveBlockers(texts, ws.Docs).edges)
	})
	if edges < 700 {
		t.Fatalf("%d edges indexed", edges)
	}
	if allocs > 2 {
		t.Errorf("indexing %d blockers allocated %.0f times; want at most 2", edges, allocs)
	}
}
