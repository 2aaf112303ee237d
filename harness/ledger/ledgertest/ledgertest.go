// Package ledgertest builds sealed ledger records for the tests of the
// packages that read them (the evidence check, the summary, the panel).
package ledgertest

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/harness/ledger"
)

// Guard returns a guard record of repo, started and finished at `at`
// (RFC 3339), whose checks all pass but check, which is blocked by reason
// when reason is not "". Its Route State facts follow from its checks.
func Guard(id, at, repo, check, reason string) *ledger.Guard {
	d := ledger.GuardDigests{Refs: strings.Repeat("a", 64), Index: strings.Repeat("b", 64),
		Worktrees: strings.Repeat("c", 64), Status: strings.Repeat("d", 64)}
	g := &ledger.Guard{SchemaVersion: 1, GuardID: id, Repo: repo, Conflicts: []string{},
		StartedAt: at, FinishedAt: at, Worktrees: []ledger.GuardWorktree{},
		Processes: []ledger.GuardProcess{}, Before: d, After: d, Unchanged: true}
	for _, n := range ledger.GuardCheckNames {
		c := ledger.GuardCheck{Name: n, Status: ledger.CheckPass}
		if n == check && reason != "" {
			c.Status, c.Reason = ledger.CheckBlocked, reason
		}
		g.Checks = append(g.Checks, c)
	}
	g.SetVerdict()
	return g
}

// Write seals rec (signed with key when it is set) and writes it where
// sotvet writes one of its kind under the runs root: an approval or its
// consumption under approvals/, a guard record under guards/. It returns
// the record's path.
func Write(tb testing.TB, runs string, rec ledger.Sealed, key ed25519.PrivateKey) string {
	tb.Helper()
	var p string
	switch r := rec.(type) {
	case *ledger.Approval:
		p = ledger.ApprovalPath(runs, r.ApprovalID)
	case *ledger.Consumption:
		p = ledger.ConsumptionPath(runs, r.ApprovalID)
	case *ledger.Guard:
		p = ledger.GuardPath(runs, r.GuardID)
	default:
		tb.Fatalf("ledgertest.Write: no place for a %T", rec)
	}
	data, err := ledger.Marshal(rec, key)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}
