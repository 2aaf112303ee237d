package lsp

import (
	"fmt"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
	"github.com/svrnty/sotvet/sotparse"
)

// TestRandomEditsParity types random edits into a few open documents of
// generated workspaces of several shapes, and after each one compares what
// the incremental run reports on every open document with what a full run
// reports on a copy of the workspace holding the buffers: edits that add
// and remove work ids, definitions, links to documents, blockers and
// statuses, delete lines, revert, save, close a document and open
// another, and create and delete documents outside the editor.
// SOTVET_SLOW=1 types ten times as many.
func TestRandomEditsParity(t *testing.T) {
	steps := 24
	if os.Getenv("SOTVET_SLOW") != "" {
		steps = 240
	}
	for _, shape := range []string{"default", "mesh", "deeprefs"} {
		t.Run(shape, func(t *testing.T) {
			t.Parallel()
			randomEdits(t, shape, steps)
		})
	}
}

func randomEdits(t *testing.T, shape string, steps int) {
	root, mirror := t.TempDir(), t.TempDir()
	for _, dir := range []string{root, mirror} {
		if err := gencorpus.WriteShape(dir, shape, 40, 3, gencorpus.Options{Force: true}); err != nil {
			t.Fatal(err)
		}
	}
	model, err := sotparse.Load(root, sotparse.Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	var docs, ids []string
	for _, d := range model.Docs {
		docs = append(docs, d.Path)
		for _, it := range d.WorkItems {
			ids = append(ids, it.ID)
		}
	}
	if len(ids) == 0 {
		ids = []string{"CTO-WORK-001"}
	}
	rng := rand.New(rand.NewPCG(uint64(len(shape)), 7))
	pick := func(list []string) string { return list[rng.IntN(len(list))] }

	w, err := loadWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	orig := map[string]string{}
	open := map[string]string{} // path -> buffer
	openDoc := func(p string) {
		b, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		orig[p], open[p] = string(b), string(b)
		w.setOverlay(p, b)
	}
	for len(open) < 3 {
		openDoc(pick(docs))
	}
	edits := []struct {
		name string
		do   func(string) string
	}{
		{"define an id", func(s string) string { return s + "\n## Issue: " + pick(ids) + " - Copied\n\nStatus: candidate.\n" }},
		{"define a new id", func(s string) string {
			return s + fmt.Sprintf("\n### CTO-WORK-%03d - New\n\nStatus: validated.\n", 900+rng.IntN(90))
		}},
		{"name an id", func(s string) string { return s + "\nSee " + pick(ids) + ".\n" }},
		{"link a document", func(s string) string { return s + "\nSee `" + pick(docs) + "`.\n" }},
		{"link a missing document", func(s string) string { return s + "\nSee `.sot/NOPE-" + fmt.Sprint(rng.IntN(9)) + "-PRD.md`.\n" }},
		{"add a blocker", func(s string) string {
			return s + "\n## Issue: " + pick(ids) + " - Blocked\n\nStatus: blocked.\nBlocked by: " + pick(ids) + "\n"
		}},
		{"validate", func(s string) string { return strings.Replace(s, "Status: blocked.", "Status: validated.", 1) }},
		{"block", func(s string) string { return strings.Replace(s, "Status: validated.", "Status: blocked.", 1) }},
		{"delete a line", func(s string) string {
			lines := strings.SplitAfter(s, "\n")
			i := rng.IntN(len(lines))
			return strings.Join(slices.Delete(lines, i, i+1), "")
		}},
		{"delete an id's line", func(s string) string {
			lines := strings.SplitAfter(s, "\n")
			for _, i := range rng.Perm(len(lines)) {
				if strings.Contains(lines[i], "-0") || strings.Contains(lines[i], ".sot/") || strings.HasPrefix(lines[i], "Blocked by") {
					return strings.Join(slices.Delete(lines, i, i+1), "")
				}
			}
			return s
		}},
		{"revert", nil},
		{"close and open another", nil},
		{"save and close", nil},
		{"create a document", nil},
		{"delete a document", nil},
	}
	for step := range steps {
		p := pick(slices.Sorted(mapKeys(open)))
		e := edits[rng.IntN(len(edits))]
		switch e.name {
		case "revert":
			open[p] = orig[p]
			w.setOverlay(p, []byte(open[p]))
		case "close and open another":
			delete(open, p)
			w.setOverlay(p, nil)
			if err := os.WriteFile(filepath.Join(mirror, p), []byte(orig[p]), 0o644); err != nil {
				t.Fatal(err)
			}
			for len(open) < 3 {
				openDoc(pick(docs))
			}
		case "save and close":
			// What the buffer says is on disk now, and decoded again
			// once out of focus.
			if err := os.WriteFile(filepath.Join(root, p), []byte(open[p]), 0o644); err != nil {
				t.Fatal(err)
			}
			w.fileChanged(p)
			orig[p] = open[p]
			delete(open, p)
			w.setOverlay(p, nil)
			for len(open) < 3 {
				openDoc(pick(docs))
			}
		case "create a document":
			// Outside the editor: the client's watcher reports it.
			q := fmt.Sprintf(".sot/NEW-%d-ISSUES.md", step)
			text := "# New\n\n## Issue: " + pick(ids) + " - Again\n\nStatus: validated.\nBlocked by: " + pick(ids) + "\n\nSee `" + pick(docs) + "`.\n"
			for _, dir := range []string{root, mirror} {
				if err := os.WriteFile(filepath.Join(dir, q), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			docs = append(docs, q)
			w.fileChanged(q)
		case "delete a document":
			q := pick(docs)
			if _, isOpen := open[q]; isOpen || len(docs) < 10 {
				break
			}
			for _, dir := range []string{root, mirror} {
				if err := os.Remove(filepath.Join(dir, q)); err != nil {
					t.Fatal(err)
				}
			}
			docs = slices.DeleteFunc(docs, func(d string) bool { return d == q })
			w.fileChanged(q)
		default:
			open[p] = e.do(open[p])
			w.setOverlay(p, []byte(open[p]))
		}
		snap, want := runBoth(t, w, open, mirror)
		// Each run places the documents it parses in the session's file
		// set: those no run uses any longer go (sotparse.Models.Prune).
		n := 0
		snap.model.Fset.Iterate(func(*token.File) bool { n++; return true })
		if limit := len(snap.model.Files) + 4*len(open) + 2*len(snap.model.Problems) + 4; n > limit {
			t.Fatalf("step %d: the file set holds %d files, over %d: files of old runs pile up", step, n, limit)
		}
		for q := range open {
			got, exp := findingLines(snap.findings, q), findingLines(want.Findings, q)
			if !slices.Equal(got, exp) {
				t.Fatalf("step %d (%s in %s): %s differs from a full run\ngot:\n%s\nwant:\n%s", step, e.name, p, q, strings.Join(got, "\n"), strings.Join(exp, "\n"))
			}
		}
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// findingLines are the findings in file, each with its place, code,
// message, related places and fingerprint.
func findingLines(fs []checks.Finding, file string) []string {
	var out []string
	for _, f := range fs {
		if f.File != file {
			continue
		}
		var rel []string
		for _, r := range f.Related {
			rel = append(rel, fmt.Sprintf("%s:%d:%d %s", r.File, r.Line, r.Col, r.Message))
		}
		out = append(out, fmt.Sprintf("%d:%d-%d:%d %s %s [%s] %s", f.Line, f.Col, f.EndLine, f.EndCol, f.Code(), f.Message, strings.Join(rel, "; "), f.Fingerprint))
	}
	slices.Sort(out)
	return out
}

// runBoth writes the open buffers to the mirror, then runs the session w
// and a full run of the mirror: what the parity tests compare.
func runBoth(t *testing.T, w *workspace, open map[string]string, mirror string) (*snapshot, *checks.Result) {
	t.Helper()
	for q, text := range open {
		if err := os.WriteFile(filepath.Join(mirror, q), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	snap := w.freeze().run(nil)
	if snap.err != nil {
		t.Fatal(snap.err)
	}
	wm, err := loadWorkspace(mirror)
	if err != nil {
		t.Fatal(err)
	}
	return snap, fullRun(t, wm)
}
