// Package gitview shows a git work tree as git sees it: the content staged in
// the index, and which files changed. sotvet uses it to vet a workspace as it
// will be committed rather than as it lies on disk.
package gitview

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"path"
	"strconv"
	"strings"
	"testing/fstest"
	"time"
)

// git runs git in dir and returns its standard output.
func git(dir string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
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

// IndexFS returns the files staged in the index under dir, as an fs.FS rooted
// at dir. Only files for which want reports true are read (the others exist,
// empty); a staged symbolic link is kept as a file holding its target path,
// which is never followed. Submodules are skipped.
func IndexFS(dir string, want func(path string) bool) (fs.FS, error) {
	out, err := git(dir, nil, "ls-files", "-z", "--stage", "--", ".")
	if err != nil {
		return nil, err
	}
	m := fstest.MapFS{}
	var shas []string
	var names []string
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
		m[rel] = &fstest.MapFile{Mode: perm, ModTime: time.Time{}}
		if want == nil || want(rel) {
			shas = append(shas, f[1])
			names = append(names, rel)
		}
	}
	if len(shas) == 0 {
		return m, nil
	}
	blobs, err := catBlobs(dir, shas)
	if err != nil {
		return nil, err
	}
	for i, name := range names {
		m[name].Data = blobs[i]
	}
	return m, nil
}

// catBlobs reads blobs through one git cat-file --batch process.
func catBlobs(dir string, shas []string) ([][]byte, error) {
	in := strings.Join(shas, "\n") + "\n"
	out, err := git(dir, strings.NewReader(in), "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(bytes.NewReader(out))
	blobs := make([][]byte, len(shas))
	for i := range shas {
		header, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			return nil, fmt.Errorf("git cat-file: object %s: %s", shas[i], strings.TrimSpace(header))
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("git cat-file: bad size in %q", header)
		}
		blobs[i] = make([]byte, size)
		if _, err := io.ReadFull(r, blobs[i]); err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		if _, err := r.ReadByte(); err != nil { // the newline after each object
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
	}
	return blobs, nil
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
	tracked, err := changed(dir, "diff", "--name-only", "-z", "--diff-filter=ACMRT", "--relative", rev, "--", ".")
	if err != nil {
		return nil, err
	}
	untracked, err := changed(dir, "ls-files", "-z", "--others", "--exclude-standard", "--", ".")
	if err != nil {
		return nil, err
	}
	return append(tracked, untracked...), nil
}

func changed(dir string, args ...string) ([]string, error) {
	out, err := git(dir, nil, args...)
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
	out, err := git(dir, nil, "diff", "-U0", "--no-color", "--no-ext-diff", "--relative", rev, "--", ".")
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
