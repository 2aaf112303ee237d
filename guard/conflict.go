package guard

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Conflict is a worktree the guard must find absent. An argument with a
// "/" is a path; anything else is a work id.
//
// A path matches a worktree at that path or inside it: an absolute path
// as is; a relative one by its trailing path elements, so that the
// guard document's "core/worktrees/core-keyvault-authmd-promotion-135"
// matches /home/u/core/worktrees/core-keyvault-authmd-promotion-135
// wherever the repository sits.
//
// A work id ("CORE-WORK-172") matches a worktree whose branch name
// (without refs/heads/) or directory name holds it, ignoring case and
// taking "_" for "-", between word boundaries: "core-work-172-keyvault"
// and "wip/CORE_WORK_172" match, "core-work-1720" does not.
type Conflict struct {
	Text string
	path string // cleaned, slash-separated; "" for a work id
	abs  bool
	id   string // normalised work id
}

// ParseConflict reads one --conflict argument.
func ParseConflict(s string) (Conflict, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return Conflict{}, fmt.Errorf("guard: empty conflict")
	}
	if strings.ContainsRune(t, '/') {
		p := filepath.ToSlash(filepath.Clean(t))
		if p == "." || p == "/" || strings.HasPrefix(p, "../") || p == ".." {
			return Conflict{}, fmt.Errorf("guard: conflict path %q names no worktree", s)
		}
		return Conflict{Text: t, path: strings.TrimPrefix(p, "./"), abs: filepath.IsAbs(t)}, nil
	}
	for i, r := range t {
		if i == 0 && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return Conflict{}, fmt.Errorf("guard: conflict %q: a work id starts with a letter or digit", s)
		}
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return Conflict{}, fmt.Errorf("guard: conflict %q is neither a path (with a /) nor a work id (letters, digits, - _ .)", s)
		}
	}
	return Conflict{Text: t, id: normID(t)}, nil
}

func normID(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }

// Matches says whether the worktree at path (absolute) on branch (a ref
// name, or "") is this conflict.
func (c Conflict) Matches(path, branch string) bool {
	if c.id == "" {
		p := filepath.ToSlash(filepath.Clean(path))
		if c.abs {
			return p == c.path || strings.HasPrefix(p, c.path+"/")
		}
		return p == c.path || strings.HasSuffix(p, "/"+c.path)
	}
	return holdsID(normID(strings.TrimPrefix(branch, "refs/heads/")), c.id) || holdsID(normID(filepath.Base(path)), c.id)
}

// holdsID reports whether s holds id between word boundaries.
func holdsID(s, id string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], id)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(id)
		if (start == 0 || !alnum(s[start-1])) && (end == len(s) || !alnum(s[end])) {
			return true
		}
		i = start + 1
	}
}

func alnum(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }
