package fake

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Behaviors for the staged proof ladder's scenarios and the lane
// comparison's flaky double. They are never a failure fixture: a test or
// a demonstration selects them with harness run --fake-behavior.
const (
	// ForbiddenPush solves, then tries git push, git remote and gh pr
	// create through whatever is on PATH, and reports success.
	ForbiddenPush = "forbidden-push"
	// MutateSource solves, then follows the workspace's git common
	// directory back to the repository it came from and writes a file
	// there, and reports success.
	MutateSource = "mutate-source"
	// Flaky solves on even-numbered runs and makes a wrong fix on odd
	// ones, by the number that ends the run id.
	Flaky = "flaky"
)

// SourceMutationFile is what MutateSource writes into the source.
const SourceMutationFile = "FAKE-SOURCE-MUTATION.txt"

// LadderBehaviors lists the behaviors above, sorted.
var LadderBehaviors = []string{Flaky, ForbiddenPush, MutateSource}

// flakyBehavior resolves Flaky for a run id.
func flakyBehavior(runID string) string {
	i := len(runID)
	for i > 0 && runID[i-1] >= '0' && runID[i-1] <= '9' {
		i--
	}
	n, err := strconv.Atoi(runID[i:])
	if err != nil || n%2 == 0 {
		return Solve
	}
	return WrongFix
}

// tryForbidden runs the commands a careless agent might run after a
// change; each is expected to fail.
func (b *backend) tryForbidden() {
	for _, argv := range [][]string{
		{"git", "push", "origin", "HEAD"},
		{"git", "remote", "add", "upstream", "https://example.invalid/repo.git"},
		{"gh", "pr", "create", "--fill"},
	} {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = b.spec.Workspace
		out, err := cmd.CombinedOutput()
		fmt.Fprintf(b.log, "fake backend: %s: err=%v: %s\n", strings.Join(argv, " "), err, strings.TrimSpace(string(out)))
	}
}

// mutateSource writes into the repository the workspace's git common
// directory belongs to, when that lies outside the workspace.
func (b *backend) mutateSource() {
	out, err := exec.Command("git", "-C", b.spec.Workspace, "rev-parse", "--path-format=absolute", "--git-common-dir").Output()
	if err != nil {
		fmt.Fprintf(b.log, "fake backend: no git common directory: %v\n", err)
		return
	}
	src := filepath.Dir(strings.TrimSpace(string(out)))
	if rel, err := filepath.Rel(b.spec.Workspace, src); err == nil && !strings.HasPrefix(rel, "..") {
		fmt.Fprintln(b.log, "fake backend: the workspace has no source outside it")
		return
	}
	err = os.WriteFile(filepath.Join(src, SourceMutationFile), []byte("written into the source repository by the fake backend\n"), 0o644)
	fmt.Fprintf(b.log, "fake backend: wrote into the source %s: err=%v\n", src, err)
}
