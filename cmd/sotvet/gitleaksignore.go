package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/svrnty/sotvet/internal/safefs"
	"github.com/svrnty/sotvet/secrets"
)

// gitleaksIgnores are the .gitleaksignore files a scan honours: the one
// of the current directory, for every file, as gitleaks reads the one at
// its source root; and the one of each directory scanned, for that
// directory's files only: one root's entries never allow a finding in a
// file of the same name under another.
type gitleaksIgnores struct {
	cwd    secrets.GitleaksIgnore
	byRoot map[string]secrets.GitleaksIgnore // by the path as given
}

// loadGitleaksIgnore reads the .gitleaksignore of the current directory
// and of every directory scanned, so that a repository switching from
// gitleaks keeps its triage.
func loadGitleaksIgnore(roots []string) (gitleaksIgnores, error) {
	out := gitleaksIgnores{byRoot: map[string]secrets.GitleaksIgnore{}}
	cwdAbs, _ := filepath.Abs(".")
	var err error
	if out.cwd, err = readGitleaksIgnore("."); err != nil {
		return out, err
	}
	for _, dir := range roots {
		if abs, err := filepath.Abs(dir); err != nil || abs == cwdAbs {
			continue // the current directory's applies everywhere already
		}
		ig, err := readGitleaksIgnore(dir)
		if err != nil {
			return out, err
		}
		if len(ig) > 0 {
			out.byRoot[dir] = ig
		}
	}
	return out, nil
}

// readGitleaksIgnore reads dir/.gitleaksignore (none: nil), a regular file
// only and not through a symbolic link: a FIFO is refused, never waited
// on, and a link (to /proc/self/environ, to a credentials file) is not
// read, as a scan follows none.
func readGitleaksIgnore(dir string) (secrets.GitleaksIgnore, error) {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, nil
	}
	p := filepath.Join(dir, ".gitleaksignore")
	b, err := safefs.ReadNoFollow(p, 16<<20)
	if errors.Is(err, safefs.ErrNotRegular) {
		return nil, fmt.Errorf("%s: not a regular file (a symbolic link, a FIFO or a device), so not read", p)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	ig, err := secrets.ParseGitleaksIgnore(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", p, err)
	}
	return ig, nil
}

// forRoot returns the entries that apply to the files of root.
func (g gitleaksIgnores) forRoot(root string) secrets.GitleaksIgnore {
	own := g.byRoot[root]
	if len(own) == 0 {
		return g.cwd
	}
	all := secrets.GitleaksIgnore{}
	for k := range g.cwd {
		all[k] = true
	}
	for k := range own {
		all[k] = true
	}
	return all
}
