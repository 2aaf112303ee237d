// Package safegit runs git on a repository without letting the repository
// choose a program for git to run, and with a deadline on every git
// process. It is the one way sotvet starts git on a repository it reads
// (the guard's, the workspace's).
//
// Why a shadow directory. A repository's configuration can name programs
// in many places: filter drivers (whose names may hold "=" and so defeat
// per-name -c overrides), process filters, core.fsmonitor, hooks and
// core.hooksPath, diff.external, textconv, core.sshCommand, credential
// helpers, gpg.program, core.pager, core.alternateRefsCommand, the fetch a
// partial clone makes, and any of those again in config.worktree or in a
// file an [include] or [includeIf] names. Git has no switch that ignores
// the repository's own config, and switching the keys off one by one is a
// list that is never complete. So git never sees that config: sotvet finds
// the repository itself (no git involved), writes a shadow git directory
// holding a config of the few kept keys (see kept in config.go) and links
// to the real refs, packed-refs and info, and runs git with GIT_DIR (and
// GIT_COMMON_DIR) pointing at the shadow, GIT_OBJECT_DIRECTORY at the real
// objects, GIT_INDEX_FILE at the real index and GIT_WORK_TREE at the real
// work tree. With GIT_CONFIG_NOSYSTEM and GIT_CONFIG_GLOBAL=/dev/null no
// other configuration is read either.
//
// Two more locks, for what the configuration does not control: PATH and
// GIT_EXEC_PATH name an empty directory, so that git cannot start another
// git (it would do so for a submodule, whose own configuration would then
// be read); and an explicit GIT_DIR means git's ownership check
// (safe.directory) is never needed, so sotvet never sets safe.directory=*:
// a repository of another user is read, and nothing of it runs.
//
// Every git process has a deadline (Timeout), and the files git would
// open first and could block on (HEAD, the index, config, .gitignore,
// .gitattributes, info/exclude) are refused unless they are regular files.
package safegit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Timeout bounds one git process; a variable so that tests can shorten it.
var Timeout = 30 * time.Second

// Options say how Open finds the repository.
type Options struct {
	// Exact: dir itself is the repository's work tree or git directory;
	// no directory above it is looked at, and the environment's GIT_DIR,
	// GIT_WORK_TREE and GIT_INDEX_FILE are ignored (the guard).
	Exact bool
}

// Repo is a repository found on disk and the shadow git directory that
// sotvet runs git in.
type Repo struct {
	GitDir   string // the git directory of this work tree (real)
	Common   string // the common git directory (real)
	WorkTree string // "" for a bare repository
	Bare     bool

	git      string // absolute path of the git program
	shadow   string // the temporary directory holding the shadow
	gitDir   string // shadow git directory for this work tree
	common   string // shadow common directory
	index    string // the index git reads
	excludes string // the user's own excludes file, or ""
	owner    bool   // Close removes the shadow
}

// ErrNoRepository is returned by Open when dir lies in no repository.
var ErrNoRepository = errors.New("not in a git repository")

var (
	gitPathOnce sync.Once
	gitPath     string
	gitPathErr  error
)

// GitPath returns the git program, looked up once in the caller's PATH.
func GitPath() (string, error) {
	gitPathOnce.Do(func() {
		gitPath, gitPathErr = exec.LookPath("git")
		if gitPathErr == nil {
			gitPath, gitPathErr = filepath.Abs(gitPath)
		}
	})
	return gitPath, gitPathErr
}

// Find finds the repository holding dir, as git's discovery would, by
// reading the file system only: no process starts. Its GitDir, Common,
// WorkTree and Bare are set; it cannot run git (Open can).
func Find(dir string, opt Options) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	r := &Repo{}
	if err := r.locate(abs, opt); err != nil {
		return nil, err
	}
	return r, nil
}

// Open finds the repository holding dir and builds its shadow. Close it.
func Open(dir string, opt Options) (*Repo, error) {
	g, err := GitPath()
	if err != nil {
		return nil, err
	}
	r, err := Find(dir, opt)
	if err != nil {
		return nil, err
	}
	r.git, r.owner = g, true
	if err := r.build(opt); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// locate fills GitDir, Common, WorkTree and Bare.
func (r *Repo) locate(dir string, opt Options) error {
	if !opt.Exact {
		if env := os.Getenv("GIT_DIR"); env != "" {
			gd, err := filepath.Abs(env)
			if err != nil {
				return err
			}
			r.GitDir, r.WorkTree = gd, dir
			if wt := os.Getenv("GIT_WORK_TREE"); wt != "" {
				if r.WorkTree, err = filepath.Abs(wt); err != nil {
					return err
				}
			}
			return r.setCommon()
		}
	}
	ceilings := map[string]bool{}
	if !opt.Exact {
		for _, c := range filepath.SplitList(os.Getenv("GIT_CEILING_DIRECTORIES")) {
			if c != "" && filepath.IsAbs(c) {
				ceilings[filepath.Clean(c)] = true
			}
		}
	}
	dev := deviceOf(dir)
	for d := dir; ; {
		found, err := r.tryDir(d)
		if err != nil {
			return err
		}
		if found {
			return r.setCommon()
		}
		parent := filepath.Dir(d)
		if opt.Exact || parent == d || ceilings[parent] {
			return fmt.Errorf("%s: %w", dir, ErrNoRepository)
		}
		if os.Getenv("GIT_DISCOVERY_ACROSS_FILESYSTEM") == "" && deviceOf(parent) != dev {
			return fmt.Errorf("%s: %w (stopped at the file system boundary)", dir, ErrNoRepository)
		}
		d = parent
	}
}

// tryDir looks for a repository at d: d/.git (a directory, or a file
// naming one), or d being a git directory itself.
func (r *Repo) tryDir(d string) (bool, error) {
	dotgit := filepath.Join(d, ".git")
	info, err := os.Lstat(dotgit)
	if err == nil && info.Mode()&fs.ModeSymlink != 0 {
		// A linked .git: git follows it to the directory (or file).
		if info, err = os.Stat(dotgit); err == nil && info.IsDir() {
			if real, err := filepath.EvalSymlinks(dotgit); err == nil {
				dotgit = real
			}
		}
	}
	switch {
	case err == nil && info.IsDir():
		if isGitDir(dotgit) {
			r.GitDir, r.WorkTree = dotgit, d
			return true, nil
		}
	case err == nil && info.Mode().IsRegular():
		b, err := ReadFile(dotgit, 4096)
		if err != nil {
			return false, err
		}
		target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
		if !ok {
			return false, fmt.Errorf("%s: not a gitdir file", dotgit)
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(d, target)
		}
		r.GitDir, r.WorkTree = filepath.Clean(target), d
		return true, nil
	case err == nil:
		return false, fmt.Errorf("%s is neither a directory nor a regular file", dotgit)
	}
	if isGitDir(d) {
		r.GitDir, r.Bare = d, true
		return true, nil
	}
	return false, nil
}

// isGitDir: a HEAD, and objects and refs (here or in the common directory).
func isGitDir(d string) bool {
	if _, err := os.Lstat(filepath.Join(d, "HEAD")); err != nil {
		return false
	}
	common := d
	if b, err := ReadFile(filepath.Join(d, "commondir"), 4096); err == nil {
		common = resolveIn(d, strings.TrimSpace(string(b)))
	}
	for _, n := range []string{"objects", "refs"} {
		if info, err := os.Stat(filepath.Join(common, n)); err != nil || !info.IsDir() {
			return false
		}
	}
	return true
}

func resolveIn(base, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p)
}

// setCommon reads GitDir/commondir, if any.
func (r *Repo) setCommon() error {
	r.Common = r.GitDir
	b, err := ReadFile(filepath.Join(r.GitDir, "commondir"), 4096)
	switch {
	case err == nil:
		r.Common = resolveIn(r.GitDir, strings.TrimSpace(string(b)))
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if !isGitDir(r.GitDir) {
		return fmt.Errorf("%s is not a git directory", r.GitDir)
	}
	return nil
}

// build writes the shadow: common/config (kept keys only), common/HEAD
// (a copy), links to refs, packed-refs, info and shallow; and, for a
// linked work tree, a directory of its own with its HEAD and refs.
func (r *Repo) build(opt Options) error {
	cfgData, err := ReadFile(filepath.Join(r.Common, "config"), 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		cfgData, err = nil, nil
	}
	if err != nil {
		return fmt.Errorf("reading the repository's config: %w", err)
	}
	entries, err := parseConfig(cfgData)
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(r.Common, "config"), err)
	}
	cfg, vals, err := shadowConfig(entries)
	if err != nil {
		return err
	}
	if vals["core.bare"] == "true" && r.GitDir == r.Common {
		r.Bare, r.WorkTree = true, ""
	}
	if !opt.Exact {
		if x := userExcludes(); x != "" {
			r.excludes = x
			cfg += "[core]\n\texcludesFile = " + quoteValue(x) + "\n"
		}
	}
	if r.shadow, err = os.MkdirTemp("", "sotvet-git-"); err != nil {
		return err
	}
	r.common = filepath.Join(r.shadow, "common")
	if err := os.Mkdir(r.common, 0o700); err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(r.shadow, "empty"), 0o500); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(r.common, "config"), []byte(cfg), 0o600); err != nil {
		return err
	}
	if err := copyHead(r.Common, r.common); err != nil {
		return err
	}
	if info, err := os.Lstat(filepath.Join(r.Common, "info", "exclude")); err == nil && !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", filepath.Join(r.Common, "info", "exclude"))
	}
	for _, n := range []string{"refs", "packed-refs", "info", "shallow"} {
		if err := linkIfPresent(filepath.Join(r.Common, n), filepath.Join(r.common, n)); err != nil {
			return err
		}
	}
	r.gitDir = r.common
	if r.GitDir != r.Common {
		if r.gitDir, err = r.linkedShadow(r.GitDir); err != nil {
			return err
		}
	}
	r.index = filepath.Join(r.GitDir, "index")
	if !opt.Exact {
		if ix := os.Getenv("GIT_INDEX_FILE"); ix != "" {
			if r.index, err = filepath.Abs(ix); err != nil {
				return err
			}
		}
	}
	if info, err := os.Lstat(r.index); err == nil && !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", r.index)
	}
	return nil
}

// linkedShadow makes the shadow git directory of a linked work tree
// whose real git directory is admin.
func (r *Repo) linkedShadow(admin string) (string, error) {
	d, err := os.MkdirTemp(r.shadow, "wt-")
	if err != nil {
		return "", err
	}
	if err := copyHead(admin, d); err != nil {
		return "", err
	}
	// git's ref store finds the shared refs through this file, not
	// through GIT_COMMON_DIR.
	if err := os.WriteFile(filepath.Join(d, "commondir"), []byte(r.common+"\n"), 0o600); err != nil {
		return "", err
	}
	return d, linkIfPresent(filepath.Join(admin, "refs"), filepath.Join(d, "refs"))
}

// Linked returns the repository as seen from its linked work tree at
// path, whose git directory is admin (COMMON/worktrees/NAME). It shares
// r's shadow: close r only.
func (r *Repo) Linked(admin, path string) (*Repo, error) {
	c := *r
	c.owner = false
	c.GitDir, c.WorkTree, c.Bare = admin, path, false
	var err error
	if c.gitDir, err = r.linkedShadow(admin); err != nil {
		return nil, err
	}
	c.index = filepath.Join(admin, "index")
	if info, err := os.Lstat(c.index); err == nil && !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", c.index)
	}
	return &c, nil
}

// Main returns the repository as seen from its main work tree at path
// (the common directory's own HEAD and index). It shares r's shadow.
func (r *Repo) Main(path string) (*Repo, error) {
	c := *r
	c.owner = false
	c.GitDir, c.gitDir, c.WorkTree, c.Bare = r.Common, r.common, path, path == ""
	c.index = filepath.Join(r.Common, "index")
	if info, err := os.Lstat(c.index); err == nil && !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", c.index)
	}
	return &c, nil
}

// copyHead copies from/HEAD into to/HEAD after checking it is a small
// regular file holding a ref or an object id: git would block on a FIFO.
func copyHead(from, to string) error {
	b, err := ReadFile(filepath.Join(from, "HEAD"), 4096)
	if err != nil {
		return err
	}
	s := strings.TrimSpace(string(b))
	if ref, ok := strings.CutPrefix(s, "ref: "); ok {
		if !strings.HasPrefix(ref, "refs/") || strings.Contains(ref, "..") {
			return fmt.Errorf("%s: HEAD names %q", from, ref)
		}
	} else if !isHex(s) {
		return fmt.Errorf("%s: HEAD is neither a ref nor an object id", from)
	}
	return os.WriteFile(filepath.Join(to, "HEAD"), []byte(s+"\n"), 0o600)
}

func isHex(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func linkIfPresent(target, link string) error {
	if _, err := os.Lstat(target); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	return os.Symlink(target, link)
}

// IndexFile is the index git reads.
func (r *Repo) IndexFile() string { return r.index }

// Close removes the shadow.
func (r *Repo) Close() error {
	if r == nil || !r.owner || r.shadow == "" {
		return nil
	}
	os.Chmod(filepath.Join(r.shadow, "empty"), 0o700)
	err := os.RemoveAll(r.shadow)
	r.shadow = ""
	return err
}

// Env is the whole environment of a git process: nothing of the caller's
// environment but what is listed here.
func (r *Repo) Env() []string {
	empty := filepath.Join(r.shadow, "empty")
	env := []string{
		"PATH=" + empty,
		"GIT_EXEC_PATH=" + empty,
		"HOME=" + empty,
		"XDG_CONFIG_HOME=" + empty,
		"LANG=C",
		"LC_ALL=C",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_NO_REPLACE_OBJECTS=1",
		"GIT_NO_LAZY_FETCH=1", // git >= 2.45; the dropped partialclone extension covers older ones
		"GIT_PAGER=cat",
		"GIT_DIR=" + r.gitDir,
		"GIT_OBJECT_DIRECTORY=" + filepath.Join(r.Common, "objects"),
		"GIT_INDEX_FILE=" + r.index,
	}
	if r.gitDir != r.common {
		env = append(env, "GIT_COMMON_DIR="+r.common)
	}
	if r.WorkTree != "" {
		env = append(env, "GIT_WORK_TREE="+r.WorkTree)
	}
	return env
}

// Command is git with args, run in dir ("" for the work tree, or the git
// directory of a bare repository), in the shadow's environment, killed at
// ctx's end. Its standard input is empty unless the caller sets one.
func (r *Repo) Command(ctx context.Context, dir string, args ...string) *exec.Cmd {
	if dir == "" {
		dir = r.WorkTree
		if dir == "" {
			dir = r.shadow
		}
	}
	cmd := exec.CommandContext(ctx, r.git, args...)
	cmd.Dir = dir
	cmd.Env = r.Env()
	cmd.WaitDelay = time.Second
	return cmd
}

// Run runs git with args in dir under the deadline and returns its
// standard output; extraEnv is added to the environment.
func (r *Repo) Run(dir string, extraEnv []string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	cmd := r.Command(ctx, dir, args...)
	cmd.Env = append(cmd.Env, extraEnv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("git %s: no answer within %s", args[0], Timeout)
		}
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

// ReadFile reads a regular file of at most limit bytes. It opens without
// blocking and without following a last-component link, then checks what
// it opened: a FIFO or a device is refused, never waited on.
func ReadFile(p string, limit int64) ([]byte, error) {
	f, err := OpenRegular(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.Size() > limit {
		return nil, fmt.Errorf("%s: larger than %d bytes", p, limit)
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

// OpenRegular opens p for reading if it is a regular file, refusing a
// link, a FIFO, a socket or a device without blocking on it.
func OpenRegular(p string) (*os.File, error) {
	fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("%s is a symbolic link", p)
		}
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	f := os.NewFile(uintptr(fd), p)
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file (%s)", p, kind(info.Mode()))
	}
	// Back to blocking reads: a regular file never blocks anyway.
	if err := syscall.SetNonblock(fd, false); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// CheckIgnoreFiles refuses, before git walks dir, any .gitignore or
// .gitattributes under it (or in the directories between the work tree's
// top and dir) that is not a regular file: git opens them with a blocking
// open, and a FIFO would hold it until its deadline.
func (r *Repo) CheckIgnoreFiles(dir string) error {
	if r.WorkTree == "" {
		return nil
	}
	bad := func(p string) error {
		if info, err := os.Lstat(p); err == nil && !info.Mode().IsRegular() && info.Mode()&fs.ModeSymlink == 0 {
			return fmt.Errorf("%s is not a regular file (%s): git would block reading it", p, kind(info.Mode()))
		}
		return nil
	}
	inside := func(d string) bool {
		return d == r.WorkTree || strings.HasPrefix(d, r.WorkTree+string(filepath.Separator))
	}
	for d := filepath.Dir(dir); inside(d) && d != dir; d = filepath.Dir(d) {
		for _, n := range []string{".gitignore", ".gitattributes"} {
			if err := bad(filepath.Join(d, n)); err != nil {
				return err
			}
		}
		if d == r.WorkTree {
			break
		}
	}
	if r.excludes != "" {
		if err := bad(r.excludes); err != nil {
			return err
		}
	}
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // git reports what it cannot read
		}
		if d.IsDir() {
			if d.Name() == ".git" && p != dir {
				return filepath.SkipDir
			}
			return nil
		}
		if n := d.Name(); (n == ".gitignore" || n == ".gitattributes") && !d.Type().IsRegular() && d.Type()&fs.ModeSymlink == 0 {
			return fmt.Errorf("%s is not a regular file (%s): git would block reading it", p, kind(d.Type()))
		}
		return nil
	})
}

// userExcludes is the user's own global excludes file, when it is a
// regular file: core.excludesFile of the user's global config (read by
// sotvet, not git), else git's default place.
func userExcludes() string {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	var path string
	for _, cfg := range []string{filepath.Join(xdg, "git", "config"), filepath.Join(home, ".gitconfig")} {
		if xdg == "" && strings.HasPrefix(cfg, "git") || home == "" && strings.HasSuffix(cfg, ".gitconfig") {
			continue
		}
		b, err := ReadFile(cfg, 1<<20)
		if err != nil {
			continue
		}
		entries, err := parseConfig(b)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.key == "core.excludesfile" {
				path = e.value
			}
		}
	}
	if path == "" && xdg != "" {
		path = filepath.Join(xdg, "git", "ignore")
	}
	if rest, ok := strings.CutPrefix(path, "~/"); ok && home != "" {
		path = filepath.Join(home, rest)
	}
	if path == "" || !filepath.IsAbs(path) {
		return ""
	}
	if info, err := os.Lstat(path); err != nil || !info.Mode().IsRegular() {
		return ""
	}
	return path
}

// kind names a file type for a message.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	}
	return "special file"
}

func quoteValue(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

func deviceOf(p string) uint64 {
	var st syscall.Stat_t
	if err := syscall.Stat(p, &st); err != nil {
		return 0
	}
	return uint64(st.Dev)
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
