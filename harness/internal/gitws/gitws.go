// Package gitws drives git in a harness workspace: init, the baseline
// commit, status and the change capture. Git runs with no system or global
// configuration, no hooks, no fsmonitor, no external diff or textconv,
// fixed identities and dates, and a private HOME.
package gitws

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness/internal/tree"
)

// Repo is a workspace under git.
type Repo struct {
	Dir  string // the work tree
	Home string // HOME for git: a private, empty directory
	Tmp  string // scratch directory for temporary index files
	Path string // PATH for git
	// Exclude are top-level directories Capture leaves out: a lane's own
	// state (Case's .case/), which is not the backend's change.
	Exclude []string
	// GitDir, when set, is the harness's own repository of the work tree,
	// outside it: Init commits the baseline there too, and Head, Dirty and
	// Capture read it, never the work tree's .git, which the backend can
	// write (refs, replace objects, loose objects, config).
	GitDir string
}

// BaselineDate makes baseline commits reproducible.
const BaselineDate = "2000-01-01T00:00:00Z"

var configArgs = []string{
	"-c", "core.hooksPath=/dev/null",
	"-c", "core.fsmonitor=false",
	"-c", "core.autocrlf=false",
	"-c", "core.symlinks=true",
	"-c", "commit.gpgsign=false",
	"-c", "user.name=sotvet harness",
	"-c", "user.email=harness@sotvet.invalid",
	"-c", "init.defaultBranch=main",
	"-c", "safe.directory=*",
	// A commit or fetch would start "git maintenance run --auto" (another
	// git process, every time) for a repository that lives one run.
	"-c", "maintenance.auto=false",
	"-c", "gc.auto=0",
}

func (r *Repo) env(extra ...string) []string {
	env := []string{
		"PATH=" + r.Path,
		"HOME=" + r.Home,
		"LANG=C",
		"LC_ALL=C",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_OPTIONAL_LOCKS=0",
		// refs/replace/ is in the backend's writable tree: a replace ref
		// for the baseline would hide a change from every diff.
		"GIT_NO_REPLACE_OBJECTS=1",
		"GIT_AUTHOR_DATE=" + BaselineDate,
		"GIT_COMMITTER_DATE=" + BaselineDate,
	}
	return append(env, extra...)
}

// Run runs git with args in the work tree.
func (r *Repo) Run(args ...string) ([]byte, error) { return r.run(nil, args...) }

func (r *Repo) run(extraEnv []string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append(append(append([]string{}, configArgs...), r.location()...), args...)...)
	cmd.Dir = r.Dir
	cmd.Env = r.env(extraEnv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = strings.TrimSpace(out.String())
		}
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, msg)
	}
	return out.Bytes(), nil
}

// location is where git finds the repository: the harness's own GitDir
// when set, else the work tree's .git.
func (r *Repo) location() []string {
	if r.GitDir == "" {
		return nil
	}
	return []string{"--git-dir=" + r.GitDir, "--work-tree=" + r.Dir}
}

// Init makes the work tree a repository with no template (so no sample
// hooks) and commits everything as the baseline; with GitDir set, the
// harness's own repository gets that commit too. It returns the commit.
func (r *Repo) Init() (string, error) {
	_, err := os.Lstat(filepath.Join(r.Dir, ".git"))
	fresh := errors.Is(err, fs.ErrNotExist)
	commit, err := r.Local().initCommit()
	if err != nil || r.GitDir == "" {
		return commit, err
	}
	if !fresh {
		// A clone's baseline has parents: adopted whole.
		return commit, r.Adopt(commit)
	}
	// A new repository's git directory was made by the harness a moment
	// ago, before any backend ran: the harness's own repository is a copy
	// of it (its objects, index, HEAD and refs), with no git process.
	// Committing the same tree again there took four (init, add, commit,
	// rev-parse), a fetch from the work tree's repository five.
	if err := tree.Copy(filepath.Join(r.Dir, ".git"), r.GitDir); err != nil {
		return "", fmt.Errorf("copying the baseline repository: %w", err)
	}
	g, err := r.mainHead()
	if err != nil {
		return "", err
	}
	if g != commit {
		return "", fmt.Errorf("the baseline commits differ: %s in the workspace, %s in the harness's repository", commit, g)
	}
	return commit, nil
}

// Local is r working on the work tree's own repository, whatever GitDir
// says: for the steps that build the baseline before any backend runs.
func (r *Repo) Local() *Repo {
	local := *r
	local.GitDir = ""
	return &local
}

// Adopt makes GitDir the harness's own repository of the work tree at
// commit, fetched from the work tree's repository before the backend
// starts: whatever the backend later writes into the work tree's .git
// (refs, replace objects, loose objects, config) does not change what the
// harness sees. A cloned or worktree baseline, whose commit has parents,
// is adopted whole. Without GitDir it does nothing.
func (r *Repo) Adopt(commit string) error {
	if r.GitDir == "" {
		return nil
	}
	if _, err := r.Run("init", "-q", "--template=", "-b", "main"); err != nil {
		return err
	}
	const ref = "refs/sotvet/baseline"
	if _, err := r.Run("fetch", "-q", "--no-tags", "--no-write-fetch-head", "--", r.Dir, "+HEAD:"+ref); err != nil {
		return err
	}
	got, err := r.Run("rev-parse", "--verify", "--end-of-options", ref+"^{commit}")
	if err != nil {
		return err
	}
	if g := strings.TrimSpace(string(got)); g != commit {
		return fmt.Errorf("the baseline commits differ: %s in the workspace, %s in the harness's repository", commit, g)
	}
	if _, err := r.Run("update-ref", "refs/heads/main", commit); err != nil {
		return err
	}
	_, err = r.Run("read-tree", commit)
	return err
}

func (r *Repo) initCommit() (string, error) {
	if _, err := r.Run("init", "-q", "--template=", "-b", "main"); err != nil {
		return "", err
	}
	if _, err := r.Run("add", "-A", "-f", "."); err != nil {
		return "", err
	}
	if _, err := r.Run("commit", "-q", "--no-verify", "--allow-empty", "-m", "sotvet harness baseline"); err != nil {
		return "", err
	}
	return r.mainHead()
}

// mainHead returns HEAD's commit in the repository git has just made and
// committed to, nothing else having run: the loose ref of main when HEAD
// is main (a clone's HEAD may be another branch, and its main another
// commit), else git's word (refs stored otherwise).
func (r *Repo) mainHead() (string, error) {
	gitDir := r.GitDir
	if gitDir == "" {
		gitDir = filepath.Join(r.Dir, ".git")
	}
	if head, err := os.ReadFile(filepath.Join(gitDir, "HEAD")); err != nil || string(head) != "ref: refs/heads/main\n" {
		return r.Head()
	}
	ref, err := os.ReadFile(filepath.Join(gitDir, "refs", "heads", "main"))
	if id := strings.TrimSpace(string(ref)); err == nil && len(id) >= 40 && strings.Trim(id, "0123456789abcdef") == "" {
		return id, nil
	}
	return r.Head()
}

// Head returns HEAD's commit.
func (r *Repo) Head() (string, error) {
	out, err := r.Run("rev-parse", "HEAD")
	return strings.TrimSpace(string(out)), err
}

// Dirty lists the paths git status reports: modified, staged, untracked
// and ignored, sorted.
func (r *Repo) Dirty() ([]string, error) {
	out, err := r.Run("status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=matching")
	if err != nil {
		return nil, err
	}
	var paths []string
	recs := strings.Split(string(out), "\x00")
	for i := 0; i < len(recs); i++ {
		rec := recs[i]
		if len(rec) < 4 {
			continue
		}
		paths = append(paths, rec[3:])
		if rec[0] == 'R' || rec[0] == 'C' {
			i++ // the rename's source follows
		}
	}
	sort.Strings(paths)
	return paths, nil
}

// Change is one path changed against the baseline.
type Change struct {
	Status string // A, M, D, T
	Path   string
}

// Capture stages the whole work tree — committed, uncommitted, untracked
// and ignored files alike — into a private index and diffs it against
// baseline. The repository's own index and the work tree are untouched.
func (r *Repo) Capture(baseline string) (patch []byte, changes []Change, err error) {
	idx := filepath.Join(r.Tmp, fmt.Sprintf("capture-%d.index", time.Now().UnixNano()))
	defer os.Remove(idx)
	env := []string{"GIT_INDEX_FILE=" + idx}
	add := []string{"add", "-A", "-f", "--", "."}
	for _, d := range r.Exclude {
		add = append(add, ":(exclude,top)"+d)
	}
	if _, err := r.run(env, add...); err != nil {
		return nil, nil, err
	}
	patch, err = r.run(env, "diff", "--cached", "--binary", "--no-renames", "--no-ext-diff", "--no-textconv", "--full-index", baseline, "--")
	if err != nil {
		return nil, nil, err
	}
	out, err := r.run(env, "diff", "--cached", "--name-status", "-z", "--no-renames", baseline, "--")
	if err != nil {
		return nil, nil, err
	}
	f := strings.Split(string(out), "\x00")
	for i := 0; i+1 < len(f); i += 2 {
		if f[i] == "" {
			break
		}
		changes = append(changes, Change{Status: f[i][:1], Path: f[i+1]})
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	return patch, changes, nil
}

// Control is a snapshot of the repository's control files — the ones
// that could make a later git command run code: config, info/ and hooks/.
type Control map[string][]byte

// SnapshotControl reads the control files.
func (r *Repo) SnapshotControl() (Control, error) {
	c := Control{}
	gitDir := filepath.Join(r.Dir, ".git")
	for _, name := range []string{"config", "info", "hooks", "commondir", "objects/info/alternates"} {
		root := filepath.Join(gitDir, filepath.FromSlash(name))
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			rel, _ := filepath.Rel(r.Dir, p)
			rel = filepath.ToSlash(rel)
			switch {
			case d.IsDir():
				return nil
			case d.Type()&fs.ModeSymlink != 0:
				t, _ := os.Readlink(p)
				c[rel] = []byte("symlink:" + t)
			default:
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				c[rel] = data
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return c, nil
}

// RestoreControl compares the control files with snap, puts back the
// snapshot, and returns the paths that had changed, sorted.
func (r *Repo) RestoreControl(snap Control) ([]string, error) {
	now, err := r.SnapshotControl()
	if err != nil {
		return nil, err
	}
	var changed []string
	for p, data := range now {
		if old, ok := snap[p]; !ok || !bytes.Equal(old, data) {
			changed = append(changed, p)
		}
	}
	for p := range snap {
		if _, ok := now[p]; !ok {
			changed = append(changed, p)
		}
	}
	sort.Strings(changed)
	for _, p := range changed {
		abs := filepath.Join(r.Dir, filepath.FromSlash(p))
		if err := os.RemoveAll(abs); err != nil {
			return changed, err
		}
		if old, ok := snap[p]; ok {
			if strings.HasPrefix(string(old), "symlink:") {
				continue // never recreate links the harness did not make
			}
			if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
				return changed, err
			}
			if err := os.WriteFile(abs, old, 0o644); err != nil {
				return changed, err
			}
		}
	}
	return changed, nil
}
