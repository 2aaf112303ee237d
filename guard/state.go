package guard

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/svrnty/sotvet/internal/safegit"

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
	repos     []*git     // by worktree: git in it (nil: bare or prunable)
	repo      *safegit.Repo
	digests   ledger.GuardDigests
}

type wtStatus struct {
	out     []byte
	err     error
	changes int
}

// close removes the shadow git ran in.
func (s *state) close() {
	if s.repo != nil {
		s.repo.Close()
	}
}

// maxIndex bounds the index bytes the guard digests; a larger index is
// digested by its size and time only.
const maxIndex = 256 << 20

// snapshot reads the repository's state: the worktree list from git's
// own files (as git worktree list reads them), refs and status through
// safegit.
func snapshot(r *safegit.Repo) *state {
	s := &state{}
	defer s.digest()
	s.common = r.Common
	refsOut, err := (&git{r}).run("for-each-ref", "--format=%(objectname) %(refname)")
	if err != nil {
		s.err = err
		return s
	}
	s.refs = refsOut
	refs := map[string]string{}
	for _, line := range strings.Split(string(refsOut), "\n") {
		if id, name, ok := strings.Cut(line, " "); ok {
			refs[name] = id
		}
	}
	if s.worktrees, err = listWorktrees(r, refs); err != nil {
		s.err = err
		return s
	}
	s.list = formatWorktrees(s.worktrees)
	s.repos = make([]*git, len(s.worktrees))
	for i, w := range s.worktrees {
		if w.bare || w.prunable {
			continue
		}
		var wr *safegit.Repo
		if i == 0 {
			wr, err = r.Main(w.path)
		} else {
			wr, err = r.Linked(w.admin, w.path)
		}
		if err != nil {
			s.err = err
			return s
		}
		s.repos[i] = &git{wr}
	}
	var wg sync.WaitGroup
	s.status = make([]wtStatus, len(s.worktrees))
	sem := make(chan struct{}, 4)
	for i, w := range s.worktrees {
		if s.repos[i] == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			st := &s.status[i]
			if st.err = s.repos[i].r.CheckIgnoreFiles(w.path); st.err != nil {
				return
			}
			st.out, st.err = s.repos[i].run("status", "--porcelain=v2", "-z", "--branch", "--untracked-files=normal", "--ignore-submodules=dirty")
			st.changes = countChanges(st.out)
		}()
	}
	wg.Wait()
	return s
}

// listWorktrees reads the worktree list as git worktree list does: the
// main worktree (or the bare repository), then each linked one from
// COMMON/worktrees/NAME (gitdir, HEAD, locked), sorted by path. HEADs
// are resolved through refs, the output of for-each-ref.
func listWorktrees(r *safegit.Repo, refs map[string]string) ([]worktree, error) {
	head := func(admin string) (id, branch string, detached bool, err error) {
		b, err := safegit.ReadFile(filepath.Join(admin, "HEAD"), 4096)
		if err != nil {
			return "", "", false, err
		}
		v := strings.TrimSpace(string(b))
		if ref, ok := strings.CutPrefix(v, "ref: "); ok {
			return refs[ref], ref, false, nil
		}
		return v, "", true, nil
	}
	main := worktree{admin: r.Common}
	switch {
	case r.Bare && r.GitDir == r.Common:
		main.path, main.bare = r.Common, true
	case r.GitDir == r.Common:
		main.path = r.WorkTree
	case filepath.Base(r.Common) == ".git":
		main.path = filepath.Dir(r.Common)
	default:
		main.path, main.bare = r.Common, true
	}
	if !main.bare {
		var err error
		if main.head, main.branch, main.detached, err = head(r.Common); err != nil {
			return nil, err
		}
	}
	base := filepath.Join(r.Common, "worktrees")
	ents, err := os.ReadDir(base)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var linked []worktree
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		admin := filepath.Join(base, e.Name())
		b, err := safegit.ReadFile(filepath.Join(admin, "gitdir"), 4096)
		if err != nil {
			return nil, err
		}
		dotgit := strings.TrimSpace(string(b))
		if !filepath.IsAbs(dotgit) {
			dotgit = filepath.Join(admin, dotgit)
		}
		w := worktree{path: filepath.Dir(filepath.Clean(dotgit)), admin: admin}
		if _, err := os.Lstat(dotgit); err != nil {
			w.prunable = true
		}
		if _, err := os.Lstat(filepath.Join(admin, "locked")); err == nil {
			w.locked = true
		}
		if w.head, w.branch, w.detached, err = head(admin); err != nil && !w.prunable {
			return nil, err
		}
		linked = append(linked, w)
	}
	sort.Slice(linked, func(i, j int) bool { return linked[i].path < linked[j].path })
	return append([]worktree{main}, linked...), nil
}

// formatWorktrees writes the list as git worktree list --porcelain -z
// would: what the worktrees digest covers.
func formatWorktrees(ws []worktree) []byte {
	var b bytes.Buffer
	for _, w := range ws {
		fmt.Fprintf(&b, "worktree %s\x00", w.path)
		if w.bare {
			b.WriteString("bare\x00")
		} else {
			fmt.Fprintf(&b, "HEAD %s\x00", w.head)
			if w.detached {
				b.WriteString("detached\x00")
			} else {
				fmt.Fprintf(&b, "branch %s\x00", w.branch)
			}
		}
		if w.locked {
			b.WriteString("locked\x00")
		}
		if w.prunable {
			b.WriteString("prunable\x00")
		}
		b.WriteByte(0)
	}
	return b.Bytes()
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
// and anything else that is not a plain file, without blocking on one.
func readSmall(p string, limit int64) ([]byte, error) { return safegit.ReadFile(p, limit) }

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
