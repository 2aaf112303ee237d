package gencorpus_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
	"github.com/svrnty/sotvet/sotparse"
)

// TestClean loads a generated workspace with sotparse and checks the
// consistency properties the generator promises.
func TestClean(t *testing.T) {
	const n = 500
	dir := t.TempDir()
	if err := gencorpus.Write(dir, n, 7); err != nil {
		t.Fatal(err)
	}
	ws, err := sotparse.LoadFS(os.DirFS(dir), sotparse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ws.Problems {
		t.Errorf("problem: %s: [%s] %s", p.Path, p.Check, p.Message)
	}
	if len(ws.Docs) != n {
		t.Errorf("got %d documents, want %d", len(ws.Docs), n)
	}
	if len(ws.Records) != 3 {
		t.Errorf("got %d records, want 3", len(ws.Records))
	}
	for _, r := range ws.Records {
		if r.Kind == sotparse.RecordUnknown {
			t.Errorf("%s: unknown record kind", r.Path)
		}
	}
	if ws.Glossary == nil || len(ws.Glossary.Terms) < 10 {
		t.Errorf("glossary missing or short")
	}
	if ws.Workboard == nil {
		t.Fatal("no workboard")
	}
	wb := map[string]*sotparse.WorkboardItem{}
	for _, it := range ws.Workboard.Items {
		if len(it.Missing) > 0 || len(it.Unknown) > 0 {
			t.Errorf("workboard item %v: missing %v, unknown %d", it.ID, it.Missing, len(it.Unknown))
			continue
		}
		if wb[it.ID.Value] != nil {
			t.Errorf("duplicate workboard id %s", it.ID.Value)
		}
		wb[it.ID.Value] = it
		if !ws.Exists(it.Source.Value) {
			t.Errorf("%s: source %s does not exist", it.ID.Value, it.Source.Value)
		}
	}
	seen := map[string]bool{}
	styles := map[string]int{}
	for _, d := range ws.Docs {
		if d.FrontmatterState != sotparse.FrontmatterOK {
			t.Errorf("%s: frontmatter state %v", d.Path, d.FrontmatterState)
			continue
		}
		for _, k := range sotparse.KnownKeys {
			if k == "title" || k == "route" {
				continue
			}
			if d.Frontmatter.Get(k) == nil {
				t.Errorf("%s: frontmatter has no %s", d.Path, k)
			}
		}
		if len(d.Frontmatter.Unknown) > 0 {
			t.Errorf("%s: unknown frontmatter keys", d.Path)
		}
		if !strings.Contains(string(d.File.Content), gencorpus.Disclaimer) {
			t.Errorf("%s: no disclaimer", d.Path)
		}
		for _, ref := range d.Refs.All() {
			switch ref.Kind {
			case sotparse.RefSource, sotparse.RefSOTPath:
				if !ws.Exists(ref.Text) {
					t.Errorf("%s: %s ref %s does not exist", d.Path, ref.Kind, ref.Text)
				}
			case sotparse.RefWorkID:
				if wb[ref.Text] == nil {
					t.Errorf("%s: work id %s not in the workboard", d.Path, ref.Text)
				}
			}
		}
		for _, it := range d.WorkItems {
			styles[it.Style]++
			if seen[it.ID] {
				t.Errorf("%s: work item %s defined twice", d.Path, it.ID)
			}
			seen[it.ID] = true
			w := wb[it.ID]
			if w == nil {
				t.Errorf("%s: %s not in the workboard", d.Path, it.ID)
				continue
			}
			if w.Source.Value != d.Path {
				t.Errorf("%s: workboard source %s", it.ID, w.Source.Value)
			}
			if w.Title.Value != it.Title {
				t.Errorf("%s: title %q, workboard %q", it.ID, it.Title, w.Title.Value)
			}
			if it.Status == nil || it.Status.Word() != w.Status.Value {
				t.Errorf("%s: status %v, workboard %s", it.ID, it.Status, w.Status.Value)
				continue
			}
			if it.Type == nil || it.Validator == nil || len(it.Checkboxes) == 0 {
				t.Errorf("%s: missing Type, Validator or acceptance boxes", it.ID)
			}
			var blockers, wbBlockers []string
			for _, b := range it.Blockers.All() {
				blockers = append(blockers, b.Text)
			}
			for _, b := range w.BlockedBy {
				wbBlockers = append(wbBlockers, b.Value)
			}
			if !slices.Equal(blockers, wbBlockers) {
				t.Errorf("%s: blocked by %v, workboard %v", it.ID, blockers, wbBlockers)
			}
			switch it.Status.Word() {
			case "validated":
				for _, cb := range it.Checkboxes {
					if !cb.Checked {
						t.Errorf("%s: validated with an unchecked box", it.ID)
					}
				}
				for _, b := range blockers {
					if wb[b] == nil || wb[b].Status.Value != "validated" {
						t.Errorf("%s: validated but blocked by non-validated %s", it.ID, b)
					}
				}
			case "blocked":
				open := false
				for _, b := range blockers {
					open = open || (wb[b] != nil && wb[b].Status.Value != "validated")
				}
				if !open {
					t.Errorf("%s: blocked but every blocker is validated", it.ID)
				}
			}
		}
		for _, pl := range d.PhraseLists {
			if len(pl.Phrases) == 0 {
				t.Errorf("%s: empty phrase list", d.Path)
			}
		}
	}
	for id := range wb {
		if !seen[id] {
			t.Errorf("workboard id %s has no heading", id)
		}
	}
	for _, s := range []string{"dash", "issue", "colon"} {
		if styles[s] == 0 {
			t.Errorf("no work item in %s style", s)
		}
	}
}

func TestDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{a, b} {
		if err := gencorpus.Write(d, 60, 3); err != nil {
			t.Fatal(err)
		}
	}
	count := 0
	err := filepath.WalkDir(a, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, p)
		x, _ := os.ReadFile(p)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || string(x) != string(y) {
			t.Errorf("%s differs between runs", rel)
		}
		count++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if count != 60+4 { // documents + WORKBOARD.yaml + 3 records
		t.Errorf("wrote %d files, want %d", count, 64)
	}
}

func TestRefusesNonEmpty(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := gencorpus.Write(dir, 10, 1); !errors.Is(err, gencorpus.ErrNotEmpty) {
		t.Fatalf("Write into a non-empty dir: %v, want ErrNotEmpty", err)
	}
	if err := gencorpus.Write(dir, 20, 1); err == nil {
		t.Fatal("second Write succeeded")
	}
	if err := gencorpus.WriteWith(dir, 20, 1, gencorpus.Options{Force: true}); err != nil {
		t.Fatal(err)
	}
	if err := gencorpus.WriteWith(dir, 10, 1, gencorpus.Options{Force: true}); err != nil {
		t.Fatal(err)
	}
	mds, _ := filepath.Glob(filepath.Join(dir, ".sot", "03-PROTOCOLS", "*.md"))
	if len(mds) != 9 {
		t.Errorf("after a forced smaller run: %d documents under .sot, want 9", len(mds))
	}
	if _, err := os.Stat(filepath.Join(dir, "keep.txt")); err != nil {
		t.Errorf("forced run removed an unrelated file: %v", err)
	}
}
