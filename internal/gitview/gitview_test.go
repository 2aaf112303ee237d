package gitview

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/svrnty/sotvet/sotparse"
)

func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	write := func(name, content string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.md", "staged a\n")
	write("sub/b.md", "staged b\n")
	if err := os.Symlink("../outside", filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	run("add", ".")
	run("commit", "-qm", "base")
	// Work-tree edits after staging are not what the index holds.
	write("a.md", "work tree a\n")
	write("untracked.md", "untracked\n")
	return dir
}

func TestIndex(t *testing.T) {
	dir := gitRepo(t)
	ix, err := ReadIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if got := ix.Paths(); len(got) != 3 || got[0] != "a.md" || got[1] != "link.md" || got[2] != "sub/b.md" {
		t.Fatalf("Paths = %v", got)
	}
	fsys := ix.FS()
	for name, want := range map[string]string{"a.md": "staged a\n", "sub/b.md": "staged b\n"} {
		b, err := fs.ReadFile(fsys, name)
		if err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", name, b, err, want)
		}
		// The id git gives is the one sotvet computes from content, so a
		// summary cached from the work tree serves the index and back.
		if id, ok := ix.ID(name); !ok || id != sotparse.BlobID([]byte(want)) {
			t.Errorf("%s: ID %q, BlobID %q", name, id, sotparse.BlobID([]byte(want)))
		}
	}
	if target, err := fs.ReadLink(fsys, "link.md"); err != nil || target != "../outside" {
		t.Errorf("ReadLink = %q, %v", target, err)
	}
	if info, err := fs.Lstat(fsys, "link.md"); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat(link.md) = %v, %v; want a symlink", info, err)
	}
	if _, err := fs.ReadFile(fsys, "untracked.md"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("untracked file: %v, want not found", err)
	}
	entries, err := fs.ReadDir(fsys, "sub")
	if err != nil || len(entries) != 1 || entries[0].Name() != "b.md" {
		t.Errorf("ReadDir(sub) = %v, %v", entries, err)
	}
}

func TestIndexPrefetch(t *testing.T) {
	dir := gitRepo(t)
	ix, err := ReadIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix.Prefetch([]string{"a.md", "sub/b.md", "missing.md"})
	if len(ix.fetched) != 2 {
		t.Fatalf("prefetched %d files, want 2", len(ix.fetched))
	}
	// Prefetched content is served without git, even after Close.
	ix.Close()
	if b, err := fs.ReadFile(ix.FS(), "sub/b.md"); err != nil || string(b) != "staged b\n" {
		t.Errorf("prefetched read = %q, %v", b, err)
	}
	// What was not prefetched fails once the git process is gone.
	if _, err := fs.ReadFile(ix.FS(), "link.md"); err == nil {
		t.Error("read after Close succeeded")
	}
}

func TestReadIndexOutsideGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	if _, err := ReadIndex(t.TempDir()); err == nil {
		t.Error("ReadIndex outside a repository succeeded")
	}
}
