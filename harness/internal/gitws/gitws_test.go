package gitws

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func repo(t *testing.T) *Repo {
	t.Helper()
	d := t.TempDir()
	r := &Repo{Dir: filepath.Join(d, "ws"), Home: filepath.Join(d, "home"), Tmp: d, Path: os.Getenv("PATH")}
	os.MkdirAll(r.Dir, 0o755)
	os.MkdirAll(r.Home, 0o755)
	os.WriteFile(filepath.Join(r.Dir, "a.txt"), []byte("a\n"), 0o644)
	os.WriteFile(filepath.Join(r.Dir, ".gitignore"), []byte("*.log\n"), 0o644)
	return r
}

func TestCapture(t *testing.T) {
	r := repo(t)
	base, err := r.Init()
	if err != nil {
		t.Fatal(err)
	}
	// Reproducible: same tree, same identity, same date, same commit.
	r2 := repo(t)
	if b2, _ := r2.Init(); b2 != base {
		t.Errorf("baseline %s vs %s", base, b2)
	}
	if d, err := r.Dirty(); err != nil || len(d) != 0 {
		t.Fatalf("dirty after init: %v %v", d, err)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".git", "hooks")); err == nil {
		t.Error("sample hooks were installed")
	}
	// Committed, uncommitted, untracked and ignored changes all count.
	os.WriteFile(filepath.Join(r.Dir, "b.txt"), []byte("b\n"), 0o644)
	if _, err := r.Run("add", "b.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Run("commit", "-q", "-m", "b"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(r.Dir, "a.txt"), []byte("A\n"), 0o644)
	os.WriteFile(filepath.Join(r.Dir, "c.txt"), []byte("c\n"), 0o644)
	os.WriteFile(filepath.Join(r.Dir, "hidden.log"), []byte("h\n"), 0o644)
	patch, ch, err := r.Capture(base)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, c := range ch {
		paths = append(paths, c.Status+" "+c.Path)
	}
	if want := []string{"M a.txt", "A b.txt", "A c.txt", "A hidden.log"}; !slices.Equal(paths, want) {
		t.Errorf("changes %v, want %v", paths, want)
	}
	if !strings.Contains(string(patch), "+A") || !strings.Contains(string(patch), "diff --git a/hidden.log b/hidden.log") {
		t.Errorf("patch:\n%s", patch)
	}
	d, _ := r.Dirty()
	if !slices.Equal(d, []string{"a.txt", "c.txt", "hidden.log"}) {
		t.Errorf("dirty %v", d)
	}
}

func TestControlRestore(t *testing.T) {
	r := repo(t)
	if _, err := r.Init(); err != nil {
		t.Fatal(err)
	}
	snap, err := r.SnapshotControl()
	if err != nil || len(snap[".git/config"]) == 0 {
		t.Fatalf("snapshot %v %v", snap, err)
	}
	cfg := filepath.Join(r.Dir, ".git", "config")
	orig, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, append(orig, []byte("[core]\n\tfsmonitor = touch /tmp/pwned\n")...), 0o644)
	os.MkdirAll(filepath.Join(r.Dir, ".git", "hooks"), 0o755)
	os.WriteFile(filepath.Join(r.Dir, ".git", "hooks", "pre-commit"), []byte("#!/bin/sh\n"), 0o755)
	changed, err := r.RestoreControl(snap)
	if err != nil || !slices.Equal(changed, []string{".git/config", ".git/hooks/pre-commit"}) {
		t.Errorf("changed %v %v", changed, err)
	}
	if now, _ := os.ReadFile(cfg); string(now) != string(orig) {
		t.Error("config not restored")
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".git", "hooks", "pre-commit")); err == nil {
		t.Error("hook not removed")
	}
}

// TestOwnRepository: with GitDir, the harness's repository holds the same
// baseline commit as the work tree's, copied from the work tree's .git
// before any backend ran, so what a backend writes there later changes
// nothing it sees.
func TestOwnRepository(t *testing.T) {
	r := repo(t)
	r.GitDir = filepath.Join(r.Tmp, "baseline.git")
	base, err := r.Init()
	if err != nil {
		t.Fatal(err)
	}
	if local, err := r.Local().Head(); err != nil || local != base {
		t.Fatalf("work tree's HEAD %s (%v), want %s", local, err, base)
	}
	if own, err := r.Head(); err != nil || own != base {
		t.Fatalf("harness's HEAD %s (%v), want %s", own, err, base)
	}
	if d, err := r.Dirty(); err != nil || len(d) != 0 {
		t.Fatalf("dirty after init: %v %v", d, err)
	}
	// The backend commits its change and moves the work tree's HEAD.
	os.WriteFile(filepath.Join(r.Dir, "a.txt"), []byte("A\n"), 0o644)
	l := r.Local()
	if _, err := l.Run("commit", "-q", "-a", "-m", "hide"); err != nil {
		t.Fatal(err)
	}
	if _, ch, err := r.Capture(base); err != nil || len(ch) != 1 || ch[0] != (Change{"M", "a.txt"}) {
		t.Errorf("changes %v %v, want M a.txt", ch, err)
	}
	if d, _ := r.Dirty(); !slices.Equal(d, []string{"a.txt"}) {
		t.Errorf("dirty %v, want [a.txt]", d)
	}
	// Nothing of the harness's repository lives in the work tree's .git.
	if err := os.RemoveAll(filepath.Join(r.Dir, ".git")); err != nil {
		t.Fatal(err)
	}
	if own, err := r.Head(); err != nil || own != base {
		t.Errorf("without the work tree's .git: HEAD %s (%v), want %s", own, err, base)
	}
	if _, ch, err := r.Capture(base); err != nil || len(ch) != 1 || ch[0] != (Change{"M", "a.txt"}) {
		t.Errorf("without the work tree's .git: changes %v %v, want M a.txt", ch, err)
	}
}

// TestOwnRepositoryOfClone: a work tree that is already a repository
// (a disposable clone) gets a baseline with parents, and the harness's
// repository adopts that same commit.
func TestOwnRepositoryOfClone(t *testing.T) {
	r := repo(t)
	l := r.Local()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "history"}} {
		if _, err := l.Run(args...); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(r.Dir, "new.txt"), []byte("n\n"), 0o644)
	r.GitDir = filepath.Join(r.Tmp, "baseline.git")
	base, err := r.Init()
	if err != nil {
		t.Fatal(err)
	}
	if own, err := r.Head(); err != nil || own != base {
		t.Fatalf("harness's HEAD %s (%v), want %s", own, err, base)
	}
	if _, err := r.Run("rev-parse", "--verify", base+"^"); err != nil {
		t.Errorf("the baseline has no parent: %v", err)
	}
	if d, err := r.Dirty(); err != nil || len(d) != 0 {
		t.Errorf("dirty after init: %v %v", d, err)
	}
}

// A clone whose HEAD is another branch, with a main at another commit:
// the baseline is the commit made on HEAD, not main's (the loose ref of
// main is read only when HEAD is main).
func TestOwnRepositoryOfCloneOnAnotherBranch(t *testing.T) {
	r := repo(t)
	l := r.Local()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "history"}, {"checkout", "-q", "-b", "feature"}} {
		if _, err := l.Run(args...); err != nil {
			t.Fatal(err)
		}
	}
	main, err := l.Run("rev-parse", "main")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(r.Dir, "new.txt"), []byte("n\n"), 0o644)
	r.GitDir = filepath.Join(r.Tmp, "baseline.git")
	base, err := r.Init()
	if err != nil {
		t.Fatal(err)
	}
	if base == strings.TrimSpace(string(main)) {
		t.Fatalf("the baseline is main's commit %s, not the one made on HEAD", base)
	}
	if local, err := l.Head(); err != nil || local != base {
		t.Fatalf("work tree's HEAD %s (%v), want %s", local, err, base)
	}
}
