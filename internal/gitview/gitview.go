// Package gitview shows a git work tree as git sees it: the content staged in
// the index, and which files changed. sotvet uses it to vet a workspace as it
// will be committed rather than as it lies on disk.
package gitview

import (
	"bufio"
	"bytes"
	"context"
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

	"github.com/svrnty/sotvet/internal/safegit"
)

// open opens the repository holding dir through safegit: git reads none
// of the repository's configuration, so no filter, fsmonitor, hook,
// helper or lazy fetch of a partial clone runs, and every git process
// has a deadline.
func open(dir string) (*safegit.Repo, error) {
	r, err := safegit.Open(dir, safegit.Options{})
	if errors.Is(err, safegit.ErrNoRepository) {
		return nil, fmt.Errorf("%s is not in a git repository", dir)
	}
	return r, err
}

// git runs git in dir and returns its standard output.
func git(dir string, args ...string) ([]byte, error) {
	r, err := open(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return run(r, dir, nil, args...)
}

// run is git with extra environment variables, in dir of repository r.
func run(r *safegit.Repo, dir string, env []string, args ...string) ([]byte, error) {
	out, err := r.Run(dir, env, args...)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, dir)
	}
	return out, nil
}

// Index is the git index of the work tree at dir: every staged path with
// its blob id. Content is read from git only when a file is opened, through
// one long-lived git cat-file process, so a caller that needs a few files
// of a large index pays for those only.
type Index struct {
	dir     string
	repo    *safegit.Repo
	entries map[string]indexEntry
	tree    fstest.MapFS // the paths and modes; file data is read on demand

	mu     sync.Mutex
	cat    *exec.Cmd
	cancel context.CancelFunc // kills cat
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
	r, err := open(dir)
	if err != nil {
		return nil, err
	}
	out, err := run(r, dir, nil, "ls-files", "-z", "--stage", "--", ".")
	if err != nil {
		r.Close()
		return nil, err
	}
	n := bytes.Count(out, []byte{0}) // one a record: no map regrows
	ix := &Index{dir: dir, repo: r, entries: make(map[string]indexEntry, n), tree: make(fstest.MapFS, n)}
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		// "<mode> <sha> <stage>\t<path>"
		meta, name, ok := strings.Cut(string(rec), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			r.Close()
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
	defer ix.repo.Close()
	if ix.cat == nil {
		return nil
	}
	ix.stdin.Close()
	err := ix.cat.Wait()
	ix.cancel()
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
	defer ix.watch()()
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
	defer ix.watch()()
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
		// cat-file lives as long as the Index; each exchange with it has
		// its own deadline (watch).
		ctx, cancel := context.WithCancel(context.Background())
		cmd := ix.repo.Command(ctx, ix.dir, "cat-file", "--batch")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			cancel()
			return err
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			cancel()
			return err
		}
		if err := cmd.Start(); err != nil {
			cancel()
			ix.err = fmt.Errorf("git cat-file: %w", err)
			return ix.err
		}
		ix.cat, ix.cancel, ix.stdin, ix.stdout = cmd, cancel, stdin, bufio.NewReaderSize(stdout, 64<<10)
	}
	return nil
}

// watch kills cat-file if an exchange outlasts safegit.Timeout (a blob
// that cannot be read, a FIFO among the objects): the read then fails
// instead of hanging. Call the function it returns when the exchange ends.
func (ix *Index) watch() func() {
	t := time.AfterFunc(safegit.Timeout, ix.cancel)
	return func() { t.Stop() }
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
	out, err := git(dir, "diff", "--cached", "--name-only", "-z", "--diff-filter=ACMRT", "--relative", "--no-ext-diff", "--no-textconv", "--ignore-submodules=dirty", "--", ".")
	if err != nil {
		return nil, err
	}
	return paths(out), nil
}

// ChangedSince returns the paths under dir changed in the work tree since
// rev, untracked files included.
func ChangedSince(dir, rev string) ([]string, error) {
	r, err := safegit.Open(dir, safegit.Options{})
	if errors.Is(err, safegit.ErrNoRepository) || err == nil && r.WorkTree == "" {
		r.Close()
		// Outside a repository git diff compares files (--no-index) and
		// blames the revision; say what is wrong instead.
		return nil, fmt.Errorf("%s is not in a git repository (--changed-since compares with a git revision)", dir)
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if err := r.CheckIgnoreFiles(dir); err != nil {
		return nil, err
	}
	env, done, err := tempIndex(r)
	if err != nil {
		return nil, err
	}
	defer done()
	tracked, err := run(r, dir, env, "diff", "--name-only", "-z", "--diff-filter=ACMRT", "--relative", "--no-ext-diff", "--no-textconv", "--ignore-submodules=dirty", "--end-of-options", rev, "--", ".")
	if err != nil {
		return nil, err
	}
	untracked, err := run(r, dir, nil, "ls-files", "-z", "--others", "--exclude-standard", "--", ".")
	if err != nil {
		return nil, err
	}
	return append(paths(tracked), paths(untracked)...), nil
}

// tempIndex returns the environment that points git at a copy of the
// repository's index, so that a diff against the work tree, which
// refreshes stale stat data, never rewrites the repository's own index;
// done removes the copy. The index is read only if it is a regular file.
func tempIndex(r *safegit.Repo) (env []string, done func(), err error) {
	data, err := safegit.ReadFile(r.IndexFile(), 1<<31)
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

// paths splits git's -z output into clean paths.
func paths(out []byte) []string {
	var ps []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			ps = append(ps, path.Clean(string(p)))
		}
	}
	return ps
}

// ChangedLines returns, for each file under dir changed since rev, the set of
// line numbers of its current content that were added or modified.
func ChangedLines(dir, rev string) (map[string]map[int]bool, error) {
	r, err := open(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if err := r.CheckIgnoreFiles(dir); err != nil {
		return nil, err
	}
	env, done, err := tempIndex(r)
	if err != nil {
		return nil, err
	}
	defer done()
	out, err := run(r, dir, env, "diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", "--ignore-submodules=dirty", "--relative", "--end-of-options", rev, "--", ".")
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
