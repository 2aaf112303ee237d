package summary

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/harness/ledger/ledgertest"
	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/sotparse"
)

func sample(t testing.TB) string {
	abs, err := filepath.Abs("../testdata/workspace")
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// corpus returns the user's real workspace, or skips when it is absent:
// a plain clone has nothing beside it, in CI as anywhere else.
func corpus(t testing.TB) string { return testcorpus.Require(t) }

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDeterministic(t *testing.T) {
	opt := Options{Root: corpus(t), Now: func() time.Time { return time.Date(2026, 6, 2, 0, 0, 0, 0, time.UTC) }}
	a, err := Compute(opt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Compute(opt)
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Fatal("two summaries of the same input differ")
	}
	// What the user's documents say of their own ladder and posture.
	for _, st := range a.ProofLadder {
		if st.Status != "documented" || len(st.Documents) == 0 || len(st.WorkItems) == 0 {
			t.Errorf("stage %d: %s with %d documents, %d items; want documented", st.Stage, st.Status, len(st.Documents), len(st.WorkItems))
		}
	}
	if !a.ApprovalRequired || a.ApprovalGranted || a.ExecutionAllowed || a.RuntimeDefaultActivation {
		t.Errorf("posture %t %t %t %t: want required, not granted, not allowed, no default activation",
			a.ApprovalRequired, a.ApprovalGranted, a.ExecutionAllowed, a.RuntimeDefaultActivation)
	}
	p := a.ApprovalPacket
	if p == nil || p.Executable || p.ApprovalCommandText == "" || len(p.AllowedPaths) != 2 || len(p.BlockedActions) != 10 || len(p.RequiredEvidencePaths) == 0 {
		t.Errorf("packet from the documents: %+v", p)
	}
	if a.CorePromotionStatus != "not-promoted" {
		t.Errorf("core_promotion_status %q", a.CorePromotionStatus)
	}
	if a.Findings.Errors == 0 || len(a.Findings.ByCheck) == 0 {
		t.Error("the corpus has findings; the summary shows none")
	}
}

// The schema names every member the summary has, and the summary has
// every member the schema requires.
func TestSchemaCoversSummary(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(Schema(), &schema); err != nil {
		t.Fatal(err)
	}
	s, err := Compute(Options{Root: sample(t)})
	if err != nil {
		t.Fatal(err)
	}
	s.ApprovalPacket = &ApprovalPacket{AllowedPaths: []string{}, BlockedActions: []string{}, RequiredEvidencePaths: []string{}}
	s.Workboard.Blocked = []BlockedItem{{ID: "x", By: []Waits{{ID: "y", Status: "draft"}}}}
	var doc any
	b, _ := json.Marshal(s)
	json.Unmarshal(b, &doc)
	conforms(t, "$", schema, doc)
}

func conforms(t *testing.T, at string, schema map[string]any, v any) {
	t.Helper()
	if alts, ok := schema["anyOf"].([]any); ok {
		if v == nil {
			return
		}
		conforms(t, at, alts[0].(map[string]any), v)
		return
	}
	switch schema["type"] {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			t.Errorf("%s: want an object, got %T", at, v)
			return
		}
		if props, ok := schema["properties"].(map[string]any); ok {
			for k, x := range obj {
				ps, ok := props[k].(map[string]any)
				if !ok {
					t.Errorf("%s.%s: not in the schema", at, k)
					continue
				}
				conforms(t, at+"."+k, ps, x)
			}
			for _, r := range schema["required"].([]any) {
				if _, ok := obj[r.(string)]; !ok {
					t.Errorf("%s.%s: required, missing", at, r)
				}
			}
		} else if ap, ok := schema["additionalProperties"].(map[string]any); ok {
			for k, x := range obj {
				conforms(t, at+"."+k, ap, x)
			}
		}
	case "array":
		arr, ok := v.([]any)
		if !ok {
			t.Errorf("%s: want an array, got %T", at, v)
			return
		}
		for _, x := range arr {
			conforms(t, at+"[]", schema["items"].(map[string]any), x)
		}
	case "string":
		if _, ok := v.(string); !ok {
			t.Errorf("%s: want a string, got %T", at, v)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			t.Errorf("%s: want a boolean, got %T", at, v)
		}
	case "integer", "number":
		if _, ok := v.(float64); !ok {
			t.Errorf("%s: want a number, got %T", at, v)
		}
	}
}

func TestWorkboardBlocked(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "WORKBOARD.yaml"), `items:
  - id: CTO-WORK-001
    title: A
    status: validated
    blocked_by: []
    source: x
  - id: CTO-WORK-002
    title: B
    status: draft
    blocked_by: []
    source: x
  - id: CTO-WORK-003
    title: C
    status: candidate
    blocked_by: [CTO-WORK-001, CTO-WORK-002, CTO-WORK-009]
    source: x
`)
	s, err := Compute(Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	wb := s.Workboard
	if got := len(wb.Edges); got != 3 {
		t.Errorf("%d edges, want 3", got)
	}
	if len(wb.Blocked) != 1 || wb.Blocked[0].ID != "CTO-WORK-003" || len(wb.Blocked[0].By) != 2 ||
		wb.Blocked[0].By[0] != (Waits{"CTO-WORK-002", "draft"}) || wb.Blocked[0].By[1] != (Waits{"CTO-WORK-009", "missing"}) {
		t.Errorf("blocked: %+v", wb.Blocked)
	}
	if wb.Columns[0].Status != "validated" || wb.Columns[1].Status != "candidate" || wb.Columns[2].Status != "draft" {
		t.Errorf("columns: finished first, then by name: %+v", wb.Columns)
	}
	if wb.Columns[0].Items[0].Line != 2 {
		t.Errorf("line of the first item: %d", wb.Columns[0].Items[0].Line)
	}
}

// A stage is validated when its documents say so and, lane by lane, a
// passing run has the stage's evidence and every failure class is closed.
func TestLadderFromEvidence(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "WORKBOARD.yaml"), `items:
  - id: CTO-WORK-010
    title: Stage one
    status: validated
    blocked_by: []
    source: .sot/CTO-CASE-STAGE1-GATED-ENGINE-ISSUES.md
  - id: CTO-WORK-050
    title: Stage five
    status: validated
    blocked_by: []
    source: .sot/CTO-CASE-STAGE5-OWNED-ISSUES.md
  - id: CTO-WORK-060
    title: Stage six
    status: draft
    blocked_by: []
    source: .sot/CTO-CASE-STAGE6-CANDIDATE-ISSUES.md
`)
	ws := wsOf(t, dir)
	n := 0
	run := func(stage int, lane, fixture string, verified bool, edit func(*loadedRun)) *loadedRun {
		n++
		r := &loadedRun{dir: fmt.Sprintf("r%d", n), verified: verified}
		r.rep.Stage, r.rep.Backend, r.rep.Fixture, r.rep.RunID = stage, lane, fixture, fmt.Sprintf("run-%d", n)
		r.rep.Status = "pass"
		if fixture != "" {
			fx, ok := harness.FixtureByName(fixture)
			if !ok {
				t.Fatalf("no fixture %s", fixture)
			}
			r.rep.Status = fx.Status
			r.rep.Blockers = []evidence.Blocker{{Code: fx.Blocker}}
		}
		if edit != nil {
			edit(r)
		}
		return r
	}
	fixtures := func(stage int, lane string, names ...string) []*loadedRun {
		var out []*loadedRun
		for _, f := range names {
			out = append(out, run(stage, lane, f, true, nil))
		}
		return out
	}
	stage1 := []string{"provider-unavailable", "missing-event", "artifact-write-failure"}
	stage5 := []string{"disallowed-file", "failed-tests", "approval-denied", "dirty-end"}
	governed := func(outcome string) func(*loadedRun) {
		return func(r *loadedRun) {
			r.rep.SourceNonMutation = &struct {
				Unchanged bool `json:"unchanged"`
			}{true}
			r.rep.ApprovalID, r.rep.ApprovalConsumed = "A-1", true
			if outcome != "" {
				r.outcome = &outcomeRecord{Decision: outcome}
			}
		}
	}
	with := func(rs ...[]*loadedRun) []*loadedRun {
		var out []*loadedRun
		for _, r := range rs {
			out = append(out, r...)
		}
		return out
	}
	one := func(r *loadedRun) []*loadedRun { return []*loadedRun{r} }
	eligible := []loadedComparison{{dir: "c", c: comparisonRecord{Complete: true}}}
	eligible[0].c.CandidateDefault.Engine, eligible[0].c.CandidateDefault.Eligible = "case", true
	cases := []struct {
		name        string
		runs        []*loadedRun
		comparisons []loadedComparison
		want        [6]string
		reason      string
	}{
		{"documents only", nil, nil, [6]string{"documented", "not-started", "not-started", "not-started", "documented", "planned"}, ""},
		{"stage 1 closed", with(one(run(1, "case", "", true, nil)), fixtures(1, "case", stage1...)), nil,
			[6]string{"validated", "not-started", "not-started", "not-started", "documented", "planned"}, ""},
		{"a failure class open", with(one(run(1, "case", "", true, nil)), fixtures(1, "case", stage1[:2]...)), nil,
			[6]string{"documented"}, "case: failure class artifact-write-failure not closed"},
		{"fixtures of another lane", with(one(run(1, "case", "", true, nil)), fixtures(1, "fake", stage1...)), nil,
			[6]string{"documented"}, "case: failure class provider-unavailable not closed"},
		{"verify rejects the pass", with(one(run(1, "case", "", false, nil)), fixtures(1, "case", stage1...)), nil,
			[6]string{"documented"}, " does not verify"},
		{"stage 5 governed", with(one(run(5, "case", "", true, governed("accepted"))), fixtures(5, "case", stage5...)), nil,
			[6]string{"documented", "not-started", "not-started", "not-started", "validated"}, ""},
		{"stage 5 no outcome", with(one(run(5, "case", "", true, governed(""))), fixtures(5, "case", stage5...)), nil,
			[6]string{4: "documented"}, "has no operator outcome"},
		{"stage 5 rejected", with(one(run(5, "case", "", true, governed("rejected"))), fixtures(5, "case", stage5...)), nil,
			[6]string{4: "documented"}, "was rejected by the operator"},
		{"stage 5 no approval", with(one(run(5, "case", "", true, func(r *loadedRun) { governed("accepted")(r); r.rep.ApprovalConsumed = false })), fixtures(5, "case", stage5...)), nil,
			[6]string{4: "documented"}, "consumed no approval"},
		{"stage 6 no comparison", one(run(6, "case", "", true, governed("accepted"))), nil,
			[6]string{5: "in-progress"}, "no complete comparison makes case an eligible candidate default"},
		{"stage 6 eligible", one(run(6, "case", "", true, governed("accepted"))), eligible,
			[6]string{5: "evidence-only"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := ladderOf(ws, &evidenceSet{runs: c.runs, comparisons: c.comparisons})
			for i, w := range c.want {
				if w != "" && l[i].Status != w {
					t.Errorf("stage %d: %s, want %s (reasons %v)", i+1, l[i].Status, w, l[i].Reasons)
				}
			}
			if c.reason != "" {
				found := false
				for _, st := range l {
					for _, r := range st.Reasons {
						found = found || strings.Contains(r, c.reason)
					}
				}
				if !found {
					t.Errorf("no reason with %q", c.reason)
				}
			}
		})
	}
}

func TestUnreadableEvidence(t *testing.T) {
	runs := t.TempDir()
	write(t, filepath.Join(runs, "approvals", "A.json"), `{"approval_id": `)
	write(t, filepath.Join(runs, "r1", evidence.ReportJSON), `[]`)
	write(t, filepath.Join(runs, "compare-x", "comparison.json"), `{"lanes": 3}`)
	if err := os.Symlink("/etc", filepath.Join(runs, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(runs, "approvals", "B.json")); err != nil {
		t.Fatal(err)
	}
	s, err := Compute(Options{Root: sample(t), RunsRoot: runs})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, u := range s.Unreadable {
		got[u.Path] = true
	}
	for _, p := range []string{"runs/approvals/A.json", "runs/approvals/B.json", "runs/r1/report.json", "runs/compare-x/comparison.json"} {
		if !got[p] {
			t.Errorf("%s not reported unreadable; got %+v", p, s.Unreadable)
		}
	}
	if s.Runs.Total != 0 || s.ExecutionAllowed {
		t.Errorf("bad evidence counted: %d runs, execution allowed %t", s.Runs.Total, s.ExecutionAllowed)
	}
}

func TestApprovalExpiry(t *testing.T) {
	runs := t.TempDir()
	ledgertest.Write(t, runs, &ledger.Approval{SchemaVersion: ledger.SchemaVersion, ApprovalID: "appr-20260601T000000Z-0000000a", Stage: 1, Decision: "granted", Actor: "jp", ApprovalText: "I approve.", RecordedAt: "2026-06-01T00:00:00Z", ExpiresAt: "2026-06-02T00:00:00Z"}, nil)
	at := func(day int) *Summary {
		s, err := Compute(Options{Root: sample(t), RunsRoot: runs, Now: func() time.Time { return time.Date(2026, 6, day, 12, 0, 0, 0, time.UTC) }})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := at(1); !s.ExecutionAllowed || s.ApprovalPacket.Status != "granted" {
		t.Errorf("before expiry: allowed %t, packet %s", s.ExecutionAllowed, s.ApprovalPacket.Status)
	}
	if s := at(3); s.ExecutionAllowed || !s.ApprovalGranted || s.ApprovalPacket.Status != "expired" {
		t.Errorf("after expiry: allowed %t, packet %s", s.ExecutionAllowed, s.ApprovalPacket.Status)
	}
	ledgertest.Write(t, runs, &ledger.Approval{SchemaVersion: ledger.SchemaVersion, ApprovalID: "appr-20260601T010000Z-0000000b", Stage: 4, Decision: "denied", Actor: "jp", RecordedAt: "2026-06-01T01:00:00Z"}, nil)
	if s := at(1); s.ExecutionAllowed || s.ApprovalGranted || s.ApprovalPacket.Status != "denied" {
		t.Errorf("after a denial: granted %t allowed %t, packet %s", s.ApprovalGranted, s.ExecutionAllowed, s.ApprovalPacket.Status)
	}
}

func wsOf(t *testing.T, dir string) *sotparse.Workspace {
	t.Helper()
	ws, err := sotparse.Load(dir, sotparse.Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// Evidence behind a link is not read, even when the link stays inside.
func TestLinkedEvidenceNotRead(t *testing.T) {
	runs := t.TempDir()
	write(t, filepath.Join(runs, "elsewhere", "A.json"), `{"approval_id":"A","stage":4,"decision":"granted","actor":"jp","approval_text":"x","recorded_at":"2026-06-01T00:00:00Z"}`)
	os.MkdirAll(filepath.Join(runs, "approvals"), 0o755)
	if err := os.Symlink("../elsewhere/A.json", filepath.Join(runs, "approvals", "A.json")); err != nil {
		t.Fatal(err)
	}
	s, err := Compute(Options{Root: sample(t), RunsRoot: runs})
	if err != nil {
		t.Fatal(err)
	}
	if s.ApprovalGranted || len(s.Approvals) != 0 || len(s.Unreadable) != 1 || s.Unreadable[0].Reason != "a symbolic link; not read" {
		t.Errorf("granted %t, approvals %v, unreadable %v", s.ApprovalGranted, s.Approvals, s.Unreadable)
	}
}

// An approval cannot skip a stage: granted for stage 4 on a ladder whose
// stage 1 is not proven, it allows nothing.
func TestApprovalCannotSkipStages(t *testing.T) {
	runs := t.TempDir()
	ledgertest.Write(t, runs, &ledger.Approval{SchemaVersion: ledger.SchemaVersion, ApprovalID: "appr-20260601T000000Z-0000000a", Stage: 4, Decision: "granted", Actor: "jp", ApprovalText: "I approve.", RecordedAt: "2026-06-01T00:00:00Z"}, nil)
	s, err := Compute(Options{Root: sample(t), RunsRoot: runs})
	if err != nil {
		t.Fatal(err)
	}
	if !s.ApprovalGranted || s.ExecutionAllowed || !strings.Contains(s.ApprovalReason, "stage 1 is not validated") || s.ApprovalPacket.ProofReady {
		t.Errorf("granted %t, allowed %t, proof ready %t: %s", s.ApprovalGranted, s.ExecutionAllowed, s.ApprovalPacket.ProofReady, s.ApprovalReason)
	}
}

// TestParsedHook: Compute calls Options.Parsed once, after the parse
// (sotvet summary collects there, as sotvet check does), and the summary
// is the same as without it.
func TestParsedHook(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC) }
	calls := 0
	with, err := Compute(Options{Root: sample(t), Now: now, Parsed: func() { calls++ }})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 {
		t.Fatalf("Parsed called %d times, want 1", calls)
	}
	without, err := Compute(Options{Root: sample(t), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(with)
	b, _ := json.Marshal(without)
	if !bytes.Equal(a, b) {
		t.Fatalf("summary with Parsed differs:\n%s\n%s", a, b)
	}
}
