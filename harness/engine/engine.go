// Package engine is the harness's backend seam: the Engine interface every
// lane (fake, Case, Codex, Pi) implements, and the registry that says which
// lanes exist and which are enabled.
//
// An engine does not run anything itself. It describes the process the
// harness should start (Invocation) and reads that process's own outputs
// back into a terminal Signal; the harness owns starting, confining,
// timing out and killing the process, and decides the run from its own
// observations. There is no other runner path.
package engine

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"
)

// Job is what an engine is given to work on.
type Job struct {
	RunID            string
	CaseID           string
	Task             string
	Workspace        string // absolute path of the copied fixture workspace
	BackendDir       string // absolute path of the run's backend/ directory
	AllowedWrites    []string
	ForbiddenPaths   []string
	ForbiddenActions []string
	Verification     [][]string
	MutationMode     string
	// Fake-lane inputs: the case's solution overlay (the fake "provider")
	// and the misbehaviour to act out. Other engines ignore them.
	FakeSolution string
	FakeBehavior string
	// FakeWithhold are the events the missing-event behaviour does not
	// report: the backend-reported events the case requires.
	FakeWithhold []string

	// External-lane inputs, set by the harness once the lane's gates have
	// passed. The API key itself is never given to an engine: the harness
	// puts it in the backend's environment under Invocation.KeyEnv.
	Program  string // absolute path of the lane's CLI, as the CLI gate found it
	Node     string // absolute path of node, for lanes whose CLI is a Node script
	Provider string // the provider id of --model PROVIDER/MODEL
	Model    string // the model id
	BaseURL  string // the provider's base URL, from the environment
	Home     string // the backend's HOME (writable, inside the run)
	// Confined is true when the harness confines the backend (Landlock):
	// a CLI's own sandbox that breaks inside it must be turned off.
	Confined bool
}

// Invocation is the process an engine asks the harness to start.
type Invocation struct {
	Argv []string
	Dir  string   // working directory; the workspace when empty
	Env  []string // extra KEY=VALUE entries on top of the harness's allow-list
	// Files are written into the run's backend/ directory before the start
	// (a prompt or a spec, for instance), keyed by base name.
	Files map[string][]byte
	// KeyEnv names the variable the harness puts the provider's API key in
	// (external lanes); the key never appears in Argv or Files.
	KeyEnv string
	// HomeFiles are written under Job.Home before the start, keyed by a
	// slash-separated relative path: lane configuration that may name the
	// provider's endpoint, which is kept out of the evidence.
	HomeFiles map[string][]byte
	// InnerSandbox records the CLI's own sandbox setting, for the report.
	InnerSandbox string
	// OwnNamespaces is set when the CLI's own sandbox makes namespaces
	// (codex's workspace-write, bubblewrap), which a user and PID
	// namespace around it makes hang: the harness then runs it without.
	OwnNamespaces bool
}

// Lane is an external agent CLI lane: an Engine that also says how to
// find and check its CLI.
type Lane interface {
	Engine
	// CLI is the command looked up on PATH.
	CLI() string
	// Resolve turns the command found on PATH into the program to run and,
	// for a Node script, reports that node must run it.
	Resolve(found string) (program string, node bool, err error)
	// VersionArgs are the arguments that make the CLI print its version.
	VersionArgs() []string
	// ParseVersion reads the version from the CLI's outputs ("" if none).
	ParseVersion(stdout, stderr []byte) string
	// WireAPI is the provider API the CLI speaks: "responses" or "chat".
	WireAPI() string
	// UntrustedDirs are workspace directories the CLI would read as
	// configuration; a workspace holding one is refused.
	UntrustedDirs() []string
}

// PackagedLane is a lane whose CLI is an npm package: its version is read
// from the package's own package.json, which costs no node start (seconds
// on a busy machine).
type PackagedLane interface {
	Lane
	PackageVersion(program string) (string, error)
}

// WorkspaceLane is a lane that keeps its state, and its verdict, in the
// workspace (Case's .case/): the harness excludes StateDirs from the
// backend's changes (after adding them to .git/info/exclude before the
// backend starts) and asks TerminalIn, not Terminal, for the verdict.
type WorkspaceLane interface {
	Lane
	StateDirs() []string
	TerminalIn(job Job, stdout, stderr []byte, exitCode int) Signal
}

// Event is a normalized event the backend itself reported.
type Event struct {
	Type string         `json:"type"`
	Data map[string]any `json:"data,omitempty"`
}

// Terminal statuses a backend can report about itself.
const (
	StatusSuccess             = "success"
	StatusFailure             = "failure"
	StatusProviderUnavailable = "provider_unavailable"
	StatusNone                = "none" // the backend reported no terminal record
)

// Reviewer verdicts.
const (
	ReviewerApproved = "approved"
	ReviewerRejected = "rejected"
)

// Signal is the backend's own account of its run, read from its outputs.
// The harness never trusts it alone: it must agree with what the harness
// observed.
type Signal struct {
	Status   string  // one of the Status constants
	Reviewer string  // a Reviewer verdict, or empty
	Detail   string  // a one-line explanation from the backend
	Events   []Event // plan.updated, patch.applied, ... as the backend reported them
	// Usage is the lane's token and cost account; nil when it gives none.
	Usage *Usage
	// Findings are observations that do not decide the run alone.
	Findings []string
	// Claims is what the backend says it did, to check against what the
	// harness observed; nil when it claims nothing checkable.
	Claims *Claims
	// Handoff is true when the backend handed over a finished change before
	// its end (Case's implementer completed), so that a run cut short by
	// the timeout in a later phase can still be judged on that change.
	Handoff bool
	// Files are the lane's own records to keep in backend/ (Case's events
	// file), keyed by base name.
	Files map[string][]byte
}

// PhasedLane is a lane whose backend works in phases the harness can
// watch while it runs (Case), so that a phase lingering past its budget
// is stopped before the backend's own timeout.
type PhasedLane interface {
	// OpenPhase reads the backend's record as it stands: the phase it has
	// started and not ended, and an identity of that start (so that a
	// phase run twice is two phases); open is false between phases.
	OpenPhase(job Job) (phase string, start int, open bool)
}

// Usage is a lane's token and cost account. A nil field is unknown.
type Usage struct {
	InputTokens, OutputTokens, TotalTokens *int64
	CostUSD                                *float64
}

// Claims is what a backend claims about its own work.
type Claims struct {
	FilesChanged []string // workspace-relative paths
	TestsPassed  *bool
}

// Engine is one backend lane.
type Engine interface {
	// Name is the backend id used on the command line and in reports.
	Name() string
	// Provider names the provider or CLI the lane depends on, for reports.
	Provider() string
	// Invocation describes the process to run for job.
	Invocation(job Job) (Invocation, error)
	// Terminal reads the backend's outputs into its Signal.
	Terminal(stdout, stderr []byte, exitCode int) Signal
}

// ErrNotImplemented is returned by lanes whose adapter does not exist yet.
var ErrNotImplemented = errors.New("adapter not implemented")

// Entry is one registered engine with its gate.
type Entry struct {
	Engine  Engine
	Enabled bool   // enabled by default
	Gate    string // the gate that must be opened explicitly when not enabled
	// Executable is false for lanes registered only to be denied: even when
	// their gate is opened they do not start (Stage 1 of the staged proof).
	Executable bool
}

// Registry maps backend ids to engines.
type Registry struct {
	entries map[string]Entry
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{entries: map[string]Entry{}} }

// Register adds an engine; registering a name twice is an error.
func (r *Registry) Register(e Entry) error {
	name := e.Engine.Name()
	if _, dup := r.entries[name]; dup {
		return fmt.Errorf("engine %q registered twice", name)
	}
	r.entries[name] = e
	return nil
}

// Lookup returns the entry for name.
func (r *Registry) Lookup(name string) (Entry, bool) {
	e, ok := r.entries[name]
	return e, ok
}

// Names returns the registered backend ids, sorted.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.entries))
	for n := range r.entries {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Gated is a lane registered so that it can be named and denied, with no
// adapter behind it yet.
type Gated struct {
	ID  string
	CLI string // the external command the future adapter will drive
}

// Name implements Engine.
func (g Gated) Name() string { return g.ID }

// Provider implements Engine.
func (g Gated) Provider() string { return g.CLI }

// Invocation implements Engine: gated lanes have no adapter.
func (g Gated) Invocation(Job) (Invocation, error) {
	return Invocation{}, fmt.Errorf("engine %s: %w", g.ID, ErrNotImplemented)
}

// Terminal implements Engine.
func (g Gated) Terminal([]byte, []byte, int) Signal {
	return Signal{Status: StatusNone, Detail: "gated lane has no adapter"}
}

// GatedLanes are the external agent lanes registered disabled: WorkOS Case,
// OpenAI Codex and the Pi coding agent.
var GatedLanes = []Gated{
	{ID: "case", CLI: "ca"},
	{ID: "codex", CLI: "codex"},
	{ID: "pi", CLI: "pi"},
}

// IsGatedLane reports whether name is one of the gated external lanes.
func IsGatedLane(name string) bool {
	return slices.ContainsFunc(GatedLanes, func(g Gated) bool { return g.ID == name })
}

// EachLine calls fn with every line of data, however long: agent streams
// carry whole conversations in one line, so no line-length cap applies.
func EachLine(data []byte, fn func(line []byte)) {
	rd := bufio.NewReader(bytes.NewReader(data))
	for {
		line, err := rd.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			fn(bytes.TrimRight(line, "\r\n"))
		}
		if err != nil {
			return
		}
	}
}

// Int64 returns a pointer to n.
func Int64(n int64) *int64 { return &n }
