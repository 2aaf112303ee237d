package verify

import (
	"fmt"
	"slices"
	"time"

	"github.com/svrnty/sotvet/harness/ledger"
)

// guardViolations checks what a guard record's seal cannot: that it names
// its file, and that its verdict is the one its checks give — pass only
// when every check passed and the before and after digests agree.
func guardViolations(name string, g *ledger.Guard) []Violation {
	var out []Violation
	bad := func(format string, args ...any) {
		out = append(out, Violation{name, fmt.Sprintf(format, args...)})
	}
	if g.SchemaVersion == 0 {
		return nil // it did not decode; the seal's errors say why
	}
	if g.SchemaVersion != ledger.SchemaVersion {
		bad("schema_version %d, want %d", g.SchemaVersion, ledger.SchemaVersion)
	}
	if g.GuardID+".json" != name || !ledger.ValidGuardID(g.GuardID) {
		bad("guard_id does not name the file")
	}
	for _, f := range []struct{ k, v string }{{"started_at", g.StartedAt}, {"finished_at", g.FinishedAt}} {
		if _, err := time.Parse(time.RFC3339, f.v); err != nil {
			bad("%s %q is not an RFC 3339 time", f.k, f.v)
		}
	}
	names := map[string]bool{}
	for i, c := range g.Checks {
		switch {
		case c.Status == ledger.CheckPass && c.Reason != "":
			bad("checks[%d] (%s) passed with reason %q", i, c.Name, c.Reason)
		case c.Status == ledger.CheckBlocked || c.Status == ledger.CheckUnknown:
			if !slices.Contains(ledger.ReasonOrder, c.Reason) {
				bad("checks[%d] (%s): reason %q is not a reason code", i, c.Name, c.Reason)
			}
		case c.Status != ledger.CheckPass:
			bad("checks[%d] (%s): status %q, want pass, blocked or unknown", i, c.Name, c.Status)
		}
		if names[c.Name] {
			bad("checks[%d]: %s appears twice", i, c.Name)
		}
		names[c.Name] = true
	}
	for _, n := range ledger.GuardCheckNames {
		if !names[n] {
			bad("no %s check: a guard passes only when every check was made", n)
		}
	}
	if g.Unchanged != (g.Before == g.After) {
		bad("unchanged is %t, but the before and after digests say otherwise", g.Unchanged)
	}
	for i, c := range g.Checks {
		if c.Name == "unchanged" && (c.Status == ledger.CheckPass) != g.Unchanged {
			bad("checks[%d] (unchanged) is %s, but unchanged is %t", i, c.Status, g.Unchanged)
		}
	}
	// The operator's --assume-outside decision: each uninspected process
	// is marked assumed exactly when its PID was passed, and the process
	// check passes over no uninspected process the operator did not name.
	if !slices.IsSorted(g.AssumedOutside) || len(slices.Compact(slices.Clone(g.AssumedOutside))) != len(g.AssumedOutside) {
		bad("assumed_outside is not sorted without repeats")
	}
	passed := false
	for _, c := range g.Checks {
		if c.Name == "validation_processes" && c.Status == ledger.CheckPass {
			passed = true
		}
	}
	for i, u := range g.Uninspected {
		if u.PID <= 0 || slices.Contains(g.AssumedOutside, u.PID) != u.AssumedOutside {
			bad("uninspected[%d] (pid %d): assumed_outside %t does not match the operator's assumed_outside list", i, u.PID, u.AssumedOutside)
		}
		if passed && !u.AssumedOutside {
			bad("validation_processes passed over uninspected process %d, which the operator did not assume outside", u.PID)
		}
	}
	want := *g
	want.SetVerdict()
	if want.GuardStatus != g.GuardStatus || want.CoreRouteAdmissionStatus != g.CoreRouteAdmissionStatus ||
		want.BlockedReason != g.BlockedReason || want.NextAllowedAction != g.NextAllowedAction ||
		!slices.Equal(want.BlockedReasons, g.BlockedReasons) {
		bad("the Route State facts (guard_status %s, core_route_admission_status %s, blocked_reason %s, next_allowed_action %s) are not what its checks give (%s, %s, %s, %s)",
			g.GuardStatus, g.CoreRouteAdmissionStatus, g.BlockedReason, g.NextAllowedAction,
			want.GuardStatus, want.CoreRouteAdmissionStatus, want.BlockedReason, want.NextAllowedAction)
	}
	return out
}
