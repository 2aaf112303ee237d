//go:build linux

package safefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

func TestReadsStayUnderTheRoot(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "ok.md"), []byte("hello"), 0o644))
	must(t, os.Symlink("/", filepath.Join(dir, "d")))
	must(t, os.Symlink("d/etc/passwd", filepath.Join(dir, "p.md")))
	must(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero.md")))
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o644))
	f, err := Open(dir, 4)
	must(t, err)
	defer f.Close()

	if _, err := f.ReadFile("ok.md"); !errors.As(err, new(*TooLargeError)) {
		t.Errorf("5 bytes over a 4-byte limit: err = %v, want TooLargeError", err)
	}
	f.limit = 5
	if b, err := f.ReadFile("ok.md"); err != nil || string(b) != "hello" {
		t.Errorf("ReadFile(ok.md) = %q, %v", b, err)
	}
	if _, err := f.ReadFile("p.md"); err == nil {
		t.Error("a link chain out of the root was followed")
	}
	if _, err := f.ReadFile("zero.md"); err == nil {
		t.Error("a link out of the root to /dev/zero was read")
	}
	// Opening a FIFO must neither block nor succeed.
	if _, err := f.ReadFile("fifo.md"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("FIFO: err = %v, want ErrNotRegular", err)
	}
	if _, err := fs.ReadFile(f, "fifo.md"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("FIFO through fs.ReadFile: err = %v, want ErrNotRegular", err)
	}
	if _, err := ReadPath("/dev/zero", 1<<20); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadPath(/dev/zero): err = %v, want ErrNotRegular", err)
	}
	if _, err := ReadPath(filepath.Join(dir, "fifo.md"), 1<<20); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadPath(fifo): err = %v, want ErrNotRegular", err)
	}
	if _, err := f.Lstat("d/etc/passwd"); err == nil {
		t.Error("Lstat through a link out of the root succeeded")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadBeneath: the one-call read resolves under the root or not at
// all, and what it reads is what os.Root's way reads.
func TestReadBeneath(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "root")
	must(t, os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755))
	must(t, os.WriteFile(filepath.Join(parent, "secret.md"), []byte("outside"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "a", "b", "doc.md"), []byte("inside"), 0o644))
	must(t, os.Symlink("../a/b/doc.md", filepath.Join(dir, "a", "in.md")))
	must(t, os.Symlink("../../secret.md", filepath.Join(dir, "a", "out.md")))
	must(t, os.Symlink(filepath.Join(parent, "secret.md"), filepath.Join(dir, "abs.md")))
	must(t, os.Symlink("/proc/self/root/"+parent+"/secret.md", filepath.Join(dir, "magic.md")))
	f := openWithOpenat2(t, dir)
	for _, c := range []struct {
		name string
		want string // "" when nothing may be read
	}{
		{"a/b/doc.md", "inside"},
		{"a/in.md", "inside"},
		{"a/out.md", ""},
		{"abs.md", ""},
		{"magic.md", ""},
		{"a/../a/b/doc.md", "inside"},
	} {
		got, ok := readBeneath(f.dir, c.name, 1<<20)
		if c.want == "" && ok {
			t.Errorf("readBeneath(%s) read %q out of the root", c.name, got)
		}
		if c.want != "" && (!ok || string(got) != c.want) {
			t.Errorf("readBeneath(%s) = %q, %v; want %q", c.name, got, ok, c.want)
		}
		// ReadFile says the same, by whichever way.
		b, err := f.ReadFile(c.name)
		if c.want == "" && err == nil {
			t.Errorf("ReadFile(%s) read %q out of the root", c.name, b)
		}
		if c.want != "" && (err != nil || string(b) != c.want) {
			t.Errorf("ReadFile(%s) = %q, %v; want %q", c.name, b, err, c.want)
		}
	}
}

// TestReadDirBeneath: the one-open listing lists under the root or not at
// all, and what it lists (names, order, types) is what os.Root's way lists.
func TestReadDirBeneath(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "root")
	must(t, os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755))
	must(t, os.WriteFile(filepath.Join(parent, "secret.md"), []byte("outside"), 0o644))
	for _, n := range []string{"z.md", "b.md", "A.md", "m.yaml"} {
		must(t, os.WriteFile(filepath.Join(dir, "a", n), nil, 0o644))
	}
	must(t, os.Symlink("b", filepath.Join(dir, "a", "link")))
	must(t, os.Symlink("..", filepath.Join(dir, "a", "b", "up")))
	must(t, os.Symlink("../..", filepath.Join(dir, "a", "out")))
	must(t, os.Symlink(parent, filepath.Join(dir, "abs")))
	must(t, os.Symlink("/proc/self/root/"+parent, filepath.Join(dir, "magic")))
	f := openWithOpenat2(t, dir)
	listing := func(es []fs.DirEntry) (s []string) {
		for _, e := range es {
			info, err := e.Info()
			if err != nil {
				return append(s, e.Name()+": "+err.Error())
			}
			s = append(s, fmt.Sprint(e.Name(), ":", e.Type(), ":", info.Name(), info.Mode(), info.Size(), info.ModTime().UnixNano()))
		}
		return s
	}
	for _, c := range []struct {
		name string
		in   bool // whether the directory is under the root
	}{
		{".", true}, {"a", true}, {"a/b", true}, {"a/link", true}, {"a/b/up", true},
		{"a/out", false}, {"abs", false}, {"magic", false}, {"a/z.md", false}, {"nope", false},
	} {
		got, ok := readDirBeneath(f.dir, c.name)
		if ok != c.in {
			t.Errorf("readDirBeneath(%s): ok = %v, want %v (%v)", c.name, ok, c.in, listing(got))
			continue
		}
		want, err := fs.ReadDir(f.root.FS(), c.name)
		if c.in && (err != nil || !slices.Equal(listing(got), listing(want))) {
			t.Errorf("readDirBeneath(%s) = %v, os.Root lists %v, %v", c.name, listing(got), listing(want), err)
		}
		// ReadDir says the same, by whichever way.
		via, err := f.ReadDir(c.name)
		if c.in != (err == nil) || !slices.Equal(listing(via), listing(want)) {
			t.Errorf("ReadDir(%s) = %v, %v; os.Root lists %v", c.name, listing(via), err, listing(want))
		}
	}
}

// TestReadDirWithoutOpenat2: the fallback lists what the fast path lists,
// sorted, and a FIFO where a directory was fails at once rather than
// waiting for a writer.
func TestReadDirWithoutOpenat2(t *testing.T) {
	dir := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755))
	for _, n := range []string{"z.md", "m.md", "a.md"} {
		must(t, os.WriteFile(filepath.Join(dir, "a", n), nil, 0o644))
	}
	must(t, os.Symlink("b", filepath.Join(dir, "a", "link")))
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	f, err := Open(dir, 1<<20)
	must(t, err)
	defer f.Close()
	fast, err := f.ReadDir("a")
	must(t, err)
	was := noOpenat2.Load()
	noOpenat2.Store(true)
	defer noOpenat2.Store(was)
	slow, err := f.ReadDir("a")
	must(t, err)
	if len(slow) != len(fast) {
		t.Fatalf("fallback lists %d entries, the fast path %d", len(slow), len(fast))
	}
	for i := range slow {
		if slow[i].Name() != fast[i].Name() || slow[i].Type() != fast[i].Type() {
			t.Errorf("entry %d: fallback %s %v, fast path %s %v", i, slow[i].Name(), slow[i].Type(), fast[i].Name(), fast[i].Type())
		}
	}
	if _, err := f.ReadDir("fifo"); err == nil {
		t.Error("ReadDir of a FIFO: no error")
	}
}

// openWithOpenat2 opens dir as an FS for a test of the openat2 paths, and
// skips the test, saying why, where the kernel refuses openat2.
func openWithOpenat2(t *testing.T, dir string) *FS {
	t.Helper()
	f, err := Open(dir, 1<<20)
	must(t, err)
	t.Cleanup(func() { f.Close() })
	readDirBeneath(f.dir, ".") // a probe: noOpenat2 is known after it
	if noOpenat2.Load() {
		t.Skip("openat2 is not available here")
	}
	return f
}
