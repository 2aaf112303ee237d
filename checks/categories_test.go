package checks_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/svrnty/sotvet/checks"
)

// TestCategoriesDeclared runs every check over every check's test
// workspaces and the sample: each finding's category must be one that
// checks.Categories declares, or sotvet.yaml could not set its severity.
func TestCategoriesDeclared(t *testing.T) {
	dirs, err := filepath.Glob("*/testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, filepath.Join("..", "testdata", "workspace"))
	runs := 0
	for _, d := range dirs {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			continue
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			t.Fatal(err)
		}
		res, _, err := checks.Run(checks.Options{Root: abs, FS: os.DirFS(abs), Analyzers: checks.All})
		if err != nil {
			t.Errorf("%s: %v", d, err)
			continue
		}
		runs++
		for _, f := range res.Findings {
			if f.Category != "" && !slices.Contains(checks.Categories(f.Check), f.Category) {
				t.Errorf("%s: %s:%d: category %s/%s is not declared in checks/categories.go", d, f.File, f.Line, f.Check, f.Category)
			}
		}
	}
	if runs < 20 {
		t.Errorf("ran over %d test workspaces, want the checks' testdata", runs)
	}
}
