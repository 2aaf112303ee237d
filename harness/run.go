package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness/contract"
	"github.com/svrnty/sotvet/harness/engine"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/internal/gitws"
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
	// verifyCache is the verification's own Go build cache: made after
	// the backend ended, outside everything the backend could write.
	// Empty while the backend runs (its cache is tmp/gocache).
	verifyCache string

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

	ladderState
	lane     *laneState   // external lanes only, once their gates ran
	baseTree *tree.Digest // the harness's own digest of the baseline
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
	r.red = laneRedactor{r: r, inner: r.red}
	var reg *engine.Registry
	var ok bool
	if r.name, r.entry, reg, ok = opt.engine(); !ok {
		return nil, fmt.Errorf("%w: unknown engine %q (registered: %s)", ErrUsage, r.name, strings.Join(reg.Names(), ", "))
	}
	if opt.Fixture != "" {
		fx, ok := FixtureByName(opt.Fixture)
		if !ok {
			return nil, fmt.Errorf("%w: unknown fixture %q (want one of %s)", ErrUsage, opt.Fixture, strings.Join(FixtureNames(), ", "))
		}
		if !fx.RunsOn(r.name) {
			return nil, fmt.Errorf("%w: fixture %s needs the fake backend's misbehaviour, or a scripted provider on %s; it cannot run on the %s lane", ErrUsage, fx.Name, strings.Join(fx.Scripted, ", "), r.name)
		}
		r.fx = &fx
	}
	if err := r.setupLadder(); err != nil {
		return nil, err
	}
	if opt.RunsRoot == "" && opt.RunDir == "" {
		return nil, fmt.Errorf("%w: no runs root", ErrUsage)
	}
	if err := checkCLISource(opt.CLISource); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUsage, err)
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
	if c != nil && r.fx != nil {
		if ok, why := FixtureApplies(*r.fx, c); !ok {
			return nil, fmt.Errorf("%w: fixture %s does not apply: %s", ErrUsage, r.fx.Name, why)
		}
	}

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
	r.stageReport()
	r.event("run.started", "harness", map[string]any{"run_id": r.rep.RunID, "case_id": caseID, "backend": r.name, "fixture": r.rep.Fixture})
	r.tr("run.started", map[string]any{"run_dir": r.dir})

	if cerrs != nil {
		r.gateBlocked("contract", evidence.InvalidContract, "the task contract is invalid: "+cerrs.Error())
	} else if !r.stageGates() || !r.gates() {
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

// engine resolves the engine a run with opt uses: its name (the default
// when none is given), its registry entry and the registry it is looked
// up in.
func (opt Options) engine() (name string, e engine.Entry, reg *engine.Registry, ok bool) {
	name, reg = opt.Engine, opt.Registry
	if name == "" {
		name = DefaultEngine
	}
	if reg == nil {
		reg = DefaultRegistry(opt.FakeCommand)
	}
	e, ok = reg.Lookup(name)
	return name, e, reg, ok
}
