package harness

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/svrnty/sotvet/harness/sandbox"
)

// privateGoCache gives the go commands of a run a build cache of their own:
// GOCACHE in the run's scratch directory, and a GOCACHEPROG ("sotvet
// harness gocache") that also reads the host's cache, never writing it.
// A confined process then has nothing outside the run directory to write,
// and nothing it builds can poison the user's cache, while builds stay
// warm. The module cache stays as it is: read-only under Landlock, and
// GOPROXY=off keeps the go command from filling it.
//
// The backend and the verification get different caches: the backend's
// (tmp/gocache) is writable to it, so the verification, which must trust
// what it reads, builds through a cache of its own (verifyCache) that no
// backend process could reach. Both also read the comparison's shared
// cache (Options.SharedGoCache), which only the harness's build of the
// pristine case wrote.
func (r *run) privateGoCache(cache map[string]string) {
	if len(r.opt.SandboxCommand) == 0 || r.tmp == "" {
		return // no harness binary to serve the cache: leave it shared
	}
	exe := r.opt.SandboxCommand[0]
	own := r.backendCache()
	if r.verifyCache != "" {
		own = r.verifyCache
	}
	var reads []string
	if d := r.opt.SharedGoCache; d != "" {
		reads = append(reads, d) // read-only: only WarmGoCache writes it
	}
	host := cache["GOCACHE"]
	if info, err := os.Stat(host); err == nil && info.IsDir() && filepath.IsAbs(host) {
		reads = append(reads, host)
	}
	prog, ok := goCacheProg(exe, own, reads)
	if !ok {
		return
	}
	cache["GOCACHE"], cache["GOCACHEPROG"] = own, prog
}

// goCacheProg is the GOCACHEPROG command line that writes to own and
// reads from own, then reads in order; ok is false when a path holds
// white space (the go command splits GOCACHEPROG at spaces).
func goCacheProg(exe, own string, reads []string) (string, bool) {
	prog := exe + " harness gocache --dir " + own
	for _, d := range reads {
		if !filepath.IsAbs(d) {
			return "", false
		}
		prog += " --read " + d
	}
	if strings.ContainsAny(strings.Join(append([]string{exe, own}, reads...), ""), " \t\n") {
		return "", false
	}
	return prog, true
}

// backendCache is the build cache the backend writes through.
func (r *run) backendCache() string { return filepath.Join(r.tmp, "gocache") }

// startVerifyCache makes the verification's build cache: a new directory
// with a name no backend could have guessed, made after the backend and
// its descendants ended, beside (never beneath) the backend's writable
// directories. It returns the policy the verification runs under: the
// backend's, with the backend's build cache swapped for this one, so that
// nothing the backend planted there is read, and the backend's cache is
// not even writable to the verification. It fails, and the verification
// must not run, when the directory cannot be made: the go commands would
// otherwise build through the backend's cache.
func (r *run) startVerifyCache() (*sandbox.Policy, error) {
	if len(r.opt.SandboxCommand) == 0 || r.tmp == "" {
		return r.policy, nil // no private caches at all (see privateGoCache)
	}
	dir, err := os.MkdirTemp(r.tmp, "verify-gocache-")
	if err != nil {
		r.tr("verification.gocache", map[string]any{"error": err.Error()})
		return nil, err
	}
	r.verifyCache = dir
	r.tr("verification.gocache", map[string]any{"dir": dir, "shared": r.opt.SharedGoCache})
	if r.policy == nil {
		return nil, nil
	}
	p := *r.policy
	p.Dirs = slices.DeleteFunc(slices.Clone(p.Dirs), func(d string) bool { return d == r.backendCache() })
	p.Dirs = append(p.Dirs, dir)
	return &p, nil
}
