package checks_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/registry"
	"github.com/svrnty/sotvet/sotparse"
)

// TestDiscoveryParity: a run handed the walk's listing (a session's)
// reports what a run that walks reports: a directory exists for both
// when a listed file is in it, never because the walk saw it empty, saw
// only ignored files in it, or saw a path it lists nowhere (a FIFO).
func TestDiscoveryParity(t *testing.T) {
	root := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".sot/README.md", "# Notes\n\nSee `.sot/empty/`, `.sot/ignored/`, `.sot/pipes/` and `.sot/kept/`.\n")
	write(".sot/ignored/a.txt", "x\n")
	write(".sot/kept/a.txt", "x\n")
	if err := os.MkdirAll(filepath.Join(root, ".sot", "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".sot", "pipes"), 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := syscall.Mkfifo(filepath.Join(root, ".sot", "pipes", "p"), 0o644) == nil
	ignored := func(p string, dir bool) bool { return p == ".sot/ignored/a.txt" }
	run := func(disc *sotparse.Discovery) []string {
		t.Helper()
		return shown(t, checks.Options{Root: root, FS: os.DirFS(root), Analyzers: registry.All, Ignored: ignored, Discovery: disc})
	}
	walked := run(nil)
	disc, err := sotparse.Discover(os.DirFS(root), sotparse.DiscoverOptions{Ignored: ignored})
	if err != nil {
		t.Fatal(err)
	}
	listed := run(disc)
	if fmt.Sprint(walked) != fmt.Sprint(listed) {
		t.Fatalf("with the walk's listing:\n%s\nwalking:\n%s", strings.Join(listed, "\n"), strings.Join(walked, "\n"))
	}
	want := []string{".sot/empty/", ".sot/ignored/"}
	if fifo {
		want = append(want, ".sot/pipes/")
	}
	for _, w := range want {
		if !strings.Contains(strings.Join(walked, "\n"), "missing-path] "+w) && !strings.Contains(strings.Join(walked, "\n"), w+" does not exist") {
			t.Errorf("no missing-path for %s:\n%s", w, strings.Join(walked, "\n"))
		}
	}
	if strings.Contains(strings.Join(walked, "\n"), ".sot/kept/ does not exist") {
		t.Errorf(".sot/kept/ holds a listed file, yet is reported missing:\n%s", strings.Join(walked, "\n"))
	}
}
