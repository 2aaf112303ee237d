// Package summary computes the control summary: one deterministic,
// versioned view of a planning workspace and its evidence runs — the proof
// ladder, the workboard, the findings of the checks, the runs per lane, the
// approval posture and packet, the blocked lanes, candidate-default
// eligibility and the next operator action. Its only inputs are the
// workspace directory and the runs root; it knows no output format beyond
// its JSON struct (sotvet summary prints it, sotvet serve renders it).
package summary

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/registry"
	"github.com/svrnty/sotvet/harness/verify"
)

// SchemaVersion is the summary's schema version.
const SchemaVersion = 1

// Kind names the document, so a reader can tell it from other JSON.
const Kind = "sotvet.control-summary"

// Options configure Compute.
type Options struct {
	// Root is the workspace directory (absolute).
	Root string
	// FS holds the workspace content; default os.DirFS(Root).
	FS fs.FS
	// Ignored reports workspace paths to skip (git ignore rules); may be nil.
	Ignored func(path string, dir bool) bool
	// Analyzers are the checks to run (the same engine as sotvet check);
	// default registry.All.
	Analyzers []*analysis.Analyzer
	// Severity overrides by "check" or "check/category".
	Severity map[string]checks.Severity
	// MaxFileSize caps one workspace file; 0 means the default.
	MaxFileSize int64
	// MaxPerFile and MaxFindings cap the findings the summary lists, as
	// sotvet check caps those it reports (0: no cap); the counts cover
	// every finding. A workspace with a finding on every line would
	// otherwise make a summary of gigabytes.
	MaxPerFile, MaxFindings int
	// RunsRoot is the harness runs root; "" means no runs.
	RunsRoot string
	// RunsLabel is how RunsRoot is named in the summary (default its base
	// name), so the summary does not depend on where the tree sits.
	RunsLabel string
	// Now is the time approval expiry is judged against; default time.Now.
	Now func() time.Time
	// VerifyCache, when set, keeps verify's verdicts between calls (a
	// panel's); nil verifies every run.
	VerifyCache *VerifyCache
	// LatestPerLane caps the runs listed per lane (default 25); counts
	// always cover every run.
	LatestPerLane int
	// Trust is whom runs and ledger records must be signed by: the
	// workspace's trusted-keys (package trust), as harness verify uses.
	Trust verify.Options
	// Parsed is called once the workspace is parsed, before its checks
	// run (checks.Options.Parsed): sotvet summary collects there, as
	// sotvet check does.
	Parsed func()
}

// Summary is the control summary.
type Summary struct {
	SchemaVersion int    `json:"schema_version"`
	Kind          string `json:"kind"`
	Workspace     string `json:"workspace"`
	RunsRoot      string `json:"runs_root"`
	// Authority restates what the summary is: a view, never an authority.
	Authority string `json:"authority"`

	ProofLadder []Stage   `json:"proof_ladder"`
	Workboard   Workboard `json:"workboard"`
	Findings    Findings  `json:"findings"`
	Runs        Runs      `json:"runs"`

	// Approval posture.
	ApprovalRequired   bool            `json:"approval_required"`
	ApprovalGranted    bool            `json:"approval_granted"`
	ExecutionAllowed   bool            `json:"execution_allowed"`
	ApprovalReason     string          `json:"approval_reason"`
	AllowedNextActions []string        `json:"allowed_next_actions"`
	BlockedNextActions []string        `json:"blocked_next_actions"`
	ApprovalPacket     *ApprovalPacket `json:"approval_packet"`
	// The newest approval's life: whether a run consumed it, and which.
	GovernedExecution      GovernedExecution  `json:"governed_execution"`
	ApprovalConsumed       bool               `json:"approval_consumed"`
	ConsumedByPassEvidence string             `json:"consumed_by_pass_evidence"`
	Approvals              []Approval         `json:"approvals"`
	ConsumedApprovals      []ConsumedApproval `json:"consumed_approvals"`

	BlockedLanes             []BlockedLane    `json:"blocked_lanes"`
	CandidateDefault         CandidateDefault `json:"candidate_default"`
	RuntimeDefaultActivation bool             `json:"runtime_default_activation"`
	CorePromotionStatus      string           `json:"core_promotion_status"`
	CorePromotionCounts      map[string]int   `json:"core_promotion_counts"`
	NextOperatorAction       string           `json:"next_operator_action"`

	// Guard is the latest verified Core Route Admission Guard record
	// (sotvet guard) in the runs root; null when there is none.
	Guard *Guard `json:"guard"`

	// Unreadable lists evidence files that exist but could not be read
	// or decoded; each is left out of the rest of the summary.
	Unreadable []Unreadable `json:"unreadable"`
}

// Unreadable is one file the summary could not use.
type Unreadable struct {
	Path   string `json:"path"` // "runs/..." or a workspace path
	Reason string `json:"reason"`
}

// authorityNotice is the sentence every summary carries.
const authorityNotice = "Read-only view of the workspace and the harness evidence. It approves nothing, executes nothing and grants no authority."

// Compute builds the summary. The error is for a workspace that cannot be
// read at all; bad evidence is reported in Unreadable.
func Compute(opt Options) (*Summary, error) {
	if opt.Root == "" {
		return nil, errors.New("summary: no workspace root")
	}
	info, err := os.Stat(opt.Root)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", opt.Root)
	}
	if opt.FS == nil {
		opt.FS = os.DirFS(opt.Root)
	}
	if opt.Analyzers == nil {
		opt.Analyzers = registry.All
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.LatestPerLane <= 0 {
		opt.LatestPerLane = 25
	}
	// The runs are read and verified while the checks run.
	evc := make(chan *evidenceSet, 1)
	go func() {
		if opt.RunsRoot == "" {
			evc <- &evidenceSet{}
			return
		}
		evc <- loadEvidence(opt.RunsRoot, opt.Now(), opt.VerifyCache, opt.Trust)
	}()
	// The summary reports: it keeps the typed model, not the texts, and
	// builds no fixes.
	res, ws, err := checks.Run(checks.Options{
		Root: opt.Root, FS: opt.FS, Ignored: opt.Ignored, Analyzers: opt.Analyzers,
		Severity: opt.Severity, MaxFileSize: opt.MaxFileSize, ReleaseText: true, NoFixes: true,
		MaxPerFile: opt.MaxPerFile, MaxFindings: opt.MaxFindings, Parsed: opt.Parsed,
	})
	ev := <-evc
	if err != nil {
		return nil, err
	}
	res.Cap(opt.MaxPerFile, opt.MaxFindings)
	s := &Summary{
		SchemaVersion: SchemaVersion,
		Kind:          Kind,
		Workspace:     filepath.Base(opt.Root),
		Authority:     authorityNotice,
		Unreadable:    []Unreadable{},
	}
	if opt.RunsRoot != "" {
		s.RunsRoot = opt.RunsLabel
		if s.RunsRoot == "" {
			s.RunsRoot = filepath.Base(opt.RunsRoot)
		}
		s.Unreadable = append(s.Unreadable, ev.unreadable...)
	}
	s.Findings = findingsOf(res)
	s.Workboard = workboardOf(ws)
	s.ProofLadder = ladderOf(ws, ev)
	s.Runs = runsOf(ev, opt.LatestPerLane)
	s.CorePromotionStatus, s.CorePromotionCounts = corePromotion(ws)
	s.approvalPosture(ws, ev)
	s.lanesAndDefault(ev)
	s.NextOperatorAction = s.nextAction()
	s.Guard = guardOf(ev)
	return s, nil
}
