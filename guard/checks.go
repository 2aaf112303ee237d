package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/svrnty/sotvet/harness/ledger"
)

// checker runs the checks on one snapshot of the repository.
type checker struct {
	assume      []int // --assume-outside: the operator's decision
	uninspected []ledger.GuardUninspected
	s           *state
	conflicts   []Conflict
	checks      []ledger.GuardCheck
	wts         []ledger.GuardWorktree
	procs       []ledger.GuardProcess
}

// git is the runner in the repository's common directory.
func (c *checker) git() *git { return &git{c.s.repo} }

func (c *checker) add(name, status, reason, detail string) {
	c.checks = append(c.checks, ledger.GuardCheck{Name: name, Status: status, Reason: reason, Detail: detail})
}

// unreadable marks a check that needs the repository as unknown.
func (c *checker) unreadable(name string) bool {
	if c.s.err == nil {
		return false
	}
	c.add(name, ledger.CheckUnknown, ledger.ReasonUnreadable, "the repository could not be read")
	return true
}

// worktrees lists the worktrees with their state, unmerged work and last
// commit time.
func (c *checker) worktrees() {
	if c.s.err != nil {
		c.add(CheckWorktreeList, ledger.CheckUnknown, ledger.ReasonUnreadable, oneLine(c.s.err.Error()))
		return
	}
	mainHead := c.s.worktrees[0].head
	times := c.commitTimes()
	var wg sync.WaitGroup
	c.wts = make([]ledger.GuardWorktree, len(c.s.worktrees))
	for i, w := range c.s.worktrees {
		gw := &c.wts[i]
		*gw = ledger.GuardWorktree{Path: w.path, Main: i == 0, Branch: w.branch, Head: w.head, Bare: w.bare,
			Locked: w.locked, Prunable: w.prunable, LastCommitAt: times[w.head]}
		st := c.s.status[i]
		switch {
		case w.bare || w.prunable:
			gw.State = "clean" // nothing checked out: nothing to be dirty
		case st.err != nil:
			gw.State = "unknown"
		case st.changes > 0:
			gw.State, gw.Changes = "dirty", st.changes
		default:
			gw.State = "clean"
		}
		if i > 0 && w.head != "" && mainHead != "" && w.head != mainHead {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Commits HEAD has that the main worktree's HEAD lacks.
				out, err := c.git().run("rev-list", "-n", "1", w.head, "--not", mainHead, "--")
				if err != nil {
					gw.State = "unknown" // its HEAD cannot be compared: fail closed
					return
				}
				gw.Unmerged = strings.TrimSpace(string(out)) != ""
			}()
		}
	}
	wg.Wait()
	c.add(CheckWorktreeList, ledger.CheckPass, "", plural(len(c.wts), "worktree", "worktrees"))
}

// commitTimes reads the committer date of every worktree's HEAD in one
// git call.
func (c *checker) commitTimes() map[string]string {
	m := map[string]string{}
	var heads []string
	for _, w := range c.s.worktrees {
		if w.head != "" && !slices.Contains(heads, w.head) {
			heads = append(heads, w.head)
		}
	}
	if len(heads) == 0 {
		return m
	}
	args := append([]string{"log", "--no-walk=unsorted", "--format=%H %cI"}, heads...)
	out, err := c.git().run(append(args, "--")...)
	if err != nil {
		return m
	}
	for _, line := range strings.Split(string(out), "\n") {
		if h, t, ok := strings.Cut(line, " "); ok {
			m[h] = t
		}
	}
	return m
}

// mainStatus: the main worktree is clean.
func (c *checker) mainStatus() {
	if c.unreadable(CheckMainStatus) {
		return
	}
	w := c.wts[0]
	if w.Bare {
		c.add(CheckMainStatus, ledger.CheckPass, "", "bare repository "+w.Path+": no main worktree to be dirty")
		return
	}
	where := "main worktree " + w.Path + " on " + branchName(w.Branch)
	switch w.State {
	case "unknown":
		c.add(CheckMainStatus, ledger.CheckUnknown, ledger.ReasonUnreadable, where+": git could not read its state")
	case "dirty":
		c.add(CheckMainStatus, ledger.CheckBlocked, ledger.ReasonDirty, where+": "+plural(w.Changes, "uncommitted or untracked entry", "uncommitted or untracked entries"))
	default:
		c.add(CheckMainStatus, ledger.CheckPass, "", where+": clean")
	}
}

// active: no linked worktree holds work — uncommitted changes, commits
// the main worktree lacks, or a lock.
func (c *checker) active() {
	if c.unreadable(CheckActive) {
		return
	}
	var unknown, active, dirty []string
	for _, w := range c.wts[1:] {
		name := w.Path + " (" + branchName(w.Branch) + ")"
		switch {
		case w.Prunable:
			continue // its directory is gone: git's record is stale
		case w.State == "unknown":
			unknown = append(unknown, name)
		case w.State == "dirty":
			dirty = append(dirty, name+": "+plural(w.Changes, "entry", "entries"))
		}
		switch {
		case w.Locked:
			active = append(active, name+": locked")
		case w.Unmerged:
			active = append(active, name+": commits not in the main worktree's HEAD")
		}
	}
	n := len(c.wts) - 1
	switch {
	case len(active) > 0:
		c.add(CheckActive, ledger.CheckBlocked, ledger.ReasonConflict, strings.Join(append(active, dirty...), "; "))
	case len(dirty) > 0:
		c.add(CheckActive, ledger.CheckBlocked, ledger.ReasonDirty, strings.Join(dirty, "; "))
	case len(unknown) > 0:
		c.add(CheckActive, ledger.CheckUnknown, ledger.ReasonUnreadable, "git could not read the state of "+strings.Join(unknown, "; "))
	default:
		c.add(CheckActive, ledger.CheckPass, "", plural(n, "linked worktree", "linked worktrees")+", none dirty, locked or ahead of the main worktree")
	}
}

// lockFiles are the lock files git leaves while it writes; operations
// are the markers of a merge, rebase, cherry-pick, revert or bisect.
var (
	lockFiles  = []string{"index.lock", "HEAD.lock", "ORIG_HEAD.lock", "config.lock", "packed-refs.lock", "shallow.lock"}
	operations = []string{"MERGE_HEAD", "rebase-merge", "rebase-apply", "CHERRY_PICK_HEAD", "REVERT_HEAD", "BISECT_LOG", "sequencer"}
)

// locks: no lock file and no operation in progress in any worktree's git
// directory, nor a ref lock under refs/.
func (c *checker) locks() {
	if c.unreadable(CheckLocks) {
		return
	}
	var locks, ops []string
	for i, w := range c.s.worktrees {
		if w.admin == "" {
			if !w.prunable {
				c.add(CheckLocks, ledger.CheckUnknown, ledger.ReasonOwnershipUncertain, "the git directory of worktree "+w.path+" was not found")
				return
			}
			continue
		}
		for _, f := range lockFiles {
			if i > 0 && (f == "config.lock" || f == "packed-refs.lock" || f == "shallow.lock") {
				continue // shared files live in the common directory only
			}
			if _, err := os.Lstat(filepath.Join(w.admin, f)); err == nil {
				locks = append(locks, w.path+": "+f)
			}
		}
		for _, f := range operations {
			if _, err := os.Lstat(filepath.Join(w.admin, f)); err == nil {
				ops = append(ops, w.path+": "+f)
			}
		}
	}
	// Ref locks: refs/**/*.lock in the common directory.
	filepath.WalkDir(filepath.Join(c.s.common, "refs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".lock") {
			rel, _ := filepath.Rel(c.s.common, p)
			locks = append(locks, c.s.worktrees[0].path+": "+rel)
		}
		return nil
	})
	switch {
	case len(locks) > 0:
		c.add(CheckLocks, ledger.CheckBlocked, ledger.ReasonLock, strings.Join(append(locks, ops...), "; "))
	case len(ops) > 0:
		c.add(CheckLocks, ledger.CheckBlocked, ledger.ReasonOperation, strings.Join(ops, "; "))
	default:
		c.add(CheckLocks, ledger.CheckPass, "", "no lock file, no merge, rebase, cherry-pick, revert or bisect in progress")
	}
}

// processes: no process works inside the repository or its worktrees.
func (c *checker) processes(procDir string) {
	if c.unreadable(CheckProcesses) {
		return
	}
	roots := []string{c.s.common}
	for _, w := range c.s.worktrees {
		roots = append(roots, w.path)
	}
	for i, r := range roots {
		if res, err := filepath.EvalSymlinks(r); err == nil {
			roots[i] = res
		}
		roots[i] = filepath.Clean(roots[i])
	}
	roots = sortedUnique(roots)
	owner, ok := ownerOf(c.s.common)
	if !ok {
		c.add(CheckProcesses, ledger.CheckUnknown, ledger.ReasonOwnershipUncertain, "cannot tell who owns the repository")
		return
	}
	ps := scanProcs(procDir, roots, owner)
	c.procs = ps.found
	var open, assumed []string
	for i := range ps.uninspected {
		u := &ps.uninspected[i]
		if slices.Contains(c.assume, u.PID) {
			u.AssumedOutside = true
			assumed = append(assumed, u.String())
		} else {
			open = append(open, u.String())
		}
	}
	c.uninspected = ps.uninspected
	switch {
	case len(ps.found) > 0:
		var names []string
		for _, p := range ps.found {
			names = append(names, fmt.Sprintf("%s (pid %d, %s in %s)", p.Command, p.PID, p.Via, p.Worktree))
		}
		c.add(CheckProcesses, ledger.CheckBlocked, ledger.ReasonProcess, strings.Join(names, "; "))
	case ps.err != nil:
		c.add(CheckProcesses, ledger.CheckUnknown, ledger.ReasonOwnershipUncertain, "cannot list processes: "+oneLine(ps.err.Error()))
	default:
		if len(open) > 0 {
			c.add(CheckProcesses, ledger.CheckUnknown, ledger.ReasonOwnershipUncertain, fmt.Sprintf(
				"%s of the repository's owner (uid %d) could not be inspected: %s; rerun with read access to them, or, knowing that one works outside the repository, rerun with --assume-outside PID (recorded in the guard record)",
				plural(len(open), "process", "processes"), owner, strings.Join(open, ", ")))
			return
		}
		detail := "no process works inside the repository or its worktrees"
		if len(assumed) > 0 {
			detail += "; assumed outside by the operator (--assume-outside): " + strings.Join(assumed, ", ")
		}
		if ps.otherUncertain > 0 {
			detail += fmt.Sprintf(" (%s of other users than the repository's owner not inspected)", plural(ps.otherUncertain, "process", "processes"))
		}
		c.add(CheckProcesses, ledger.CheckPass, "", detail)
	}
}

// conflictCheck: no configured conflict names a present worktree.
func (c *checker) conflictCheck() {
	if len(c.conflicts) == 0 {
		c.add(CheckConflicts, ledger.CheckPass, "", "no conflicts configured")
		return
	}
	if c.unreadable(CheckConflicts) {
		return
	}
	var hits []string
	for _, cf := range c.conflicts {
		for _, w := range c.wts {
			if !w.Prunable && cf.Matches(w.Path, w.Branch) {
				hits = append(hits, fmt.Sprintf("%s: worktree %s (%s)", cf.Text, w.Path, branchName(w.Branch)))
			}
		}
	}
	if len(hits) > 0 {
		c.add(CheckConflicts, ledger.CheckBlocked, ledger.ReasonConflict, strings.Join(hits, "; "))
		return
	}
	var names []string
	for _, cf := range c.conflicts {
		names = append(names, cf.Text)
	}
	c.add(CheckConflicts, ledger.CheckPass, "", "no worktree matches "+strings.Join(names, ", "))
}

func branchName(ref string) string {
	if ref == "" {
		return "detached HEAD"
	}
	return strings.TrimPrefix(ref, "refs/heads/")
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
