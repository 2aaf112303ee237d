package workspaces

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestFromPaths(t *testing.T) {
	got := FromPaths([]string{
		"README.md",
		"planning/.sot/A-PRD.md",
		"planning/.sot/sub/B.json",
		"planning/.sot/nested/WORKBOARD.yaml", // inside a workspace: not another
		"docs/planning/WORKBOARD.yaml",
		"docs/.sotx/C.md",
		"x.sot/D.md",
	})
	if want := []string{"docs/planning", "planning"}; !slices.Equal(got, want) {
		t.Errorf("FromPaths = %q, want %q", got, want)
	}
	if got := FromPaths([]string{".sot/A.md", "sub/WORKBOARD.yaml"}); !slices.Equal(got, []string{"."}) {
		t.Errorf("a root workspace holds the others: %q", got)
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"planning/.sot", "docs/planning", "build/.sot", "planning/.sot/inner/.sot", "empty"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "docs/planning/WORKBOARD.yaml"), nil, 0o644)
	os.MkdirAll(filepath.Join(root, "odd/WORKBOARD.yaml"), 0o755) // a directory, not the file
	ignored := func(p string, dir bool) bool { return p == "build" }
	got, err := Find(root, ignored)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"docs/planning", "planning"}; !slices.Equal(got, want) {
		t.Errorf("Find = %q, want %q", got, want)
	}
	if IsWorkspace(filepath.Join(root, "empty")) || !IsWorkspace(filepath.Join(root, "planning")) {
		t.Error("IsWorkspace")
	}
}

func TestRel(t *testing.T) {
	base := t.TempDir()
	sub := filepath.Join(base, "a", "b")
	os.MkdirAll(sub, 0o755)
	if r, ok := Rel(base, sub); !ok || r != "a/b" {
		t.Errorf("Rel(base, sub) = %q, %v", r, ok)
	}
	if r, ok := Rel(base, base); !ok || r != "" {
		t.Errorf("Rel(base, base) = %q, %v", r, ok)
	}
	if _, ok := Rel(sub, base); ok {
		t.Error("a parent is not inside its child")
	}
	if _, ok := Rel(base, base+"x"); ok {
		t.Error("a sibling with a common prefix is not inside")
	}
}
