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
