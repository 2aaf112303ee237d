package harness

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness/contract"
	"github.com/svrnty/sotvet/harness/engine"
	"github.com/svrnty/sotvet/harness/engine/fake"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/internal/gitws"
	"github.com/svrnty/sotvet/harness/internal/proc"
	"github.com/svrnty/sotvet/harness/internal/tree"
	"github.com/svrnty/sotvet/harness/sandbox"
)

// Result is a finished run.
type Result struct {
	RunDir   string
	Report   *evidence.Report
	ExitCode int
	// ContractErrors holds the contract's problems when it was invalid.
	ContractErrors contract.ErrorList
}

// backendEventTypes are the normalized events a backend may report. A
// backend can never report approval or verification: those are the
// harness's own.
var backendEventTypes = []string{"plan.updated", "patch.applied"}

type run struct {
	opt   Options
	clock func() time.Time
	c     *contract.Case
	fx    *Fixture
	name  string // engine name
	entry engine.Entry
	red   Redactor
	sb    sandbox.Decision
	// policy is what confined processes may write; nil until the
	// workspace exists, and always nil when the run is not confined.
	policy *sandbox.Policy

	dir, ws, tmp, home string
	repo               *gitws.Repo
	w                  *evidence.Writer
	chain              evidence.Chain
	trace              evidence.Trace
	rep                *evidence.Report
	blockers           []evidence.Blocker
	testLog            bytes.Buffer
	patch              []byte
	payload            []payloadFile
	postBackend        *tree.Digest
}

type payloadFile struct {
	rel  string
	data []byte
}

// Run runs one case. The error is for usage and I/O problems only; every
// other outcome is in the report.
func Run(ctx context.Context, opt Options) (*Result, error) {
	r := &run{opt: opt, clock: opt.Clock, red: opt.Redactor}
	if r.clock == nil {
		r.clock = time.Now
	}
	if r.red == nil {
		r.red = identity{}
	}
	r.name = opt.Engine
	if r.name == "" {
		r.name = DefaultEngine
	}
	reg := opt.Registry
	if reg == nil {
		reg = DefaultRegistry(opt.FakeCommand)
	}
	var ok bool
	if r.entry, ok = reg.Lookup(r.name); !ok {
		return nil, fmt.Errorf("%w: unknown engine %q (registered: %s)", ErrUsage, r.name, strings.Join(reg.Names(), ", "))
	}
	if opt.Fixture != "" {
		fx, ok := FixtureByName(opt.Fixture)
		if !ok {
			return nil, fmt.Errorf("%w: unknown fixture %q (want one of %s)", ErrUsage, opt.Fixture, strings.Join(FixtureNames(), ", "))
		}
		if r.name != fake.Name {
			return nil, fmt.Errorf("%w: fixtures run on the fake lane only", ErrUsage)
		}
		r.fx = &fx
	}
	if opt.RunsRoot == "" && opt.RunDir == "" {
		return nil, fmt.Errorf("%w: no runs root", ErrUsage)
	}
	if err := sandbox.CheckMode(opt.Sandbox); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUsage, err)
	}
	r.sb = sandbox.Decide(opt.Sandbox, sandbox.EffectiveABI(opt.Environ), len(opt.SandboxCommand) > 0)

	// The contract is read, never written: an invalid one is a gate.
	var cerrs contract.ErrorList
	c, err := contract.Load(opt.CaseDir)
	if err != nil && !errors.As(err, &cerrs) {
		return nil, err
	}
	caseID := filepath.Base(filepath.Clean(opt.CaseDir))
	if c != nil {
		caseID = c.ID
	}
	r.c = c

	start := r.clock()
	if err := r.makeDir(start, caseID); err != nil {
		return nil, err
	}
	r.w = evidence.NewWriter(r.dir, r.clock)
	if r.fx != nil && r.fx.inject.failArtifact != "" {
		bad := r.fx.inject.failArtifact
		r.w.Fault = func(rel string) error {
			if rel == bad {
				return errors.New("injected write failure: no space left on device")
			}
			return nil
		}
	}
	r.rep = r.newReport(start, caseID)
	r.event("run.started", "harness", map[string]any{"run_id": r.rep.RunID, "case_id": caseID, "backend": r.name, "fixture": r.rep.Fixture})
	r.tr("run.started", map[string]any{"run_dir": r.dir})

	if cerrs != nil {
		r.gateBlocked("contract", evidence.InvalidContract, "the task contract is invalid: "+cerrs.Error())
	} else if !r.gates() {
		// blocked before any copy or process
	} else {
		r.execute(ctx)
	}
	res, err := r.finish()
	if res != nil {
		res.ContractErrors = cerrs
	}
	return res, err
}

func (r *run) now() time.Time { return r.clock() }

func (r *run) event(typ, source string, data map[string]any) {
	if err := r.chain.Add(r.now(), typ, source, data); err != nil {
		r.tr("event.error", map[string]any{"type": typ, "error": err.Error()})
	}
}

func (r *run) tr(action string, detail map[string]any) { r.trace.Add(r.now(), action, detail) }

func (r *run) block(code, msg string, paths []string) {
	r.blockers = append(r.blockers, evidence.Blocker{Code: code, Message: msg, Paths: paths})
	r.tr("blocker", map[string]any{"code": code, "message": msg, "paths": nonNil(paths)})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (r *run) makeDir(start time.Time, caseID string) error {
	if err := os.MkdirAll(r.opt.RunsRoot, 0o755); err != nil {
		return fmt.Errorf("runs root: %w", err)
	}
	if r.opt.RunDir != "" {
		abs, err := filepath.Abs(r.opt.RunDir)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return fmt.Errorf("run directory: %w", err)
		}
		if err := os.Mkdir(abs, 0o755); err != nil {
			return fmt.Errorf("run directory: %w", err)
		}
		r.dir = abs
		return r.makeSubdirs()
	}
	suffix := ""
	if r.opt.Fixture != "" {
		suffix = "-" + r.opt.Fixture
	}
	for attempt := 0; ; attempt++ {
		var rnd [3]byte
		if _, err := rand.Read(rnd[:]); err != nil {
			return err
		}
		id := fmt.Sprintf("%s-%s%s-%s", start.UTC().Format("20060102T150405Z"), caseID, suffix, hex.EncodeToString(rnd[:]))
		dir := filepath.Join(r.opt.RunsRoot, id)
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			abs, err := filepath.Abs(dir)
			if err != nil {
				return err
			}
			r.dir = abs
			break
		}
		if !errors.Is(err, os.ErrExist) || attempt > 8 {
			return fmt.Errorf("run directory: %w", err)
		}
	}
	return r.makeSubdirs()
}

func (r *run) makeSubdirs() error {
	r.ws = filepath.Join(r.dir, evidence.WorkspaceDir)
	r.tmp = filepath.Join(r.dir, evidence.TmpDir)
	r.home = filepath.Join(r.tmp, "home")
	for _, d := range []string{filepath.Join(r.dir, evidence.BackendDir), r.home, filepath.Join(r.tmp, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	return nil
}

func (r *run) newReport(start time.Time, caseID string) *evidence.Report {
	rep := &evidence.Report{
		SchemaVersion:         evidence.SchemaVersion,
		CaseID:                caseID,
		RunID:                 filepath.Base(r.dir),
		Backend:               r.name,
		RunStartedAt:          evidence.FormatTime(start),
		ArtifactsDir:          r.dir,
		ChangedFiles:          []string{},
		PathViolations:        []evidence.PathViolation{},
		AllowedWritesPassed:   false,
		ForbiddenPathsPassed:  false,
		ApprovalStatus:        evidence.ApprovalNotRequired,
		NotApplicable:         map[string]string{},
		Provider:              r.entry.Engine.Provider(),
		SourceAdmissionStatus: "not_applicable",
		Sandbox:               sandbox.KindNone,
		SandboxInfo:           evidence.SandboxInfo{Mode: r.sb.Mode, KernelABI: r.sb.KernelABI, Writable: []string{}, Confined: []string{}, Reason: r.sb.Reason},
		Harness:               evidence.Harness{Name: "sotvet", Version: r.opt.Version},
		Verification:          evidence.Verification{Commands: []evidence.CommandResult{}},
		RequiredEvents:        evidence.RequiredEvents{Required: []string{}, Missing: []string{}},
		Baseline:              evidence.Baseline{DirtyPaths: []string{}},
		Ending:                evidence.Ending{DirtyPaths: []string{}},
		BackendRun:            evidence.BackendRun{Argv: []string{}, Survivors: []int{}, TerminalStatus: engine.StatusNone},
	}
	if r.fx != nil {
		rep.Fixture = r.fx.Name
	}
	if engine.IsGatedLane(r.name) {
		rep.SourceAdmissionStatus = "not_admitted"
	}
	if c := r.c; c != nil {
		rep.Contract = evidence.ContractInfo{
			Path: c.Path, Digest: c.Digest, MutationMode: c.MutationMode,
			AllowedWrites: c.AllowedWrites, ForbiddenPaths: c.ForbiddenPaths, ForbiddenActions: c.ForbiddenActions,
			RequireDiff: c.RequireDiff,
		}
		rep.RequiredEvents.Required = c.RequiredEvents
		rep.Verification.Required = true
		rep.BackendRun.TimeoutMS = r.backendTimeout().Milliseconds()
	} else {
		rep.Contract = evidence.ContractInfo{AllowedWrites: []string{}, ForbiddenPaths: []string{}, ForbiddenActions: []string{}}
	}
	return rep
}

func (r *run) backendTimeout() time.Duration {
	if r.fx != nil && r.fx.inject.backendTimeout > 0 {
		return r.fx.inject.backendTimeout
	}
	return r.c.BackendTimeout
}

func (r *run) contractData() map[string]any {
	c := r.c
	return map[string]any{
		"case_id":           c.ID,
		"contract_sha256":   c.Digest,
		"mutation_mode":     c.MutationMode,
		"allowed_writes":    c.AllowedWrites,
		"forbidden_paths":   c.ForbiddenPaths,
		"forbidden_actions": c.ForbiddenActions,
		"required_events":   c.RequiredEvents,
		"verification":      len(c.Verification),
	}
}

// gates is the preflight: it runs before any copy or process and says
// whether the run may go on.
func (r *run) gates() bool {
	allowed := slices.Contains(r.opt.AllowEngines, r.name)
	r.tr("gate.preflight", map[string]any{"engine": r.name, "enabled": r.entry.Enabled, "explicitly_allowed": allowed, "executable": r.entry.Executable})
	switch {
	case !r.entry.Enabled && !allowed:
		r.gateBlocked("engine_enabled", evidence.EngineDisabled,
			fmt.Sprintf("engine %s is disabled by default; its gate (%s) was not opened", r.name, r.entry.Gate))
		return false
	case !r.entry.Executable:
		r.gateBlocked("adapter_executable", evidence.EngineNotExecutable,
			fmt.Sprintf("engine %s is registered but has no executable adapter at this proof stage; it was not started", r.name))
		return false
	case r.c.MutationMode != contract.ModeCopiedFixture && r.c.MutationMode != contract.ModeNone:
		r.gateBlocked("mutation_mode", evidence.MutationModeNotAllowed,
			fmt.Sprintf("mutation mode %s exceeds what this harness allows (copied-fixture)", r.c.MutationMode))
		return false
	case len(r.c.Verification) == 0:
		r.gateBlocked("verification_command", evidence.MissingTestCommand,
			"the task contract names no verification command")
		r.rep.Verification.Missing = true
		return false
	case r.sb.Blocked:
		r.gateBlocked("sandbox", evidence.SandboxUnavailable, r.sb.Reason)
		return false
	}
	return true
}

// confinePolicy builds what confined processes may write: the workspace,
// the backend's HOME and TMPDIR inside the run directory, the Go build
// cache, and /dev/null. The rest of the run directory (the evidence, the
// harness's own scratch files) and everything outside it stay read-only.
// It reports whether the run may go on.
func (r *run) confinePolicy() bool {
	if !r.sb.Confine {
		return true
	}
	env := r.env(r.pathEnv())
	dirs := []string{r.ws, r.home, filepath.Join(r.tmp, "tmp")}
	if gc := proc.EnvValue(env, "GOCACHE"); filepath.IsAbs(gc) {
		if err := os.MkdirAll(gc, 0o755); err == nil {
			dirs = append(dirs, gc)
		} else {
			r.tr("sandbox.gocache", map[string]any{"path": gc, "error": err.Error()})
		}
	}
	p := &sandbox.Policy{Dirs: dirs, Files: []string{os.DevNull}}
	if err := p.Check(); err != nil {
		msg := "the Landlock ruleset could not be built: " + err.Error()
		r.tr("sandbox.policy.error", map[string]any{"error": err.Error()})
		r.block(evidence.SandboxUnavailable, msg, nil)
		r.notApplicable("the backend did not start: " + evidence.SandboxUnavailable)
		fmt.Fprintln(&r.testLog, "verification not run: the sandbox could not be prepared")
		return false
	}
	r.policy = p
	r.rep.SandboxInfo.Writable = p.Paths()
	r.tr("sandbox.policy", map[string]any{"kind": sandbox.KindLandlock, "landlock_abi": r.sb.KernelABI, "ruleset_abi": sandbox.RulesetABI, "writable": p.Paths()})
	return true
}

// confine returns the command line that runs argv confined by the run's
// policy, or argv itself when the run is not confined or its program
// cannot be found on path (the start then fails as it would unconfined).
func (r *run) confine(argv []string, path string) (out []string, wrapped bool) {
	if r.policy == nil || len(argv) == 0 {
		return argv, false
	}
	prog, err := proc.LookPath(argv[0], path)
	if err != nil {
		return argv, false
	}
	return sandbox.Wrap(r.opt.SandboxCommand, *r.policy, prog, argv), true
}

// confined records that who (the backend, the verification) started
// under the run's Landlock policy.
func (r *run) confined(who string) {
	r.rep.Sandbox = sandbox.KindLandlock
	r.rep.SandboxInfo.RulesetABI = sandbox.RulesetABI
	if !slices.Contains(r.rep.SandboxInfo.Confined, who) {
		r.rep.SandboxInfo.Confined = append(r.rep.SandboxInfo.Confined, who)
	}
}

// gateBlocked records a gate that stops the run before the backend starts.
func (r *run) gateBlocked(gate, code, reason string) {
	if r.c != nil {
		r.event("task.contract.created", "harness", r.contractData())
	}
	mode := ""
	if r.c != nil {
		mode = r.c.MutationMode
	}
	r.event("backend.gate.blocked", "harness", map[string]any{
		"backend": r.name, "gate": gate, "reason": reason, "mutation_mode": mode, "case_executed": false,
	})
	r.block(code, reason, nil)
	r.notApplicable("blocked before the backend started: " + code)
	log := fmt.Sprintf("engine: %s\ngate: %s\ndecision: blocked\nreason: %s\nbackend process started: false\n", r.name, gate, reason)
	r.payload = append(r.payload, payloadFile{evidence.BackendDir + "/" + r.name + "-gate.log", []byte(log)})
	fmt.Fprintf(&r.testLog, "verification not run: blocked before the backend started (%s)\n", code)
}

func (r *run) notApplicable(reason string) {
	for _, k := range []string{"plan", "patch", "diff", "verification"} {
		r.rep.NotApplicable[k] = reason
	}
	r.rep.Verification.Skipped = reason
}

// execute is the run proper: workspace, approval, backend, checks.
func (r *run) execute(ctx context.Context) {
	c := r.c
	if !r.prepareWorkspace() {
		return
	}
	// Approval: asked of the operator, never of the backend.
	if c.ApprovalRequired || (r.fx != nil && r.fx.inject.requireApproval) {
		if !r.approve() {
			return
		}
	}
	if !r.confinePolicy() {
		return
	}
	r.runBackend(ctx)
}

func (r *run) prepareWorkspace() bool {
	c := r.c
	r.repo = &gitws.Repo{Dir: r.ws, Home: r.home, Tmp: r.tmp, Path: r.pathEnv()}
	fail := func(step string, err error) bool {
		r.tr("workspace.error", map[string]any{"step": step, "error": err.Error()})
		r.event("task.contract.created", "harness", r.contractData())
		r.block(evidence.ProviderUnavailable, fmt.Sprintf("workspace %s failed: %v", step, err), nil)
		r.notApplicable("workspace could not be prepared")
		fmt.Fprintf(&r.testLog, "verification not run: workspace %s failed\n", step)
		return false
	}
	if err := tree.Copy(c.RepoPath(), r.ws); err != nil {
		return fail("copy", err)
	}
	r.tr("workspace.copied", map[string]any{"from": c.RepoPath(), "to": r.ws})
	commit, err := r.repo.Init()
	if err != nil {
		return fail("git init", err)
	}
	base, err := tree.Of(r.ws)
	if err != nil {
		return fail("digest", err)
	}
	r.rep.Baseline.Commit, r.rep.Baseline.TreeDigest = commit, base.Sum
	r.tr("git.baseline", map[string]any{"commit": commit, "tree_sha256": base.Sum, "files": len(base.Entries)})

	if r.fx != nil && r.fx.inject.dirtyStart {
		// Something dirties the copy between the baseline and the start.
		_ = os.WriteFile(filepath.Join(r.ws, DirtyStartFile), []byte("left in the workspace before the backend started\n"), 0o644)
	}
	dirty, err := r.repo.Dirty()
	if err != nil {
		return fail("git status", err)
	}
	r.rep.Baseline.Checked = true
	r.rep.Baseline.Clean = len(dirty) == 0
	r.rep.Baseline.DirtyPaths = nonNil(dirty)
	r.tr("clean_start.checked", map[string]any{"clean": len(dirty) == 0, "dirty_paths": nonNil(dirty), "required": c.CleanStart})
	data := r.contractData()
	data["baseline_commit"] = commit
	data["baseline_tree_sha256"] = base.Sum
	data["clean_start"] = len(dirty) == 0
	data["dirty_paths"] = nonNil(dirty)
	r.event("task.contract.created", "harness", data)
	if len(dirty) > 0 && c.CleanStart {
		r.block(evidence.DirtyStartingTree, "the workspace was dirty before the backend started", dirty)
		r.notApplicable("blocked before the backend started: " + evidence.DirtyStartingTree)
		fmt.Fprintf(&r.testLog, "verification not run: the starting tree was dirty: %s\n", strings.Join(dirty, ", "))
		return false
	}
	return true
}

func (r *run) approve() bool {
	c := r.c
	at := r.now()
	req := ApprovalRequest{
		RunID: r.rep.RunID, CaseID: c.ID, MutationMode: c.MutationMode, RequestedAt: at, Expiry: at.Add(time.Hour),
		Scope: fmt.Sprintf("case %s: writes to %s within the copied workspace", c.ID, strings.Join(c.AllowedWrites, ", ")),
	}
	r.rep.ApprovalStatus = evidence.ApprovalRequested
	r.event("approval.requested", "harness", map[string]any{
		"actor": "sotvet-harness", "scope": req.Scope, "mutation_mode": req.MutationMode,
		"timestamp": evidence.FormatTime(at), "expiry": evidence.FormatTime(req.Expiry),
	})
	var dec ApprovalDecision
	switch {
	case r.fx != nil && r.fx.inject.denyApproval:
		dec = ApprovalDecision{Granted: false, Actor: "operator (approval-denied fixture)", Reason: "the operator denied the mutation"}
	case r.opt.Approver != nil:
		dec = r.opt.Approver.Decide(req)
	default:
		dec = ApprovalDecision{Granted: false, Actor: "sotvet-harness", Reason: "approval is required and no approver was configured"}
	}
	decided := r.now()
	r.rep.Approval = &evidence.Approval{
		Actor: dec.Actor, Scope: req.Scope, MutationMode: req.MutationMode,
		RequestedAt: evidence.FormatTime(at), DecidedAt: evidence.FormatTime(decided), Expiry: evidence.FormatTime(req.Expiry), Reason: dec.Reason,
	}
	typ, st := "approval.granted", evidence.ApprovalGranted
	if !dec.Granted {
		typ, st = "approval.denied", evidence.ApprovalDenied
	}
	r.rep.ApprovalStatus = st
	r.event(typ, "harness", map[string]any{
		"actor": dec.Actor, "scope": req.Scope, "mutation_mode": req.MutationMode,
		"timestamp": evidence.FormatTime(decided), "expiry": evidence.FormatTime(req.Expiry), "reason": dec.Reason,
	})
	if !dec.Granted {
		r.block(evidence.ApprovalDeniedCode, "approval denied by "+dec.Actor+": "+dec.Reason, nil)
		r.notApplicable("blocked before the backend started: " + evidence.ApprovalDeniedCode)
		fmt.Fprintln(&r.testLog, "verification not run: approval was denied")
		return false
	}
	return true
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
	for k, v := range goCacheEnv(r.opt.Environ, scratch) {
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
		if r.fx.inject.noProvider {
			job.FakeSolution = filepath.Join(r.tmp, "provider-not-installed")
		}
	}
	inv, err := r.entry.Engine.Invocation(job)
	if err != nil {
		r.block(evidence.ProviderUnavailable, "the backend could not be prepared: "+err.Error(), nil)
		r.notApplicable("the backend did not start")
		fmt.Fprintln(&r.testLog, "verification not run: the backend did not start")
		return
	}
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
	snap, err := r.repo.SnapshotControl()
	if err != nil {
		r.tr("git.control.error", map[string]any{"error": err.Error()})
	}
	dir := inv.Dir
	if dir == "" {
		dir = r.ws
	}
	timeout := r.backendTimeout()
	argv, wrapped := r.confine(inv.Argv, r.pathEnv())
	r.tr("backend.start", map[string]any{"argv": inv.Argv, "exec_argv": argv, "confined": wrapped, "dir": dir, "timeout_ms": timeout.Milliseconds(), "env": envKeys(r.env(r.pathEnv()))})
	pr := proc.Run(ctx, proc.Spec{Argv: argv, Dir: dir, Env: append(r.env(r.pathEnv()), inv.Env...), Timeout: timeout})
	if wrapped && pr.Started {
		r.confined("backend")
	}
	br := &r.rep.BackendRun
	br.Argv, br.Pid, br.Signal, br.TimedOut = inv.Argv, pr.Pid, pr.Signal, pr.TimedOut
	br.DurationMS = pr.Duration.Milliseconds()
	br.Survivors = append([]int{}, pr.Survivors...)
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
		r.tr("backend.timeout", map[string]any{"pid": pr.Pid, "after_ms": timeout.Milliseconds(), "action": "killed process group", "survivors": br.Survivors})
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
	sig := r.entry.Engine.Terminal(pr.Stdout, pr.Stderr, pr.ExitCode)
	br.TerminalStatus, br.Reviewer, br.Detail = sig.Status, sig.Reviewer, sig.Detail
	for _, ev := range sig.Events {
		if slices.Contains(backendEventTypes, ev.Type) {
			r.event(ev.Type, "backend", ev.Data)
		} else {
			r.tr("backend.event.ignored", map[string]any{"type": ev.Type})
		}
	}
	if pr.TimedOut {
		r.block(evidence.Timeout, fmt.Sprintf("the backend did not finish within %s; its process group was killed", timeout), nil)
		r.capture(false)
		r.rep.Verification.Skipped = "the backend timed out"
		fmt.Fprintln(&r.testLog, "verification not run: the backend timed out")
		return
	}
	if sig.Status == engine.StatusProviderUnavailable {
		r.block(evidence.ProviderUnavailable, "the backend reported its provider unavailable: "+sig.Detail, nil)
		r.capture(false)
		r.rep.Verification.Skipped = "the backend's provider was unavailable"
		fmt.Fprintln(&r.testLog, "verification not run: the backend's provider was unavailable")
		return
	}
	if pr.Signal != "" || pr.ExitCode != 0 {
		r.block(evidence.BackendFailed, fmt.Sprintf("the backend exited with code %d%s", pr.ExitCode, sigSuffix(pr.Signal)), nil)
		r.capture(false)
		r.rep.Verification.Skipped = "the backend failed"
		fmt.Fprintln(&r.testLog, "verification not run: the backend failed")
		return
	}
	if !r.capture(true) {
		return
	}
	r.verify(ctx)
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

// capture diffs the workspace against the baseline and checks the paths.
// With judge false the outcome is recorded but no blocker is added (the
// run has already stopped). It reports whether the run may go on.
func (r *run) capture(judge bool) bool {
	c := r.c
	patch, changes, err := r.repo.Capture(r.rep.Baseline.Commit)
	if err != nil {
		r.tr("git.diff.error", map[string]any{"error": err.Error()})
		if judge {
			r.block(evidence.DisallowedFileChange, "the change could not be captured: "+err.Error(), nil)
		}
		return false
	}
	r.patch = patch
	files := []string{}
	for _, ch := range changes {
		files = append(files, ch.Path)
	}
	r.rep.ChangedFiles = files
	vs, allowedOK, forbiddenOK := checkPaths(r.ws, files, c.AllowedWrites, c.ForbiddenPaths)
	r.rep.PathViolations = append(r.rep.PathViolations, vs...)
	for _, v := range r.rep.PathViolations {
		if strings.HasPrefix(v.Path, ".git/") {
			forbiddenOK = false
		}
	}
	r.rep.AllowedWritesPassed, r.rep.ForbiddenPathsPassed = allowedOK, forbiddenOK
	r.tr("paths.checked", map[string]any{"changed_files": files, "violations": len(r.rep.PathViolations)})
	var bad []string
	for _, v := range r.rep.PathViolations {
		bad = append(bad, v.Path)
	}
	r.event("git.diff.checked", "harness", map[string]any{
		"changed_files": files, "diff_empty": len(files) == 0, "patch_sha256": evidence.Digest(patch),
		"allowed_writes_passed": allowedOK, "forbidden_paths_passed": forbiddenOK, "violations": nonNil(bad),
	})
	if !judge {
		return false
	}
	if len(files) == 0 && c.RequireDiff {
		r.block(evidence.NoDiff, "the backend reported success but the workspace has no change against the baseline", nil)
		r.rep.Verification.Skipped = "no diff to verify"
		fmt.Fprintln(&r.testLog, "verification not run: no diff against the baseline")
		return false
	}
	if len(bad) > 0 {
		r.block(evidence.DisallowedFileChange, "the backend changed paths the contract does not allow", bad)
		r.rep.Verification.Skipped = "disallowed changes are not verified"
		fmt.Fprintln(&r.testLog, "verification not run: the change touches disallowed paths")
		return false
	}
	return true
}

// verify runs the verification commands in the workspace.
func (r *run) verify(ctx context.Context) {
	c := r.c
	v := &r.rep.Verification
	v.Ran = true
	path := r.pathEnv()
	if r.fx != nil && r.fx.inject.noToolchain {
		// A machine without the case's toolchain: nothing on PATH.
		empty := filepath.Join(r.tmp, "empty-path")
		_ = os.MkdirAll(empty, 0o755)
		path = empty
	}
	env := r.env(path)
	fmt.Fprintf(&r.testLog, "# verification for case %s, run %s\n", c.ID, r.rep.RunID)
	passed := true
	var results []map[string]any
	for _, cmd := range c.Verification {
		fmt.Fprintf(&r.testLog, "$ %s\n", cmd.String())
		r.tr("verification.start", map[string]any{"argv": cmd.Argv, "timeout_ms": c.VerificationTimeout.Milliseconds()})
		argv, wrapped := r.confine(cmd.Argv, path)
		pr := proc.Run(ctx, proc.Spec{Argv: argv, Dir: r.ws, Env: env, Timeout: c.VerificationTimeout})
		if wrapped && pr.Started {
			r.confined("verification")
		}
		res := evidence.CommandResult{Argv: cmd.Argv, DurationMS: pr.Duration.Milliseconds(), TimedOut: pr.TimedOut}
		r.testLog.Write(r.red.Redact(pr.Stdout))
		r.testLog.Write(r.red.Redact(pr.Stderr))
		switch {
		case !pr.Started:
			res.Missing = true
			v.Missing = true
			fmt.Fprintf(&r.testLog, "# no command available: %s\n", errText(pr.StartErr))
			r.tr("verification.missing", map[string]any{"argv": cmd.Argv, "error": errText(pr.StartErr)})
		case pr.TimedOut:
			fmt.Fprintf(&r.testLog, "# timed out after %s; process group killed\n", c.VerificationTimeout)
			r.tr("verification.timeout", map[string]any{"argv": cmd.Argv, "after_ms": c.VerificationTimeout.Milliseconds()})
		default:
			code := pr.ExitCode
			if pr.Signal != "" {
				code = -1
			}
			res.ExitCode = &code
			res.Passed = code == 0
			fmt.Fprintf(&r.testLog, "# exit %d%s\n", code, sigSuffix(pr.Signal))
			r.tr("verification.exit", map[string]any{"argv": cmd.Argv, "exit_code": code, "duration_ms": res.DurationMS})
		}
		v.Commands = append(v.Commands, res)
		results = append(results, map[string]any{"argv": cmd.Argv, "exit_code": res.ExitCode, "passed": res.Passed, "missing": res.Missing, "timed_out": res.TimedOut})
		if !res.Passed {
			passed = false
			if res.Missing {
				r.block(evidence.MissingTestCommand, "no verification command was available: "+errText(pr.StartErr), nil)
			} else if res.TimedOut {
				r.block(evidence.Timeout, fmt.Sprintf("verification %q did not finish within %s", cmd.String(), c.VerificationTimeout), nil)
			} else {
				r.block(evidence.VerificationFailed, fmt.Sprintf("verification %q exited %d", cmd.String(), *res.ExitCode), nil)
			}
			break
		}
	}
	v.Passed = passed
	r.rep.TestsPassed = passed
	r.event("verification.completed", "harness", map[string]any{
		"passed": passed, "missing": v.Missing, "commands": results, "reviewer": r.rep.BackendRun.Reviewer,
	})
}

// endCheck is the clean-end check: the tree must be as the backend left
// it — verification must not have changed it and no late writer may have.
func (r *run) endCheck() {
	if r.postBackend == nil {
		return
	}
	end, err := tree.Of(r.ws)
	if err != nil {
		r.tr("clean_end.error", map[string]any{"error": err.Error()})
		return
	}
	dirty := tree.Diff(r.postBackend, end)
	r.rep.Ending = evidence.Ending{TreeDigest: end.Sum, Checked: true, Clean: len(dirty) == 0, DirtyPaths: nonNil(dirty)}
	r.tr("clean_end.checked", map[string]any{"clean": len(dirty) == 0, "dirty_paths": nonNil(dirty), "required": r.c.CleanEnd, "tree_sha256": end.Sum})
	if len(dirty) > 0 && r.c.CleanEnd {
		r.block(evidence.DirtyEndingTree, "the tree changed after the backend's change was captured", dirty)
	}
}

// requiredEvents checks the contract's required events, in order, once
// the run got as far as it could without another blocker.
func (r *run) requiredEvents() {
	if r.c == nil {
		return
	}
	re := &r.rep.RequiredEvents
	re.Checked = true
	types := append(r.chain.Types(), "run.completed")
	i := 0
	var missing []string
	for _, want := range r.c.RequiredEvents {
		j := slices.Index(types[i:], want)
		if j < 0 {
			missing = append(missing, want)
			continue
		}
		i += j + 1
	}
	re.Missing = nonNil(missing)
	re.Passed = len(missing) == 0
	r.tr("required_events.checked", map[string]any{"required": r.c.RequiredEvents, "missing": re.Missing})
	if len(missing) > 0 {
		r.block(evidence.MissingRequiredEvent, "required events are missing or out of order: "+strings.Join(missing, ", "), nil)
	}
}

func (r *run) writeFailed(rel string, err error) {
	r.blockers = append(r.blockers, evidence.Blocker{Code: evidence.ArtifactWriteFailure, Message: err.Error(), Artifact: rel})
	r.tr("artifact.write_failed", map[string]any{"artifact": rel, "error": err.Error()})
}

func (r *run) write(rel string, data []byte) {
	if err := r.w.Write(rel, data); err != nil {
		r.writeFailed(rel, err)
		return
	}
	r.tr("artifact.written", map[string]any{"artifact": rel, "sha256": evidence.Digest(data), "bytes": len(data)})
}

// settle sets the report's blockers, status and exit code.
func (r *run) settle() {
	r.rep.Blockers = append([]evidence.Blocker{}, r.blockers...)
	r.rep.Status = evidence.StatusOf(r.rep.Blockers)
	r.rep.ExitCode = evidence.ExitCode(r.rep.Status)
}

// finish decides the run and writes the evidence.
func (r *run) finish() (*Result, error) {
	if r.c != nil {
		r.endCheck()
		if len(r.blockers) == 0 {
			r.requiredEvents()
		}
	}
	// Payload artifacts.
	for _, p := range r.payload {
		r.write(p.rel, p.data)
	}
	if r.rep.BackendProcessStarted || r.rep.BackendRun.Pid != 0 {
		pj, _ := evidence.Marshal(r.rep.BackendRun)
		r.write(evidence.BackendDir+"/process.json", pj)
	}
	r.write(evidence.PatchFile, r.patch)
	r.write(evidence.TestLog, r.testLog.Bytes())

	r.settle()
	r.rep.RunFinishedAt = evidence.FormatTime(r.now())
	codes := []string{}
	for _, b := range r.rep.Blockers {
		codes = append(codes, b.Code)
	}
	r.event("run.completed", "harness", map[string]any{"status": r.rep.Status, "blockers": codes, "exit_code": r.rep.ExitCode})
	r.rep.Events = evidence.EventsSummary{Count: r.chain.Len(), ChainHead: r.chain.Head()}
	r.write(evidence.EventsFile, r.chain.Bytes())
	tb, err := r.trace.Bytes()
	if err != nil {
		r.writeFailed(evidence.TraceFile, err)
	} else {
		r.write(evidence.TraceFile, tb)
	}
	// A write failure so far changes the status the report will carry.
	r.settle()
	if md, err := r.markdown(); err == nil {
		if err := r.w.Write(evidence.ReportMD, md); err != nil {
			r.writeFailed(evidence.ReportMD, err)
		}
	}
	r.settle()
	_ = os.RemoveAll(r.tmp)
	if err := r.writeReport(); err != nil {
		_ = os.WriteFile(filepath.Join(r.dir, "INCOMPLETE"), []byte(err.Error()+"\n"), 0o644)
		return nil, fmt.Errorf("run %s: %w", r.dir, err)
	}
	return &Result{RunDir: r.dir, Report: r.rep, ExitCode: r.rep.ExitCode}, nil
}

// writeReport writes report.json and the attestation. If the attestation
// cannot be written, report.json is written again naming the failure.
func (r *run) writeReport() error {
	r.rep.ArtifactDigests = r.w.Digests()
	r.rep.ArtifactPaths = artifactPaths(r.opt.SignKey != nil)
	r.rep.Freshness = evidence.Freshness{
		RunStartedAt:  r.rep.RunStartedAt,
		CheckedAt:     evidence.FormatTime(r.now()),
		WrittenAt:     r.w.WrittenAt(),
		AllAfterStart: true,
	}
	for _, at := range r.rep.Freshness.WrittenAt {
		if at < r.rep.RunStartedAt {
			r.rep.Freshness.AllAfterStart = false
		}
	}
	if r.opt.SignKey != nil {
		r.rep.Signing = evidence.SigningInfo(r.opt.SignKey.Public().(ed25519.PublicKey))
	}
	data, err := evidence.Marshal(r.rep)
	if err != nil {
		return err
	}
	if err := r.w.Write(evidence.ReportJSON, data); err != nil {
		return err
	}
	digests := r.w.Digests()
	st, err := evidence.BuildStatement(r.rep, digests)
	if err == nil {
		err = r.w.Write(evidence.Attestation, st)
	}
	if err == nil && r.opt.SignKey != nil {
		var env []byte
		if env, err = evidence.Sign(st, r.opt.SignKey); err == nil {
			if err = r.w.Write(evidence.DSSEFile, env); err != nil {
				os.Remove(filepath.Join(r.dir, evidence.Attestation))
			}
		}
	}
	if err == nil {
		return nil
	}
	// The attestation is missing: say so in the report.
	r.blockers = append(r.blockers, evidence.Blocker{Code: evidence.ArtifactWriteFailure, Message: err.Error(), Artifact: evidence.Attestation})
	r.settle()
	digs := r.w.Digests()
	delete(digs, evidence.ReportJSON)
	delete(digs, evidence.Attestation)
	delete(digs, evidence.DSSEFile)
	r.rep.ArtifactDigests = digs
	wa := r.w.WrittenAt()
	delete(wa, evidence.ReportJSON)
	delete(wa, evidence.Attestation)
	delete(wa, evidence.DSSEFile)
	r.rep.Freshness.WrittenAt = wa
	data, err = evidence.Marshal(r.rep)
	if err != nil {
		return err
	}
	return r.w.Write(evidence.ReportJSON, data)
}

// artifactPaths names the artifacts, relative to the run directory.
func artifactPaths(signed bool) map[string]string {
	m := map[string]string{
		"report_json": evidence.ReportJSON,
		"report_md":   evidence.ReportMD,
		"events":      evidence.EventsFile,
		"patch":       evidence.PatchFile,
		"test_log":    evidence.TestLog,
		"trace":       evidence.TraceFile,
		"backend":     evidence.BackendDir + "/",
		"attestation": evidence.Attestation,
	}
	if signed {
		m["attestation_dsse"] = evidence.DSSEFile
	}
	return m
}

// markdown renders report.md.
func (r *run) markdown() ([]byte, error) {
	rep := r.rep
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Harness run %s\n\n", rep.RunID)
	fmt.Fprintf(&b, "- case: `%s`\n- backend: `%s`\n", rep.CaseID, rep.Backend)
	if rep.Fixture != "" {
		fmt.Fprintf(&b, "- fixture: `%s`\n", rep.Fixture)
	}
	fmt.Fprintf(&b, "- status: `%s`\n- exit code: %d\n", rep.Status, rep.ExitCode)
	fmt.Fprintf(&b, "- started: %s\n- finished: %s\n", rep.RunStartedAt, rep.RunFinishedAt)
	if rep.BackendExitCode != nil {
		fmt.Fprintf(&b, "- backend exit code: %d\n", *rep.BackendExitCode)
	} else {
		fmt.Fprintf(&b, "- backend exit code: none\n")
	}
	fmt.Fprintf(&b, "- backend process started: %t\n- case process started: %t\n", rep.BackendProcessStarted, rep.CaseProcessStarted)
	fmt.Fprintf(&b, "- approval: %s\n- sandbox: %s", rep.ApprovalStatus, rep.Sandbox)
	if si := rep.SandboxInfo; rep.Sandbox == sandbox.KindLandlock {
		fmt.Fprintf(&b, " (Landlock ABI %d, ruleset ABI %d; writable: %s; confined: %s)", si.KernelABI, si.RulesetABI, strings.Join(si.Writable, ", "), strings.Join(si.Confined, ", "))
	} else if si.Reason != "" {
		fmt.Fprintf(&b, " (%s)", si.Reason)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "- baseline commit: `%s`\n", rep.Baseline.Commit)
	b.WriteString("\n## Blockers\n\n")
	if len(rep.Blockers) == 0 {
		b.WriteString("None.\n")
	}
	for _, bl := range rep.Blockers {
		fmt.Fprintf(&b, "- `%s`: %s", bl.Code, bl.Message)
		if len(bl.Paths) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(bl.Paths, ", "))
		}
		if bl.Artifact != "" {
			fmt.Fprintf(&b, " [artifact %s]", bl.Artifact)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n## Changed files\n\n")
	if len(rep.ChangedFiles) == 0 {
		b.WriteString("None.\n")
	}
	for _, f := range rep.ChangedFiles {
		fmt.Fprintf(&b, "- `%s`\n", f)
	}
	fmt.Fprintf(&b, "\nAllowed writes passed: %t. Forbidden paths passed: %t.\n", rep.AllowedWritesPassed, rep.ForbiddenPathsPassed)
	b.WriteString("\n## Verification\n\n")
	if !rep.Verification.Ran {
		fmt.Fprintf(&b, "Not run: %s.\n", firstNonEmpty(rep.Verification.Skipped, "not reached"))
	}
	for _, c := range rep.Verification.Commands {
		st := "failed"
		switch {
		case c.Passed:
			st = "passed"
		case c.Missing:
			st = "missing"
		case c.TimedOut:
			st = "timed out"
		}
		fmt.Fprintf(&b, "- `%s`: %s\n", strings.Join(c.Argv, " "), st)
	}
	fmt.Fprintf(&b, "\n## Events\n\n%d events, chain head `%s`.\n", rep.Events.Count, rep.Events.ChainHead)
	return b.Bytes(), nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
