package lsp

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
	"github.com/svrnty/sotvet/sotparse"
)

// TestCrossFileEditParity edits one open document in the ways another
// open document's findings depend on (it defines a work id the other is
// blocked by, changes that item's status, drops the definition, is renamed
// on disk while the other links to it) and after each edit compares the
// findings of both with a full run of a copy of the workspace: the other
// document must gain and lose its findings as a full run says, though
// only the first was edited.
func TestCrossFileEditParity(t *testing.T) {
	for _, shape := range []string{"default", "mesh"} {
		t.Run(shape, func(t *testing.T) {
			t.Parallel()
			crossFileEdits(t, shape)
		})
	}
}

func crossFileEdits(t *testing.T, shape string) {
	root, mirror := t.TempDir(), t.TempDir()
	for _, dir := range []string{root, mirror} {
		if err := gencorpus.WriteShape(dir, shape, 30, 3, gencorpus.Options{Force: true}); err != nil {
			t.Fatal(err)
		}
	}
	model, err := sotparse.Load(root, sotparse.Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	var a, b string
	for _, d := range model.Docs {
		if !strings.HasPrefix(d.Path, ".sot/") {
			continue
		}
		switch {
		case a == "":
			a = d.Path
		case b == "":
			b = d.Path
		}
	}
	if b == "" {
		t.Fatalf("fewer than two documents in the %s shape", shape)
	}
	w, err := loadWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	read := func(p string) string {
		data, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	origA := read(a)
	open := map[string]string{
		a: origA,
		b: read(b) + "\n## Issue: CTO-WORK-951 - Waits\n\nStatus: validated.\nBlocked by: CTO-WORK-950\n\nSee `" + a + "`.\n",
	}
	def := "\n### CTO-WORK-950 - Defined elsewhere\n\nStatus: validated.\n"
	renamed := path.Join(path.Dir(a), "MOVED-"+path.Base(a))
	steps := []struct {
		name string
		do   func()
	}{
		{"open both", func() {}},
		{"define the id the other is blocked by", func() { open[a] = origA + def }},
		{"block the item", func() { open[a] = strings.Replace(open[a], def, strings.Replace(def, "validated", "blocked", 1), 1) }},
		{"validate it again", func() { open[a] = origA + def }},
		{"drop the definition", func() { open[a] = origA }},
		{"rename the document the other links to", func() {
			delete(open, a)
			w.setOverlay(a, nil)
			for _, dir := range []string{root, mirror} {
				if err := os.Rename(filepath.Join(dir, a), filepath.Join(dir, renamed)); err != nil {
					t.Fatal(err)
				}
			}
			w.fileChanged(a)
			w.fileChanged(renamed)
		}},
		{"rename it back", func() {
			for _, dir := range []string{root, mirror} {
				if err := os.Rename(filepath.Join(dir, renamed), filepath.Join(dir, a)); err != nil {
					t.Fatal(err)
				}
			}
			w.fileChanged(renamed)
			w.fileChanged(a)
		}},
	}
	var seen [][]string // the other document's findings, each set once
	for _, st := range steps {
		st.do()
		for p, text := range open {
			w.setOverlay(p, []byte(text))
		}
		snap, want := runBoth(t, w, open, mirror)
		for q := range open {
			got, exp := findingLines(snap.findings, q), findingLines(want.Findings, q)
			if !slices.Equal(got, exp) {
				t.Fatalf("%s: %s differs from a full run\ngot:\n%s\nwant:\n%s", st.name, q, strings.Join(got, "\n"), strings.Join(exp, "\n"))
			}
		}
		got := findingLines(snap.findings, b)
		if !slices.ContainsFunc(seen, func(s []string) bool { return slices.Equal(s, got) }) {
			seen = append(seen, got)
		}
	}
	// Its blocker open, validated, its link to a missing path: the edits
	// of one document changed the other's findings.
	if len(seen) < 3 {
		t.Fatalf("the other document's findings took %d forms over the edits, want at least 3: the edits do not reach it\n%q", len(seen), seen)
	}
}
