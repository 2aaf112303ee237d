package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/internal/gitws"
	"github.com/svrnty/sotvet/harness/internal/tree"
)

func (r *run) prepareWorkspace() bool {
	c := r.c
	// The harness's own repository lives outside the workspace (and
	// outside what a confined backend may write).
	r.repo = &gitws.Repo{Dir: r.ws, Home: r.home, Tmp: r.tmp, Path: r.pathEnv(), GitDir: filepath.Join(r.tmp, "baseline.git")}
	fail := func(step string, err error) bool {
		r.tr("workspace.error", map[string]any{"step": step, "error": err.Error()})
		r.event("task.contract.created", "harness", r.contractData())
		r.block(r.workspaceBlocker(), fmt.Sprintf("workspace %s failed: %v", step, err), nil)
		r.notApplicable("workspace could not be prepared")
		fmt.Fprintf(&r.testLog, "verification not run: workspace %s failed\n", step)
		return false
	}
	if err := r.materialize(); err != nil {
		return fail("copy", err)
	}
	r.tr("workspace.copied", map[string]any{"from": r.workspaceSource(), "to": r.ws})
	commit, err := r.baseline()
	if err != nil {
		return fail("git init", err)
	}
	base, err := tree.Of(r.ws)
	if err != nil {
		return fail("digest", err)
	}
	r.rep.Baseline.Commit, r.rep.Baseline.TreeDigest = commit, base.Sum
	r.baseTree = base
	r.tr("git.baseline", map[string]any{"commit": commit, "tree_sha256": base.Sum, "files": len(base.Entries)})

	if r.fx != nil && r.fx.inject.dirtyStart {
		// Something dirties the copy between the baseline and the start.
		_ = os.WriteFile(filepath.Join(r.ws, DirtyStartFile), []byte("left in the workspace before the backend started\n"), 0o644)
	}
	dirty, err := r.repo.Dirty()
	if err != nil {
		return fail("git status", err)
	}
	r.rep.Baseline.Checked = true
	r.rep.Baseline.Clean = len(dirty) == 0
	r.rep.Baseline.DirtyPaths = nonNil(dirty)
	r.tr("clean_start.checked", map[string]any{"clean": len(dirty) == 0, "dirty_paths": nonNil(dirty), "required": c.CleanStart})
	data := r.contractData()
	data["baseline_commit"] = commit
	data["baseline_tree_sha256"] = base.Sum
	data["clean_start"] = len(dirty) == 0
	data["dirty_paths"] = nonNil(dirty)
	r.event("task.contract.created", "harness", data)
	if len(dirty) > 0 && c.CleanStart {
		r.block(evidence.DirtyStartingTree, "the workspace was dirty before the backend started", dirty)
		r.notApplicable("blocked before the backend started: " + evidence.DirtyStartingTree)
		fmt.Fprintf(&r.testLog, "verification not run: the starting tree was dirty: %s\n", strings.Join(dirty, ", "))
		return false
	}
	return true
}
