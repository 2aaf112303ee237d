package evidence

// StageFacts are the report's staged-proof fields, flattened into
// report.json. Each is left out when it has its zero value, so an unstaged
// run's report is what it was before the ladder existed (and earlier
// evidence stays canonical): readers take a missing field as 0, "", false
// or null.
type StageFacts struct {
	Stage                   int    `json:"stage,omitempty"`
	MutationMode            string `json:"mutation_mode,omitempty"`
	ApprovalID              string `json:"approval_id,omitempty"`
	ApprovalConsumed        bool   `json:"approval_consumed,omitempty"`
	ConsumedByPassEvidence  string `json:"consumed_by_pass_evidence,omitempty"`
	OperatorOutcomeRequired bool   `json:"operator_outcome_required,omitempty"`
	// ApprovalPacketSHA256 is the digest of the approval packet the run
	// rebuilt and found equal to the consumed approval's packet_sha256.
	ApprovalPacketSHA256 string `json:"approval_packet_sha256,omitempty"`
	// ApprovalRepoHead is the source repository's HEAD the approval gate
	// saw, equal to the consumed approval's repo_head (stages 3-6).
	ApprovalRepoHead string `json:"approval_repo_head,omitempty"`
	// SourceRepo is the repository --repo named (stages 3-6), "" otherwise.
	SourceRepo        string             `json:"source_repo,omitempty"`
	SourceNonMutation *SourceNonMutation `json:"source_non_mutation,omitempty"`
	// ForbiddenActionsAttempted are the shimmed commands the backend tried.
	ForbiddenActionsAttempted []ForbiddenAction `json:"forbidden_actions_attempted,omitempty"`
}

// SourceNonMutation is the proof that the source repository was left as
// it was: HEAD, the checked-out branch, git status and the control files
// before the run and after it.
type SourceNonMutation struct {
	Repo          string   `json:"repo"`
	HeadBefore    string   `json:"head_before"`
	HeadAfter     string   `json:"head_after"`
	BranchBefore  string   `json:"branch_before"`
	BranchAfter   string   `json:"branch_after"`
	StatusBefore  []string `json:"status_before"`
	StatusAfter   []string `json:"status_after"`
	ControlBefore string   `json:"control_sha256_before"`
	ControlAfter  string   `json:"control_sha256_after"`
	Unchanged     bool     `json:"unchanged"`
	// WorkBranch is the branch the run worked on (stages 5-6), "" otherwise.
	WorkBranch string `json:"work_branch"`
}

// ForbiddenAction is one attempt at a shimmed command.
type ForbiddenAction struct {
	Command string   `json:"command"`
	Argv    []string `json:"argv"`
}

// Stage blocker codes.
const (
	EarlierStageNotValidated   = "earlier_stage_not_validated"
	StageMutationScopeExceeded = "stage_mutation_scope_exceeded"
	SourceAdmissionMissing     = "source_admission_missing"
	SourceAdmissionNotAdmitted = "source_admission_not_admitted"
	TargetAdmissionMissing     = "target_admission_missing"
	TargetAdmissionNotAdmitted = "target_admission_not_admitted"
	TargetOwnerNotExplicit     = "target_owner_not_explicit"
	TargetRiskNotLow           = "target_risk_not_low"
	TargetRepositoryMismatch   = "target_repository_mismatch"
	TargetAdmissionIncomplete  = "target_admission_incomplete"
	PathOutsideAllowedPaths    = "path_outside_allowed_paths"
	PathInForbiddenPaths       = "path_in_forbidden_paths"
	ApprovalMissing            = "approval_missing"
	ApprovalExpired            = "approval_expired"
	ApprovalAlreadyConsumed    = "approval_already_consumed"
	ApprovalScopeMismatch      = "approval_scope_mismatch"
	RepositoryUnavailable      = "repository_unavailable"
	SourceRepositoryMutated    = "source_repository_mutated"
	ForbiddenActionAttempted   = "forbidden_action_attempted"
	// MissingOperatorOutcome is not a run blocker: it is why a stage that
	// requires an operator outcome is not validated by a run without one.
	MissingOperatorOutcome = "missing_operator_outcome"
)

func init() {
	for _, c := range []string{
		EarlierStageNotValidated, StageMutationScopeExceeded, SourceAdmissionMissing, SourceAdmissionNotAdmitted,
		TargetAdmissionMissing, TargetAdmissionNotAdmitted, TargetOwnerNotExplicit, TargetRiskNotLow, TargetAdmissionIncomplete,
		TargetRepositoryMismatch, PathOutsideAllowedPaths, PathInForbiddenPaths,
		ApprovalMissing, ApprovalExpired, ApprovalAlreadyConsumed, ApprovalScopeMismatch, RepositoryUnavailable, ForbiddenActionAttempted,
	} {
		BlockerStatus[c] = StatusBlocked
	}
	BlockerStatus[SourceRepositoryMutated] = StatusFail
}
