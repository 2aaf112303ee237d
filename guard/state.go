package guard

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/svrnty/sotvet/harness/ledger"
)

// worktree is one entry of git worktree list.
type worktree struct {
	path     string
	head     string
	branch   string
	bare     bool
	detached bool
	locked   bool
	prunable bool
	admin    string // its git directory: the common one for the main worktree
}

// state is the repository as git shows it at one moment; two of them,
// taken before and after the checks, prove that the guard changed nothing.
type state struct {
	err       error // the repository could not be read at all
	common    string
	list      []byte // git worktree list --porcelain -z
	worktrees []worktree
	refs      []byte
	status    []wtStatus // by worktree, in list order
	digests   ledger.GuardDigests
}

type wtStatus struct {
	out     []byte
	err     error
	changes int
}

// maxIndex bounds the index bytes the guard digests; a larger index is
// digested by its size and time only.
const maxIndex = 256 << 20

// snapshot reads the repository's state with read-only git calls.
func snapshot(g *git) *state {
	s := &state{}
	defer s.digest()
	out, err := g.run("rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		s.err = err
		return s
	}
	s.common = strings.TrimSpace(string(out))
	if s.list, err = g.run("worktree", "list", "--porcelain", "-z"); err != nil {
		// git before 2.36 has no -z: records are lines then.
		var err2 error
		if s.list, err2 = g.run("worktree", "list", "--porcelain"); err2 != nil {
			s.err = err
			return s
		}
		s.list = bytes.ReplaceAll(s.list, []byte{'\n'}, []byte{0})
	}
	s.worktrees = parseWorktrees(s.list)
	if len(s.worktrees) == 0 {
		s.err = fmt.Errorf("git worktree list: no worktree")
		return s
	}
	admins := adminDirs(s.common)
	for i := range s.worktrees {
		w := &s.worktrees[i]
		if i == 0 {
			w.admin = s.common
		} else {
			w.admin = admins[filepath.Clean(w.path)]
		}
	}
	var wg sync.WaitGroup
	var refsErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.refs, refsErr = g.run("for-each-ref", "--format=%(objectname) %(refname)")
	}()
	s.status = make([]wtStatus, len(s.worktrees))
	sem := make(chan struct{}, 4)
	for i, w := range s.worktrees {
		if w.bare || w.prunable {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			st := &s.status[i]
			st.out, st.err = g.in(w.path).run("status", "--porcelain=v2", "-z", "--branch", "--untracked-files=normal", "--ignore-submodules=dirty")
			st.changes = countChanges(st.out)
		}()
	}
	wg.Wait()
	if refsErr != nil {
		s.err = refsErr
	}
	return s
}

// parseWorktrees reads git worktree list --porcelain -z: records of
// NUL-terminated attributes, each record ended by an empty one.
func parseWorktrees(out []byte) []worktree {
	var ws []worktree
	var cur *worktree
	for _, f := range strings.Split(string(out), "\x00") {
		if f == "" {
			cur = nil
			continue
		}
		key, val, _ := strings.Cut(f, " ")
		if key == "worktree" {
			ws = append(ws, worktree{path: val})
			cur = &ws[len(ws)-1]
			continue
		}
		if cur == nil {
			continue
		}
		switch key {
		case "HEAD":
			cur.head = val
		case "branch":
			cur.branch = val
		case "bare":
			cur.bare = true
		case "detached":
			cur.detached = true
		case "locked":
			cur.locked = true
		case "prunable":
			cur.prunable = true
		}
	}
	return ws
}

// adminDirs maps each linked worktree's path to its git directory, from
// COMMON/worktrees/*/gitdir (git's own record of where it lives).
func adminDirs(common string) map[string]string {
	m := map[string]string{}
	base := filepath.Join(common, "worktrees")
	ents, err := os.ReadDir(base)
	if err != nil {
		return m
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		admin := filepath.Join(base, e.Name())
		b, err := readSmall(filepath.Join(admin, "gitdir"), 4096)
		if err != nil {
			continue
		}
		p := strings.TrimSpace(string(b))
		m[filepath.Clean(filepath.Dir(p))] = admin
	}
	return m
}

// countChanges counts the entries of git status --porcelain=v2 -z that
// are not headers. Renames carry their original path as an extra field.
func countChanges(out []byte) int {
	n := 0
	fields := bytes.Split(out, []byte{0})
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) == 0 || f[0] == '#' {
			continue
		}
		n++
		if f[0] == '2' { // "2 ..." is followed by the original path
			i++
		}
	}
	return n
}

// digest fills s.digests. Nothing of the repository's content is kept:
// only these digests leave this package.
func (s *state) digest() {
	h := func(parts ...[]byte) string {
		d := sha256.New()
		for _, p := range parts {
			fmt.Fprintf(d, "%d:", len(p))
			d.Write(p)
		}
		return hex.EncodeToString(d.Sum(nil))
	}
	if s.err != nil {
		e := []byte("unreadable: " + s.err.Error())
		s.digests = ledger.GuardDigests{Refs: h(e), Index: h(e), Worktrees: h(e), Status: h(e)}
		return
	}
	var refs, index, status [][]byte
	refs = append(refs, s.refs)
	for i, w := range s.worktrees {
		refs = append(refs, []byte(w.path+"\x00"+w.head+"\x00"+w.branch))
		index = append(index, []byte(w.path), indexStamp(w.admin))
		st := s.status[i]
		status = append(status, []byte(w.path))
		if st.err != nil {
			status = append(status, []byte("error: "+st.err.Error()))
		} else {
			status = append(status, st.out)
		}
	}
	s.digests = ledger.GuardDigests{Refs: h(refs...), Index: h(index...), Worktrees: h(s.list), Status: h(status...)}
}

// indexStamp is a worktree index's size, modification time and bytes'
// digest: a rewrite of the index, even to the same entries, changes it.
func indexStamp(admin string) []byte {
	if admin == "" {
		return []byte("no git directory")
	}
	p := filepath.Join(admin, "index")
	info, err := os.Lstat(p)
	if err != nil {
		return []byte("absent")
	}
	stamp := fmt.Sprintf("%s %d %d", info.Mode(), info.Size(), info.ModTime().UnixNano())
	if !info.Mode().IsRegular() || info.Size() > maxIndex {
		return []byte(stamp)
	}
	f, err := os.Open(p)
	if err != nil {
		return []byte(stamp + " unreadable")
	}
	defer f.Close()
	d := sha256.New()
	io.Copy(d, io.LimitReader(f, maxIndex))
	return []byte(stamp + " " + hex.EncodeToString(d.Sum(nil)))
}

// readSmall reads a regular file of at most limit bytes, refusing links
// and anything else that is not a plain file.
func readSmall(p string, limit int64) ([]byte, error) {
	info, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() || info.Size() > limit {
		return nil, fmt.Errorf("%s: not a small regular file", p)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

// sortedUnique returns ss sorted without repeats.
func sortedUnique(ss []string) []string {
	sort.Strings(ss)
	out := ss[:0]
	for i, s := range ss {
		if i == 0 || s != ss[i-1] {
			out = append(out, s)
		}
	}
	return out
}
