package tree

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestDigestAndCopy(t *testing.T) {
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "d", ".git"), 0o755)
	os.MkdirAll(filepath.Join(src, ".git"), 0o755)
	os.WriteFile(filepath.Join(src, ".git", "config"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(src, "a"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(src, "d", "x.sh"), []byte("#!"), 0o755)
	os.Symlink("a", filepath.Join(src, "l"))
	a, err := Of(src)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Paths(), []string{"a", "d/x.sh", "l"}) {
		t.Errorf("paths %v", a.Paths())
	}
	dst := filepath.Join(t.TempDir(), "copy")
	if err := Copy(src, dst); err != nil {
		t.Fatal(err)
	}
	b, _ := Of(dst)
	if a.Sum != b.Sum {
		t.Error("copy digests differently")
	}
	if _, err := os.Stat(filepath.Join(dst, ".git")); err == nil {
		t.Error(".git copied")
	}
	os.Chmod(filepath.Join(dst, "d", "x.sh"), 0o644)
	os.WriteFile(filepath.Join(dst, "new"), nil, 0o644)
	os.Remove(filepath.Join(dst, "a"))
	c, _ := Of(dst)
	if got := Diff(a, c); !slices.Equal(got, []string{"a", "d/x.sh", "new"}) {
		t.Errorf("diff %v", got)
	}
}
