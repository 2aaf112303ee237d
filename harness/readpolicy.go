package harness

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/internal/proc"
)

// systemReadDirs are the system directories a confined process may read
// and execute beneath: programs, libraries and the kernel's pseudo file
// systems. /tmp, /home, /root, /var and /run are not among them: they hold
// other users' and the user's own files. Nor are /etc and /dev: only the
// entries below are (a harness run as root would otherwise hand the
// backend /etc/shadow, the ssh host keys, /etc/ssl/private, and the
// user's terminal under /dev/pts to read keystrokes from).
var systemReadDirs = []string{
	"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt",
	"/proc", "/sys", "/run/systemd/resolve", "/nix/store",
	// Configuration a toolchain reads, and nothing secret.
	"/etc/ld.so.conf.d", "/etc/ssl/certs", "/etc/ca-certificates", "/etc/pki/tls/certs",
	"/etc/pki/ca-trust", "/etc/perl", "/etc/alternatives", "/etc/fonts",
}

// systemReadFiles are the single system files a confined process may
// read: the dynamic loader's configuration, name resolution, users and
// groups (not their passwords), time zone, locale, certificates and the
// system-wide settings of git and OpenSSL. A missing one is skipped.
var systemReadFiles = []string{
	"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.preload",
	"/etc/resolv.conf", "/etc/hosts", "/etc/host.conf", "/etc/nsswitch.conf", "/etc/gai.conf",
	"/etc/services", "/etc/protocols", "/etc/networks",
	"/etc/passwd", "/etc/group",
	"/etc/localtime", "/etc/timezone", "/etc/locale.alias", "/etc/locale.conf", "/etc/default/locale",
	"/etc/os-release", "/etc/lsb-release", "/etc/debian_version", "/etc/mime.types", "/etc/magic",
	"/etc/ssl/openssl.cnf", "/etc/ca-certificates.conf", "/etc/gitconfig", "/etc/inputrc",
	// Harmless devices (/dev/null is writable).
	"/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
}

// readPolicy lists what a confined process may read beyond the paths it
// may write: the system directories, the directories on the backend's
// PATH, the Go toolchain and module cache, the lane's installation, the
// fake lane's solution and the backend's own input files. It leaves out
// the user's home (but for those directories), the runs root, and any
// directory that holds one of them: a PATH entry such as $HOME or / is
// skipped, not widened to.
func (r *run) readPolicy(env []string) (dirs, files []string) {
	home := realDir(proc.EnvValue(r.opt.Environ, "HOME"))
	runs := realDir(filepath.Dir(r.dir))
	add := func(d string) {
		d = realDir(d)
		if d == "" || d == "/" || slices.Contains(dirs, d) {
			return
		}
		for _, keep := range []string{home, runs} {
			if keep != "" && pathWithin(keep, d) {
				return // d is keep or holds it
			}
		}
		dirs = append(dirs, d)
	}
	for _, d := range systemReadDirs {
		add(d)
	}
	for _, d := range filepath.SplitList(r.backendPath()) {
		if filepath.IsAbs(d) {
			add(d)
		}
	}
	if goBin, err := proc.LookPath("go", r.backendPath()); err == nil {
		if real, err := filepath.EvalSymlinks(goBin); err == nil {
			root := filepath.Dir(filepath.Dir(real))
			if _, err := os.Stat(filepath.Join(root, "src", "runtime")); err == nil {
				add(root) // GOROOT
			}
		}
	}
	for _, k := range []string{"GOMODCACHE"} {
		if v := proc.EnvValue(env, k); filepath.IsAbs(v) {
			add(v)
		}
	}
	// The host build cache the private GOCACHEPROG reads from.
	if v := goCacheEnv(r.opt.Environ, filepath.Dir(r.dir))["GOCACHE"]; filepath.IsAbs(v) {
		add(v)
	}
	// The verified build outputs the runs of one comparison share; only
	// the harness's warm-up writes them.
	if d := r.opt.SharedGoCache; filepath.IsAbs(d) {
		add(d)
	}
	if r.lane != nil {
		for _, p := range []string{r.lane.program, r.lane.node} {
			if d := installRoot(p); d != "" {
				add(d)
			}
		}
	}
	if r.c != nil && r.c.FakeSolution != "" && filepath.IsAbs(r.c.FakeSolution) {
		add(r.c.FakeSolution)
	}
	if d := gitCommonDir(r.ws); d != "" {
		add(d) // a worktree's repository (stages 5 and 6): git needs it
	}
	add(filepath.Join(r.dir, evidence.BackendDir))
	add(filepath.Join(r.tmp, "shims"))
	for _, f := range systemReadFiles {
		if real := realEntry(f); real != "" && !slices.Contains(files, real) {
			files = append(files, real)
		}
	}
	if len(r.opt.SandboxCommand) > 0 {
		if f := realFile(r.opt.SandboxCommand[0]); f != "" {
			files = append(files, f) // the GOCACHEPROG and the fake lane
		}
	}
	return dirs, files
}

// gitCommonDir is the git directory a worktree at ws shares with its
// repository ("gitdir: ..." in ws/.git, then its commondir), or "" when
// ws is not a linked worktree.
func gitCommonDir(ws string) string {
	data, err := os.ReadFile(filepath.Join(ws, ".git"))
	if err != nil {
		return "" // a directory (a clone of its own) or nothing
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return ""
	}
	gitdir = strings.TrimSpace(gitdir)
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(ws, gitdir)
	}
	common := gitdir
	if c, err := os.ReadFile(filepath.Join(gitdir, "commondir")); err == nil {
		if common = strings.TrimSpace(string(c)); !filepath.IsAbs(common) {
			common = filepath.Join(gitdir, common)
		}
	}
	return filepath.Clean(common)
}

// installRoot is the directory a program needs to run from: the outermost
// node_modules above it (an npm-installed CLI needs its dependencies), a
// Node installation's root (bin/..), or else the directory it is in.
func installRoot(prog string) string {
	if prog == "" || !filepath.IsAbs(prog) {
		return ""
	}
	for _, p := range []string{prog, realFile(prog)} {
		if i := strings.Index(p, string(filepath.Separator)+"node_modules"+string(filepath.Separator)); i >= 0 {
			return p[:i+len("/node_modules")]
		}
	}
	real := realFile(prog)
	if real == "" {
		return ""
	}
	dir := filepath.Dir(real)
	if filepath.Base(dir) == "bin" {
		if root := filepath.Dir(dir); isDir(filepath.Join(root, "lib", "node_modules")) {
			return root
		}
	}
	return dir
}

// pathWithin reports whether path is dir or beneath it.
func pathWithin(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel) || rel == "."
}

// realDir is d with its links resolved, "" unless it is an existing
// directory given as an absolute path.
func realDir(d string) string {
	if d == "" || !filepath.IsAbs(d) {
		return ""
	}
	real, err := filepath.EvalSymlinks(d)
	if err != nil || !isDir(real) {
		return ""
	}
	return real
}

// realFile is f with its links resolved, "" unless it is an existing
// regular file.
func realFile(f string) string {
	real, err := filepath.EvalSymlinks(f)
	if err != nil {
		return ""
	}
	if info, err := os.Stat(real); err != nil || !info.Mode().IsRegular() {
		return ""
	}
	return real
}

func isDir(d string) bool {
	info, err := os.Stat(d)
	return err == nil && info.IsDir()
}

// realEntry is f with its links resolved, "" unless it exists and is not
// a directory (a device such as /dev/urandom counts).
func realEntry(f string) string {
	real, err := filepath.EvalSymlinks(f)
	if err != nil {
		return ""
	}
	if info, err := os.Stat(real); err != nil || info.IsDir() {
		return ""
	}
	return real
}
