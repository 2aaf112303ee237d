package testcorpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDir(t *testing.T) {
	empty := t.TempDir()
	t.Setenv(Env, empty)
	if dir, ok := Dir(); !ok || dir != empty {
		t.Fatalf("Dir() = %q, %t; want %q, true", dir, ok, empty)
	}
	missing := filepath.Join(empty, "nope")
	t.Setenv(Env, missing)
	if dir, ok := Dir(); ok || dir != missing {
		t.Fatalf("Dir() = %q, %t; want %q, false", dir, ok, missing)
	}
	file := filepath.Join(empty, "file")
	os.WriteFile(file, nil, 0o644)
	t.Setenv(Env, file)
	if _, ok := Dir(); ok {
		t.Fatal("a regular file was taken for the corpus")
	}
}

// TestDirDefault: without SOTVET_CORPUS the corpus is looked for beside
// the checkout, ../shared/corpus/cto-planb.
func TestDirDefault(t *testing.T) {
	t.Setenv(Env, "")
	dir, ok := Dir()
	if !strings.HasSuffix(filepath.ToSlash(dir), "/shared/corpus/cto-planb") || !filepath.IsAbs(dir) {
		t.Fatalf("default Dir() = %q, want an absolute .../shared/corpus/cto-planb", dir)
	}
	if !ok {
		t.Skipf("skipped: the corpus is not beside the checkout (looked in %s; set %s to name one)", dir, Env)
	}
	if _, err := os.Stat(filepath.Join(dir, "WORKBOARD.yaml")); err != nil {
		t.Errorf("the corpus beside the checkout holds no WORKBOARD.yaml: %v", err)
	}
}

// A missing corpus skips with a message naming where it looked.
func TestRequireSkips(t *testing.T) {
	t.Setenv(Env, filepath.Join(t.TempDir(), "absent"))
	var skipped bool
	t.Run("inner", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Require(t)
		t.Error("Require returned for a missing corpus")
	})
	if !skipped {
		t.Fatal("Require did not skip")
	}
	if got := Optional(t); got != "" {
		t.Fatalf("Optional() = %q for a missing corpus", got)
	}
}
