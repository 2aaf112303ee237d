package sotparse

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// GitIgnored asks git which paths under dir it ignores. Outside a git work
// tree (or without git) it returns nil: nothing is ignored.
func GitIgnored(dir string) (func(path string, isDir bool) bool, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, nil
	}
	if out, err := readOnlyGit(dir, "rev-parse", "--is-inside-work-tree").Output(); err != nil || strings.TrimSpace(string(out)) != "true" {
		return nil, nil
	}
	cmd := readOnlyGit(dir, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", ".")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files in %s: %v: %s", dir, err, strings.TrimSpace(stderr.String()))
	}
	ignored := map[string]bool{}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) == 0 {
			continue
		}
		ignored[strings.TrimSuffix(string(p), "/")] = true
	}
	if len(ignored) == 0 {
		return nil, nil
	}
	return func(path string, _ bool) bool { return ignored[path] }, nil
}

// readOnlyGit is a git command in dir that runs no hook the repository
// names (core.fsmonitor) and takes no optional lock (no index refresh).
func readOnlyGit(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "core.fsmonitor=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	return cmd
}
