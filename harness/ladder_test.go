package harness_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/internal/stage"
)

// TestApprovalConsumedOnce: runs racing for two approvals; each approval is
// consumed by exactly one run, the others are blocked before anything starts.
func TestApprovalConsumedOnce(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	tb := stage.Default()
	tb.Stages[3].EntryGates = []string{stage.GateMutationScope, stage.GateApproval}
	tb.Stages[3].RequiredFailureClasses = []string{}
	repo := t.TempDir()
	src := filepath.Join(casesDir, "r1-string-slugify", "repo")
	for _, f := range []string{"go.mod", "slugify.go", "slugify_test.go"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	base := options(t, "r1-string-slugify")
	base.Ladder = harness.Ladder{Stage: 4, Table: tb, Repo: repo}
	p, err := harness.BuildPacket(harness.PacketOptions{CaseDir: base.CaseDir, Stage: 4, Table: tb, Repo: repo, RunsRoot: base.RunsRoot, Environ: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	const grants = 2
	for range grants {
		if _, _, err := harness.RecordApproval(p, true, "jp", nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	const n = 4
	reps := make([]*evidence.Report, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := harness.Run(context.Background(), base)
			if err != nil {
				t.Error(err)
				return
			}
			reps[i] = res.Report
		}()
	}
	wg.Wait()
	consumed, blocked := 0, 0
	for _, r := range reps {
		if r == nil {
			continue
		}
		if r.ApprovalConsumed {
			consumed++
			if r.ConsumedByPassEvidence != r.RunID || r.Status != evidence.StatusPass {
				t.Errorf("the consuming run: %s %s %v", r.Status, r.ConsumedByPassEvidence, r.Blockers)
			}
		} else if len(r.Blockers) == 1 && r.Blockers[0].Code == evidence.ApprovalAlreadyConsumed && !r.BackendProcessStarted {
			blocked++
		} else {
			t.Errorf("run %s: %s %v", r.RunID, r.Status, r.Blockers)
		}
	}
	if consumed != grants || blocked != n-grants {
		t.Errorf("%d runs consumed an approval and %d were blocked; want %d and %d", consumed, blocked, grants, n-grants)
	}
	ids := map[string]bool{}
	for _, r := range reps {
		if r != nil && r.ApprovalConsumed {
			ids[r.ApprovalID] = true
		}
	}
	if len(ids) != grants {
		t.Errorf("the consuming runs share approvals: %v", ids)
	}
}
