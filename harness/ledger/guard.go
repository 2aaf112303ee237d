package ledger

import (
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/svrnty/sotvet/internal/lazyre"
)

// GuardsDir is the directory of guard records under a runs root.
const GuardsDir = "guards"

// Check statuses of a guard record.
const (
	CheckPass    = "pass"
	CheckBlocked = "blocked"
	CheckUnknown = "unknown"
)

// GuardCheckNames are the checks every guard record holds, in order.
var GuardCheckNames = []string{"worktree_list", "main_status", "active_worktrees", "locks", "validation_processes", "conflicts", "unchanged"}

// The guard's verdicts and the Route State facts they give, in the words
// of the workspace's Core Route Admission Guard document.
const (
	GuardPass    = "pass"
	GuardBlocked = "blocked"

	RouteAdmitted    = "admitted"
	RouteNotAdmitted = "not_admitted"

	NoBlockedReason = "none"

	ActionOpenRoute = "open_governed_core_prd_route"
	ActionWait      = "wait_or_open_later_core_route_when_idle"
	ActionRecheck   = "rerun_guard_with_read_access"
)

// Reason codes of blocked and unknown checks, most telling first: the
// record's blocked_reason is the first of these any check gives.
const (
	ReasonConflict           = "active_or_conflicting_core_work_present"
	ReasonProcess            = "validation_process_running"
	ReasonLock               = "lock_present"
	ReasonOperation          = "operation_in_progress"
	ReasonDirty              = "dirty_worktree"
	ReasonChanged            = "repository_changed_during_guard"
	ReasonUnreadable         = "repository_unreadable"
	ReasonOwnershipUncertain = "ownership_uncertain"
)

// ReasonOrder lists every reason code, most telling first.
var ReasonOrder = []string{ReasonConflict, ReasonProcess, ReasonLock, ReasonOperation, ReasonDirty, ReasonChanged, ReasonUnreadable, ReasonOwnershipUncertain}

// uncertain are the reasons of checks that could not be made.
var uncertain = []string{ReasonUnreadable, ReasonOwnershipUncertain}

// Guard is one run of the Core Route Admission Guard against a
// repository, written by sotvet guard as RUNS/guards/<guard-id>.json. It
// holds what git and /proc said about the repository — paths, branch
// names, commit ids and times, counts, command names — and never any file
// content of it.
type Guard struct {
	SchemaVersion int      `json:"schema_version"`
	GuardID       string   `json:"guard_id"`
	Repo          string   `json:"repo"` // absolute path of the repository checked
	Conflicts     []string `json:"conflicts"`
	StartedAt     string   `json:"started_at"`
	FinishedAt    string   `json:"finished_at"`

	// The Route State facts.
	GuardStatus              string   `json:"guard_status"`
	CoreRouteAdmissionStatus string   `json:"core_route_admission_status"`
	BlockedReason            string   `json:"blocked_reason"`
	BlockedReasons           []string `json:"blocked_reasons"`
	NextAllowedAction        string   `json:"next_allowed_action"`

	Checks    []GuardCheck    `json:"checks"`
	Worktrees []GuardWorktree `json:"worktrees"`
	Processes []GuardProcess  `json:"processes"`

	// Uninspected are the processes of the repository's owner whose
	// working directory or open files could not be read (even root cannot
	// read those of a VM's PID 1). AssumedOutside are the PIDs the
	// operator declared, with --assume-outside, to work outside the
	// repository: the process check passes over an uninspected process
	// only when its PID is there, so the record shows who decided.
	Uninspected    []GuardUninspected `json:"uninspected,omitempty"`
	AssumedOutside []int              `json:"assumed_outside,omitempty"`

	// The proof that the guard changed nothing: the repository's state
	// digested before the first check and after the last.
	Before    GuardDigests `json:"before"`
	After     GuardDigests `json:"after"`
	Unchanged bool         `json:"unchanged"`
	Seal
}

// GuardCheck is one check's verdict.
type GuardCheck struct {
	Name   string `json:"name"`
	Status string `json:"status"` // pass, blocked or unknown
	Reason string `json:"reason"` // a reason code, "" when it passed
	Detail string `json:"detail"`
}

// GuardWorktree is one worktree as git lists it.
type GuardWorktree struct {
	Path         string `json:"path"`
	Main         bool   `json:"main"`
	Branch       string `json:"branch"` // "" when detached or bare
	Head         string `json:"head"`
	Bare         bool   `json:"bare"`
	Locked       bool   `json:"locked"`
	Prunable     bool   `json:"prunable"`
	State        string `json:"state"`          // clean, dirty or unknown
	Changes      int    `json:"changes"`        // entries git status lists
	Unmerged     bool   `json:"unmerged"`       // HEAD holds commits the main worktree's HEAD lacks
	LastCommitAt string `json:"last_commit_at"` // committer date of HEAD, RFC 3339
}

// GuardProcess is a process working inside the repository.
type GuardProcess struct {
	PID      int    `json:"pid"`
	Command  string `json:"command"`  // /proc/PID/comm: the name only, never arguments
	Worktree string `json:"worktree"` // the worktree (or git directory) it works in
	Via      string `json:"via"`      // cwd or open_file
}

// GuardUninspected is a process the guard could not inspect.
type GuardUninspected struct {
	PID            int    `json:"pid"`
	Command        string `json:"command"`         // /proc/PID/comm, or "?"
	UID            int    `json:"uid"`             // -1 when unknown
	Owner          string `json:"owner"`           // the user name, or ""
	AssumedOutside bool   `json:"assumed_outside"` // its PID is in AssumedOutside
}

// String names the process for a message: "systemd (pid 1, uid 0 root)".
func (u GuardUninspected) String() string {
	who := "uid unknown"
	if u.UID >= 0 {
		who = fmt.Sprintf("uid %d", u.UID)
		if u.Owner != "" {
			who += " " + u.Owner
		}
	}
	return fmt.Sprintf("%s (pid %d, %s)", u.Command, u.PID, who)
}

// GuardDigests are SHA-256 digests of the repository's state.
type GuardDigests struct {
	Refs      string `json:"refs"`      // every ref and each worktree's HEAD
	Index     string `json:"index"`     // each worktree's index file: bytes, size and mtime
	Worktrees string `json:"worktrees"` // git worktree list --porcelain
	Status    string `json:"status"`    // git status --porcelain=v2 of each worktree
}

// Verdict derives the Route State facts from the checks: pass only when
// every check passed; a check that could not be made blocks too.
func Verdict(checks []GuardCheck) (status, admission, reason string, reasons []string, action string) {
	reasons = []string{}
	for _, c := range checks {
		if c.Status != CheckPass && !slices.Contains(reasons, c.Reason) {
			reasons = append(reasons, c.Reason)
		}
	}
	slices.SortFunc(reasons, func(a, b string) int { return rank(a) - rank(b) })
	if len(reasons) == 0 {
		return GuardPass, RouteAdmitted, NoBlockedReason, reasons, ActionOpenRoute
	}
	action = ActionWait
	if slices.Contains(uncertain, reasons[0]) {
		action = ActionRecheck
	}
	return GuardBlocked, RouteNotAdmitted, reasons[0], reasons, action
}

// rank orders reason codes; an unknown code sorts last.
func rank(reason string) int {
	if i := slices.Index(ReasonOrder, reason); i >= 0 {
		return i
	}
	return len(ReasonOrder)
}

// Later reports whether a ran after b: by start time, then by id.
func (a *Guard) Later(b *Guard) bool {
	ta, erra := time.Parse(time.RFC3339Nano, a.StartedAt)
	tb, errb := time.Parse(time.RFC3339Nano, b.StartedAt)
	switch {
	case erra == nil && errb == nil && !ta.Equal(tb):
		return ta.After(tb)
	case (erra == nil) != (errb == nil):
		return erra == nil // a time beats no time
	}
	return a.GuardID > b.GuardID
}

// SetVerdict fills g's Route State facts from its checks.
func (g *Guard) SetVerdict() {
	g.GuardStatus, g.CoreRouteAdmissionStatus, g.BlockedReason, g.BlockedReasons, g.NextAllowedAction = Verdict(g.Checks)
}

var guardIDRE = lazyre.New(`^guard-[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}$`)

// ValidGuardID says whether id is a guard id sotvet makes.
func ValidGuardID(id string) bool { return guardIDRE.MatchString(id) }

// NewGuardID makes a guard id; ids sort by time.
func NewGuardID(at time.Time) (string, error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return "guard-" + at.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:]), nil
}

// GuardPath is where guard record id lives under runsRoot.
func GuardPath(runsRoot, id string) string {
	return filepath.Join(runsRoot, GuardsDir, id+".json")
}

//go:embed schema/guard.schema.json
var guardSchema []byte

// GuardSchema returns the JSON Schema (draft 2020-12) of a guard record;
// the bytes are a fresh copy.
func GuardSchema() []byte { return append([]byte{}, guardSchema...) }
