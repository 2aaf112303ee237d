// Package stage is the staged proof ladder as data: six stages, each with
// the mutation scope it allows, the gates a run must pass before anything
// starts, the artifacts and failure classes its evidence must show, and
// whether it needs an operator's approval before a run and an operator's
// outcome after it. The table is the default policy; sotvet.yaml may
// override a stage's lists and switches (see ParseConfig), never its scope.
package stage

import (
	"fmt"
	"slices"
)

// Mutation modes of a staged run: where the backend's changes may land.
const (
	ModeNone            = "none"             // stage 1: the copied case, no change expected
	ModeCopiedCase      = "copied-case"      // stage 2: a copy of the case's artificial fixture
	ModeCopiedRepo      = "copied-repo"      // stage 3: a copy of a local repository's work tree
	ModeDisposableClone = "disposable-clone" // stage 4: a local clone with no remote
	ModeOwnedWorktree   = "owned-worktree"   // stage 5: a worktree on a new branch of the owned repository
	ModeScopedWorktree  = "scoped-worktree"  // stage 6: the same, scoped by the admission record
)

// Entry gates. Each failing gate blocks the run with its own blocker code.
const (
	GateEarlierStage    = "earlier_stage_validated"     // the stage before is validated by evidence in the runs root
	GateSourceAdmission = "source_admission"            // the lane's source admission record is admitted
	GateTargetAdmission = "target_repository_admission" // the target-repository admission record admits --repo
	GateApproval        = "approval"                    // a recorded, unexpired, unconsumed approval matches the run
	GateMutationScope   = "mutation_scope"              // the case's mutation_mode fits the stage
)

// Gates lists the known gates in the order they are checked.
var Gates = []string{GateMutationScope, GateEarlierStage, GateSourceAdmission, GateTargetAdmission, GateApproval}

// Artifacts a stage may require beyond the Harness Evidence Interface set.
const (
	ArtifactSourceNonMutation = "source-non-mutation.json" // HEAD and status of the source before and after
	ArtifactApproval          = "approval"                 // a consumed approval record named by the report
	ArtifactOperatorOutcome   = "outcome.json"             // the operator's accept or reject
	// ArtifactComparison is a verified, complete lane comparison under the
	// runs root in which the engine is the eligible candidate default.
	ArtifactComparison = "comparison.json"
)

// Artifacts lists the known stage artifacts.
var Artifacts = []string{ArtifactSourceNonMutation, ArtifactApproval, ArtifactOperatorOutcome, ArtifactComparison}

// Stage is one rung of the ladder.
type Stage struct {
	Number        int    `json:"stage"`
	Name          string `json:"name"`
	MutationScope string `json:"mutation_scope"` // in the corpus's words
	MutationMode  string `json:"mutation_mode"`
	// ContractModes are the task contract mutation_mode values a case may
	// declare at this stage.
	ContractModes           []string `json:"contract_modes"`
	EntryGates              []string `json:"entry_gates"`
	RequiredArtifacts       []string `json:"required_artifacts"`
	RequiredFailureClasses  []string `json:"required_failure_classes"` // failure fixture names
	ApprovalRequired        bool     `json:"approval_required"`
	OperatorOutcomeRequired bool     `json:"operator_outcome_required"`
}

// NeedsRepo says whether runs at the stage work on --repo.
func (s Stage) NeedsRepo() bool {
	switch s.MutationMode {
	case ModeCopiedRepo, ModeDisposableClone, ModeOwnedWorktree, ModeScopedWorktree:
		return true
	}
	return false
}

// HasGate says whether the stage lists gate.
func (s Stage) HasGate(g string) bool { return slices.Contains(s.EntryGates, g) }

// Table is the ladder: Stages[i] is stage i+1.
type Table struct {
	Stages []Stage `json:"stages"`
	// Source is where the table came from: "default" or the sotvet.yaml path.
	Source string `json:"source"`
	// BaseURLEnv and APIKeyEnv are sotvet.yaml's harness.provider_env: the
	// environment variables holding the external lanes' provider base URL
	// and key ("" when not set there).
	BaseURLEnv string `json:"-"`
	APIKeyEnv  string `json:"-"`
}

// Lookup returns stage n.
func (t *Table) Lookup(n int) (Stage, error) {
	if n < 1 || n > len(t.Stages) {
		return Stage{}, fmt.Errorf("stage %d does not exist (want 1 to %d)", n, len(t.Stages))
	}
	return t.Stages[n-1], nil
}

// Default returns the default ladder, after the corpus's staged proof
// gates (CTO-CASE-STAGED-PROOF-GATES.md). Failure classes are the names of
// the harness's failure fixtures.
func Default() *Table {
	return &Table{Source: "default", Stages: []Stage{
		{
			Number: 1, Name: "gated engine", MutationScope: "none", MutationMode: ModeNone,
			ContractModes:          []string{"none"},
			EntryGates:             []string{GateMutationScope, GateSourceAdmission},
			RequiredArtifacts:      []string{},
			RequiredFailureClasses: []string{"provider-unavailable", "missing-event", "artifact-write-failure"},
		},
		{
			Number: 2, Name: "artificial fixture", MutationScope: "copied artificial case only", MutationMode: ModeCopiedCase,
			ContractModes:          []string{"none", "copied-fixture"},
			EntryGates:             []string{GateMutationScope, GateEarlierStage, GateSourceAdmission},
			RequiredArtifacts:      []string{},
			RequiredFailureClasses: []string{"no-diff", "disallowed-file", "failed-tests", "missing-test-command", "missing-event"},
		},
		{
			Number: 3, Name: "copied repo fixture", MutationScope: "copied local repository fixture only", MutationMode: ModeCopiedRepo,
			ContractModes:          []string{"copied-fixture"},
			EntryGates:             []string{GateMutationScope, GateEarlierStage, GateSourceAdmission},
			RequiredArtifacts:      []string{ArtifactSourceNonMutation},
			RequiredFailureClasses: []string{"dirty-start", "dirty-end", "timeout", "artifact-write-failure"},
		},
		{
			Number: 4, Name: "disposable sandbox repo", MutationScope: "disposable repository only", MutationMode: ModeDisposableClone,
			ContractModes:          []string{"copied-fixture", "sandbox-repo"},
			EntryGates:             []string{GateMutationScope, GateEarlierStage, GateSourceAdmission, GateApproval},
			RequiredArtifacts:      []string{ArtifactSourceNonMutation, ArtifactApproval},
			RequiredFailureClasses: []string{"approval-denied", "reviewer-reject", "timeout", "provider-unavailable"},
			ApprovalRequired:       true,
		},
		{
			Number: 5, Name: "owned noncritical repo", MutationScope: "explicitly owned low-risk repository only", MutationMode: ModeOwnedWorktree,
			ContractModes:           []string{"copied-fixture", "sandbox-repo", "owned-noncritical-repo"},
			EntryGates:              []string{GateMutationScope, GateEarlierStage, GateSourceAdmission, GateTargetAdmission, GateApproval},
			RequiredArtifacts:       []string{ArtifactSourceNonMutation, ArtifactApproval, ArtifactOperatorOutcome},
			RequiredFailureClasses:  []string{"disallowed-file", "failed-tests", "approval-denied", "dirty-end"},
			ApprovalRequired:        true,
			OperatorOutcomeRequired: true,
		},
		{
			Number: 6, Name: "candidate default", MutationScope: "scoped real-repo use only", MutationMode: ModeScopedWorktree,
			ContractModes:           []string{"copied-fixture", "sandbox-repo", "owned-noncritical-repo", "candidate-default"},
			EntryGates:              []string{GateMutationScope, GateEarlierStage, GateSourceAdmission, GateTargetAdmission, GateApproval},
			RequiredArtifacts:       []string{ArtifactSourceNonMutation, ArtifactApproval, ArtifactOperatorOutcome, ArtifactComparison},
			RequiredFailureClasses:  []string{},
			ApprovalRequired:        true,
			OperatorOutcomeRequired: true,
		},
	}}
}
