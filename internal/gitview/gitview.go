// Package gitview shows a git work tree as git sees it: the content staged in
// the index, and which files changed. sotvet uses it to vet a workspace as it
// will be committed rather than as it lies on disk.
package gitview

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing/fstest"
	"time"
)

// ReadOnly are the options every git call of sotvet's starts with: the
// repository's fsmonitor hook (a program the repository names) never runs.
var ReadOnly = []string{"-c", "core.fsmonitor=false"}

// Command returns a git command in dir that only reads: ReadOnly options,
// and GIT_OPTIONAL_LOCKS=0 so that git does not refresh the index.
func Command(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", append(append([]string{"-C", dir}, ReadOnly...), args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	return cmd
}

// git runs git in dir and returns its standard output.
func git(dir string, stdin io.Reader, args ...string) ([]byte, error) {
	return gitEnv(dir, nil, stdin, args...)
}

// gitEnv is git with extra environment variables.
func gitEnv(dir string, env []string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := Command(dir, args...)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return out, nil
}

// Index is the git index of the work tree at dir: every staged path with
// its blob id. Content is read from git only when a file is opened, through
// one long-lived git cat-file process, so a caller that needs a few files
// of a large index pays for those only.
type Index struct {
	dir     string
	entries map[string]indexEntry
	tree    fstest.MapFS // the paths and modes; file data is read on demand

	mu     sync.Mutex
	cat    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	err    error // a cat-file failure: the stream is out of step, later reads fail too

	fetched map[string][]byte // Prefetch's content by path, until read
}

type indexEntry struct {
	id   string
	mode fs.FileMode
}

// ReadIndex lists the files staged in the index under dir. A staged
// symbolic link is kept as a file holding its target path, which is never
// followed. Submodules are skipped. Close the Index when done.
func ReadIndex(dir string) (*Index, error) {
	out, err := git(dir, nil, "ls-files", "-z", "--stage", "--", ".")
	if err != nil {
		return nil, err
	}
	n := bytes.Count(out, []byte{0}) // one a record: no map regrows
	ix := &Index{dir: dir, entries: make(map[string]indexEntry, n), tree: make(fstest.MapFS, n)}
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		// "<mode> <sha> <stage>\t<path>"
		meta, name, ok := strings.Cut(string(rec), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("git ls-files: unexpected record %q", rec)
		}
		if f[2] != "0" && f[2] != "2" { // during a merge, judge "ours"
			continue
		}
		mode, _ := strconv.ParseUint(f[0], 8, 32)
		if mode == 0o160000 { // submodule
			continue
		}
		rel := name // ls-files names paths relative to dir
		if !fs.ValidPath(rel) {
			continue
		}
		perm := fs.FileMode(mode & 0o777)
		if mode&0o170000 == 0o120000 {
			perm |= fs.ModeSymlink
		}
		ix.entries[rel] = indexEntry{id: f[1], mode: perm}
		ix.tree[rel] = &fstest.MapFile{Mode: perm, ModTime: time.Time{}}
	}
	return ix, nil
}

// Paths returns every staged path, sorted.
func (ix *Index) Paths() []string { return slices.Sorted(maps.Keys(ix.entries)) }

// ID returns the blob id staged for path.
func (ix *Index) ID(path string) (string, bool) {
	e, ok := ix.entries[path]
	return e.id, ok
}

// FS returns the index as a file system rooted at dir, with fs.ReadFileFS
// and fs.ReadLinkFS.
func (ix *Index) FS() fs.FS { return indexFS{ix} }

// Close stops the git process reading blobs, if one was started.
func (ix *Index) Close() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.cat == nil {
		return nil
	}
	ix.stdin.Close()
	err := ix.cat.Wait()
	ix.cat = nil
	if ix.err == nil {
		ix.err = errors.New("git index closed")
	}
	return err
}

// Prefetch reads the content staged for paths in one exchange with git, so
// that opening them later costs no round trip each. Unknown paths and
// errors are left for the later reads to report.
func (ix *Index) Prefetch(paths []string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var ids []string
	for _, p := range paths {
		if e, ok := ix.entries[p]; ok && ix.fetched[p] == nil {
			ids = append(ids, e.id)
		}
	}
	if len(ids) == 0 || ix.start() != nil {
		return
	}
	// Write the requests while reading the answers: git blocks once its
	// output pipe is full.
	errc := make(chan error, 1)
	go func() {
		var b bytes.Buffer
		for _, id := range ids {
			b.WriteString(id)
			b.WriteByte('\n')
		}
		_, err := ix.stdin.Write(b.Bytes())
		errc <- err
	}()
	blobs := make(map[string][]byte, len(ids))
	for _, id := range ids {
		b, err := ix.readAnswer(id)
		if err != nil {
			ix.err = err
			break
		}
		blobs[id] = b
	}
	if err := <-errc; err != nil && ix.err == nil {
		ix.err = fmt.Errorf("git cat-file: %w", err)
	}
	if ix.fetched == nil {
		ix.fetched = map[string][]byte{}
	}
	for _, p := range paths {
		if e, ok := ix.entries[p]; ok {
			if b, ok := blobs[e.id]; ok {
				ix.fetched[p] = b
			}
		}
	}
}

// blob returns the content staged for path.
func (ix *Index) blob(path string) ([]byte, error) {
	e, ok := ix.entries[path]
	if !ok {
		return nil, fs.ErrNotExist
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if b, ok := ix.fetched[path]; ok {
		delete(ix.fetched, path) // read once: the caller keeps it
		return b, nil
	}
	if err := ix.start(); err != nil {
		return nil, err
	}
	if _, err := io.WriteString(ix.stdin, e.id+"\n"); err != nil {
		ix.err = fmt.Errorf("git cat-file: %w", err)
		return nil, ix.err
	}
	b, err := ix.readAnswer(e.id)
	if err != nil {
		ix.err = err // the stream is out of step: stop reading
		return nil, err
	}
	return b, nil
}

// start starts git cat-file once; ix.mu is held.
func (ix *Index) start() error {
	if ix.err != nil {
		return ix.err
	}
	if ix.cat == nil {
		cmd := Command(ix.dir, "cat-file", "--batch")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			return err
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return err
		}
		if err := cmd.Start(); err != nil {
			ix.err = fmt.Errorf("git cat-file: %w", err)
			return ix.err
		}
		ix.cat, ix.stdin, ix.stdout = cmd, stdin, bufio.NewReaderSize(stdout, 64<<10)
	}
	return nil
}

// readAnswer reads git cat-file's answer for the object id.
func (ix *Index) readAnswer(id string) ([]byte, error) {
	header, err := ix.stdout.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	f := strings.Fields(header)
	if len(f) != 3 || f[0] != id {
		return nil, fmt.Errorf("git cat-file: object %s: %s", id, strings.TrimSpace(header))
	}
	size, err := strconv.Atoi(f[2])
	if err != nil || size < 0 {
		return nil, fmt.Errorf("git cat-file: bad size in %q", header)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(ix.stdout, b); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	if _, err := ix.stdout.ReadByte(); err != nil { // the newline after each object
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return b, nil
}

// indexFS serves the index's tree from a MapFS and file content from git.
type indexFS struct{ ix *Index }

func (f indexFS) Open(name string) (fs.File, error) {
	e, ok := f.ix.entries[name]
	if !ok {
		return f.ix.tree.Open(name) // a directory, or not found
	}
	b, err := f.ix.blob(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return fstest.MapFS{name: {Data: b, Mode: e.mode}}.Open(name)
}

func (f indexFS) ReadFile(name string) ([]byte, error) {
	if _, ok := f.ix.entries[name]; !ok {
		return f.ix.tree.ReadFile(name)
	}
	b, err := f.ix.blob(name)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return b, nil
}

func (f indexFS) ReadDir(name string) ([]fs.DirEntry, error) { return f.ix.tree.ReadDir(name) }

func (f indexFS) Stat(name string) (fs.FileInfo, error) { return f.ix.tree.Stat(name) }

func (f indexFS) Lstat(name string) (fs.FileInfo, error) { return f.ix.tree.Lstat(name) }

// ReadLink returns a staged link's target: the content of its blob.
func (f indexFS) ReadLink(name string) (string, error) {
	e, ok := f.ix.entries[name]
	if !ok || e.mode&fs.ModeSymlink == 0 {
		return f.ix.tree.ReadLink(name)
	}
	b, err := f.ix.blob(name)
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: err}
	}
	return string(b), nil
}

// Staged returns the paths under dir (relative to it) whose staged content
// differs from HEAD: added, copied, modified, renamed or type-changed.
// Deletions are not listed: there is nothing left to judge.
func Staged(dir string) ([]string, error) {
	return changed(dir, "diff", "--cached", "--name-only", "-z", "--diff-filter=ACMRT", "--relative", "--", ".")
}

// ChangedSince returns the paths under dir changed in the work tree since
// rev, untracked files included.
func ChangedSince(dir, rev string) ([]string, error) {
	// Outside a repository git diff compares files (--no-index) and blames
	// the revision; say what is wrong instead.
	if _, err := git(dir, nil, "rev-parse", "--is-inside-work-tree"); err != nil {
		return nil, fmt.Errorf("%s is not in a git repository (--changed-since compares with a git revision)", dir)
	}
	env, done, err := tempIndex(dir)
	if err != nil {
		return nil, err
	}
	defer done()
	tracked, err := changedEnv(dir, env, "diff", "--name-only", "-z", "--diff-filter=ACMRT", "--relative", "--end-of-options", rev, "--", ".")
	if err != nil {
		return nil, err
	}
	untracked, err := changed(dir, "ls-files", "-z", "--others", "--exclude-standard", "--", ".")
	if err != nil {
		return nil, err
	}
	return append(tracked, untracked...), nil
}

// tempIndex returns the environment that points git at a copy of dir's
// index, so that a diff against the work tree, which refreshes stale stat
// data, never rewrites the repository's own index; done removes the copy.
func tempIndex(dir string) (env []string, done func(), err error) {
	out, err := git(dir, nil, "rev-parse", "--path-format=absolute", "--git-path", "index")
	if err != nil {
		return nil, nil, err
	}
	index := strings.TrimSpace(string(out))
	data, err := os.ReadFile(index)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, func() {}, nil // nothing staged yet: nothing to rewrite
	}
	if err != nil {
		return nil, nil, err
	}
	f, err := os.CreateTemp("", "sotvet-index-*")
	if err != nil {
		return nil, nil, err
	}
	done = func() { os.Remove(f.Name()) }
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		done()
		return nil, nil, err
	}
	return []string{"GIT_INDEX_FILE=" + f.Name()}, done, nil
}

func changed(dir string, args ...string) ([]string, error) {
	return changedEnv(dir, nil, args...)
}

func changedEnv(dir string, env []string, args ...string) ([]string, error) {
	out, err := gitEnv(dir, env, nil, args...)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			paths = append(paths, path.Clean(string(p)))
		}
	}
	return paths, nil
}

// ChangedLines returns, for each file under dir changed since rev, the set of
// line numbers of its current content that were added or modified.
func ChangedLines(dir, rev string) (map[string]map[int]bool, error) {
	env, done, err := tempIndex(dir)
	if err != nil {
		return nil, err
	}
	defer done()
	out, err := gitEnv(dir, env, nil, "diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", "--relative", "--end-of-options", rev, "--", ".")
	if err != nil {
		return nil, err
	}
	lines := map[string]map[int]bool{}
	var cur string
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(l, "+++ "):
			cur = ""
			if name, ok := strings.CutPrefix(l, "+++ b/"); ok {
				cur = name
				lines[cur] = map[int]bool{}
			}
		case strings.HasPrefix(l, "@@ ") && cur != "":
			// @@ -a,b +c,d @@
			f := strings.Fields(l)
			if len(f) < 3 {
				continue
			}
			start, count := hunkRange(strings.TrimPrefix(f[2], "+"))
			for i := 0; i < count; i++ {
				lines[cur][start+i] = true
			}
		}
	}
	return lines, nil
}

func hunkRange(s string) (start, count int) {
	a, b, ok := strings.Cut(s, ",")
	start, _ = strconv.Atoi(a)
	count = 1
	if ok {
		count, _ = strconv.Atoi(b)
	}
	return start, count
}
