package safegit_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svrnty/sotvet/internal/safegit"
	"github.com/svrnty/sotvet/internal/safegit/safegittest"
)

// The hostile repository is hostile: plain git runs the marker in it.
// Without this, the test below could pass for a marker that never runs.
func TestHostileRepoRunsMarkerUnderPlainGit(t *testing.T) {
	h := safegittest.New(t)
	cmd := exec.Command("git", "-C", h.Dir, "status", "--porcelain")
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	cmd.CombinedOutput()
	if h.Ran() == "" {
		t.Fatal("plain git status did not run the marker: the hostile repository proves nothing")
	}
}

// Every read sotvet makes runs in the shadow: the marker never runs.
func TestNoProgramOfTheRepositoryRuns(t *testing.T) {
	h := safegittest.New(t)
	r, err := safegit.Open(h.Dir, safegit.Options{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	calls := [][]string{
		{"status", "--porcelain=v2", "-z", "--branch", "--untracked-files=normal", "--ignore-submodules=dirty"},
		{"status", "--porcelain"}, // a submodule's status would need another git: it fails instead
		{"for-each-ref", "--format=%(objectname) %(refname)"},
		{"log", "-1", "--format=%H %cI %G?"},
		{"diff", "--name-only", "HEAD", "--"},
		{"diff", "-U0", "HEAD", "--"},
		{"diff", "--cached", "--name-only", "-z"},
		{"ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"},
		{"ls-files", "-z", "--stage"},
		{"rev-parse", "--show-toplevel"},
	}
	var outs []string
	for _, c := range calls {
		out, err := r.Run("", nil, c...)
		outs = append(outs, strings.Join(c, " ")+": "+string(out)+" err="+errString(err))
	}
	if ran := h.Ran(); ran != "" {
		t.Fatalf("the repository's programs ran:\n%s\n%s", ran, strings.Join(outs, "\n"))
	}
	st, err := r.Run("", nil, "status", "--porcelain=v2", "-z", "--branch", "--ignore-submodules=dirty")
	if err != nil || !strings.Contains(string(st), "M. ") || !strings.Contains(string(st), "b.md") {
		t.Fatalf("status in the shadow = %q, %v; want b.md staged", st, err)
	}
	if strings.Contains(string(st), "a.md") {
		t.Fatalf("a.md, only touched, shows as changed: %q", st)
	}
}

// A repository owned by another user is read without safe.directory, and
// nothing of it runs (as root this is the attack of the finding).
func TestOtherOwnerReadWithoutRunning(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the repository to another user")
	}
	h := safegittest.New(t)
	if err := filepath.Walk(h.Dir, func(p string, _ os.FileInfo, _ error) error { return os.Lchown(p, 4242, 4242) }); err != nil {
		t.Fatal(err)
	}
	r, err := safegit.Open(h.Dir, safegit.Options{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Run("", nil, "status", "--porcelain=v2", "--ignore-submodules=dirty"); err != nil {
		t.Fatal(err)
	}
	if h.Ran() != "" {
		t.Fatalf("ran: %s", h.Ran())
	}
	for _, e := range r.Env() {
		if strings.Contains(e, "safe.directory") {
			t.Fatalf("environment sets safe.directory: %s", e)
		}
	}
}

// A FIFO HEAD, index or .gitignore is refused before git opens it, at once.
func TestFIFORefused(t *testing.T) {
	for _, name := range []string{".git/HEAD", ".git/index", "sub/.gitignore", ".gitignore"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := safegittest.Hostile{Dir: plainRepo(t)}
			p := filepath.Join(h.Dir, name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.Remove(p)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			r, err := safegit.Open(h.Dir, safegit.Options{Exact: true})
			if err == nil {
				err = r.CheckIgnoreFiles(h.Dir)
				r.Close()
			}
			if err == nil || !strings.Contains(err.Error(), "regular file") {
				t.Fatalf("err = %v, want a refusal of the FIFO", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("took %s", d)
			}
		})
	}
}

// A git process that hangs is killed at the deadline.
func TestDeadline(t *testing.T) {
	h := safegittest.Hostile{Dir: plainRepo(t)}
	r, err := safegit.Open(h.Dir, safegit.Options{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// .gitattributes turned into a FIFO after the checks: git blocks on it.
	p := filepath.Join(h.Dir, "sub2", ".gitattributes")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(filepath.Join(h.Dir, "sub2", "f"), []byte("x"), 0o644)
	syscall.Mkfifo(p, 0o644)
	old := safegit.Timeout
	safegit.Timeout = 500 * time.Millisecond
	defer func() { safegit.Timeout = old }()
	start := time.Now()
	_, err = r.Run("", nil, "check-attr", "-a", "sub2/f")
	if err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("err = %v after %s, want the deadline", err, time.Since(start))
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// plainRepo is a repository with one commit and nothing hostile.
func plainRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"commit", "-q", "--allow-empty", "-m", "base"}} {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// Find finds what git finds: the same work tree and git directory, for a
// subdirectory, a linked worktree, a separate git directory, a linked
// .git, a bare repository and GIT_DIR.
func TestFindAgreesWithGit(t *testing.T) {
	base := t.TempDir()
	if r, err := filepath.EvalSymlinks(base); err == nil {
		base = r
	}
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	main := filepath.Join(base, "main")
	git(base, "init", "-q", main)
	git(main, "commit", "-q", "--allow-empty", "-m", "base")
	os.MkdirAll(filepath.Join(main, "a", "b"), 0o755)
	git(main, "worktree", "add", "-q", filepath.Join(base, "linked"))
	git(base, "init", "-q", "--separate-git-dir", filepath.Join(base, "sep.git"), filepath.Join(base, "sep"))
	git(base, "init", "-q", "--bare", filepath.Join(base, "bare.git"))
	os.MkdirAll(filepath.Join(base, "sym"), 0o755)
	git(base, "init", "-q", filepath.Join(base, "symsrc"))
	os.Symlink(filepath.Join(base, "symsrc", ".git"), filepath.Join(base, "sym", ".git"))
	for _, dir := range []string{main, filepath.Join(main, "a", "b"), filepath.Join(base, "linked"), filepath.Join(base, "sep"), filepath.Join(base, "sym"), filepath.Join(base, "bare.git")} {
		r, err := safegit.Find(dir, safegit.Options{})
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		gitDir := git(dir, "rev-parse", "--path-format=absolute", "--git-dir")
		if rg, _ := filepath.EvalSymlinks(r.GitDir); rg != gitDir && r.GitDir != gitDir {
			t.Errorf("%s: GitDir %s, git says %s", dir, r.GitDir, gitDir)
		}
		if strings.HasSuffix(dir, ".git") {
			if !r.Bare || r.WorkTree != "" {
				t.Errorf("%s: bare %v, work tree %q", dir, r.Bare, r.WorkTree)
			}
			continue
		}
		if top := git(dir, "rev-parse", "--show-toplevel"); r.WorkTree != top {
			t.Errorf("%s: WorkTree %s, git says %s", dir, r.WorkTree, top)
		}
	}
	t.Setenv("GIT_DIR", filepath.Join(main, ".git"))
	if r, err := safegit.Find(base, safegit.Options{}); err != nil || r.GitDir != filepath.Join(main, ".git") || r.WorkTree != base {
		t.Errorf("GIT_DIR: %+v, %v", r, err)
	}
	if _, err := safegit.Find(base, safegit.Options{Exact: true}); err == nil {
		t.Error("Exact took GIT_DIR from the environment")
	}
}
