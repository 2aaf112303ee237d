package cache

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/svrnty/sotvet/internal/safefs"
	"github.com/svrnty/sotvet/sotparse"
)

// filesRun is one run over root with the cache in dir: the walk (which
// takes the stamps), then nothing read yet.
func filesRun(t *testing.T, dir, root string) (*Pack, *Files) {
	t.Helper()
	pack := Open(dir, root, "k")
	sf, err := safefs.Open(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sf.Close() })
	f := NewFiles(sf, 1<<20, pack, false)
	if _, err := sotparse.Discover(f, sotparse.DiscoverOptions{}); err != nil {
		t.Fatal(err)
	}
	return pack, f
}

func readAll(t *testing.T, f *Files, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := safefs.ReadFile(f, n, 0); err != nil {
			t.Fatal(err)
		}
	}
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// later makes the runs of the test happen an hour after its files were
// written: their stamps are old enough to trust.
func later(t *testing.T) {
	old := SetClock(func() time.Time { return time.Now().Add(time.Hour) })
	t.Cleanup(func() { SetClock(old) })
}

func wantID(t *testing.T, f *Files, name, text string) {
	t.Helper()
	id, ok := f.ID(name)
	if want := sotparse.BlobID([]byte(text)); !ok || id != want {
		t.Errorf("ID(%s) = %q, %v; want %q (%q)", name, id, ok, want, text)
	}
}

func wantNoID(t *testing.T, f *Files, name string) {
	t.Helper()
	if id, ok := f.ID(name); ok {
		t.Errorf("ID(%s) = %q before it was read; want none", name, id)
	}
}

func TestStatIndexSkipsUnchangedFiles(t *testing.T) {
	needStamps(t)
	later(t)
	dir, root := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(root, "a.md"), "alpha\n")
	writeFile(t, filepath.Join(root, "b.md"), "beta\n")
	pack, f := filesRun(t, dir, root)
	wantNoID(t, f, "a.md")
	readAll(t, f, "a.md", "b.md")
	wantID(t, f, "a.md", "alpha\n")
	if err := pack.Save(); err != nil {
		t.Fatal(err)
	}

	// Unchanged: known without a read.
	pack, f = filesRun(t, dir, root)
	wantID(t, f, "a.md", "alpha\n")
	wantID(t, f, "b.md", "beta\n")
	if err := pack.Save(); err != nil {
		t.Fatal(err)
	}

	// New content of the same size, its modification time set back to
	// what it was: the change time moved, so the file is read.
	a := filepath.Join(root, "a.md")
	info, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, a, "ALPHA\n")
	if err := os.Chtimes(a, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	pack, f = filesRun(t, dir, root)
	wantNoID(t, f, "a.md")
	wantID(t, f, "b.md", "beta\n")
	readAll(t, f, "a.md")
	wantID(t, f, "a.md", "ALPHA\n")
	if err := pack.Save(); err != nil {
		t.Fatal(err)
	}
	_, f = filesRun(t, dir, root)
	wantID(t, f, "a.md", "ALPHA\n")

	// A file gone drops out of the index; one replaced by another file
	// (a new inode) is read.
	if err := os.Remove(filepath.Join(root, "b.md")); err != nil {
		t.Fatal(err)
	}
	pack, f = filesRun(t, dir, root)
	wantID(t, f, "a.md", "ALPHA\n")
	if err := pack.Save(); err != nil {
		t.Fatal(err)
	}
	if _, ok := pack.stats["b.md"]; ok {
		t.Error("b.md is gone, yet still in the index")
	}
}

// TestStatIndexRacy: a file written in the same clock tick as it was
// read can change again without its stamp changing (the file system's
// times have that granularity; git's "racy" case). Such a stamp is never
// trusted: the file is read on the next run. The stamps here are faked to
// stay the same whatever the content.
func TestStatIndexRacy(t *testing.T) {
	var stamp Stamp
	statOf = func(info fs.FileInfo) (Stamp, bool) {
		s := stamp
		s.Size = info.Size()
		return s, true
	}
	t.Cleanup(func() { statOf = stampOf })
	dir, root := t.TempDir(), t.TempDir()
	a := filepath.Join(root, "a.md")
	// run writes a.md, then asks its id before reading it, reads it
	// and saves the pack.
	run := func(text string) (string, bool) {
		writeFile(t, a, text)
		pack, f := filesRun(t, dir, root)
		id, ok := f.ID("a.md")
		readAll(t, f, "a.md")
		if err := pack.Save(); err != nil {
			t.Fatal(err)
		}
		return id, ok
	}

	// Written just before the walk: racy, not recorded, read again.
	now := time.Now().UnixNano()
	stamp = Stamp{Mtime: now - int64(time.Millisecond), Ctime: now - int64(time.Millisecond), Ino: 7}
	run("alpha\n")
	if id, ok := run("ALPHA\n"); ok { // same size, same stamp
		t.Fatalf("a racy stamp was trusted: the changed file was taken as %q", id)
	}

	// The same, a whole second coarse (FAT, HFS+): 1.5 s is still racy.
	sec := now - now%int64(time.Second)
	old := SetClock(func() time.Time { return time.Unix(0, sec+int64(1500*time.Millisecond)) })
	t.Cleanup(func() { SetClock(old) })
	stamp = Stamp{Mtime: sec, Ctime: sec, Ino: 8}
	run("gamma\n")
	if id, ok := run("GAMMA\n"); ok {
		t.Fatalf("a racy whole-second stamp was trusted: the changed file was taken as %q", id)
	}

	// The control: an old stamp is recorded, and the next run trusts it
	// (which is why the kernel's change time must move on every write).
	SetClock(nil)
	stamp = Stamp{Mtime: now - int64(time.Hour), Ctime: now - int64(time.Hour), Ino: 9}
	run("delta\n")
	if id, ok := run("delta\n"); !ok || id != sotparse.BlobID([]byte("delta\n")) {
		t.Fatalf("an old stamp was not trusted: %q, %v", id, ok)
	}
}

func TestStatIndexDamagedOrForeign(t *testing.T) {
	needStamps(t)
	later(t)
	dir, root := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(root, "a.md"), "alpha\n")
	pack, f := filesRun(t, dir, root)
	readAll(t, f, "a.md")
	if err := pack.Save(); err != nil {
		t.Fatal(err)
	}
	// Another build's index is not read.
	if other := Open(dir, root, "k2"); other.Problem() == nil || len(other.stats) != 0 {
		t.Error("an index written under another key was read")
	}
	// A flipped byte: the index is dropped whole.
	b, err := os.ReadFile(pack.statFile())
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	writeFile(t, pack.statFile(), string(b))
	pack, f = filesRun(t, dir, root)
	wantNoID(t, f, "a.md")
	if err := pack.Problem(); err == nil || !strings.Contains(err.Error(), ".stat") {
		t.Errorf("Problem() = %v; want the damaged index named", err)
	}
	readAll(t, f, "a.md")
	if err := pack.Save(); err != nil {
		t.Fatal(err)
	}
	_, f = filesRun(t, dir, root)
	wantID(t, f, "a.md", "alpha\n")
}

// TestFilesDetach: a process that keeps its Files after the load lets go
// of the pack and still knows the ids it found.
func TestFilesDetach(t *testing.T) {
	later(t)
	dir, root := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(root, "a.md"), "alpha\n")
	writeFile(t, filepath.Join(root, "b.md"), "beta\n")
	pack, f := filesRun(t, dir, root)
	readAll(t, f, "a.md", "b.md")
	if err := pack.Save(); err != nil {
		t.Fatal(err)
	}
	pack, f = filesRun(t, dir, root)
	wantID(t, f, "a.md", "alpha\n")
	f.Detach(pack)
	if f.pack != nil {
		t.Fatal("Detach kept the pack")
	}
	wantID(t, f, "a.md", "alpha\n")
	wantNoID(t, f, "b.md")
}

// TestTrimStatIndex: a stat index lives as long as its pack: a run that
// uses it keeps it, Trim removes one no run used for long.
func TestTrimStatIndex(t *testing.T) {
	needStamps(t)
	later(t)
	dir, root := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(root, "a.md"), "alpha\n")
	pack, f := filesRun(t, dir, root)
	readAll(t, f, "a.md")
	if err := pack.Save(); err != nil {
		t.Fatal(err)
	}
	long := time.Now().Add(-40 * 24 * time.Hour)
	if err := os.Chtimes(pack.statFile(), long, long); err != nil {
		t.Fatal(err)
	}
	// A run that changes nothing still marks the index used.
	pack, f = filesRun(t, dir, root)
	wantID(t, f, "a.md", "alpha\n")
	if err := pack.Save(); err != nil {
		t.Fatal(err)
	}
	if err := Trim(dir, 30*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(pack.statFile()); err != nil {
		t.Fatalf("a used stat index was removed: %v", err)
	}
	for _, f := range []string{pack.File(), pack.statFile()} {
		if err := os.Chtimes(f, long, long); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(filepath.Join(dir, "summaries", "trim.txt")); err != nil {
		t.Fatal(err)
	}
	if err := Trim(dir, 30*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(pack.statFile()); err == nil {
		t.Error("a stat index unused for 40 days survived")
	}
}

// needStamps skips a test of the stat index where stat gives no change
// time to trust (stampOf): there every file is read.
func needStamps(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("the stat index keeps no stamps on " + runtime.GOOS)
	}
}
