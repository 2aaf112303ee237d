// Package evidence defines the Harness Evidence Interface — the run
// directory's artifacts, report.json's schema, the tamper-evident event
// chain, the in-toto attestation — and writes it atomically.
package evidence

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// SchemaVersion is report.json's schema version.
const SchemaVersion = 1

// Artifact names, relative to the run directory.
const (
	ReportJSON  = "report.json"
	ReportMD    = "report.md"
	EventsFile  = "events.normalized.jsonl"
	PatchFile   = "patch.diff"
	TestLog     = "test.log"
	TraceFile   = "trace.jsonl"
	BackendDir  = "backend"
	Attestation = "attestation.intoto.json"
	DSSEFile    = "attestation.dsse.json"
	// WorkspaceDir holds the copied fixture; it is not an artifact.
	WorkspaceDir = "workspace"
	// TmpDir holds the harness's scratch files (HOME, TMPDIR, git index);
	// it is not an artifact.
	TmpDir = "tmp"
)

// Required lists the artifacts every run has, in the order they are
// written; report.json and the attestation come last.
var Required = []string{PatchFile, TestLog, EventsFile, TraceFile, ReportMD, ReportJSON, Attestation}

// Statuses.
const (
	StatusPass    = "pass"
	StatusFail    = "fail"
	StatusBlocked = "blocked"
)

// Exit codes of a run.
const (
	ExitPass    = 0
	ExitFail    = 1
	ExitBlocked = 3
)

// ExitCode maps a status to the run's exit code.
func ExitCode(status string) int {
	switch status {
	case StatusPass:
		return ExitPass
	case StatusBlocked:
		return ExitBlocked
	}
	return ExitFail
}

// Approval statuses.
const (
	ApprovalNotRequired = "not-required"
	ApprovalRequested   = "requested"
	ApprovalGranted     = "granted"
	ApprovalDenied      = "denied"
)

// Blocker codes. The twelve failure-matrix codes come first.
const (
	NoDiff                 = "no_diff"
	DisallowedFileChange   = "disallowed_file_change"
	VerificationFailed     = "verification_failed"
	MissingTestCommand     = "missing_test_command"
	MissingRequiredEvent   = "missing_required_event"
	ReviewerRejected       = "reviewer_rejected"
	ApprovalDeniedCode     = "approval_denied"
	Timeout                = "timeout"
	DirtyStartingTree      = "dirty_starting_tree"
	DirtyEndingTree        = "dirty_ending_tree"
	ArtifactWriteFailure   = "artifact_write_failure"
	ProviderUnavailable    = "provider_unavailable"
	EngineDisabled         = "engine_disabled"
	EngineNotExecutable    = "engine_not_executable"
	MutationModeNotAllowed = "mutation_mode_not_allowed"
	InvalidContract        = "invalid_contract"
	BackendFailed          = "backend_failed"
	BackendSignalMismatch  = "backend_signal_mismatch"
	SandboxUnavailable     = "sandbox_unavailable"

	// Lane gates (before any process starts) and lane verdicts.
	ModelNotAdmitted         = "model_not_admitted"
	ProviderNotConfigured    = "provider_not_configured"
	ProviderShapeUnavailable = "provider_response_shape_unavailable"
	CLIMissing               = "cli_missing"
	CLIVersionUnrecorded     = "cli_version_unrecorded"
	CredentialsMissing       = "credentials_missing"
	UntrustedLaneConfig      = "untrusted_lane_config"
	BackendClaimMismatch     = "backend_claim_mismatch"
	LateWorkspaceChange      = "late_workspace_change"
	// PhaseTimeout: a phase of the backend (a Case phase) lingered past
	// the case's timeouts.phase, and the supervisor stopped the backend.
	PhaseTimeout = "phase_timeout"
)

// BlockerStatus gives each blocker code the status it forces.
var BlockerStatus = map[string]string{
	NoDiff:                 StatusFail,
	DisallowedFileChange:   StatusFail,
	VerificationFailed:     StatusFail,
	MissingTestCommand:     StatusBlocked,
	MissingRequiredEvent:   StatusFail,
	ReviewerRejected:       StatusBlocked,
	ApprovalDeniedCode:     StatusBlocked,
	Timeout:                StatusBlocked,
	DirtyStartingTree:      StatusBlocked,
	DirtyEndingTree:        StatusFail,
	ArtifactWriteFailure:   StatusFail,
	ProviderUnavailable:    StatusBlocked,
	EngineDisabled:         StatusBlocked,
	EngineNotExecutable:    StatusBlocked,
	MutationModeNotAllowed: StatusBlocked,
	InvalidContract:        StatusBlocked,
	BackendFailed:          StatusFail,
	BackendSignalMismatch:  StatusFail,
	SandboxUnavailable:     StatusBlocked,

	ModelNotAdmitted:         StatusBlocked,
	ProviderNotConfigured:    StatusBlocked,
	ProviderShapeUnavailable: StatusBlocked,
	CLIMissing:               StatusBlocked,
	CLIVersionUnrecorded:     StatusBlocked,
	CredentialsMissing:       StatusBlocked,
	UntrustedLaneConfig:      StatusBlocked,
	BackendClaimMismatch:     StatusFail,
	LateWorkspaceChange:      StatusFail,
	PhaseTimeout:             StatusBlocked,
}

// StatusOf returns the status a list of blockers forces: blocked beats
// fail, and no blocker is a pass.
func StatusOf(bs []Blocker) string {
	st := StatusPass
	for _, b := range bs {
		switch BlockerStatus[b.Code] {
		case StatusBlocked:
			return StatusBlocked
		default:
			st = StatusFail
		}
	}
	return st
}

// Blocker is one named fail-closed reason.
type Blocker struct {
	Code     string   `json:"code"`
	Message  string   `json:"message"`
	Paths    []string `json:"paths,omitempty"`
	Artifact string   `json:"artifact,omitempty"`
}

// Report is report.json.
type Report struct {
	SchemaVersion   int    `json:"schema_version"`
	CaseID          string `json:"case_id"`
	RunID           string `json:"run_id"`
	Status          string `json:"status"`
	Backend         string `json:"backend"`
	Fixture         string `json:"fixture"`
	RunStartedAt    string `json:"run_started_at"`
	RunFinishedAt   string `json:"run_finished_at"`
	BackendExitCode *int   `json:"backend_exit_code"`
	ExitCode        int    `json:"exit_code"`
	ArtifactsDir    string `json:"artifacts_dir"`

	ChangedFiles         []string        `json:"changed_files"`
	AllowedWritesPassed  bool            `json:"allowed_writes_passed"`
	ForbiddenPathsPassed bool            `json:"forbidden_paths_passed"`
	PathViolations       []PathViolation `json:"path_violations"`

	ApprovalStatus string    `json:"approval_status"`
	Approval       *Approval `json:"approval"`

	Verification   Verification      `json:"verification"`
	TestsPassed    bool              `json:"tests_passed"`
	RequiredEvents RequiredEvents    `json:"required_events"`
	Blockers       []Blocker         `json:"blockers"`
	NotApplicable  map[string]string `json:"not_applicable"`

	ArtifactPaths   map[string]string `json:"artifact_paths"`
	ArtifactDigests map[string]string `json:"artifact_digests"`
	Freshness       Freshness         `json:"freshness"`
	Events          EventsSummary     `json:"events"`

	Contract   ContractInfo `json:"contract"`
	Baseline   Baseline     `json:"baseline"`
	Ending     Ending       `json:"ending"`
	BackendRun BackendRun   `json:"backend_run"`

	// Lane facts.
	CaseProcessStarted       bool   `json:"case_process_started"`
	BackendProcessStarted    bool   `json:"backend_process_started"`
	Provider                 string `json:"provider"`
	SourceAdmissionStatus    string `json:"source_admission_status"`
	RuntimeDefaultActivation bool   `json:"runtime_default_activation"`
	// The model the run asked for (external lanes) and its admission.
	ModelProvider        string `json:"case_model_provider,omitempty"`
	Model                string `json:"case_model,omitempty"`
	ModelAdmissionStatus string `json:"model_admission_status,omitempty"`
	// CLIVersion is what the lane's CLI said its version is.
	CLIVersion string `json:"cli_version,omitempty"`
	// CLISource is what the user said the CLI was built from, as given.
	CLISource   string      `json:"cli_source,omitempty"`
	Sandbox     string      `json:"sandbox"`
	SandboxInfo SandboxInfo `json:"sandbox_info"`

	// Staged proof (stage 0: not a staged run).
	StageFacts

	Harness Harness  `json:"harness"`
	Signing *Signing `json:"signing"`
}

// SandboxInfo says how the backend was confined: the mode asked for, the
// Landlock ABI the kernel offered and the one the ruleset needs, what may
// be written and read, and which processes ran confined.
type SandboxInfo struct {
	Mode       string   `json:"mode"`         // auto, landlock or none
	KernelABI  int      `json:"landlock_abi"` // 0: the kernel offers no Landlock
	RulesetABI int      `json:"ruleset_abi"`  // 0 when not confined
	Writable   []string `json:"writable"`     // absolute paths the confined processes may write beneath
	// ReadsConfined: reading, listing and executing were confined too, to
	// Writable and Readable; false: the confined processes could read
	// every file the user can.
	ReadsConfined bool     `json:"reads_confined"`
	Readable      []string `json:"readable"` // absolute paths the confined processes may read beneath, beyond Writable
	Confined      []string `json:"confined"` // "backend", "verification"
	Reason        string   `json:"reason"`
	// What the backend and the verification could reach beyond files,
	// one sentence each, and what the harness meant to confine but the
	// kernel (or the configuration) did not let it.
	Terminal   string   `json:"terminal,omitempty"`
	Network    []string `json:"network,omitempty"`
	IPC        []string `json:"ipc,omitempty"`
	Unenforced []string `json:"unenforced,omitempty"`
}

// PathViolation is one changed path the contract does not allow.
type PathViolation struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Approval records the approval exchange.
type Approval struct {
	Actor        string `json:"actor"`
	Scope        string `json:"scope"`
	MutationMode string `json:"mutation_mode"`
	RequestedAt  string `json:"requested_at"`
	DecidedAt    string `json:"decided_at"`
	Expiry       string `json:"expiry"`
	Reason       string `json:"reason"`
}

// Verification records the verification commands and their results.
type Verification struct {
	Required bool            `json:"required"`
	Ran      bool            `json:"ran"`
	Passed   bool            `json:"passed"`
	Missing  bool            `json:"missing"`
	Skipped  string          `json:"skipped"`
	Commands []CommandResult `json:"commands"`
}

// CommandResult is one verification command's outcome.
type CommandResult struct {
	Argv       []string `json:"argv"`
	ExitCode   *int     `json:"exit_code"`
	Passed     bool     `json:"passed"`
	Missing    bool     `json:"missing"`
	TimedOut   bool     `json:"timed_out"`
	DurationMS int64    `json:"duration_ms"`
	// Survivors are processes of the command's group still alive after
	// the kill; a command that leaves any does not pass.
	Survivors []int `json:"survivors,omitempty"`
	// Lingering are processes the command left running when it ended
	// (the harness then killed them): a command that leaves any does not
	// pass, since code the backend wrote must not outlive its test.
	Lingering []int `json:"lingering,omitempty"`
	// Containment is how the command's process tree was contained.
	Containment string `json:"containment,omitempty"`
}

// RequiredEvents records the contract's required events and the check.
type RequiredEvents struct {
	Required []string `json:"required"`
	Passed   bool     `json:"passed"`
	Checked  bool     `json:"checked"`
	Missing  []string `json:"missing"`
}

// Freshness proves each artifact was written after the run started.
type Freshness struct {
	RunStartedAt  string            `json:"run_started_at"`
	CheckedAt     string            `json:"checked_at"`
	WrittenAt     map[string]string `json:"written_at"`
	AllAfterStart bool              `json:"all_after_start"`
}

// EventsSummary is the event chain's summary.
type EventsSummary struct {
	Count     int    `json:"count"`
	ChainHead string `json:"chain_head"`
}

// ContractInfo is the task contract the run worked under.
type ContractInfo struct {
	Path             string   `json:"path"`
	Digest           string   `json:"sha256"`
	MutationMode     string   `json:"mutation_mode"`
	AllowedWrites    []string `json:"allowed_writes"`
	ForbiddenPaths   []string `json:"forbidden_paths"`
	ForbiddenActions []string `json:"forbidden_actions"`
	RequireDiff      bool     `json:"require_diff"`
}

// Baseline is the workspace's starting state.
type Baseline struct {
	Commit     string   `json:"commit"`
	TreeDigest string   `json:"tree_sha256"`
	Checked    bool     `json:"clean_start_checked"`
	Clean      bool     `json:"clean_start"`
	DirtyPaths []string `json:"dirty_paths"`
}

// Ending is the workspace's final state.
type Ending struct {
	TreeDigest string   `json:"tree_sha256"`
	Checked    bool     `json:"clean_end_checked"`
	Clean      bool     `json:"clean_end"`
	DirtyPaths []string `json:"dirty_paths"`
}

// BackendRun is what the harness saw of the backend process.
type BackendRun struct {
	Argv           []string `json:"argv"`
	Pid            int      `json:"pid"`
	Signal         string   `json:"signal"`
	TimedOut       bool     `json:"timed_out"`
	TimeoutMS      int64    `json:"timeout_ms"`
	DurationMS     int64    `json:"duration_ms"`
	Survivors      []int    `json:"survivors"`
	TerminalStatus string   `json:"terminal_status"`
	Reviewer       string   `json:"reviewer"`
	Detail         string   `json:"detail"`
	// Containment is how the backend's process tree was contained and
	// killed (cgroup-v2, or process-group+marker-sweep).
	Containment string `json:"containment,omitempty"`
	// Lingering are processes the backend left running when it exited,
	// killed by the harness with the rest of its tree.
	Lingering []int `json:"lingering,omitempty"`
	// Usage is what the lane reported about tokens and cost; a value the
	// lane did not give is "unknown", never 0.
	Usage *Usage `json:"usage,omitempty"`
	// Findings are the lane's observations that did not decide the run on
	// their own (a failed file change, no final message...).
	Findings []string `json:"findings,omitempty"`
	// Lifecycle is LifecycleHarnessCompleted when the backend timed out
	// after handing over a change that passed every check of the harness
	// (backend/provider-lifecycle-harness-completed.txt says so).
	Lifecycle string `json:"lifecycle,omitempty"`
	// InnerSandbox is the CLI's own sandbox setting (codex's --sandbox):
	// off under the harness's Landlock, where it breaks.
	InnerSandbox string `json:"inner_sandbox,omitempty"`
}

// LifecycleHarnessCompleted and LifecycleMarker: see BackendRun.Lifecycle.
const (
	LifecycleHarnessCompleted = "harness-completed"
	LifecycleMarker           = BackendDir + "/provider-lifecycle-harness-completed.txt"
)

// HarnessCompleted reports whether the run's lifecycle was completed by
// the harness, as its marker artifact shows.
func (r *Report) HarnessCompleted() bool {
	_, marker := r.ArtifactDigests[LifecycleMarker]
	return r.BackendRun.Lifecycle == LifecycleHarnessCompleted && marker
}

// Usage is a lane's token and cost account.
type Usage struct {
	InputTokens  Count `json:"input_tokens"`
	OutputTokens Count `json:"output_tokens"`
	TotalTokens  Count `json:"total_tokens"`
	CostUSD      Cost  `json:"cost_usd"`
}

// Count is a number the lane may not have given.
type Count struct {
	N     int64
	Known bool
}

// MarshalJSON writes the number, or "unknown".
func (c Count) MarshalJSON() ([]byte, error) {
	if !c.Known {
		return []byte(`"unknown"`), nil
	}
	return []byte(strconv.FormatInt(c.N, 10)), nil
}

// UnmarshalJSON reads a number or "unknown".
func (c *Count) UnmarshalJSON(b []byte) error {
	if string(b) == `"unknown"` {
		*c = Count{}
		return nil
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	*c = Count{N: n, Known: err == nil}
	return err
}

// Cost is an amount the lane may not have given.
type Cost struct {
	USD   float64
	Known bool
}

// MarshalJSON writes the amount, or "unknown".
func (c Cost) MarshalJSON() ([]byte, error) {
	if !c.Known {
		return []byte(`"unknown"`), nil
	}
	return []byte(strconv.FormatFloat(c.USD, 'f', -1, 64)), nil
}

// UnmarshalJSON reads an amount or "unknown".
func (c *Cost) UnmarshalJSON(b []byte) error {
	if string(b) == `"unknown"` {
		*c = Cost{}
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	*c = Cost{USD: f, Known: err == nil}
	return err
}

// Harness names the harness build.
type Harness struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Signing names the key the attestation envelope was signed with.
type Signing struct {
	Algorithm string `json:"algorithm"`
	PublicKey string `json:"public_key"` // base64 of the raw ed25519 key
	KeyID     string `json:"keyid"`      // hex SHA-256 of the raw key
}

// Marshal encodes v the one way the harness writes JSON documents:
// two-space indentation, no HTML escaping, a final newline.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// MarshalLine encodes v as one compact JSON line, without the newline.
func MarshalLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// DecodeStrict decodes one JSON document into v, rejecting unknown fields
// and trailing data.
func DecodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after the JSON value")
	}
	return nil
}
