// Package guard runs the workspace's Core Route Admission Guard against
// another repository, read-only: the worktree list with each worktree's
// branch, HEAD, dirty state and last commit time; the main worktree's
// status; lock files and operations in progress; processes working inside
// the repository; the configured conflicts. Each check passes, blocks
// with a reason code, or is unknown (it could not be made), and unknown
// blocks too: ownership uncertainty blocks action. The result is a
// ledger.Guard record with the Route State facts and digests of the
// repository's refs, index, worktrees and status taken before and after,
// proving the guard changed nothing. It never reads the content of a
// file of the repository: only git's own metadata, through git.
package guard

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/internal/safegit"
)

// Check names, in the order a record lists them.
const (
	CheckWorktreeList = "worktree_list"
	CheckMainStatus   = "main_status"
	CheckActive       = "active_worktrees"
	CheckLocks        = "locks"
	CheckProcesses    = "validation_processes"
	CheckConflicts    = "conflicts"
	CheckUnchanged    = "unchanged"
)

// Options configure Run.
type Options struct {
	// Repo is the repository to check: its main worktree or any linked
	// one, or a bare repository.
	Repo string
	// Conflicts are worktrees that must not be active: a path (anything
	// with a "/") or a work id (see Conflict).
	Conflicts []string
	// AssumeOutside are PIDs the operator declares to work outside the
	// repository (--assume-outside): processes the guard cannot inspect
	// (a VM's PID 1) that would otherwise block. The record carries them.
	AssumeOutside []int
	// ProcDir is /proc; tests may point it elsewhere.
	ProcDir string
	// Now is the clock; default time.Now.
	Now func() time.Time

	// betweenSnapshots runs after the checks, before the second snapshot:
	// the tests change the repository there.
	betweenSnapshots func()
}

// Run runs every check and returns the record, not yet sealed. It fails
// only when the options are unusable; a repository that cannot be read
// gives a record whose checks are unknown.
func Run(opt Options) (*ledger.Guard, error) {
	if opt.Repo == "" {
		return nil, errors.New("guard: no repository given")
	}
	if opt.ProcDir == "" {
		opt.ProcDir = "/proc"
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	repo, err := filepath.Abs(opt.Repo)
	if err != nil {
		return nil, err
	}
	if r, err := filepath.EvalSymlinks(repo); err == nil {
		repo = r
	}
	conflicts := make([]Conflict, 0, len(opt.Conflicts))
	for _, c := range opt.Conflicts {
		cf, err := ParseConflict(c)
		if err != nil {
			return nil, err
		}
		conflicts = append(conflicts, cf)
	}
	for _, pid := range opt.AssumeOutside {
		if pid <= 0 {
			return nil, fmt.Errorf("guard: --assume-outside %d is not a process id", pid)
		}
	}
	assume := slices.Sorted(slices.Values(opt.AssumeOutside))
	assume = slices.Compact(assume)
	started := opt.Now().UTC()
	id, err := ledger.NewGuardID(started)
	if err != nil {
		return nil, err
	}
	g := &ledger.Guard{
		SchemaVersion: ledger.SchemaVersion,
		GuardID:       id,
		Repo:          repo,
		Conflicts:     append([]string{}, opt.Conflicts...),
		StartedAt:     started.Format(time.RFC3339Nano),
		Worktrees:     []ledger.GuardWorktree{},
		Processes:     []ledger.GuardProcess{},
	}
	before := observe(repo)
	defer before.close()
	c := &checker{s: before, conflicts: conflicts, assume: assume}
	c.worktrees()
	c.mainStatus()
	c.active()
	c.locks()
	c.processes(opt.ProcDir)
	c.conflictCheck()
	if opt.betweenSnapshots != nil {
		opt.betweenSnapshots()
	}
	// Observed again the same way, readable or not: a repository that
	// turned readable, or changed, in between shows in the digests.
	after := observe(repo)
	after.close()
	g.Before, g.After = before.digests, after.digests
	g.Unchanged = before.digests == after.digests
	if g.Unchanged {
		c.add(CheckUnchanged, ledger.CheckPass, "", "refs, index, worktrees and status digests are the same before and after")
	} else {
		c.add(CheckUnchanged, ledger.CheckBlocked, ledger.ReasonChanged, "the repository changed while the guard ran: "+strings.Join(changed(before.digests, after.digests), ", "))
	}
	g.Checks, g.Worktrees, g.Processes = c.checks, c.wts, c.procs
	g.Uninspected, g.AssumedOutside = c.uninspected, assume
	if g.Worktrees == nil {
		g.Worktrees = []ledger.GuardWorktree{}
	}
	if g.Processes == nil {
		g.Processes = []ledger.GuardProcess{}
	}
	g.SetVerdict()
	g.FinishedAt = opt.Now().UTC().Format(time.RFC3339Nano)
	return g, nil
}

// observe snapshots the repository, or records why it cannot be read.
// Close the state when done with it: it holds the shadow git runs in.
func observe(repo string) *state {
	fail := func(err error) *state {
		s := &state{err: err}
		s.digest()
		return s
	}
	if info, err := os.Stat(repo); err != nil || !info.IsDir() {
		return fail(fmt.Errorf("%s is not a directory", repo))
	}
	r, err := safegit.Open(repo, safegit.Options{Exact: true})
	if err != nil {
		return fail(err)
	}
	s := snapshot(r)
	s.repo = r
	return s
}

// changed names the digests that differ.
func changed(a, b ledger.GuardDigests) []string {
	var out []string
	if a.Refs != b.Refs {
		out = append(out, "refs")
	}
	if a.Index != b.Index {
		out = append(out, "index")
	}
	if a.Worktrees != b.Worktrees {
		out = append(out, "worktrees")
	}
	if a.Status != b.Status {
		out = append(out, "status")
	}
	return out
}

// Write seals g (signing it when key is set) and writes it as
// RUNS/guards/<guard-id>.json, failing if that file exists. It returns
// the path.
//
// The record never lands in the repository it vouches for, nor in its
// git directory, however the path is spelt: the runs root is resolved
// through every link of the part that exists (so --out LINK/new-dir is
// judged where LINK leads), guards/ must be a real directory, and the
// file is created under an os.Root of the runs root, which no link can
// leave.
func Write(runsRoot string, g *ledger.Guard, key ed25519.PrivateKey) (string, error) {
	abs, err := filepath.Abs(runsRoot)
	if err != nil {
		return "", err
	}
	real, err := resolveExisting(abs)
	if err != nil {
		return "", err
	}
	forbidden := []string{g.Repo}
	if r, err := safegit.Find(g.Repo, safegit.Options{Exact: true}); err == nil {
		forbidden = append(forbidden, r.GitDir, r.Common)
	}
	for _, w := range g.Worktrees {
		forbidden = append(forbidden, w.Path)
	}
	for _, d := range forbidden {
		if d == "" {
			continue
		}
		if rd, err := filepath.EvalSymlinks(d); err == nil {
			d = rd
		}
		if real == d || strings.HasPrefix(real, d+string(filepath.Separator)) {
			return "", fmt.Errorf("the runs root %s is inside the repository the guard checked (%s): writing the record would change it", runsRoot, d)
		}
	}
	data, err := ledger.Marshal(g, key)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(real, 0o755); err != nil {
		return "", err
	}
	root, err := os.OpenRoot(real)
	if err != nil {
		return "", err
	}
	defer root.Close()
	if err := root.Mkdir(ledger.GuardsDir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	if info, err := root.Lstat(ledger.GuardsDir); err != nil {
		return "", err
	} else if !info.IsDir() {
		return "", fmt.Errorf("%s is not a directory (a link is refused: the record would land where it leads)", filepath.Join(runsRoot, ledger.GuardsDir))
	}
	name := filepath.Join(ledger.GuardsDir, g.GuardID+".json")
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		root.Remove(name)
		return "", err
	}
	return ledger.GuardPath(runsRoot, g.GuardID), nil
}

// resolveExisting resolves the links of the longest part of abs that
// exists and appends the rest, which Write then creates as directories.
func resolveExisting(abs string) (string, error) {
	var rest []string
	p := filepath.Clean(abs)
	for {
		if _, err := os.Lstat(p); err == nil {
			r, err := filepath.EvalSymlinks(p)
			if err != nil {
				return "", err
			}
			for i := len(rest) - 1; i >= 0; i-- {
				r = filepath.Join(r, rest[i])
			}
			return r, nil
		}
		parent := filepath.Dir(p)
		if parent == p {
			return abs, nil
		}
		rest = append(rest, filepath.Base(p))
		p = parent
	}
}
