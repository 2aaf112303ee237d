package harness

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/svrnty/sotvet/harness/contract"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/internal/quotepath"
)

// checkPaths holds each changed path against the contract: it must be a
// clean relative path, match an allowed_writes glob, match no
// forbidden_paths glob, and neither be nor sit under a symbolic link that
// leads out of the workspace. It returns the violations in path order and
// whether allowed_writes and forbidden_paths held.
func checkPaths(workspace string, changed, allowed, forbidden []string) (vs []evidence.PathViolation, allowedOK, forbiddenOK bool) {
	allowedOK, forbiddenOK = true, true
	root, err := filepath.EvalSymlinks(workspace)
	if err != nil {
		root = workspace
	}
	for _, p := range changed {
		if quotepath.NeedsQuoting(p) {
			// A name a backend chose to break lines: never a file it may write.
			vs = append(vs, evidence.PathViolation{Path: p, Reason: "the path holds a control character or invalid UTF-8"})
			allowedOK = false
			continue
		}
		if err := contract.CheckRelPath(p); err != nil {
			vs = append(vs, evidence.PathViolation{Path: p, Reason: err.Error()})
			allowedOK = false
			continue
		}
		if p == ".git" || strings.HasPrefix(p, ".git/") {
			vs = append(vs, evidence.PathViolation{Path: p, Reason: "repository control file changed"})
			forbiddenOK = false
			continue
		}
		if g := firstMatch(forbidden, p); g != "" {
			vs = append(vs, evidence.PathViolation{Path: p, Reason: fmt.Sprintf("matches forbidden_paths glob %q", g)})
			forbiddenOK = false
			continue
		}
		if firstMatch(allowed, p) == "" {
			vs = append(vs, evidence.PathViolation{Path: p, Reason: "outside allowed_writes"})
			allowedOK = false
			continue
		}
		if reason := escapes(root, p); reason != "" {
			vs = append(vs, evidence.PathViolation{Path: p, Reason: reason})
			allowedOK = false
		}
	}
	return vs, allowedOK, forbiddenOK
}

func firstMatch(globs []string, p string) string {
	for _, g := range globs {
		if ok, err := doublestar.Match(g, p); err == nil && ok {
			return g
		}
	}
	return ""
}

// escapes reports how the changed path p leads out of the workspace root,
// or "" when it does not.
func escapes(root, p string) string {
	abs := filepath.Join(root, filepath.FromSlash(p))
	if info, err := os.Lstat(abs); err == nil && info.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(abs)
		if err != nil {
			return "unreadable symbolic link"
		}
		if filepath.IsAbs(target) {
			return fmt.Sprintf("symbolic link to the absolute path %s", target)
		}
		if j := path.Join(path.Dir(p), filepath.ToSlash(target)); j == ".." || strings.HasPrefix(j, "../") {
			return fmt.Sprintf("symbolic link to %s leads out of the workspace", target)
		}
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "" // a deleted directory: nothing to follow
	}
	if rel, err := filepath.Rel(root, dir); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "its directory is reached through a symbolic link that leads out of the workspace"
	}
	return ""
}
