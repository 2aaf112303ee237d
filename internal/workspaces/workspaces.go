// Package workspaces finds the planning workspaces under a directory: every
// directory holding a .sot/ directory or a WORKBOARD.yaml, as a repository
// keeps them (planning/.sot, docs/planning/WORKBOARD.yaml, or at its root),
// and works out the base that finding paths are reported against.
package workspaces

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/svrnty/sotvet/internal/safegit"
)

// Markers names what makes a directory a workspace, for messages.
const Markers = ".sot/ or WORKBOARD.yaml"

// IsWorkspace reports whether dir holds a .sot directory or a WORKBOARD.yaml.
func IsWorkspace(dir string) bool {
	if st, err := os.Stat(filepath.Join(dir, ".sot")); err == nil && st.IsDir() {
		return true
	}
	st, err := os.Stat(filepath.Join(dir, "WORKBOARD.yaml"))
	return err == nil && !st.IsDir()
}

// Enclosing returns the nearest workspace that holds dir: dir itself or
// the closest directory above it that is a workspace, as git finds the
// repository of a subdirectory. dir must be absolute.
func Enclosing(dir string) (string, bool) {
	for d := dir; ; d = filepath.Dir(d) {
		if IsWorkspace(d) {
			return d, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// Find walks root and returns the slash paths, relative to root, of the
// workspaces under it ("." for root itself), sorted. A workspace's own tree
// is not searched further. Directories named .git, and those ignored
// reports as ignored (git's ignore rules, say), are skipped; symbolic links
// are not followed.
func Find(root string, ignored func(p string, dir bool) bool) ([]string, error) {
	var found []string
	err := fs.WalkDir(os.DirFS(root), ".", func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			return nil // an unreadable corner is not where the workspace is
		}
		if !de.IsDir() {
			return nil
		}
		if p != "." && (de.Name() == ".git" || (ignored != nil && ignored(p, true))) {
			return fs.SkipDir
		}
		if IsWorkspace(filepath.Join(root, filepath.FromSlash(p))) {
			found = append(found, p)
			return fs.SkipDir
		}
		return nil
	})
	return found, err
}

// FromPaths returns the workspaces that a list of file paths (the git
// index, say) holds: the directory of each WORKBOARD.yaml and the parent of
// each .sot directory, outermost only, sorted.
func FromPaths(paths []string) []string {
	set := map[string]bool{}
	for _, p := range paths {
		if path.Base(p) == "WORKBOARD.yaml" {
			set[path.Dir(p)] = true
		}
		if p == ".sot" || strings.HasPrefix(p, ".sot/") {
			set["."] = true
		} else if i := strings.Index(p, "/.sot/"); i >= 0 {
			set[p[:i]] = true
		}
	}
	var out []string
	for _, d := range slices.Sorted(func(yield func(string) bool) {
		for d := range set {
			if !yield(d) {
				return
			}
		}
	}) {
		if !nested(d, out) {
			out = append(out, d)
		}
	}
	return out
}

// nested reports whether d lies inside one of the sorted dirs.
func nested(d string, dirs []string) bool {
	for _, o := range dirs {
		if o == "." || strings.HasPrefix(d, o+"/") {
			return true
		}
	}
	return false
}

// Base returns the directory finding paths are reported against: the root
// of the git work tree holding dir (unless noGit), so that SARIF, GitHub
// annotations and JUnit links name files as the repository does; outside
// git, the current directory when dir lies inside it; otherwise dir itself.
func Base(dir string, noGit bool) string {
	top := ""
	if !noGit {
		top, _ = GitTop(dir)
	}
	return BaseIn(dir, top)
}

// BaseIn is Base given top, what GitTop(dir) returned ("" for no git).
func BaseIn(dir, top string) string {
	if top != "" {
		return top
	}
	if cwd, err := os.Getwd(); err == nil && Within(cwd, dir) {
		return cwd
	}
	return dir
}

// GitTop returns the root of the git work tree holding dir, symbolic links
// resolved, or "" when dir lies in none. inWorkTree is false only when git
// said so (or is not installed), as `git rev-parse --is-inside-work-tree`
// would: a caller may then skip asking git anything else about dir. When
// git could not be asked, top is "" and inWorkTree true.
func GitTop(dir string) (top string, inWorkTree bool) {
	if noRepository(dir) {
		return "", false
	}
	if _, err := safegit.GitPath(); err != nil {
		return "", false
	}
	// Found as git finds it, without running git: a repository's
	// configuration never gets a say (see safegit).
	r, err := safegit.Find(dir, safegit.Options{})
	if err != nil || r.WorkTree == "" {
		return "", false
	}
	top = r.WorkTree
	if t, err := filepath.EvalSymlinks(top); err == nil {
		return t, true
	}
	return top, true
}

// noRepository reports that git could find no repository for dir, without
// running it (a process start that a check of a workspace outside git
// would otherwise wait on): nothing in the environment names one, and
// neither dir nor any directory above it, symbolic links resolved as
// git -C resolves them, holds a .git or looks like a git directory (has
// a HEAD). false means only that git must be asked.
func noRepository(dir string) bool {
	if os.Getenv("GIT_DIR") != "" || os.Getenv("GIT_WORK_TREE") != "" {
		return false
	}
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	if d, err = filepath.Abs(d); err != nil {
		return false
	}
	for {
		for _, name := range []string{".git", "HEAD"} {
			if _, err := os.Lstat(filepath.Join(d, name)); !errors.Is(err, fs.ErrNotExist) {
				return false
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return true
		}
		d = parent
	}
}

// Within reports whether dir is base or lies below it, comparing paths with
// symbolic links resolved.
func Within(base, dir string) bool {
	_, ok := Rel(base, dir)
	return ok
}

// Rel returns dir relative to base as a slash path ("" for base itself),
// and false when dir is not inside base.
func Rel(base, dir string) (string, bool) {
	if b, err := filepath.EvalSymlinks(base); err == nil {
		base = b
	}
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	rel, err := filepath.Rel(base, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	if rel == "." {
		return "", true
	}
	return filepath.ToSlash(rel), true
}
