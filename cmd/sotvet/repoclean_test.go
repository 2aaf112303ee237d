package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRepositoryHoldsNoSecret: sotvet scan finds nothing in the files the
// repository tracks, as .ci/run's last step asks of the whole checkout. A
// test sample written whole (a key the engine now recognises) fails here,
// in go test, rather than after CI's twelve minutes: one did.
func TestRepositoryHoldsNoSecret(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ls := exec.Command("git", "ls-files", "-z")
	ls.Dir = root
	out, err := ls.Output()
	if err != nil {
		t.Skipf("not a git checkout (git ls-files: %v): nothing to list", err)
	}
	files := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(files) < 100 {
		t.Fatalf("git ls-files listed %d files: not this repository", len(files))
	}
	scan := exec.Command(filepath.Join(plainSotvet(t), "sotvet"), append([]string{"scan"}, files...)...)
	scan.Dir = root
	if out, err := scan.CombinedOutput(); err != nil {
		t.Fatalf("sotvet scan of the tracked files: %v\n%s", err, out)
	}
}
