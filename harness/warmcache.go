package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/svrnty/sotvet/harness/contract"
	"github.com/svrnty/sotvet/harness/internal/proc"
	"github.com/svrnty/sotvet/harness/internal/tree"
	"github.com/svrnty/sotvet/harness/sandbox"
)

// Warmup is what WarmGoCache did.
type Warmup struct {
	Commands int  // verification commands run
	Confined bool // under Landlock
}

// WarmGoCache fills dir, the shared build cache of one comparison's runs
// (Options.SharedGoCache), by running the case's verification commands on
// a pristine copy of the case's repository, before any backend has run.
// The runs then read what this build compiled (the standard library, the
// module's dependencies) instead of each compiling it again from a cold
// host cache, and never write it.
//
// The cache holds nothing a backend wrote, nor anything a run's own
// verification wrote: a verification executes the backend's code, which
// could plant entries (a passing test result) that other runs would then
// trust. Only this build, of the case's own code, writes here; a
// comparison has one case, so nothing crosses cases, and the directory is
// the comparison's, so nothing crosses users.
//
// The commands' outcome does not matter (the pristine case usually fails
// its tests): what they compiled is kept. They run confined as a run's
// verification would, and not at all when the run would be blocked for
// want of a sandbox.
func WarmGoCache(ctx context.Context, opt Options, dir string) (Warmup, error) {
	var w Warmup
	c, err := contract.Load(opt.CaseDir)
	if err != nil {
		return w, err
	}
	if len(opt.SandboxCommand) == 0 || !filepath.IsAbs(dir) {
		return w, fmt.Errorf("a shared build cache needs the gocache command and an absolute directory")
	}
	sb := sandbox.Decide(opt.Sandbox, sandbox.EffectiveABI(opt.Environ), true)
	if sb.Blocked {
		return w, nil // the runs will be blocked: nothing to warm
	}
	scratch, err := os.MkdirTemp(filepath.Dir(dir), ".warm-")
	if err != nil {
		return w, err
	}
	defer os.RemoveAll(scratch)
	ws, home, tmp := filepath.Join(scratch, "workspace"), filepath.Join(scratch, "home"), filepath.Join(scratch, "tmp")
	if err := tree.Copy(c.RepoPath(), ws); err != nil {
		return w, err
	}
	for _, d := range []string{home, tmp, dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return w, err
		}
	}
	if err := goTelemetryOff(home); err != nil {
		return w, err
	}
	path := proc.EnvValue(opt.Environ, "PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	env := []string{"PATH=" + path, "HOME=" + home, "TMPDIR=" + tmp, "GOTOOLCHAIN=local", "GOPROXY=off", "GOTELEMETRY=off", "GOENV=off", "LANG=C.UTF-8"}
	cache := goCacheEnv(opt.Environ, filepath.Dir(dir))
	var reads []string
	if host := cache["GOCACHE"]; filepath.IsAbs(host) {
		if info, err := os.Stat(host); err == nil && info.IsDir() {
			reads = append(reads, host)
		}
	}
	prog, ok := goCacheProg(opt.SandboxCommand[0], dir, reads)
	if !ok {
		return w, fmt.Errorf("the shared build cache's path holds white space: %s", dir)
	}
	cache["GOCACHE"], cache["GOCACHEPROG"] = dir, prog
	for k, v := range cache {
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	// The case's own tests are untrusted input too: no network, no unix
	// socket, their own namespaces.
	policy := sandbox.Policy{Dirs: []string{ws, home, tmp, dir}, Files: []string{os.DevNull}, NoUnixSockets: sandbox.UnixSocketFilterSupported(), LoopbackUp: true}
	for _, cmd := range c.Verification {
		argv := cmd.Argv
		if sb.Confine {
			prog, err := proc.LookPath(argv[0], path)
			if err != nil {
				continue
			}
			argv = sandbox.Wrap(opt.SandboxCommand, policy, prog, argv)
			w.Confined = true
		}
		pr := proc.Run(ctx, proc.Spec{Argv: argv, Dir: ws, Env: env, Timeout: c.VerificationTimeout, Contain: true, Isolate: true, NoNetwork: true, OwnLoopback: sb.Confine})
		if pr.Started {
			w.Commands++
		}
	}
	return w, ctx.Err()
}

// GoCacheShare hands the runs of one comparison (or matrix) a shared
// build cache per case, each warmed once by WarmGoCache before the first
// of the case's runs, beneath Root; Close removes them all.
//
// Once Plan has been told of the runs, a case with a single run gets no
// shared cache: the warm-up is a whole verification of the pristine case
// (a go test, about as dear as the run's own), and with no second run to
// read it, it would only add that cost. Its one run reads the host's
// cache, as a lone `harness run` does.
type GoCacheShare struct {
	Root string

	mu      sync.Mutex
	cases   map[string]*sharedCache
	planned map[string]int // runs per case, once Plan was called
}

// Plan tells s of one run of caseDir to come; call it for every run
// before the first For.
func (s *GoCacheShare) Plan(caseDir string) {
	key, err := filepath.Abs(caseDir)
	if s == nil || err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.planned == nil {
		s.planned = map[string]int{}
	}
	s.planned[key]++
}

type sharedCache struct {
	once sync.Once
	want string // where it goes
	dir  string // want, once warmed; empty when the warm-up failed
}

// For warms, the first time it is asked about opt's case, that case's
// shared cache and returns opt with SharedGoCache set; opt unchanged when
// there is nothing to share (no gocache command, a failed warm-up).
func (s *GoCacheShare) For(ctx context.Context, opt Options) Options {
	if s == nil || opt.SharedGoCache != "" || len(opt.SandboxCommand) == 0 || !EngineGateOpen(opt) {
		return opt // a run its engine gate blocks verifies nothing
	}
	key, err := filepath.Abs(opt.CaseDir)
	if err != nil {
		return opt
	}
	s.mu.Lock()
	if s.planned != nil && s.planned[key] < 2 {
		s.mu.Unlock()
		return opt // nothing to share it with
	}
	if s.cases == nil {
		s.cases = map[string]*sharedCache{}
	}
	sc, ok := s.cases[key]
	if !ok {
		sc = &sharedCache{want: filepath.Join(s.Root, fmt.Sprintf(".gocache-%d", len(s.cases)+1))}
		s.cases[key] = sc
	}
	s.mu.Unlock()
	sc.once.Do(func() {
		if _, err := WarmGoCache(ctx, opt, sc.want); err == nil {
			sc.dir = sc.want
		}
	})
	opt.SharedGoCache = sc.dir
	return opt
}

// EngineGateOpen reports whether a run with opt passes the preflight's
// engine gates (enabled or explicitly allowed, and executable): one that
// does not is blocked before any copy or process, and verifies nothing.
func EngineGateOpen(opt Options) bool {
	name, e, _, ok := opt.engine()
	return ok && (e.Enabled || slices.Contains(opt.AllowEngines, name)) && e.Executable
}

// Close removes the shared caches.
func (s *GoCacheShare) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, sc := range s.cases {
		errs = append(errs, os.RemoveAll(sc.want))
	}
	return errors.Join(errs...)
}
