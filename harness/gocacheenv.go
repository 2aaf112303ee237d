package harness

import (
	"os"
	"path/filepath"
	"strings"
)

// privateGoCache gives the go commands of a run a build cache of their own:
// GOCACHE in the run's scratch directory, and a GOCACHEPROG ("sotvet
// harness gocache") that also reads the host's cache, never writing it.
// A confined process then has nothing outside the run directory to write,
// and nothing it builds can poison the user's cache, while builds stay
// warm. The module cache stays as it is: read-only under Landlock, and
// GOPROXY=off keeps the go command from filling it.
func (r *run) privateGoCache(cache map[string]string) {
	if len(r.opt.SandboxCommand) == 0 || r.tmp == "" {
		return // no harness binary to serve the cache: leave it shared
	}
	exe := r.opt.SandboxCommand[0]
	own := filepath.Join(r.tmp, "gocache")
	host := cache["GOCACHE"]
	if strings.ContainsAny(exe+own+host, " \t\n") {
		return // GOCACHEPROG is split at spaces
	}
	prog := exe + " harness gocache --dir " + own
	if info, err := os.Stat(host); err == nil && info.IsDir() && filepath.IsAbs(host) {
		prog += " --read " + host
	}
	cache["GOCACHE"], cache["GOCACHEPROG"] = own, prog
}
