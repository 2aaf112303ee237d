package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.txt")
	if err := Write(name, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(name); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("new file: %v, %v", info, err)
	}
	if err := os.Chmod(name, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := Write(name, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(name)
	info, _ := os.Stat(name)
	if err != nil || string(b) != "two" || info.Mode().Perm() != 0o640 {
		t.Errorf("replaced file: %q, mode %v, %v; want \"two\", its mode kept", b, info.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if err := Write(filepath.Join(dir, "missing", "f"), nil, 0o600); err == nil {
		t.Error("Write into a missing directory succeeded")
	}
}

// TestIsTempOnlyWritesOwn: the names Write's temporary files get are
// temporary files, and a user's file that only looks like one is not
// (CleanStale removes what IsTemp says).
func TestIsTempOnlyWritesOwn(t *testing.T) {
	dir := t.TempDir()
	for range 20 {
		f, err := os.CreateTemp(dir, ".notes.md"+TempPrefix+"*")
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		if base := filepath.Base(f.Name()); !IsTemp(base) {
			t.Fatalf("IsTemp(%q) = false for a name Write makes", base)
		}
	}
	for _, base := range []string{".notes.sotvet-tmp-keep", ".notes.sotvet-tmp-", ".sotvet-tmp-123", "notes.sotvet-tmp-123", ".a.sotvet-tmp-12x"} {
		if IsTemp(base) {
			t.Errorf("IsTemp(%q) = true", base)
		}
	}
}
