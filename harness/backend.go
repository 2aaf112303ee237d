package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness/engine"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/internal/proc"
	"github.com/svrnty/sotvet/harness/internal/tree"
)

func (r *run) backendTimeout() time.Duration {
	if r.fx != nil && r.lane != nil && r.fx.inject.laneTimeout > 0 {
		return r.fx.inject.laneTimeout
	}
	if r.fx != nil && r.fx.inject.backendTimeout > 0 {
		return r.fx.inject.backendTimeout
	}
	if r.opt.BackendTimeout > 0 {
		return r.opt.BackendTimeout
	}
	return r.c.BackendTimeout
}

// execute is the run proper: workspace, approval, backend, checks.
func (r *run) execute(ctx context.Context) {
	c := r.c
	if !r.prepareWorkspace() {
		return
	}
	// Approval: asked of the operator, never of the backend.
	if r.granted != nil {
		r.approveRecorded()
	} else if c.ApprovalRequired || (r.fx != nil && r.fx.inject.requireApproval) {
		if !r.approve() {
			return
		}
	}
	if !r.confinePolicy() {
		return
	}
	r.runBackend(ctx)
}

// pathEnv is the PATH handed to subprocesses.
func (r *run) pathEnv() string {
	if p := proc.EnvValue(r.opt.Environ, "PATH"); p != "" {
		return p
	}
	return "/usr/local/bin:/usr/bin:/bin"
}

// env is the explicit allow-list environment for the backend and the
// verification commands.
func (r *run) env(path string) []string {
	env := []string{
		"PATH=" + path,
		"HOME=" + r.home,
		"TMPDIR=" + filepath.Join(r.tmp, "tmp"),
		"GOTOOLCHAIN=local",
		"GOPROXY=off",
		"GOTELEMETRY=off",
		"GOENV=off",
	}
	lang := proc.EnvValue(r.opt.Environ, "LANG")
	if lang == "" {
		lang = "C.UTF-8"
	}
	env = append(env, "LANG="+lang)
	scratch := filepath.Dir(r.dir)
	if r.opt.GoScratch != "" {
		scratch = r.opt.GoScratch
	}
	cache := goCacheEnv(r.opt.Environ, scratch)
	r.privateGoCache(cache)
	for k, v := range cache {
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	return env
}

// goCacheEnv resolves the Go toolchain's cache locations from the ambient
// environment, so that go test works offline and warm, without passing
// HOME itself. Without a usable HOME the build cache goes under scratch
// (the runs root), shared by the runs there.
func goCacheEnv(environ []string, runsRoot string) map[string]string {
	out := map[string]string{}
	home := proc.EnvValue(environ, "HOME")
	if info, err := os.Stat(home); home == "" || err != nil || !info.IsDir() {
		home = ""
	}
	gopath := proc.EnvValue(environ, "GOPATH")
	if gopath == "" && home != "" {
		gopath = filepath.Join(home, "go")
	}
	if gopath != "" {
		out["GOPATH"] = gopath
	}
	if v := proc.EnvValue(environ, "GOMODCACHE"); v != "" {
		out["GOMODCACHE"] = v
	} else if gopath != "" {
		out["GOMODCACHE"] = filepath.Join(strings.Split(gopath, string(filepath.ListSeparator))[0], "pkg", "mod")
	}
	if v := proc.EnvValue(environ, "GOCACHE"); v != "" {
		out["GOCACHE"] = v
	} else if x := proc.EnvValue(environ, "XDG_CACHE_HOME"); x != "" {
		out["GOCACHE"] = filepath.Join(x, "go-build")
	} else if home != "" {
		out["GOCACHE"] = filepath.Join(home, ".cache", "go-build")
	} else {
		out["GOCACHE"] = filepath.Join(runsRoot, ".gocache")
	}
	if _, ok := out["GOPATH"]; !ok {
		out["GOPATH"] = filepath.Join(runsRoot, ".gopath")
		out["GOMODCACHE"] = filepath.Join(runsRoot, ".gopath", "pkg", "mod")
	}
	if v := proc.EnvValue(environ, "GOFLAGS"); v != "" {
		out["GOFLAGS"] = v
	}
	return out
}

func (r *run) runBackend(ctx context.Context) {
	c := r.c
	job := engine.Job{
		RunID: r.rep.RunID, CaseID: c.ID, Task: c.Task, Workspace: r.ws,
		BackendDir:    filepath.Join(r.dir, evidence.BackendDir),
		AllowedWrites: c.AllowedWrites, ForbiddenPaths: c.ForbiddenPaths, ForbiddenActions: c.ForbiddenActions,
		MutationMode: c.MutationMode, FakeSolution: c.FakeSolution,
	}
	for _, v := range c.Verification {
		job.Verification = append(job.Verification, v.Argv)
	}
	if r.fx != nil {
		job.FakeBehavior = r.fx.Behavior
		job.FakeWithhold = withheldEvents(c)
		if r.fx.inject.noProvider {
			job.FakeSolution = filepath.Join(r.tmp, "provider-not-installed")
		}
	} else if r.opt.FakeBehavior != "" {
		job.FakeBehavior = r.opt.FakeBehavior
	}
	r.laneJob(&job)
	inv, err := r.entry.Engine.Invocation(job)
	if err == nil {
		err = r.laneFiles(inv)
	}
	if err != nil {
		r.block(evidence.ProviderUnavailable, "the backend could not be prepared: "+err.Error(), nil)
		r.notApplicable("the backend did not start")
		fmt.Fprintln(&r.testLog, "verification not run: the backend did not start")
		return
	}
	r.red = withHandedOut(r.red, inv.Env)
	names := make([]string, 0, len(inv.Files))
	for n := range inv.Files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := r.w.Write(evidence.BackendDir+"/"+n, inv.Files[n]); err != nil {
			r.writeFailed(evidence.BackendDir+"/"+n, err)
		}
	}
	r.laneStateDirs()
	snap, err := r.repo.SnapshotControl()
	if err != nil {
		r.tr("git.control.error", map[string]any{"error": err.Error()})
	}
	dir := inv.Dir
	if dir == "" {
		dir = r.ws
	}
	timeout := r.backendTimeout()
	ownNet := r.lane == nil // the fake lane needs no network
	argv, wrapped := r.confine(inv.Argv, r.backendPath(), ownNet)
	env := append(r.env(r.backendPath()), inv.Env...)
	r.tr("backend.start", map[string]any{"argv": r.redactArgv(inv.Argv), "exec_argv": r.redactArgv(argv), "confined": wrapped, "dir": dir, "timeout_ms": timeout.Milliseconds(), "env": envKeys(env)})
	env = r.laneKey(env, inv.KeyEnv)
	runCtx, stopWatch := r.watchPhases(ctx, job)
	pr := proc.Run(runCtx, proc.Spec{Argv: argv, Dir: dir, Env: env, Timeout: timeout, Contain: true, Isolate: !inv.OwnNamespaces, NoNetwork: ownNet, OwnLoopback: wrapped && ownNet})
	r.noteReach("backend", pr, wrapped, ownNet)
	over := stopWatch()
	// What ended a backend that did not finish: its timeout, or a phase
	// the supervisor stopped.
	stopCode, stopWhy := evidence.Timeout, fmt.Sprintf("the backend did not finish within %s", timeout)
	if over != nil {
		stopCode, stopWhy = evidence.PhaseTimeout, fmt.Sprintf("the backend's phase %s lingered past its budget of %s", over.phase, over.budget)
		r.tr("phase.overrun", map[string]any{"phase": over.phase, "budget_ms": over.budget.Milliseconds(), "action": "killed " + pr.Containment})
	}
	if wrapped && pr.Started {
		r.confined("backend")
	}
	br := &r.rep.BackendRun
	br.Argv, br.Pid, br.Signal, br.TimedOut = r.redactArgv(inv.Argv), pr.Pid, pr.Signal, pr.TimedOut
	br.Containment = pr.Containment
	br.DurationMS = pr.Duration.Milliseconds()
	br.Survivors = append([]int{}, pr.Survivors...)
	br.Lingering = pr.Lingering
	if len(pr.Lingering) > 0 {
		r.tr("backend.lingering", map[string]any{"pids": pr.Lingering, "action": "killed " + pr.Containment})
	}
	r.rep.BackendProcessStarted = pr.Started
	r.rep.CaseProcessStarted = pr.Started && r.name == "case"
	if pr.Started && pr.Signal == "" {
		code := pr.ExitCode
		r.rep.BackendExitCode = &code
	}
	stdout, stderr := r.red.Redact(pr.Stdout), r.red.Redact(pr.Stderr)
	r.payload = append(r.payload,
		payloadFile{evidence.BackendDir + "/stdout.log", stdout},
		payloadFile{evidence.BackendDir + "/stderr.log", stderr})
	if pr.TimedOut {
		r.tr("backend.timeout", map[string]any{"pid": pr.Pid, "after_ms": timeout.Milliseconds(), "action": "killed " + pr.Containment, "survivors": br.Survivors})
	} else {
		r.tr("backend.exit", map[string]any{"pid": pr.Pid, "exit_code": pr.ExitCode, "signal": pr.Signal, "duration_ms": br.DurationMS, "started": pr.Started})
	}
	// Re-digest once the whole group is gone: from here on nothing the
	// backend started can still write.
	post, err := tree.Of(r.ws)
	if err == nil {
		r.postBackend = post
		r.tr("tree.redigest", map[string]any{"tree_sha256": post.Sum, "after": "backend group ended"})
	}
	if snap != nil {
		if changed, err := r.repo.RestoreControl(snap); err != nil || len(changed) > 0 {
			r.tr("git.control.changed", map[string]any{"paths": nonNil(changed), "restored": err == nil})
			for _, p := range changed {
				r.rep.PathViolations = append(r.rep.PathViolations, evidence.PathViolation{Path: p, Reason: "repository control file changed"})
			}
		}
	}

	if !pr.Started {
		r.block(evidence.ProviderUnavailable, "the backend could not be started: "+errText(pr.StartErr), nil)
		r.notApplicable("the backend did not start")
		fmt.Fprintln(&r.testLog, "verification not run: the backend did not start")
		return
	}
	sig := r.terminal(job, pr)
	br.TerminalStatus, br.Reviewer, br.Detail = sig.Status, sig.Reviewer, r.redactText(sig.Detail)
	r.laneSignal(sig)
	for _, ev := range sig.Events {
		if slices.Contains(backendEventTypes, ev.Type) {
			r.event(ev.Type, "backend", ev.Data)
		} else {
			r.tr("backend.event.ignored", map[string]any{"type": ev.Type})
		}
	}
	if pr.TimedOut && sig.Handoff && r.lifecycle(ctx, sig, stopCode, stopWhy) {
		return
	}
	if pr.TimedOut {
		r.block(stopCode, fmt.Sprintf("%s; its processes were killed (%s)", stopWhy, pr.Containment), nil)
		r.capture(false)
		r.lateCheck()
		r.rep.Verification.Skipped = "the backend timed out"
		fmt.Fprintln(&r.testLog, "verification not run: the backend timed out")
		return
	}
	if sig.Status == engine.StatusProviderUnavailable {
		r.block(evidence.ProviderUnavailable, "the backend reported its provider unavailable: "+r.redactText(sig.Detail), nil)
		r.capture(false)
		r.rep.Verification.Skipped = "the backend's provider was unavailable"
		fmt.Fprintln(&r.testLog, "verification not run: the backend's provider was unavailable")
		return
	}
	if pr.Signal != "" || pr.ExitCode != 0 || sig.Status == engine.StatusFailure {
		// A lane that exits 0 on failure (pi, case) still failed.
		msg := fmt.Sprintf("the backend exited with code %d%s", pr.ExitCode, sigSuffix(pr.Signal))
		if sig.Status == engine.StatusFailure && sig.Detail != "" {
			msg += "; its terminal record says: " + r.redactText(sig.Detail)
		}
		r.block(evidence.BackendFailed, msg, nil)
		r.capture(false)
		r.rep.Verification.Skipped = "the backend failed"
		fmt.Fprintln(&r.testLog, "verification not run: the backend failed")
		return
	}
	if !r.capture(true) {
		r.claimCheck(sig.Claims)
		return
	}
	if !r.lateCheck() {
		return
	}
	r.verify(ctx)
	r.claimCheck(sig.Claims)
	if r.rep.Verification.Passed && sig.Reviewer == engine.ReviewerRejected {
		r.block(evidence.ReviewerRejected, "the backend's reviewer rejected the result: "+sig.Detail, nil)
	}
	if len(r.blockers) == 0 && sig.Status != engine.StatusSuccess {
		r.block(evidence.BackendSignalMismatch, fmt.Sprintf("the backend exited 0 but its terminal record says %q", sig.Status), nil)
	}
}

func sigSuffix(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

func errText(err error) string {
	if err == nil {
		return "unknown error"
	}
	return err.Error()
}

func envKeys(env []string) []string {
	out := make([]string, 0, len(env))
	for _, e := range env {
		k, _, _ := strings.Cut(e, "=")
		out = append(out, k)
	}
	return out
}
