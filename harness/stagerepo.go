package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/internal/gitws"
	"github.com/svrnty/sotvet/harness/internal/proc"
	"github.com/svrnty/sotvet/harness/internal/tree"
	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/internal/stage"
)

// ladderState is what a staged run adds to a run.
type ladderState struct {
	ladder    Ladder
	stage     *stage.Stage
	repoAbs   string
	srcBefore *sourceState
	granted   *ledger.Approval
	shims     string // directory of forbidden-action shims, "" when none
	shimLog   string
	// workBranch is the new branch of stages 5 and 6.
	workBranch string
}

// SourceNonMutationFile is the source non-mutation proof artifact.
const SourceNonMutationFile = stage.ArtifactSourceNonMutation

// sourceState is what the source repository looks like at one moment.
type sourceState struct {
	head, branch, control string
	status                []string
}

func (r *run) sourceRepo() *gitws.Repo {
	return &gitws.Repo{Dir: r.repoAbs, Home: r.home, Tmp: r.tmp, Path: r.pathEnv()}
}

// snapshotSource reads the source's HEAD, branch, status and control files.
// It only reads: git runs with no optional locks.
func (r *run) snapshotSource() (*sourceState, error) {
	g := r.sourceRepo()
	head, err := g.Head()
	if err != nil {
		return nil, fmt.Errorf("HEAD of %s: %w", r.repoAbs, err)
	}
	br, _ := g.Run("symbolic-ref", "-q", "--short", "HEAD")
	st, err := g.Dirty()
	if err != nil {
		return nil, fmt.Errorf("git status of %s: %w", r.repoAbs, err)
	}
	ctl, err := g.SnapshotControl()
	if err != nil {
		return nil, fmt.Errorf("control files of %s: %w", r.repoAbs, err)
	}
	keys := make([]string, 0, len(ctl))
	for k := range ctl {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s %s\n", k, evidence.Digest(ctl[k]))
	}
	return &sourceState{head: head, branch: strings.TrimSpace(string(br)), control: evidence.Digest([]byte(b.String())), status: nonNil(st)}, nil
}

// materialize fills the workspace: the case's fixture, or for stages 3 to
// 6 the repository the stage's mutation mode names. The source is read,
// never written, except that stages 5 and 6 add a worktree on a new branch.
func (r *run) materialize() error {
	if err := r.installShims(); err != nil {
		return err
	}
	if r.stage == nil || !r.stage.NeedsRepo() {
		return tree.Copy(r.c.RepoPath(), r.ws)
	}
	before, err := r.snapshotSource()
	if err != nil {
		return err
	}
	r.srcBefore = before
	r.rep.SourceRepo = r.repoAbs
	r.tr("source.snapshot", map[string]any{"when": "before", "repo": r.repoAbs, "head": before.head, "branch": before.branch, "status": before.status, "control_sha256": before.control})
	g := r.sourceRepo()
	switch r.stage.MutationMode {
	case stage.ModeCopiedRepo:
		err = tree.Copy(r.repoAbs, r.ws)
	case stage.ModeDisposableClone:
		g.Dir = r.dir
		if _, err = g.Run("clone", "--quiet", "--no-hardlinks", "--", r.repoAbs, r.ws); err == nil {
			// The clone must not know where it came from: no remote to push to.
			_, err = (&gitws.Repo{Dir: r.ws, Home: r.home, Tmp: r.tmp, Path: r.pathEnv()}).Run("remote", "remove", "origin")
		}
	case stage.ModeOwnedWorktree, stage.ModeScopedWorktree:
		branch := "sotvet/" + r.rep.RunID
		if before.branch == branch {
			return fmt.Errorf("the checked-out branch is %s; a run never works on the checked-out branch", branch)
		}
		if _, err = g.Run("worktree", "add", "--quiet", "-b", branch, r.ws, "HEAD"); err == nil {
			r.workBranch = branch
		}
	default:
		err = fmt.Errorf("mutation mode %s has no repository workspace", r.stage.MutationMode)
	}
	if err == nil {
		r.tr("workspace.materialized", map[string]any{"mode": r.stage.MutationMode, "from": r.repoAbs, "to": r.ws, "work_branch": r.workBranch})
	}
	return err
}

// baseline commits the workspace as the run's starting point. A worktree
// of the owned repository (stages 5 and 6) is already a repository whose
// configuration is the source's own: git init there would rewrite it, so
// the baseline is only added and committed, on the run's new branch.
func (r *run) baseline() (string, error) {
	if r.workBranch == "" {
		return r.repo.Init()
	}
	local := r.repo.Local()
	if _, err := local.Run("add", "-A", "-f", "."); err != nil {
		return "", err
	}
	if _, err := local.Run("commit", "-q", "--no-verify", "--allow-empty", "-m", "sotvet harness baseline"); err != nil {
		return "", err
	}
	commit, err := local.Head()
	if err != nil {
		return "", err
	}
	return commit, r.repo.Adopt(commit)
}

// checkSource compares the source with its state before the run and
// writes the source non-mutation proof; any change fails the run closed.
func (r *run) checkSource() {
	if r.srcBefore == nil {
		return
	}
	after, err := r.snapshotSource()
	p := &evidence.SourceNonMutation{
		Repo: r.repoAbs, HeadBefore: r.srcBefore.head, BranchBefore: r.srcBefore.branch,
		StatusBefore: r.srcBefore.status, ControlBefore: r.srcBefore.control, StatusAfter: []string{}, WorkBranch: r.workBranch,
	}
	if err == nil {
		p.HeadAfter, p.BranchAfter, p.StatusAfter, p.ControlAfter = after.head, after.branch, after.status, after.control
		p.Unchanged = p.HeadBefore == p.HeadAfter && p.BranchBefore == p.BranchAfter &&
			slices.Equal(p.StatusBefore, p.StatusAfter) && p.ControlBefore == p.ControlAfter
	}
	r.rep.SourceNonMutation = p
	r.tr("source.snapshot", map[string]any{"when": "after", "repo": r.repoAbs, "unchanged": p.Unchanged, "error": errText(err)})
	if data, err := evidence.Marshal(p); err == nil {
		r.payload = append(r.payload, payloadFile{SourceNonMutationFile, data})
	}
	if !p.Unchanged {
		var what []string
		if err != nil {
			what = append(what, "the source could not be read back: "+err.Error())
		}
		if p.HeadBefore != p.HeadAfter {
			what = append(what, fmt.Sprintf("HEAD %s -> %s", p.HeadBefore, p.HeadAfter))
		}
		if p.BranchBefore != p.BranchAfter {
			what = append(what, fmt.Sprintf("branch %s -> %s", p.BranchBefore, p.BranchAfter))
		}
		if p.ControlBefore != p.ControlAfter {
			what = append(what, "git control files changed")
		}
		var paths []string
		if !slices.Equal(p.StatusBefore, p.StatusAfter) {
			what = append(what, "git status changed")
			paths = symmetricDiff(p.StatusBefore, p.StatusAfter)
		}
		r.block(evidence.SourceRepositoryMutated, "the source repository changed during the run: "+strings.Join(what, "; "), paths)
	}
}

func symmetricDiff(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

// shimmedGit are the git subcommands a staged run's backend may not run:
// everything that reaches or rewires a remote.
var shimmedGit = []string{"push", "remote", "fetch", "pull", "clone", "ls-remote", "send-email", "request-pull", "svn", "p4"}

// installShims writes the forbidden-action shims of a staged run: gh, and
// a git that refuses shimmedGit and runs the real git otherwise. An
// attempt is appended to the shim log and the command fails.
func (r *run) installShims() error {
	if r.stage == nil {
		return nil
	}
	dir := filepath.Join(r.tmp, "shims")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	r.shimLog = filepath.Join(r.tmp, "tmp", ".sotvet-forbidden-actions")
	realGit, err := proc.LookPath("git", r.pathEnv())
	if err != nil {
		realGit = "/usr/bin/git"
	}
	record := `{ printf '%s' "$0"; for a in "$@"; do printf '\037%s' "$a"; done; printf '\n'; } >>` + shQuote(r.shimLog)
	gitShim := "#!/bin/sh\n# sotvet harness: forbidden-action shim for git\nsub=\nskip=0\nfor a in \"$@\"; do\n" +
		"  if [ $skip = 1 ]; then skip=0; continue; fi\n" +
		"  case \"$a\" in\n    -C|-c|--git-dir|--work-tree|--namespace|--exec-path|--config-env) skip=1;;\n    -*) ;;\n    *) sub=$a; break;;\n  esac\ndone\n" +
		"case \"$sub\" in\n  " + strings.Join(shimmedGit, "|") + ")\n    " + record + "\n" +
		"    echo \"sotvet harness: forbidden action blocked: git $sub\" >&2\n    exit 1;;\nesac\nexec " + shQuote(realGit) + " \"$@\"\n"
	ghShim := "#!/bin/sh\n# sotvet harness: forbidden-action shim for gh\n" + record + "\necho \"sotvet harness: forbidden action blocked: gh $1\" >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(dir, "git"), []byte(gitShim), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "gh"), []byte(ghShim), 0o755); err != nil {
		return err
	}
	r.shims = dir
	r.tr("shims.installed", map[string]any{"dir": dir, "git": realGit, "refused_git": shimmedGit, "refused": []string{"gh"}})
	return nil
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// backendPath is the backend's PATH: the shims first in a staged run.
func (r *run) backendPath() string {
	if r.shims == "" {
		return r.pathEnv()
	}
	return r.shims + string(filepath.ListSeparator) + r.pathEnv()
}

// checkForbidden reads the shim log: any attempt blocks the run.
func (r *run) checkForbidden() {
	if r.shimLog == "" {
		return
	}
	data, err := os.ReadFile(r.shimLog)
	if err != nil {
		return
	}
	var cmds []string
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == "" {
			continue
		}
		f := strings.Split(line, "\x1f")
		f[0] = filepath.Base(f[0])
		cmd := f[0]
		if f[0] == "git" {
			for _, a := range f[1:] {
				if slices.Contains(shimmedGit, a) {
					cmd += " " + a
					break
				}
			}
		} else if len(f) > 1 {
			cmd += " " + f[1]
		}
		r.rep.ForbiddenActionsAttempted = append(r.rep.ForbiddenActionsAttempted, evidence.ForbiddenAction{Command: cmd, Argv: f})
		cmds = append(cmds, cmd)
	}
	if len(cmds) > 0 {
		r.tr("forbidden_actions.attempted", map[string]any{"commands": cmds})
		r.block(evidence.ForbiddenActionAttempted, "the backend tried forbidden actions: "+strings.Join(cmds, ", "), nil)
	}
}

// ladderChecks run once the backend is gone, before the run is judged.
func (r *run) ladderChecks() {
	r.checkForbidden()
	r.checkSource()
}
