package evidence_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/evidence"
	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/harness/ledger/ledgertest"
)

// writeGuard writes a sealed guard record started at `at` (RFC 3339) under
// runs/guards and returns its path. blocked names a reason, "" for pass.
func writeGuard(t *testing.T, runs, id, at, blocked string) string {
	return ledgertest.Write(t, runs, ledgertest.Guard(id, at, "/core", "conflicts", blocked), nil)
}

func guardDoc(reviewed, cite string, facts ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: Guard\nstatus: validated\nlast_reviewed: %s\n---\n\n# Guard\n\n## Route State\n\n", reviewed)
	for _, f := range facts {
		b.WriteString("- " + f + "\n")
	}
	if cite != "" {
		b.WriteString("\n## Evidence\n\n- Guard record: `" + cite + "`\n")
	}
	return b.String()
}

// TestGuardRouteState: a document's Route State answers to the latest
// verified guard record it cites.
func TestGuardRouteState(t *testing.T) {
	setFlag(t, "runs-root", "")
	runs := t.TempDir()
	const (
		idOldPass  = "guard-20260601T100000Z-00000001"
		idBlocked  = "guard-20260602T100000Z-00000002"
		idNewPass  = "guard-20260603T100000Z-00000003"
		idTampered = "guard-20260605T100000Z-00000005"
	)
	oldPass := writeGuard(t, filepath.Join(runs, "a"), idOldPass, "2026-06-01T10:00:00Z", "")
	writeGuard(t, filepath.Join(runs, "a"), idBlocked, "2026-06-02T10:00:00Z", ledger.ReasonConflict)
	newPass := writeGuard(t, filepath.Join(runs, "b"), idNewPass, "2026-06-03T10:00:00Z", "")
	tampered := writeGuard(t, filepath.Join(runs, "c"), idTampered, "2026-06-05T10:00:00Z", "")
	b, _ := os.ReadFile(tampered)
	os.WriteFile(tampered, []byte(strings.Replace(string(b), `"repo": "/core"`, `"repo": "/kore"`, 1)), 0o644)
	dirA := filepath.Join(runs, "a", ledger.GuardsDir)

	blockedFacts := []string{"guard_status: blocked", "core_route_admission_status: not_admitted", "blocked_reason: active_or_conflicting_core_work_present", "next_allowed_action: wait_or_open_later_core_route_when_idle"}
	passFacts := []string{"guard_status: pass", "core_route_admission_status: admitted", "blocked_reason: none", "next_allowed_action: open_governed_core_prd_route"}
	for _, tc := range []struct {
		name string
		doc  string
		want []string // "line category" of each finding
	}{
		{"blocked, no record", guardDoc("2026-06-02", "", blockedFacts...), nil},
		{"pass, no record", guardDoc("2026-06-02", "", passFacts...), []string{"11 mismatch", "12 mismatch"}},
		{"blocked, the latest in the directory agrees", guardDoc("2026-06-02", dirA, blockedFacts...), nil},
		{"pass, the latest in the directory blocks", guardDoc("2026-06-02", dirA, passFacts...), []string{"11 mismatch", "12 mismatch", "13 mismatch", "14 mismatch"}},
		{"pass, citing an older passing record", guardDoc("2026-06-02", oldPass, passFacts...), nil},
		{"blocked, a newer record passes", guardDoc("2026-06-02", newPass, blockedFacts...), []string{"11 mismatch", "12 mismatch", "13 mismatch", "14 mismatch"}},
		{"blocked, the passing record is older than the review", guardDoc("2026-06-04", newPass, blockedFacts...), nil},
		{"blocked, a passing record of the review's day", guardDoc("2026-06-03", newPass, blockedFacts[0]), []string{"11 mismatch"}},
		{"pass, citing only a tampered record", guardDoc("2026-06-05", tampered, passFacts[0]), []string{"11 mismatch", "15 invalid-evidence"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := t.TempDir()
			checktest.WriteFiles(t, ws, map[string]string{"GUARD.md": tc.doc})
			var got []string
			for _, f := range findings(t, ws) {
				got = append(got, fmt.Sprintf("%d %s", f.Line, f.Category))
				if f.Category == evidence.CategoryMismatch && strings.Contains(f.Message, ", guard-") && len(f.Related) != 1 {
					t.Errorf("%d: %s: no related location of the record", f.Line, f.Message)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("findings %v, want %v\n%s", got, tc.want, tc.doc)
			}
		})
	}
}
