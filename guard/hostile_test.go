package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/internal/safegit/safegittest"
)

// TestHostileRepositoryRunsNothing: every key of the repository's
// configuration that can name a program (filters, "=" in a filter's name
// included, process filters, fsmonitor, hooks and hooksPath, diff.external,
// textconv, sshCommand, credential helpers, gpg, pagers, a partial clone's
// fetch, the same again in config.worktree, an [include] and an
// [includeIf], and a submodule's own config) points at a marker. The guard
// runs through to a verdict, reads the state right, and the marker never
// runs. As root, the repository belongs to another user, as in the
// finding (safe.directory=* once let it run `id` as root).
func TestHostileRepositoryRunsNothing(t *testing.T) {
	t.Parallel() // see parallel_test.go
	h := safegittest.New(t)
	if os.Geteuid() == 0 {
		filepath.Walk(filepath.Dir(h.Dir), func(p string, _ os.FileInfo, _ error) error { return os.Lchown(p, otherUID, otherUID) })
	}
	for _, repo := range []string{h.Dir, h.Linked} {
		g, err := Run(Options{Repo: repo})
		if err != nil {
			t.Fatal(err)
		}
		if ran := h.Ran(); ran != "" {
			t.Fatalf("guard --repo %s ran the repository's programs:\n%s", repo, ran)
		}
		byName := map[string]ledger.GuardCheck{}
		for _, c := range g.Checks {
			byName[c.Name] = c
		}
		if c := byName[CheckWorktreeList]; c.Status != ledger.CheckPass || !strings.Contains(c.Detail, "2 worktrees") {
			t.Fatalf("worktree_list = %+v", c)
		}
		// b.md is staged and a.md only touched: the main worktree is
		// dirty by one entry, read without the clean filter.
		if c := byName[CheckMainStatus]; c.Reason != ledger.ReasonDirty || !strings.Contains(c.Detail, "1 uncommitted") {
			t.Fatalf("main_status = %+v", c)
		}
		if c := byName[CheckUnchanged]; c.Status != ledger.CheckPass {
			t.Fatalf("unchanged = %+v", c)
		}
		if g.Worktrees[1].Branch != "refs/heads/side" || g.Worktrees[1].Head != g.Worktrees[0].Head || g.Worktrees[1].State != "clean" {
			t.Fatalf("linked worktree = %+v", g.Worktrees[1])
		}
	}
}

// TestAssumeOutside (issue 32, point 9): a process of the repository's
// owner that cannot be inspected is named (pid, command, owner) and
// blocks; --assume-outside with its PID is the operator's decision, which
// lets the check pass and is carried by the record.
func TestAssumeOutside(t *testing.T) {
	t.Parallel() // see parallel_test.go
	_, core := newRepo(t)
	proc := t.TempDir()
	writeFile(t, filepath.Join(proc, "4000000", "cwd"), "not a link")
	writeFile(t, filepath.Join(proc, "4000000", "comm"), "init\n")
	g, err := Run(Options{Repo: core, ProcDir: proc})
	if err != nil {
		t.Fatal(err)
	}
	c := check(t, g, CheckProcesses)
	if c.Status != ledger.CheckUnknown || !strings.Contains(c.Detail, "init (pid 4000000, uid ") || !strings.Contains(c.Detail, "--assume-outside PID") {
		t.Fatalf("without a decision: %+v", c)
	}
	if len(g.Uninspected) != 1 || g.Uninspected[0].PID != 4000000 || g.Uninspected[0].AssumedOutside || len(g.AssumedOutside) != 0 {
		t.Fatalf("uninspected %+v assumed %v", g.Uninspected, g.AssumedOutside)
	}
	g, err = Run(Options{Repo: core, ProcDir: proc, AssumeOutside: []int{4000000, 4000000}})
	if err != nil {
		t.Fatal(err)
	}
	c = check(t, g, CheckProcesses)
	if c.Status != ledger.CheckPass || !strings.Contains(c.Detail, "assumed outside by the operator (--assume-outside): init (pid 4000000") {
		t.Fatalf("with the decision: %+v", c)
	}
	if len(g.AssumedOutside) != 1 || g.AssumedOutside[0] != 4000000 || !g.Uninspected[0].AssumedOutside {
		t.Fatalf("the record does not carry the decision: %+v %v", g.Uninspected, g.AssumedOutside)
	}
	// Another PID decides nothing about this one.
	g, _ = Run(Options{Repo: core, ProcDir: proc, AssumeOutside: []int{7}})
	if c := check(t, g, CheckProcesses); c.Status != ledger.CheckUnknown {
		t.Fatalf("an unrelated PID made the check pass: %+v", c)
	}
	if _, err := Run(Options{Repo: core, AssumeOutside: []int{0}}); err == nil {
		t.Fatal("--assume-outside 0 accepted")
	}
}
