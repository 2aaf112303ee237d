package guard

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/svrnty/sotvet/harness/ledger"
)

// otherUID owns the throw-away repositories when the tests run as root:
// the processes of the test's own user (root) that root cannot inspect
// here (a sandbox's init, non-dumpable processes) are then another
// user's, as they are on a developer's machine, and do not make the
// process check unknown.
const otherUID = 4242

func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
}

func gitT(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", "-c", "safe.directory=*"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// newRepo makes BASE/core with one commit and returns BASE.
func newRepo(t testing.TB) (base, core string) {
	t.Helper()
	needGit(t)
	base = t.TempDir()
	if r, err := filepath.EvalSymlinks(base); err == nil {
		base = r
	}
	core = filepath.Join(base, "core")
	gitT(t, base, "init", "-q", core)
	writeFile(t, filepath.Join(core, "README.md"), "core\n")
	gitT(t, core, "add", ".")
	gitT(t, core, "commit", "-qm", "base")
	// Worktrees nested under core/worktrees, as the user's are, are not
	// untracked files of the main worktree.
	writeFile(t, filepath.Join(core, ".git", "info", "exclude"), "/worktrees/\n")
	return base, core
}

func writeFile(t testing.TB, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// own hands the tree to otherUID when running as root.
func own(t testing.TB, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		return
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			os.Lchown(p, otherUID, otherUID)
		}
		return nil
	})
}

// treeDigest digests everything under dir — names, modes, sizes,
// modification times and bytes, .git included — independently of the
// guard's own digests: the proof that the guard wrote nothing.
func treeDigest(t testing.TB, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%s %s %d %d\n", rel, info.Mode(), info.Size(), info.ModTime().UnixNano())
		if info.Mode().IsRegular() {
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			io.Copy(h, f)
			f.Close()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// run runs the guard on repo and asserts the proof that nothing changed:
// the record's own before/after digests, and an independent digest of
// every file under base.
func run(t *testing.T, base, repo string, conflicts ...string) *ledger.Guard {
	t.Helper()
	own(t, base)
	before := treeDigest(t, base)
	g, err := Run(Options{Repo: repo, Conflicts: conflicts})
	if err != nil {
		t.Fatal(err)
	}
	if after := treeDigest(t, base); after != before {
		t.Errorf("the guard changed the files under %s", base)
	}
	if !g.Unchanged || g.Before != g.After {
		t.Errorf("record: unchanged=%t before=%+v after=%+v", g.Unchanged, g.Before, g.After)
	}
	for _, d := range []string{g.Before.Refs, g.Before.Index, g.Before.Worktrees, g.Before.Status} {
		if len(d) != 64 {
			t.Errorf("digest %q is not a SHA-256", d)
		}
	}
	if names := checkNames(g); !slices.Equal(names, ledger.GuardCheckNames) {
		t.Errorf("checks %v, want %v", names, ledger.GuardCheckNames)
	}
	return g
}

func checkNames(g *ledger.Guard) []string {
	var out []string
	for _, c := range g.Checks {
		out = append(out, c.Name)
	}
	return out
}

func check(t *testing.T, g *ledger.Guard, name string) ledger.GuardCheck {
	t.Helper()
	for _, c := range g.Checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no check %s", name)
	return ledger.GuardCheck{}
}

// wantBlocked asserts the verdict and that check name blocked with reason.
func wantBlocked(t *testing.T, g *ledger.Guard, name, status, reason string) {
	t.Helper()
	c := check(t, g, name)
	if c.Status != status || c.Reason != reason {
		t.Errorf("%s: %s %s (%s), want %s %s", name, c.Status, c.Reason, c.Detail, status, reason)
	}
	if g.GuardStatus != ledger.GuardBlocked || g.CoreRouteAdmissionStatus != ledger.RouteNotAdmitted || !slices.Contains(g.BlockedReasons, reason) {
		t.Errorf("verdict %s %s %v, want blocked not_admitted with %s", g.GuardStatus, g.CoreRouteAdmissionStatus, g.BlockedReasons, reason)
	}
}

func TestIdle(t *testing.T) {
	t.Parallel() // see parallel_test.go
	base, core := newRepo(t)
	// A linked worktree whose work is merged is idle.
	gitT(t, core, "worktree", "add", "-q", filepath.Join(core, "worktrees", "done"), "-b", "done")
	g := run(t, base, core)
	for _, c := range g.Checks {
		if c.Status != ledger.CheckPass {
			t.Errorf("%s: %s %s: %s", c.Name, c.Status, c.Reason, c.Detail)
		}
	}
	if g.GuardStatus != ledger.GuardPass || g.CoreRouteAdmissionStatus != ledger.RouteAdmitted || g.BlockedReason != ledger.NoBlockedReason || g.NextAllowedAction != ledger.ActionOpenRoute {
		t.Errorf("verdict %s %s %s %s", g.GuardStatus, g.CoreRouteAdmissionStatus, g.BlockedReason, g.NextAllowedAction)
	}
	if len(g.Worktrees) != 2 || !g.Worktrees[0].Main || g.Worktrees[1].Branch != "refs/heads/done" || g.Worktrees[1].State != "clean" {
		t.Fatalf("worktrees %+v", g.Worktrees)
	}
	for _, w := range g.Worktrees {
		if _, err := time.Parse(time.RFC3339, w.LastCommitAt); err != nil || len(w.Head) != 40 {
			t.Errorf("worktree %s: head %q last commit %q", w.Path, w.Head, w.LastCommitAt)
		}
	}
	// The guard runs from a linked worktree too, and finds the same.
	g2 := run(t, base, filepath.Join(core, "worktrees", "done"))
	if g2.GuardStatus != ledger.GuardPass || g2.Worktrees[0].Path != core {
		t.Errorf("from the linked worktree: %s, main %s", g2.GuardStatus, g2.Worktrees[0].Path)
	}
}

func TestDirtyWorktree(t *testing.T) {
	t.Parallel() // see parallel_test.go
	base, core := newRepo(t)
	wt := filepath.Join(base, "wt")
	gitT(t, core, "worktree", "add", "-q", wt, "-b", "feature")
	writeFile(t, filepath.Join(wt, "new.txt"), "secret content\n")
	writeFile(t, filepath.Join(wt, "README.md"), "edited text\n")
	g := run(t, base, core)
	wantBlocked(t, g, CheckActive, ledger.CheckBlocked, ledger.ReasonDirty)
	if w := g.Worktrees[1]; w.State != "dirty" || w.Changes != 2 {
		t.Errorf("worktree %+v, want dirty with 2 changes", w)
	}
	if c := check(t, g, CheckMainStatus); c.Status != ledger.CheckPass {
		t.Errorf("main_status %+v", c)
	}
	// The main worktree dirty.
	writeFile(t, filepath.Join(core, "README.md"), "edited text\n")
	g = run(t, base, core)
	wantBlocked(t, g, CheckMainStatus, ledger.CheckBlocked, ledger.ReasonDirty)
	// No file content reaches the record.
	assertNoContent(t, g, "secret content", "edited text")
}

func assertNoContent(t *testing.T, g *ledger.Guard, texts ...string) {
	t.Helper()
	data, err := ledger.Marshal(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range texts {
		if strings.Contains(string(data), s) {
			t.Errorf("the record holds %q, file content of the repository", s)
		}
	}
}

func TestConflictingWorktree(t *testing.T) {
	t.Parallel() // see parallel_test.go
	base, core := newRepo(t)
	wt := filepath.Join(core, "worktrees", "core-keyvault-authmd-promotion-135")
	gitT(t, core, "worktree", "add", "-q", wt, "-b", "core-work-172-keyvault")
	// Idle in itself (no commits of its own, clean): only the configured
	// conflict blocks it.
	g := run(t, base, core)
	if g.GuardStatus != ledger.GuardPass {
		t.Fatalf("without conflicts: %s %v", g.GuardStatus, g.Checks)
	}
	for _, conflict := range []string{"CORE-WORK-172", "core/worktrees/core-keyvault-authmd-promotion-135", wt} {
		g = run(t, base, core, conflict)
		wantBlocked(t, g, CheckConflicts, ledger.CheckBlocked, ledger.ReasonConflict)
		if g.BlockedReason != ledger.ReasonConflict || g.NextAllowedAction != ledger.ActionWait {
			t.Errorf("%s: blocked_reason %s, next %s", conflict, g.BlockedReason, g.NextAllowedAction)
		}
	}
	g = run(t, base, core, "CORE-WORK-17", "other/worktrees/core-keyvault-authmd-promotion-135")
	if c := check(t, g, CheckConflicts); c.Status != ledger.CheckPass {
		t.Errorf("non-matching conflicts: %+v", c)
	}
	// A commit of its own makes the worktree active work, conflict or not.
	writeFile(t, filepath.Join(wt, "KEYVAULT.md"), "x\n")
	gitT(t, wt, "add", ".")
	gitT(t, wt, "commit", "-qm", "work")
	g = run(t, base, core)
	wantBlocked(t, g, CheckActive, ledger.CheckBlocked, ledger.ReasonConflict)
	if !g.Worktrees[1].Unmerged {
		t.Errorf("worktree not unmerged: %+v", g.Worktrees[1])
	}
}

func TestLocks(t *testing.T) {
	t.Parallel() // see parallel_test.go
	base, core := newRepo(t)
	wt := filepath.Join(base, "wt")
	gitT(t, core, "worktree", "add", "-q", wt, "-b", "feature")
	lock := filepath.Join(core, ".git", "index.lock")
	writeFile(t, lock, "")
	g := run(t, base, core)
	wantBlocked(t, g, CheckLocks, ledger.CheckBlocked, ledger.ReasonLock)
	if c := check(t, g, CheckLocks); !strings.Contains(c.Detail, "index.lock") {
		t.Errorf("detail %q", c.Detail)
	}
	os.Remove(lock)
	// The linked worktree's own index.lock.
	wlock := filepath.Join(core, ".git", "worktrees", "wt", "index.lock")
	writeFile(t, wlock, "")
	g = run(t, base, core)
	wantBlocked(t, g, CheckLocks, ledger.CheckBlocked, ledger.ReasonLock)
	os.Remove(wlock)
	// A rebase in progress.
	if err := os.Mkdir(filepath.Join(core, ".git", "worktrees", "wt", "rebase-merge"), 0o755); err != nil {
		t.Fatal(err)
	}
	g = run(t, base, core)
	wantBlocked(t, g, CheckLocks, ledger.CheckBlocked, ledger.ReasonOperation)
}

func TestProcessInside(t *testing.T) {
	t.Parallel() // see parallel_test.go
	base, core := newRepo(t)
	wt := filepath.Join(base, "wt")
	gitT(t, core, "worktree", "add", "-q", wt, "-b", "feature")
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("needs sleep")
	}
	// A process working in the linked worktree, with an argument that
	// must not reach the record: one no PID, time or count of the record
	// can spell ("3600" failed once: a PID held it).
	cwd := exec.Command("sleep", "3599.987654")
	cwd.Dir = wt
	start(t, cwd)
	g := run(t, base, core)
	wantBlocked(t, g, CheckProcesses, ledger.CheckBlocked, ledger.ReasonProcess)
	if len(g.Processes) != 1 || g.Processes[0].PID != cwd.Process.Pid || g.Processes[0].Command != "sleep" || g.Processes[0].Via != "cwd" || g.Processes[0].Worktree != wt {
		t.Fatalf("processes %+v", g.Processes)
	}
	assertNoContent(t, g, "3599.987654")
	stop(cwd)
	// A process holding a file of the repository open, working elsewhere.
	open := exec.Command("sh", "-c", "exec 3<README.md; cd /; exec sleep 3601")
	open.Dir = core
	start(t, open)
	deadline := time.Now().Add(5 * time.Second)
	for {
		g = run(t, base, core)
		if len(g.Processes) == 1 && g.Processes[0].Via == "open_file" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond) // until sh has exec'd sleep
	}
	wantBlocked(t, g, CheckProcesses, ledger.CheckBlocked, ledger.ReasonProcess)
	if len(g.Processes) != 1 || g.Processes[0].Via != "open_file" || g.Processes[0].Worktree != core {
		t.Fatalf("processes %+v", g.Processes)
	}
}

func start(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop(cmd) })
}

func stop(cmd *exec.Cmd) {
	if cmd.ProcessState == nil {
		cmd.Process.Kill()
		cmd.Wait()
	}
}

// TestUnreadable: a repository that cannot be read makes every check that
// needs it unknown, and the guard blocks. Running as root, permission
// cannot deny a read here, so the unreadable repositories are a path that
// is not a repository, a file where .git should be, and no path at all.
func TestUnreadable(t *testing.T) {
	t.Parallel() // see parallel_test.go
	needGit(t)
	base := t.TempDir()
	plain := filepath.Join(base, "plain")
	writeFile(t, filepath.Join(plain, "a.txt"), "a\n")
	broken := filepath.Join(base, "broken")
	writeFile(t, filepath.Join(broken, ".git"), "not a gitdir line\n")
	// A directory inside a repository is not that repository.
	_, core := newRepo(t)
	sub := filepath.Join(core, "src")
	writeFile(t, filepath.Join(sub, "a.go"), "package a\n")
	for _, repo := range []string{plain, broken, filepath.Join(base, "absent"), filepath.Join(plain, "a.txt"), sub} {
		t.Run(filepath.Base(repo), func(t *testing.T) {
			g := run(t, base, repo)
			wantBlocked(t, g, CheckWorktreeList, ledger.CheckUnknown, ledger.ReasonUnreadable)
			for _, c := range g.Checks {
				if c.Name != CheckConflicts && c.Name != CheckUnchanged && c.Status != ledger.CheckUnknown {
					t.Errorf("%s: %s, want unknown", c.Name, c.Status)
				}
			}
			if g.BlockedReason != ledger.ReasonUnreadable || g.NextAllowedAction != ledger.ActionRecheck {
				t.Errorf("blocked_reason %s, next %s", g.BlockedReason, g.NextAllowedAction)
			}
		})
	}
}

// TestNothingRuns: the repository's fsmonitor, filters, hooks and
// signature program never run, even with a file whose stat data changed
// (which makes git status compare its content).
func TestNothingRuns(t *testing.T) {
	t.Parallel() // see parallel_test.go
	base, core := newRepo(t)
	marker := filepath.Join(base, "ran")
	hook := filepath.Join(base, "hook.sh")
	writeFile(t, hook, "#!/bin/sh\necho \"$0 $*\" >> "+marker+"\ncat\n")
	os.Chmod(hook, 0o755)
	writeFile(t, filepath.Join(core, ".gitattributes"), "*.md filter=evil\n")
	gitT(t, core, "add", ".gitattributes")
	gitT(t, core, "commit", "-qm", "attrs")
	for k, v := range map[string]string{
		"core.fsmonitor": hook, "filter.evil.clean": hook, "filter.evil.smudge": hook, "filter.evil.process": hook,
		"filter.evil.required": "true", "core.hooksPath": base, "log.showSignature": "true", "gpg.program": hook,
	} {
		gitT(t, core, "config", k, v)
	}
	// Racily clean: same size, new mtime.
	future := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(core, "README.md"), future, future)
	g := run(t, base, core)
	if _, err := os.Stat(marker); err == nil {
		b, _ := os.ReadFile(marker)
		t.Fatalf("a program the repository names ran: %s", b)
	}
	if c := check(t, g, CheckMainStatus); c.Status != ledger.CheckPass {
		t.Errorf("main_status %+v", c)
	}
}

// TestUncertainProcesses uses a /proc whose entries cannot be read as
// links, as another user's processes cannot: the repository owner's make
// the check unknown, other users' are counted and do not block.
func TestUncertainProcesses(t *testing.T) {
	t.Parallel() // see parallel_test.go
	base, core := newRepo(t)
	proc := t.TempDir()
	writeFile(t, filepath.Join(proc, "4000000", "cwd"), "not a link")
	writeFile(t, filepath.Join(proc, "4000000", "comm"), "agent\n")
	owner, _ := ownerOf(proc)
	mk := func() *ledger.Guard {
		g, err := Run(Options{Repo: core, ProcDir: proc})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g := mk()
	wantBlocked(t, g, CheckProcesses, ledger.CheckUnknown, ledger.ReasonOwnershipUncertain)
	if g.NextAllowedAction != ledger.ActionRecheck {
		t.Errorf("next %s", g.NextAllowedAction)
	}
	if os.Geteuid() != 0 {
		t.Skip("handing the repository to another user needs root")
	}
	own(t, base)
	if o, _ := ownerOf(core); o == owner {
		t.Fatal("the repository's owner did not change")
	}
	g = mk()
	if c := check(t, g, CheckProcesses); c.Status != ledger.CheckPass || !strings.Contains(c.Detail, "1 process of other users") {
		t.Errorf("%+v", c)
	}
}

func TestParseConflict(t *testing.T) {
	t.Parallel() // see parallel_test.go
	for _, bad := range []string{"", " ", "/", "..", "../x", "a b", "id;rm"} {
		if _, err := ParseConflict(bad); err == nil {
			t.Errorf("ParseConflict(%q) accepted", bad)
		}
	}
	cases := []struct {
		conflict, path, branch string
		want                   bool
	}{
		{"CORE-WORK-172", "/r/w/x", "refs/heads/core-work-172-keyvault", true},
		{"CORE-WORK-172", "/r/w/x", "refs/heads/wip/CORE_WORK_172", true},
		{"CORE-WORK-172", "/r/w/core-work-172", "", true},
		{"CORE-WORK-172", "/r/w/x", "refs/heads/core-work-1720", false},
		{"CORE-WORK-172", "/r/w/x", "refs/heads/xcore-work-172", false},
		{"core/worktrees/s135", "/home/u/core/worktrees/s135", "", true},
		{"core/worktrees/s135", "/home/u/xcore/worktrees/s135", "", false},
		{"core/worktrees/s135", "/home/u/core/worktrees/s1350", "", false},
		{"/home/u/core/worktrees", "/home/u/core/worktrees/s135", "", true},
		{"/home/u/core/worktrees", "/home/u/core", "", false},
	}
	for _, c := range cases {
		cf, err := ParseConflict(c.conflict)
		if err != nil {
			t.Fatal(err)
		}
		if got := cf.Matches(c.path, c.branch); got != c.want {
			t.Errorf("%s matches %s on %q: %t, want %t", c.conflict, c.path, c.branch, got, c.want)
		}
	}
}

// TestChangedDuringGuard: a change made by someone else while the guard
// runs shows in the digests, and blocks.
func TestChangedDuringGuard(t *testing.T) {
	t.Parallel() // see parallel_test.go
	base, core := newRepo(t)
	own(t, base)
	for name, change := range map[string]func(){
		"status": func() { writeFile(t, filepath.Join(core, "new.txt"), "x\n") },
		"refs":   func() { gitT(t, core, "branch", "other") },
	} {
		t.Run(name, func(t *testing.T) {
			g, err := Run(Options{Repo: core, betweenSnapshots: change})
			if err != nil {
				t.Fatal(err)
			}
			if g.Unchanged || g.Before == g.After {
				t.Fatalf("the change was not seen: %+v %+v", g.Before, g.After)
			}
			wantBlocked(t, g, CheckUnchanged, ledger.CheckBlocked, ledger.ReasonChanged)
			if c := check(t, g, CheckUnchanged); !strings.Contains(c.Detail, name) {
				t.Errorf("detail %q does not name %s", c.Detail, name)
			}
		})
	}
}

// TestRecordNotInRepo: the record is never written inside the repository
// it vouches for.
func TestRecordNotInRepo(t *testing.T) {
	t.Parallel() // see parallel_test.go
	base, core := newRepo(t)
	g, err := Run(Options{Repo: core})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Write(filepath.Join(core, "runs"), g, nil); err == nil || !strings.Contains(err.Error(), "inside the repository") {
		t.Fatalf("written inside the repository: %v", err)
	}
	p, err := Write(filepath.Join(base, "runs"), g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p) != g.GuardID+".json" {
		t.Errorf("record at %s", p)
	}
	if _, err := Write(filepath.Join(base, "runs"), g, nil); err == nil {
		t.Error("a record was written twice")
	}
}

// TestBare: a bare repository has no main worktree to be dirty; its
// linked worktrees are checked as any.
func TestBare(t *testing.T) {
	t.Parallel() // see parallel_test.go
	base, core := newRepo(t)
	bare := filepath.Join(base, "core.git")
	gitT(t, base, "clone", "-q", "--bare", core, bare)
	wt := filepath.Join(base, "wt")
	gitT(t, bare, "worktree", "add", "-q", wt, "-b", "feature")
	g := run(t, base, bare)
	if g.GuardStatus != ledger.GuardPass || !g.Worktrees[0].Bare || len(g.Worktrees) != 2 {
		t.Fatalf("bare: %s %+v %+v", g.GuardStatus, g.Worktrees, g.Checks)
	}
	writeFile(t, filepath.Join(wt, "x"), "x")
	g = run(t, base, bare)
	wantBlocked(t, g, CheckActive, ledger.CheckBlocked, ledger.ReasonDirty)
}

// TestFilterAddedDuringGuard: a filter configured between the two
// snapshots is switched off for the second one too.
func TestFilterAddedDuringGuard(t *testing.T) {
	t.Parallel() // see parallel_test.go
	base, core := newRepo(t)
	marker := filepath.Join(base, "ran")
	hook := filepath.Join(base, "hook.sh")
	writeFile(t, hook, "#!/bin/sh\necho ran >> "+marker+"\ncat\n")
	os.Chmod(hook, 0o755)
	// Without the guard's overrides, git status runs the clean filter on
	// the file whose stat data changed (checked by hand with git 2.39).
	_, err := Run(Options{Repo: core, betweenSnapshots: func() {
		writeFile(t, filepath.Join(core, ".git", "info", "attributes"), "*.md filter=late\n")
		gitT(t, core, "config", "filter.late.clean", hook)
		future := time.Now().Add(time.Hour)
		os.Chtimes(filepath.Join(core, "README.md"), future, future)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a filter configured during the guard ran")
	}
}
