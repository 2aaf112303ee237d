package verify

import (
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/harness/ledger"
)

func guardRecord() *ledger.Guard {
	d := ledger.GuardDigests{Refs: strings.Repeat("a", 64), Index: strings.Repeat("b", 64), Worktrees: strings.Repeat("c", 64), Status: strings.Repeat("d", 64)}
	g := &ledger.Guard{SchemaVersion: 1, GuardID: "guard-20260602T000000Z-0123abcd", Repo: "/core", Conflicts: []string{},
		StartedAt: "2026-06-02T00:00:00Z", FinishedAt: "2026-06-02T00:00:01Z",
		Worktrees: []ledger.GuardWorktree{}, Processes: []ledger.GuardProcess{}, Before: d, After: d, Unchanged: true}
	for _, n := range ledger.GuardCheckNames {
		g.Checks = append(g.Checks, ledger.GuardCheck{Name: n, Status: ledger.CheckPass})
	}
	g.SetVerdict()
	return g
}

// A guard record is verified by its seal, and its verdict is re-derived
// from its checks: a record whose Route State says more than its checks
// do is invalid even when freshly sealed.
func TestGuardRecord(t *testing.T) {
	pub, key, _ := ed25519.GenerateKey(rand.Reader)
	for _, tc := range []struct {
		name  string
		edit  func(*ledger.Guard)
		key   ed25519.PrivateKey
		opt   Options
		file  string
		want  string
		bytes func([]byte) []byte
	}{
		{name: "valid"},
		{name: "signed, trusted", key: key, opt: Options{TrustedKeys: []ed25519.PublicKey{pub}}},
		{name: "unsigned, trusted key known", opt: Options{TrustedKeys: []ed25519.PublicKey{pub}}, want: "is not signed"},
		{name: "edited after sealing", bytes: func(b []byte) []byte {
			return []byte(strings.Replace(string(b), `"repo": "/core"`, `"repo": "/kore"`, 1))
		}, want: "digest does not match"},
		{name: "pass with a blocked check", edit: func(g *ledger.Guard) {
			g.Checks[4] = ledger.GuardCheck{Name: "validation_processes", Status: ledger.CheckBlocked, Reason: ledger.ReasonProcess}
		}, want: "not what its checks give"},
		{name: "pass with an unknown check", edit: func(g *ledger.Guard) {
			g.Checks[0] = ledger.GuardCheck{Name: "worktree_list", Status: ledger.CheckUnknown, Reason: ledger.ReasonUnreadable}
		}, want: "not what its checks give"},
		{name: "a check missing", edit: func(g *ledger.Guard) { g.Checks = g.Checks[:3] }, want: "no locks check"},
		{name: "digests differ, unchanged claimed", edit: func(g *ledger.Guard) { g.After.Index = strings.Repeat("e", 64) }, want: "before and after digests say otherwise"},
		{name: "bad reason code", edit: func(g *ledger.Guard) {
			g.Checks[1] = ledger.GuardCheck{Name: "main_status", Status: ledger.CheckBlocked, Reason: "fine_really"}
			g.SetVerdict()
		}, want: "not a reason code"},
		{name: "operator's assumption recorded", edit: func(g *ledger.Guard) {
			g.Uninspected = []ledger.GuardUninspected{{PID: 1, Command: "systemd", UID: 0, Owner: "root", AssumedOutside: true}}
			g.AssumedOutside = []int{1}
		}},
		{name: "uninspected process passed over without a decision", edit: func(g *ledger.Guard) {
			g.Uninspected = []ledger.GuardUninspected{{PID: 1, Command: "systemd", UID: 0, Owner: "root"}}
		}, want: "which the operator did not assume outside"},
		{name: "assumption not in the operator's list", edit: func(g *ledger.Guard) {
			g.Uninspected = []ledger.GuardUninspected{{PID: 1, Command: "systemd", UID: 0, AssumedOutside: true}}
		}, want: "does not match the operator's assumed_outside list"},
		{name: "wrong file name", file: "guard-20260602T000000Z-ffffffff.json", want: "guard_id does not name the file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := guardRecord()
			if tc.edit != nil {
				tc.edit(g)
			}
			data, err := ledger.Marshal(g, tc.key)
			if err != nil {
				t.Fatal(err)
			}
			if tc.bytes != nil {
				data = tc.bytes(data)
			}
			name := tc.file
			if name == "" {
				name = g.GuardID + ".json"
			}
			p := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			vs, err := Record(p, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			wantViolation(t, vs, tc.want)
		})
	}
}
