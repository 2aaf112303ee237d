package pathutil

import (
	"math/rand/v2"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/svrnty/sotvet/sotparse"
)

// TestResolverMatchesIndex checks the Resolver, which indexes the paths by
// base name only once a path is missing, against the index built up front:
// Exists and Moved answer alike for the workspace's own paths, their base
// names, and missing paths, some of a base name that exists once or twice.
func TestResolverMatchesIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 20))
	fsys := fstest.MapFS{}
	names := []string{"a.md", "b.md", "README.md", "PLAN.md", "x.json", "notes.yaml"}
	dirs := []string{".sot", ".sot/prd", ".sot/issues", ".sot/issues/old", "docs"}
	for i := 0; i < 60; i++ {
		p := path.Join(dirs[rng.IntN(len(dirs))], names[rng.IntN(len(names))])
		fsys[p] = &fstest.MapFile{Data: []byte("# T\n")}
	}
	// Base names found once: Moved names them.
	fsys[".sot/prd/solo.md"] = &fstest.MapFile{Data: []byte("# T\n")}
	fsys["docs/only.yaml"] = &fstest.MapFile{Data: []byte("a: b\n")}
	names = append(names, "solo.md", "only.yaml")
	ws, err := sotparse.LoadFS(fsys, sotparse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	base := map[string][]string{}
	for _, p := range ws.Paths() {
		base[path.Base(p)] = append(base[path.Base(p)], p)
	}
	exists := func(p string) bool {
		return ws.Exists(p) || !strings.Contains(strings.TrimSuffix(p, "/"), "/") && len(base[p]) > 0
	}
	moved := func(p string) string {
		if c := base[path.Base(p)]; !strings.HasSuffix(p, "/") && len(c) == 1 && c[0] != p {
			return c[0]
		}
		return ""
	}
	queries := []string{"", "/", "nope.md", "docs/", ".sot/", "gone/a.md"}
	for _, p := range ws.Paths() {
		queries = append(queries, p, path.Base(p), "moved/"+path.Base(p), p+"/")
	}
	for _, n := range names {
		queries = append(queries, n, "elsewhere/"+n)
	}
	// A fresh Resolver per order of questions: whichever comes first
	// builds the index.
	for round := 0; round < 5; round++ {
		rng.Shuffle(len(queries), func(i, j int) { queries[i], queries[j] = queries[j], queries[i] })
		r := NewResolver(ws)
		for _, q := range queries {
			if round%2 == 0 {
				// Moved first: it may be what builds the index.
				if got, want := r.Moved(q), moved(q); got != want {
					t.Errorf("Moved(%q) = %q, want %q", q, got, want)
				}
			}
			if got, want := r.Exists(q), exists(q); got != want {
				t.Errorf("Exists(%q) = %v, want %v", q, got, want)
			}
			if got, want := r.Moved(q), moved(q); got != want {
				t.Errorf("Moved(%q) = %q, want %q", q, got, want)
			}
		}
	}
}
