package harness

import (
	"fmt"
	"strings"

	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/internal/tree"
)

// capture diffs the workspace against the baseline and checks the paths.
// With judge false the outcome is recorded but no blocker is added (the
// run has already stopped). It reports whether the run may go on.
func (r *run) capture(judge bool) bool {
	c := r.c
	patch, changes, err := r.repo.Capture(r.rep.Baseline.Commit)
	if err != nil {
		r.tr("git.diff.error", map[string]any{"error": err.Error()})
		if judge {
			r.block(evidence.DisallowedFileChange, "the change could not be captured: "+err.Error(), nil)
		}
		return false
	}
	r.patch = patch
	files := []string{}
	for _, ch := range changes {
		files = append(files, ch.Path)
	}
	r.rep.ChangedFiles = files
	vs, allowedOK, forbiddenOK := checkPaths(r.ws, files, c.AllowedWrites, c.ForbiddenPaths)
	r.rep.PathViolations = append(r.rep.PathViolations, vs...)
	if hidden := r.hiddenChanges(files); len(hidden) > 0 {
		allowedOK, forbiddenOK = false, false
		for _, p := range hidden {
			r.rep.PathViolations = append(r.rep.PathViolations, evidence.PathViolation{Path: p, Reason: "changed on disk but missing from git's diff (git's view of the workspace was tampered with)"})
		}
	}
	for _, v := range r.rep.PathViolations {
		if strings.HasPrefix(v.Path, ".git/") {
			forbiddenOK = false
		}
	}
	r.rep.AllowedWritesPassed, r.rep.ForbiddenPathsPassed = allowedOK, forbiddenOK
	r.tr("paths.checked", map[string]any{"changed_files": files, "violations": len(r.rep.PathViolations)})
	var bad []string
	for _, v := range r.rep.PathViolations {
		bad = append(bad, v.Path)
	}
	r.event("git.diff.checked", "harness", map[string]any{
		"changed_files": files, "diff_empty": len(files) == 0, "patch_sha256": evidence.Digest(patch),
		"allowed_writes_passed": allowedOK, "forbidden_paths_passed": forbiddenOK, "violations": nonNil(bad),
	})
	if !judge {
		return false
	}
	if len(files) == 0 && c.RequireDiff {
		r.block(evidence.NoDiff, "the backend reported success but the workspace has no change against the baseline", nil)
		r.rep.Verification.Skipped = "no diff to verify"
		fmt.Fprintln(&r.testLog, "verification not run: no diff against the baseline")
		return false
	}
	if len(bad) > 0 {
		r.block(evidence.DisallowedFileChange, "the backend changed paths the contract does not allow", bad)
		r.rep.Verification.Skipped = "disallowed changes are not verified"
		fmt.Fprintln(&r.testLog, "verification not run: the change touches disallowed paths")
		return false
	}
	return true
}

// endCheck is the clean-end check: the tree must be as the backend left
// it — verification must not have changed it and no late writer may have.
func (r *run) endCheck() {
	if r.postBackend == nil {
		return
	}
	end, err := tree.Of(r.ws)
	if err != nil {
		r.tr("clean_end.error", map[string]any{"error": err.Error()})
		return
	}
	dirty := tree.Diff(r.postBackend, end)
	r.rep.Ending = evidence.Ending{TreeDigest: end.Sum, Checked: true, Clean: len(dirty) == 0, DirtyPaths: nonNil(dirty)}
	r.tr("clean_end.checked", map[string]any{"clean": len(dirty) == 0, "dirty_paths": nonNil(dirty), "required": r.c.CleanEnd, "tree_sha256": end.Sum})
	if len(dirty) > 0 && r.c.CleanEnd {
		r.block(evidence.DirtyEndingTree, "the tree changed after the backend's change was captured", dirty)
	}
}

// hiddenChanges cross-checks git's changed files against the harness's own
// digests of the tree before and after the backend: the repository
// metadata lies in the backend's writable tree (refs, objects, grafts), so
// git's answer alone could be rewritten. A path whose digest changed and
// that git does not list is returned.
func (r *run) hiddenChanges(files []string) []string {
	if r.baseTree == nil || r.postBackend == nil {
		return nil
	}
	listed := map[string]bool{}
	for _, f := range files {
		listed[f] = true
	}
	var hidden []string
	for _, p := range tree.Diff(r.baseTree, r.postBackend) {
		if !listed[p] && !r.laneState(p) {
			hidden = append(hidden, p)
		}
	}
	if len(hidden) > 0 {
		r.tr("git.diff.cross_checked", map[string]any{"hidden": hidden})
	}
	return hidden
}

// laneState reports whether p lies in a lane's own state directory (Case's
// .case/), which the capture leaves out on purpose.
func (r *run) laneState(p string) bool {
	for _, d := range r.repo.Exclude {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}
