// Package harness runs a code-change task through a backend lane inside a
// copied git workspace, behind fail-closed gates, and writes the Harness
// Evidence Interface: an auditable, re-verifiable run directory.
//
// A run is pass only when the backend's exit code, the backend's own
// terminal signal and the harness's own git, path, event and verification
// checks all agree; anything else is fail or blocked with named blockers.
// Nothing in this package prints or exits.
package harness

import (
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/svrnty/sotvet/harness/engine"
	caselane "github.com/svrnty/sotvet/harness/engine/case"
	"github.com/svrnty/sotvet/harness/engine/codex"
	"github.com/svrnty/sotvet/harness/engine/fake"
	"github.com/svrnty/sotvet/harness/engine/pi"
)

// Redactor removes secrets from backend logs and verification output
// before they are written.
type Redactor interface {
	Redact([]byte) []byte
}

// identity is the Redactor used when none is given.
type identity struct{}

func (identity) Redact(b []byte) []byte { return b }

// ApprovalRequest asks an operator to approve a mutating run.
type ApprovalRequest struct {
	RunID        string
	CaseID       string
	Scope        string
	MutationMode string
	RequestedAt  time.Time
	Expiry       time.Time
}

// ApprovalDecision is an operator's answer.
type ApprovalDecision struct {
	Granted bool
	Actor   string
	Reason  string
}

// Approver decides approval requests. The backend is never an approver.
type Approver interface {
	Decide(ApprovalRequest) ApprovalDecision
}

// StaticApprover gives the same answer to every request.
type StaticApprover ApprovalDecision

// Decide implements Approver.
func (s StaticApprover) Decide(ApprovalRequest) ApprovalDecision { return ApprovalDecision(s) }

// Options configure a run.
type Options struct {
	CaseDir  string // the case directory
	Engine   string // backend id; "fake" when empty
	Fixture  string // a failure fixture name (fake lane only)
	RunsRoot string // where run directories are made
	// RunDir, when set, is the exact run directory to make (it must not
	// exist); its base name is the run id.
	RunDir string

	// Registry holds the lanes; DefaultRegistry when nil.
	Registry *engine.Registry
	// AllowEngines opens the gate of engines that are disabled by default.
	AllowEngines []string
	// FakeCommand starts the fake backend (see fake.Engine.Command); used
	// by DefaultRegistry.
	FakeCommand []string

	// Environ is the environment the backend's allow-list is drawn from
	// (normally os.Environ()). Only PATH, LANG and the Go toolchain's
	// cache locations pass; nothing else does.
	Environ []string

	Redactor Redactor
	Approver Approver
	SignKey  ed25519.PrivateKey
	Clock    func() time.Time
	Version  string

	// Sandbox is the confinement mode of the backend and the verification
	// commands: sandbox.Auto (also when empty) confines them with Landlock
	// where the kernel supports it, sandbox.Landlock requires that (a run
	// that cannot have it is blocked with sandbox_unavailable), and
	// sandbox.None does not confine.
	Sandbox string
	// SandboxCommand starts the sandbox shim, sandbox.Main, which must be
	// reached with the arguments that follow it; cmd/sotvet uses its own
	// executable and "harness sandbox-exec". Without it nothing can be
	// confined.
	SandboxCommand []string

	// Ladder makes the run a staged run of the proof ladder.
	Ladder Ladder
	// FakeBehavior makes the fake backend act out one of
	// fake.LadderBehaviors (fake lane only; tests and demonstrations).
	FakeBehavior string

	// External lanes (codex, pi, case): the model as PROVIDER/MODEL, the
	// model-provider admission record that must admit it, and the names of
	// the environment variables holding the provider's base URL and API
	// key (DefaultBaseURLEnv and DefaultAPIKeyEnv when empty).
	Model         string
	AdmissionFile string
	BaseURLEnv    string
	APIKeyEnv     string
	// ProbeMaxTokens is the response-shape probe's token budget
	// (DefaultProbeMaxTokens when 0); ProbeTimeout bounds it (60s when 0).
	ProbeMaxTokens int
	ProbeTimeout   time.Duration
	// BackendTimeout, when set, replaces the case's backend timeout.
	BackendTimeout time.Duration
	// ConfigBaseURLEnv and ConfigAPIKeyEnv are sotvet.yaml's
	// harness.provider_env. Precedence, for each variable name: BaseURLEnv
	// and APIKeyEnv (the flags), then the case's provider_env, then these,
	// then DefaultBaseURLEnv and DefaultAPIKeyEnv.
	ConfigBaseURLEnv, ConfigAPIKeyEnv string
	// CLISource is what the user says the lane's CLI was built from (for
	// example github.com/workos/case@30b1fa1): recorded in report.json as
	// cli_source beside the version the gate measured, which for a binary
	// is only its digest. Printable text, at most 200 bytes.
	CLISource string

	// GoScratch is where the Go build cache and GOPATH go when the ambient
	// environment has no usable HOME (default: the run directory's parent).
	GoScratch string

	// SharedGoCache is a directory of verified build outputs the runs of
	// one comparison share (see WarmGoCache): the verification's go
	// commands read it, never write it, and no backend is given it. Empty:
	// nothing shared.
	SharedGoCache string
}

// DefaultEngine is the default lane.
const DefaultEngine = fake.Name

// DefaultRegistry registers the fake lane, enabled, and the external
// agent lanes, disabled until --allow-engine opens their gate.
func DefaultRegistry(fakeCommand []string) *engine.Registry {
	r := engine.NewRegistry()
	_ = r.Register(engine.Entry{Engine: &fake.Engine{Command: fakeCommand}, Enabled: true, Executable: true})
	for _, l := range []engine.Lane{caselane.Engine{}, codex.Engine{}, pi.Engine{}} {
		_ = r.Register(engine.Entry{Engine: l, Gate: "allow-engine " + l.Name(), Executable: true})
	}
	for _, g := range engine.GatedLanes {
		if _, done := r.Lookup(g.ID); !done {
			_ = r.Register(engine.Entry{Engine: g, Gate: "allow-engine " + g.ID})
		}
	}
	return r
}

// ErrUsage marks errors in how the harness was asked to run.
var ErrUsage = errors.New("usage")

// DefaultRunsRoot is where runs go when no root is given: outside any
// tracked source, under the user's state directory.
func DefaultRunsRoot() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "sotvet", "harness-runs")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "state", "sotvet", "harness-runs")
	}
	return filepath.Join(os.TempDir(), "sotvet-harness-runs")
}
