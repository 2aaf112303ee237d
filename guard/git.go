package guard

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// gitTimeout bounds one git call: a hung filesystem must not hang the guard.
const gitTimeout = 30 * time.Second

// readOnlyConfig are the options every git call of the guard starts with.
// Nothing the repository's own configuration names runs: no fsmonitor
// (a program), no hooks, no untracked cache or index written. Filter
// drivers are switched off per call (filterOff), since git status may
// run a clean filter on a file whose stat data changed.
var readOnlyConfig = []string{
	"-c", "core.fsmonitor=false",
	"-c", "core.hooksPath=/dev/null",
	"-c", "core.untrackedCache=false",
	"-c", "core.preloadIndex=false",
	"-c", "core.splitIndex=false",
	"-c", "gc.auto=0",
	"-c", "maintenance.auto=false",
	"-c", "log.showSignature=false",
	"-c", "gpg.program=false",
	"-c", "core.pager=cat",
	"-c", "diff.external=",
	// The guard checks repositories other users own; nothing above runs
	// a program the repository's configuration names, which is what
	// git's ownership check protects against.
	"-c", "safe.directory=*",
	"-c", "status.showUntrackedFiles=normal",
	"-c", "status.relativePaths=false",
}

// git runs read-only git commands against one repository, with a clean
// environment: no system or global configuration, no optional locks (so
// no index refresh), no prompts, no replace objects, and only PATH kept.
type git struct {
	dir  string   // where git runs (-C)
	opts []string // readOnlyConfig plus the filter overrides
	env  []string
}

func newGit(dir string) *git {
	return &git{
		dir:  dir,
		opts: readOnlyConfig,
		env: []string{
			"PATH=" + os.Getenv("PATH"),
			"HOME=/nonexistent",
			"LANG=C",
			"LC_ALL=C",
			"GIT_CONFIG_NOSYSTEM=1",
			"GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_OPTIONAL_LOCKS=0",
			"GIT_TERMINAL_PROMPT=0",
			"GIT_NO_REPLACE_OBJECTS=1",
			"GIT_NO_LAZY_FETCH=1",
			"GIT_ATTR_NOSYSTEM=1",
			"GIT_PAGER=cat",
			// The repository is the directory given, never one above it:
			// a subdirectory of a worktree, or a directory that is not a
			// repository inside one that is, is unreadable, not guarded
			// in the enclosing repository's stead.
			"GIT_CEILING_DIRECTORIES=" + filepath.Dir(dir),
		},
	}
}

// in returns the same runner working in another directory.
func (g *git) in(dir string) *git {
	c := *g
	c.dir = dir
	return &c
}

// run runs git with args and returns its standard output.
func (g *git) run(args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	full := append(append([]string{"--no-optional-locks", "-C", g.dir}, g.opts...), args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Env = g.env
	cmd.Stdin = nil
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out.Bytes(), nil
}

// filterOff switches off every filter driver the repository configures:
// an empty clean, smudge and process command and required=false make git
// compare the bytes on disk as they are, so no program the repository
// names runs. The driver names come from the configuration alone.
func (g *git) filterOff() error {
	// Read afresh each time: a filter configured since the last
	// snapshot is switched off too.
	g.opts = readOnlyConfig
	out, err := g.run("config", "--name-only", "--get-regexp", `^filter\.`)
	if err != nil {
		// Exit 1 means no such variable: nothing to switch off.
		if strings.Contains(err.Error(), "exit status 1") {
			return nil
		}
		return err
	}
	seen := map[string]bool{}
	opts := append([]string{}, readOnlyConfig...)
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		i := strings.LastIndexByte(line, '.')
		if !strings.HasPrefix(line, "filter.") || i <= len("filter.") {
			continue
		}
		name := line[len("filter."):i]
		if seen[name] {
			continue
		}
		seen[name] = true
		for _, k := range []string{"clean", "smudge", "process"} {
			opts = append(opts, "-c", "filter."+name+"."+k+"=")
		}
		opts = append(opts, "-c", "filter."+name+".required=false")
	}
	g.opts = opts
	return nil
}
