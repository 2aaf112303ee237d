package contract

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// CheckFixture refuses a repo/ fixture the harness could be led out of
// while it copies it and runs git in the copy: repo/ itself a symbolic
// link (the copy would be a link to a real repository), a .git that is not
// a directory (a link or a "gitdir:" file points git at another
// repository), or a link inside the fixture whose target leads outside it
// (writes through the copy would land outside the run). p names the
// contract in messages; dir is the case directory.
func CheckFixture(p, dir string) ErrorList {
	var errs ErrorList
	bad := func(format string, args ...any) {
		errs = append(errs, &Error{Path: p, Msg: fmt.Sprintf(format, args...)})
	}
	repo := filepath.Join(dir, RepoDir)
	info, err := os.Lstat(repo)
	if err != nil {
		return nil // CheckFiles reports a missing fixture
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		target, _ := os.Readlink(repo)
		bad("%s/ is a symbolic link (to %s); the fixture must be a directory of the case", RepoDir, target)
		return errs
	}
	realRepo, err := filepath.EvalSymlinks(repo)
	if err != nil {
		bad("%s/: %v", RepoDir, err)
		return errs
	}
	_ = filepath.WalkDir(repo, func(abs string, e fs.DirEntry, err error) error {
		if err != nil {
			bad("%s: %v", RepoDir, err)
			return nil
		}
		rel, _ := filepath.Rel(repo, abs)
		rel = filepath.ToSlash(rel)
		name := RepoDir + "/" + rel
		if e.Name() == ".git" && !e.IsDir() {
			bad("%s is not a directory: it would point git at another repository", name)
			return nil
		}
		if e.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		target, err := os.Readlink(abs)
		if err != nil {
			bad("%s: unreadable symbolic link", name)
			return nil
		}
		out := filepath.IsAbs(target)
		if !out {
			j := path.Join(path.Dir(rel), filepath.ToSlash(target))
			out = j == ".." || strings.HasPrefix(j, "../")
		}
		if !out {
			// Lexically inside; a chain through other links may not be.
			if resolved, err := filepath.EvalSymlinks(abs); err == nil {
				r, err := filepath.Rel(realRepo, resolved)
				out = err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator))
			}
		}
		if out {
			bad("%s: symbolic link to %s leads outside the fixture", name, target)
		}
		return nil
	})
	return errs
}
