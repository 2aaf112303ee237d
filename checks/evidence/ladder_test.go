package evidence_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/verify"
	"github.com/svrnty/sotvet/internal/stage"
)

// TestLadderFacts: what a document says about a run's stage, approval and
// operator outcome is compared with the run's evidence.
func TestLadderFacts(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	setFlag(t, "runs-root", "")
	tmp := t.TempDir()
	repo := filepath.Join(tmp, "scratch")
	src := filepath.Join("..", "..", "testdata", "cases", "r1-string-slugify")
	for _, args := range [][]string{
		{"init", "-q", "-b", "main", repo},
		{"-C", repo, "config", "user.name", "t"},
		{"-C", repo, "config", "user.email", "t@example.invalid"},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	for _, f := range []string{"go.mod", "slugify.go", "slugify_test.go"} {
		b, err := os.ReadFile(filepath.Join(src, "repo", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"-C", repo, "add", "-A"}, {"-C", repo, "commit", "-qm", "init"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	tb := stage.Default()
	tb.Stages[3].EntryGates = []string{stage.GateMutationScope, stage.GateApproval}
	tb.Stages[3].OperatorOutcomeRequired = true
	runs := filepath.Join(tmp, "harness-runs")
	p, err := harness.BuildPacket(harness.PacketOptions{CaseDir: src, Stage: 4, Table: tb, Repo: repo, RunsRoot: runs, Environ: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := harness.RecordApproval(p, true, "jp", nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	res, err := harness.Run(context.Background(), harness.Options{
		CaseDir: src, RunsRoot: runs, RunDir: filepath.Join(runs, "20260601T000000Z-stage4"),
		FakeCommand: []string{exe, "harness", "fake-backend"}, Environ: os.Environ(), Version: "test",
		Ladder: harness.Ladder{Stage: 4, Table: tb, Repo: repo},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.Status != "pass" || !res.Report.ApprovalConsumed {
		t.Fatalf("stage 4 run: status %s, approval consumed %t: %+v", res.Report.Status, res.Report.ApprovalConsumed, res.Report.Blockers)
	}
	if _, err := harness.RecordOutcome(res.RunDir, true, "jp", "reviewed", nil, verify.Options{}, time.Now()); err != nil {
		t.Fatal(err)
	}
	id := res.Report.ApprovalID
	doc := strings.Join([]string{
		"# Ladder", "",
		"## Stage 4 - Disposable Sandbox Repo", "",
		"Status: validated on 2026-06-01.", "",
		"- Stage 4 pass artifact: `" + res.RunDir + "`",
		"- Stage: `4`.",
		"- Mutation mode: `disposable-clone`.",
		"- Approval id: `" + id + "`.",
		"- Approval consumed: `true`.",
		"- Operator outcome: `accepted`.",
		"- Source repository mutated: `false`.", "",
		"## Stage 5 - Owned Noncritical Repo", "",
		"Status: validated on 2026-06-01.", "",
		"- Stage 5 pass artifact: `" + res.RunDir + "`",
		"- Stage: `5`.",
		"- Mutation mode: `owned-worktree`.",
		"- Approval consumed: `false`.",
		"- Operator outcome: `rejected`.",
		"- Source repository mutated: `true`.",
		"- Consumed by pass evidence: `someone-else`.", "",
	}, "\n")
	ws := t.TempDir()
	checktest.WriteFiles(t, ws, map[string]string{"LADDER.md": doc})
	var got []string
	for _, f := range findings(t, ws) {
		got = append(got, fmt.Sprintf("%d %s", f.Line, f.Message))
	}
	want := []string{
		"17 stage 5: the document says validated, but no run it cites under this stage is a verified pass at stage 5 with the operator outcome it requires: 20260601T000000Z-stage4 (stage 4, pass)",
		"19 stage: the document cites run 20260601T000000Z-stage4 under stage 5, but its report.json has stage 4",
		"20 stage: the document says 5, but report.json of run 20260601T000000Z-stage4 has stage 4",
		"21 mutation mode: the document says owned-worktree, but report.json of run 20260601T000000Z-stage4 has mutation_mode disposable-clone",
		"22 approval consumed: the document says false, but report.json of run 20260601T000000Z-stage4 has approval_consumed true",
		"23 operator outcome: the document says rejected, but report.json of run 20260601T000000Z-stage4 has outcome.json decision accepted",
		"24 source repository mutated: the document says true, but report.json of run 20260601T000000Z-stage4 has source_non_mutation.unchanged (negated) false",
		"25 consumed by pass evidence: the document says someone-else, but report.json of run 20260601T000000Z-stage4 has consumed_by_pass_evidence 20260601T000000Z-stage4",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Without its operator outcome the stage 4 run no longer backs the
	// document's "validated".
	if err := os.Remove(filepath.Join(res.RunDir, "outcome.json")); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range findings(t, ws) {
		if f.Line == 5 && strings.Contains(f.Message, "stage 4: the document says validated") {
			found = true
		}
	}
	if !found {
		t.Error("a stage 4 run without its required outcome still backs \"Status: validated\"")
	}
}
