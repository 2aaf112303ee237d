package panel

import (
	"strings"
	"testing"
	"time"

	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/harness/ledger/ledgertest"
)

// writeGuard writes a sealed guard record under runs/guards, started a
// minute ago and blocked by reason ("" passes).
func writeGuard(t testing.TB, runs, reason string) *ledger.Guard {
	t.Helper()
	at := time.Now().UTC().Add(-90 * time.Second)
	id, _ := ledger.NewGuardID(at)
	g := ledgertest.Guard(id, at.Format(time.RFC3339), "/home/u/core", "conflicts", reason)
	g.Conflicts = []string{"CORE-WORK-172"}
	ledgertest.Write(t, runs, g, nil)
	return g
}

// The overview shows the guard's last verdict and its age, or says that
// the guard has not run; the API carries the same.
func TestGuardSection(t *testing.T) {
	runs := t.TempDir()
	ts := serve(t, sampleCopy(t), runs)
	if o := get(t, ts, "/"); !strings.Contains(o.body, `id="guard-none"`) {
		t.Error("no word that the guard has not run")
	}
	g := writeGuard(t, runs, ledger.ReasonConflict)
	// The change token is walked again at most every tokenInterval, in
	// the background: the record shows within the two seconds the page polls.
	o := get(t, ts, "/")
	for deadline := time.Now().Add(3 * time.Second); !strings.Contains(o.body, g.GuardID) && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		o = get(t, ts, "/")
	}
	for _, want := range []string{
		`<dd id="guard-status" class="st-blocked">blocked</dd>`,
		`<dd>active_or_conflicting_core_work_present</dd>`,
		`<dd>wait_or_open_later_core_route_when_idle</dd>`,
		`<time datetime="` + g.StartedAt + `">1 min ago</time>`,
		`<td>conflicts</td><td class="st-blocked">blocked</td><td>active_or_conflicting_core_work_present</td>`,
		`<code>` + g.GuardID + `</code>`,
	} {
		if !strings.Contains(o.body, want) {
			t.Errorf("no %q on the overview", want)
		}
	}
	if a := get(t, ts, "/api/cto/control-summary"); !strings.Contains(a.body, `"guard_status": "blocked"`) && !strings.Contains(a.body, `"guard_status":"blocked"`) {
		t.Error("the API lacks the guard verdict")
	}
}

// An operator's --assume-outside decision shows beside the verdict.
func TestGuardAssumedOutside(t *testing.T) {
	runs := t.TempDir()
	ts := serve(t, sampleCopy(t), runs)
	at := time.Now().UTC().Add(-90 * time.Second)
	id, _ := ledger.NewGuardID(at)
	g := ledgertest.Guard(id, at.Format(time.RFC3339), "/home/u/core", "", "")
	g.Uninspected = []ledger.GuardUninspected{{PID: 1, Command: "process_api", UID: 0, Owner: "root", AssumedOutside: true}}
	g.AssumedOutside = []int{1}
	ledgertest.Write(t, runs, g, nil)
	want := `<p id="guard-assumed"><strong>Operator's decision:</strong> assumed outside the repository without inspection (<code>--assume-outside</code>): process_api (pid 1, uid 0 root).</p>`
	o := get(t, ts, "/")
	for deadline := time.Now().Add(3 * time.Second); !strings.Contains(o.body, id) && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		o = get(t, ts, "/")
	}
	if !strings.Contains(o.body, want) {
		t.Errorf("no %q on the overview:\n%s", want, o.body[strings.Index(o.body, `id="guard"`):][:1500])
	}
}
