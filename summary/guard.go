package summary

import (
	"errors"
	"os"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness/ledger"
)

// Guard is the latest verified Core Route Admission Guard record of the
// runs root (sotvet guard): its verdict, the Route State facts, and how
// old it is.
type Guard struct {
	GuardID                  string       `json:"guard_id"`
	Path                     string       `json:"path"` // "runs/guards/<id>.json"
	Repo                     string       `json:"repo"`
	StartedAt                string       `json:"started_at"`
	AgeSeconds               int64        `json:"age_seconds"`
	GuardStatus              string       `json:"guard_status"`
	CoreRouteAdmissionStatus string       `json:"core_route_admission_status"`
	BlockedReason            string       `json:"blocked_reason"`
	NextAllowedAction        string       `json:"next_allowed_action"`
	Unchanged                bool         `json:"unchanged"`
	Checks                   []GuardCheck `json:"checks"`
	// AssumedOutside names the processes the guard could not inspect and
	// the operator declared outside the repository (--assume-outside):
	// a decision a reviewer should see.
	AssumedOutside []string `json:"assumed_outside,omitempty"`
	// Records counts the guard records that verify; Rejected those that
	// do not (each is also listed in Unreadable).
	Records  int `json:"records"`
	Rejected int `json:"rejected"`
}

// GuardCheck is one check of the guard record.
type GuardCheck struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Reason string `json:"reason"`
}

// loadGuards verifies every record of RUNS/guards as sotvet harness
// verify does — through the ledger's path, so that a record answers to
// the same keys as the other ledger records — and keeps the verified ones.
// A record that fails is listed as unreadable, never shown as a verdict.
func (ev *evidenceSet) loadGuards(r *os.Root) {
	if !isDir(r, ledger.GuardsDir) {
		ev.bad(ledger.GuardsDir, errors.New("not a directory"))
		return
	}
	names, err := readDirNames(r, ledger.GuardsDir)
	if err != nil {
		ev.bad(ledger.GuardsDir, err)
		return
	}
	for _, n := range names {
		id, ok := strings.CutSuffix(n, ".json")
		if !ok || !ledger.ValidGuardID(id) {
			continue
		}
		rel := ledger.GuardsDir + "/" + n
		var g ledger.Guard
		if !ev.record(r, rel, &g) {
			ev.guardRejected++
			continue
		}
		ev.guards = append(ev.guards, loadedGuard{path: "runs/" + rel, g: g})
	}
}

type loadedGuard struct {
	path string
	g    ledger.Guard
}

// guardOf is the summary's view of the latest verified guard record.
func guardOf(ev *evidenceSet) *Guard {
	var latest *loadedGuard
	for i := range ev.guards {
		l := &ev.guards[i]
		if latest == nil || l.g.Later(&latest.g) {
			latest = l
		}
	}
	if latest == nil {
		return nil
	}
	g := latest.g
	out := &Guard{GuardID: g.GuardID, Path: latest.path, Repo: g.Repo, StartedAt: g.StartedAt,
		GuardStatus: g.GuardStatus, CoreRouteAdmissionStatus: g.CoreRouteAdmissionStatus, BlockedReason: g.BlockedReason,
		NextAllowedAction: g.NextAllowedAction, Unchanged: g.Unchanged, Checks: []GuardCheck{},
		Records: len(ev.guards), Rejected: ev.guardRejected}
	if t, err := time.Parse(time.RFC3339Nano, g.StartedAt); err == nil && ev.now.After(t) {
		out.AgeSeconds = int64(ev.now.Sub(t) / time.Second)
	}
	for _, c := range g.Checks {
		out.Checks = append(out.Checks, GuardCheck{Name: c.Name, Status: c.Status, Reason: c.Reason})
	}
	for _, u := range g.Uninspected {
		if u.AssumedOutside {
			out.AssumedOutside = append(out.AssumedOutside, u.String())
		}
	}
	return out
}
