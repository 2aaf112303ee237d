package harness

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness/contract"
	"github.com/svrnty/sotvet/harness/engine/fake"
	"github.com/svrnty/sotvet/harness/evidence"
)

// Fixture is one failure fixture of the corpus's failure matrix: a way to
// make a fake-lane run misbehave, and the outcome the harness must reach
// by observing that misbehaviour. No fixture writes its expected outcome:
// each changes only what the fake backend does or what the run's
// surroundings offer (an approver, a toolchain, a disk), and the harness's
// ordinary checks do the rest.
type Fixture struct {
	Name     string
	Blocker  string // the one blocker the run must end with
	Status   string // the report status
	Event    string // the normalized event that shows the failure
	Behavior string // what the fake backend does
	// Lanes is true for the fixtures that change only the run's
	// surroundings, which apply to the real agent lanes too; the others
	// need the fake backend's misbehaviour.
	Lanes bool
	// Scripted are the real lanes whose CLI a scripted provider can make
	// act the misbehaviour out (internal/mockprovider has a scenario named
	// after each fixture); the matrix runs the fixture there when the
	// provider's base URL holds {fixture}. The verdict is the harness's
	// own, from what the CLI did.
	Scripted []string
	// Unscripted says why the real lanes not in Scripted cannot be driven
	// into the fixture.
	Unscripted string
	inject     injection
}

// RunsOn reports whether the fixture can run on lane: every fixture on the
// fake lane, the surroundings fixtures on every lane, the others on the
// lanes a scripted provider can drive into them.
func (f Fixture) RunsOn(lane string) bool {
	return lane == fake.Name || f.Lanes || slices.Contains(f.Scripted, lane)
}

// injection is what a fixture changes around the backend.
type injection struct {
	requireApproval bool          // the run needs human approval ...
	denyApproval    bool          // ... and the operator denies it
	noToolchain     bool          // verification finds no programs on its PATH
	dirtyStart      bool          // a stray file lands in the workspace after the baseline
	failArtifact    string        // the disk refuses this artifact
	noProvider      bool          // the fake lane's provider is missing
	backendTimeout  time.Duration // a short backend timeout
	// laneTimeout is the timeout on a real lane, whose scripted provider
	// stalls: short, for nothing comes of waiting longer.
	laneTimeout time.Duration
}

// ExitCode is the exit code the fixture's run ends with.
func (f Fixture) ExitCode() int { return evidence.ExitCode(f.Status) }

// allLanes are the real lanes.
var allLanes = []string{"codex", "pi", "case"}

// Fixtures is the failure matrix, in the corpus's order. It is the one
// place the mapping lives.
var Fixtures = []Fixture{
	{Name: "no-diff", Blocker: evidence.NoDiff, Status: evidence.StatusFail, Event: "git.diff.checked", Behavior: fake.NoDiff, Scripted: allLanes},
	{Name: "disallowed-file", Blocker: evidence.DisallowedFileChange, Status: evidence.StatusFail, Event: "git.diff.checked", Behavior: fake.DisallowedFile, Scripted: allLanes},
	{Name: "failed-tests", Blocker: evidence.VerificationFailed, Status: evidence.StatusFail, Event: "verification.completed", Behavior: fake.WrongFix, Scripted: allLanes},
	{Name: "missing-test-command", Blocker: evidence.MissingTestCommand, Status: evidence.StatusBlocked, Event: "verification.completed", Behavior: fake.Solve,
		Lanes:  true,
		inject: injection{noToolchain: true}},
	{Name: "missing-event", Blocker: evidence.MissingRequiredEvent, Status: evidence.StatusFail, Event: "run.completed", Behavior: fake.MissingEvent,
		Scripted:   []string{"codex", "pi"},
		Unscripted: "Case reports patch.applied for every completed implementer, so no provider behaviour withholds it without failing the pipeline"},
	{Name: "reviewer-reject", Blocker: evidence.ReviewerRejected, Status: evidence.StatusBlocked, Event: "verification.completed", Behavior: fake.ReviewerReject,
		Scripted:   []string{"case"},
		Unscripted: "only Case has a reviewer of its own"},
	{Name: "approval-denied", Blocker: evidence.ApprovalDeniedCode, Status: evidence.StatusBlocked, Event: "approval.denied", Behavior: fake.Solve,
		Lanes:  true,
		inject: injection{requireApproval: true, denyApproval: true}},
	// A lane hangs only when its provider does: a short timeout alone
	// raced the lane, and a fast one (the stand-in ca on a quiet
	// machine) finished within it.
	{Name: "timeout", Blocker: evidence.Timeout, Status: evidence.StatusBlocked, Event: "run.completed", Behavior: fake.Hang,
		Scripted: allLanes,
		inject:   injection{backendTimeout: time.Second, laneTimeout: 50 * time.Millisecond}},
	{Name: "dirty-start", Blocker: evidence.DirtyStartingTree, Status: evidence.StatusBlocked, Event: "task.contract.created", Behavior: fake.Solve,
		Lanes:  true,
		inject: injection{dirtyStart: true}},
	{Name: "dirty-end", Blocker: evidence.DirtyEndingTree, Status: evidence.StatusFail, Event: "run.completed", Behavior: fake.DirtyEnd, Scripted: allLanes},
	{Name: "artifact-write-failure", Blocker: evidence.ArtifactWriteFailure, Status: evidence.StatusFail, Event: "run.completed", Behavior: fake.Solve,
		Lanes:  true,
		inject: injection{failArtifact: evidence.TestLog}},
	{Name: "provider-unavailable", Blocker: evidence.ProviderUnavailable, Status: evidence.StatusBlocked, Event: "run.completed", Behavior: fake.Solve,
		Lanes:  true,
		inject: injection{noProvider: true}},
}

// FixtureByName returns the named fixture.
func FixtureByName(name string) (Fixture, bool) {
	for _, f := range Fixtures {
		if f.Name == name {
			return f, true
		}
	}
	return Fixture{}, false
}

// FixtureNames lists the fixtures in matrix order.
func FixtureNames() []string {
	out := make([]string, len(Fixtures))
	for i, f := range Fixtures {
		out[i] = f.Name
	}
	return out
}

// DirtyStartFile is the stray file the dirty-start fixture leaves.
const DirtyStartFile = "stray-before-start.txt"

// withheldEvents are the events the missing-event fixture keeps a backend
// from reporting: every backend-reported event the case requires, so that
// the fixture fails the run whatever the case's required_events say.
func withheldEvents(c *contract.Case) []string {
	var out []string
	for _, ev := range backendEventTypes {
		if slices.Contains(c.RequiredEvents, ev) {
			out = append(out, ev)
		}
	}
	return out
}

// FixtureApplies reports whether fixture f can fail case c as it must, and
// why not. missing-event cannot fail a case that requires none of the
// events a backend reports.
func FixtureApplies(f Fixture, c *contract.Case) (bool, string) {
	if f.Behavior == fake.MissingEvent && len(withheldEvents(c)) == 0 {
		return false, fmt.Sprintf("case %s requires none of the events a backend reports (%s), so no missing event can fail it", c.ID, strings.Join(backendEventTypes, ", "))
	}
	return true, ""
}
