package checks_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/registry"
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
		res, _, err := checks.Run(checks.Options{Root: abs, FS: os.DirFS(abs), Analyzers: registry.All})
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

// TestCategoriesOfSettings: the categories of authority are its configured
// claim rules' ids, and those of secrets the engine's rule ids.
func TestCategoriesOfSettings(t *testing.T) {
	f := checks.Lookup("authority").Flags.Lookup("claims")
	old := f.Value.String()
	t.Cleanup(func() { _ = f.Value.Set(old) })
	if got := checks.Categories("authority"); !slices.Contains(got, "core-authority") {
		t.Errorf("default claims: categories %q lack core-authority", got)
	}
	if err := f.Value.Set("- id: my-claim\n  pattern: forbidden words\n  scope: sentence\n  message: says forbidden words\n"); err != nil {
		t.Fatal(err)
	}
	got := checks.Categories("authority")
	if !slices.Contains(got, "my-claim") {
		t.Errorf("configured claims: categories %q", got)
	}
	if got := checks.Categories("secrets"); !slices.Contains(got, "github-token") || !slices.Contains(got, "generic-api-key") {
		t.Errorf("secrets: categories %q", got)
	}
}
