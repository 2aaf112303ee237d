// Package safegittest builds, for tests, a repository whose configuration
// names a marker program in every place git could run one from.
package safegittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Hostile is a hostile repository and its marker.
type Hostile struct {
	Dir    string // the work tree
	Linked string // a linked worktree, with a hostile config.worktree
	Marker string // the file the marker program appends to when run
}

// Ran reports what the marker recorded ("" when it never ran).
func (h Hostile) Ran() string {
	b, _ := os.ReadFile(h.Marker)
	return string(b)
}

// setupGit runs git for the test's own setup, with the repository's config
// not yet hostile (it is written last).
func setupGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// New builds the repository in a temporary directory: a committed file
// whose stat data is stale (so git would re-hash it through a clean
// filter), a staged change, an embedded repository (a submodule) with a
// hostile config of its own, and a config (plus config.worktree, an
// [include] and an [includeIf] file, hooks and core.hooksPath) where every
// program-naming key runs the marker.
func New(t *testing.T) Hostile {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	base := t.TempDir()
	h := Hostile{Dir: filepath.Join(base, "repo"), Marker: filepath.Join(base, "MARKER")}
	prog := filepath.Join(base, "marker.sh")
	script := "#!/bin/sh\necho \"$0 $*\" >> '" + h.Marker + "'\ncat\n"
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(h.Dir, 0o755)
	setupGit(t, h.Dir, "init", "-q")
	write(filepath.Join(h.Dir, "a.md"), "# a\n")
	write(filepath.Join(h.Dir, "b.md"), "# b\n")
	write(filepath.Join(h.Dir, ".gitattributes"), "* filter=x=y diff=t merge=m\n*.md filter=p\n")
	sub := filepath.Join(h.Dir, "sm")
	os.MkdirAll(sub, 0o755)
	setupGit(t, sub, "init", "-q")
	write(filepath.Join(sub, "s.md"), "s\n")
	setupGit(t, sub, "add", ".")
	setupGit(t, sub, "commit", "-qm", "s")
	setupGit(t, h.Dir, "add", ".")
	setupGit(t, h.Dir, "commit", "-qm", "base")
	write(filepath.Join(h.Dir, "b.md"), "# b staged\n")
	setupGit(t, h.Dir, "add", "b.md")
	// Stale stat data: the same bytes, a new modification time.
	for _, p := range []string{filepath.Join(h.Dir, "a.md"), filepath.Join(sub, "s.md")} {
		b, _ := os.ReadFile(p)
		os.WriteFile(p, b, 0o644)
	}

	h.Linked = filepath.Join(base, "linked")
	setupGit(t, h.Dir, "worktree", "add", "-q", h.Linked, "-b", "side")

	hooks := filepath.Join(base, "hooks")
	for _, n := range []string{"pre-commit", "post-checkout", "post-index-change", "reference-transaction", "fsmonitor-watchman", "pre-auto-gc", "post-rewrite"} {
		write(filepath.Join(hooks, n), script)
		os.Chmod(filepath.Join(hooks, n), 0o755)
		write(filepath.Join(h.Dir, ".git", "hooks", n), script)
		os.Chmod(filepath.Join(h.Dir, ".git", "hooks", n), 0o755)
	}
	keys := Keys(prog, hooks)
	cfg := "[core]\n\trepositoryformatversion = 1\n\tbare = false\n" +
		"[extensions]\n\tworktreeConfig = true\n\tpartialClone = origin\n" +
		"[remote \"origin\"]\n\turl = ssh://git@example.invalid/r.git\n\tpromisor = true\n\tpartialclonefilter = blob:none\n" +
		"[include]\n\tpath = " + filepath.Join(base, "inc.cfg") + "\n" +
		"[includeIf \"gitdir:/\"]\n\tpath = " + filepath.Join(base, "incif.cfg") + "\n" +
		"[includeIf \"onbranch:main\"]\n\tpath = " + filepath.Join(base, "incif.cfg") + "\n" +
		configText(keys)
	write(filepath.Join(h.Dir, ".git", "config"), cfg)
	write(filepath.Join(h.Dir, ".git", "config.worktree"), configText(keys))
	write(filepath.Join(h.Dir, ".git", "worktrees", "linked", "config.worktree"), configText(keys))
	write(filepath.Join(base, "inc.cfg"), configText(keys))
	write(filepath.Join(base, "incif.cfg"), configText(keys))
	// The embedded repository's own config is hostile too.
	write(filepath.Join(sub, ".git", "config"), "[core]\n\trepositoryformatversion = 0\n"+configText(keys))
	return h
}

// Keys are the program-naming keys, each set to the marker (hooksPath to
// a directory of marker hooks).
func Keys(prog, hooks string) [][2]string {
	return [][2]string{
		{`filter "x=y".clean`, prog}, {`filter "x=y".smudge`, prog}, {`filter "x=y".required`, "true"},
		{`filter "p".process`, prog}, {`filter "p".required`, "true"},
		{`filter "lfs".clean`, prog}, {`filter "lfs".process`, prog},
		{"core.fsmonitor", prog}, {"core.hooksPath", hooks},
		{"core.sshCommand", prog}, {"core.pager", prog}, {"core.editor", prog},
		{"core.askPass", prog}, {"core.gitProxy", prog},
		{"core.alternateRefsCommand", prog},
		{"core.untrackedCache", "true"},
		{"diff.external", prog}, {`diff "t".textconv`, prog}, {`diff "t".command`, prog},
		{`merge "m".driver`, prog},
		{"credential.helper", prog}, {"credential.helper", "!" + prog},
		{"gpg.program", prog}, {`gpg "ssh".program`, prog}, {"log.showSignature", "true"},
		{"pager.status", prog}, {"pager.diff", prog}, {"pager.log", prog},
		{"sequence.editor", prog}, {"uploadpack.packObjectsHook", prog},
		{"status.submoduleSummary", "true"}, {"diff.ignoreSubmodules", "none"},
		{"submodule.recurse", "true"}, {"fetch.recurseSubmodules", "true"},
		{"gc.auto", "1"}, {"maintenance.auto", "true"},
		{"alias.st", "!" + prog},
	}
}

// configText writes keys as config sections, one section per key.
func configText(keys [][2]string) string {
	var b strings.Builder
	for _, kv := range keys {
		k := kv[0]
		var section, name string
		if q := strings.IndexByte(k, '"'); q >= 0 {
			end := strings.LastIndexByte(k, '"')
			section = k[:end+1]
			name = strings.TrimPrefix(k[end+1:], ".")
		} else {
			dot := strings.LastIndexByte(k, '.')
			section, name = k[:dot], k[dot+1:]
		}
		b.WriteString("[" + section + "]\n\t" + name + " = \"" + strings.ReplaceAll(kv[1], `"`, `\"`) + "\"\n")
	}
	return b.String()
}
