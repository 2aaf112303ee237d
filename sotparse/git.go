package sotparse

import (
	"errors"
	"fmt"
	"strings"

	"github.com/svrnty/sotvet/internal/safegit"
)

// GitIgnored asks git which paths under dir it ignores. Outside a git work
// tree (or without git) it returns nil: nothing is ignored. Git runs
// through safegit: it reads none of the repository's configuration (no
// program the repository names runs) and has a deadline; a .gitignore
// that is not a regular file (a FIFO would block git) is an error.
func GitIgnored(dir string) (func(path string, isDir bool) bool, error) {
	if _, err := safegit.GitPath(); err != nil {
		return nil, nil
	}
	r, err := safegit.Open(dir, safegit.Options{})
	if errors.Is(err, safegit.ErrNoRepository) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("git in %s: %w", dir, err)
	}
	defer r.Close()
	if r.WorkTree == "" {
		return nil, nil // a bare repository, or inside a git directory
	}
	if err := r.CheckIgnoreFiles(dir); err != nil {
		return nil, err
	}
	out, err := r.Run(dir, nil, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", ".")
	if err != nil {
		return nil, fmt.Errorf("git ls-files in %s: %w", dir, err)
	}
	ignored := map[string]bool{}
	for _, p := range strings.Split(string(out), "\x00") {
		if p == "" {
			continue
		}
		ignored[strings.TrimSuffix(p, "/")] = true
	}
	if len(ignored) == 0 {
		return nil, nil
	}
	return func(path string, _ bool) bool { return ignored[path] }, nil
}
