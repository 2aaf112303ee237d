package checks_test

import (
	"go/token"
	"io/fs"
	"os"
	"reflect"
	"sort"
	"sync"
	"testing"

	"github.com/svrnty/sotvet/checks/internal/doccheck"
	"github.com/svrnty/sotvet/internal/views"
	"github.com/svrnty/sotvet/sotparse"
)

// TestDocChecksKeepNoText: what a check's per-document part returns for a
// document outlives the document's text (a run lets each text go once the
// DocChecks have read it), so no string or byte slice in it may be a view
// of that text: one such view keeps the whole text alive. Every DocCheck
// runs on every test workspace; what it returns is walked, except the
// model (a *sotparse.Doc or *sotparse.File, which the parse owns) and the
// run's table of texts (a *sotparse.Texts: it copies every text it holds,
// and the other documents' parses write to it while this one is walked).
func TestDocChecksKeepNoText(t *testing.T) {
	skip := func(ty reflect.Type) bool {
		return ty == reflect.TypeFor[*sotparse.Doc]() || ty == reflect.TypeFor[*sotparse.File]() || ty == reflect.TypeFor[*sotparse.Texts]()
	}
	type named struct {
		name string
		dc   *sotparse.DocCheck
	}
	var all []named
	for a, dc := range doccheck.All() {
		all = append(all, named{a.Name, dc})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].name < all[j].name })
	var mu sync.Mutex
	kept := map[string]int{}      // check -> strings walked
	viewOf := map[string]string{} // check -> the first view found
	var wrapped []*sotparse.DocCheck
	for _, c := range all {
		wrapped = append(wrapped, &sotparse.DocCheck{Prepare: c.dc.Prepare, Run: func(p *sotparse.DocPass) any {
			r := c.dc.Run(p)
			n, view := 0, ""
			views.Each(r, skip, func(path, s string) {
				n++
				if view == "" && views.Within(s, p.Content) {
					view = p.Doc.Path + ": " + path + " " + s
				}
			})
			mu.Lock()
			kept[c.name] += n
			if view != "" && viewOf[c.name] == "" {
				viewOf[c.name] = view
			}
			mu.Unlock()
			return r
		}})
	}
	for name, dir := range testWorkspaces(t) {
		fsys := os.DirFS(dir)
		disc, err := sotparse.Discover(fsys, sotparse.DiscoverOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sotparse.ParseStreaming(token.NewFileSet(), disc, func(p string) ([]byte, error) { return fs.ReadFile(fsys, p) }, 0, nil, &sotparse.Stream{Checks: wrapped})
	}
	for _, c := range all {
		if v := viewOf[c.name]; v != "" {
			t.Errorf("%s keeps a view of a document's text: %.200q", c.name, v)
		}
	}
	t.Logf("strings kept, by check: %v", kept)
	if kept["contradiction"] < 500 || kept["status"] < 100 {
		t.Errorf("too few strings kept (%v): the workspaces do not exercise the checks", kept)
	}
}
