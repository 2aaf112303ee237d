package summary

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/harness/ledger/ledgertest"
)

// writeGuardRecord writes a sealed guard record under runs/guards.
func writeGuardRecord(t *testing.T, runs, id, at, reason string) string {
	return ledgertest.Write(t, runs, ledgertest.Guard(id, at, "/core", "locks", reason), nil)
}

// The summary shows the latest verified guard record and its age; a
// record that fails verification is unreadable, never the verdict.
func TestGuardVerdict(t *testing.T) {
	runs := t.TempDir()
	now := time.Date(2026, 6, 3, 12, 0, 0, 0, time.UTC)
	opt := Options{Root: sample(t), RunsRoot: runs, Now: func() time.Time { return now }}
	s, err := Compute(opt)
	if err != nil {
		t.Fatal(err)
	}
	if s.Guard != nil {
		t.Fatalf("a guard verdict with no record: %+v", s.Guard)
	}
	writeGuardRecord(t, runs, "guard-20260601T100000Z-00000001", "2026-06-01T10:00:00Z", "")
	writeGuardRecord(t, runs, "guard-20260603T110000Z-00000002", "2026-06-03T11:00:00Z", ledger.ReasonLock)
	// Newer, but edited after sealing: it must not become the verdict.
	forged := writeGuardRecord(t, runs, "guard-20260603T115900Z-00000003", "2026-06-03T11:59:00Z", ledger.ReasonLock)
	b, _ := os.ReadFile(forged)
	os.WriteFile(forged, []byte(strings.NewReplacer(`"guard_status": "blocked"`, `"guard_status": "pass"`).Replace(string(b))), 0o644)
	// Not a record's name: ignored.
	write(t, filepath.Join(runs, "guards", "notes.txt"), "x")
	s, err = Compute(opt)
	if err != nil {
		t.Fatal(err)
	}
	g := s.Guard
	if g == nil {
		t.Fatal("no guard verdict")
	}
	if g.GuardID != "guard-20260603T110000Z-00000002" || g.GuardStatus != "blocked" || g.BlockedReason != ledger.ReasonLock ||
		g.CoreRouteAdmissionStatus != "not_admitted" || g.NextAllowedAction != ledger.ActionWait || g.AgeSeconds != 3600 ||
		g.Records != 2 || g.Rejected != 1 || g.Path != "runs/guards/guard-20260603T110000Z-00000002.json" || len(g.Checks) != len(ledger.GuardCheckNames) {
		t.Errorf("guard %+v", g)
	}
	found := false
	for _, u := range s.Unreadable {
		found = found || u.Path == "runs/guards/guard-20260603T115900Z-00000003.json" && strings.Contains(u.Reason, "verify rejects it")
	}
	if !found {
		t.Errorf("the forged record is not unreadable: %+v", s.Unreadable)
	}
}
