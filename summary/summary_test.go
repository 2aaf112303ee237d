package summary

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/sotparse"
)

func sample(t testing.TB) string {
	abs, err := filepath.Abs("../testdata/workspace")
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// corpus returns the user's real workspace, or skips when it is absent
// outside CI.
func corpus(t testing.TB) string {
	abs, _ := filepath.Abs("../../shared/corpus/cto-planb")
	if _, err := os.Stat(abs); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI: the corpus is missing: %v", err)
		}
		t.Skipf("the corpus is not beside the checkout (%s)", abs)
	}
	return abs
}

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

// A stage is validated when its documents say so and a run at that stage
// passed, verify accepted it and, where required, the operator accepted it.
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
	run := func(stage int, status string, verified bool, outcome string) *loadedRun {
		r := &loadedRun{dir: "r" + status, verified: verified}
		r.rep.Stage, r.rep.Status, r.rep.RunID = stage, status, "run-"+status
		r.rep.Backend = "fake"
		if outcome != "" {
			r.outcome = &outcomeRecord{Decision: outcome}
		}
		return r
	}
	cases := []struct {
		name  string
		runs  []*loadedRun
		want1 string
		want5 string
	}{
		{"documents only", nil, "documented", "documented"},
		{"verified pass", []*loadedRun{run(1, "pass", true, ""), run(5, "pass", true, "accepted")}, "validated", "validated"},
		{"verify rejects", []*loadedRun{run(1, "pass", false, "")}, "documented", "documented"},
		{"no outcome at stage 5", []*loadedRun{run(5, "pass", true, "")}, "documented", "documented"},
		{"rejected outcome", []*loadedRun{run(5, "pass", true, "rejected")}, "documented", "documented"},
		{"failed run", []*loadedRun{run(1, "fail", true, "")}, "documented", "documented"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev := &evidenceSet{runs: c.runs}
			l := ladderOf(wsOf(t, dir), ev)
			if l[0].Status != c.want1 || l[4].Status != c.want5 {
				t.Errorf("stage 1 %s, stage 5 %s; want %s, %s", l[0].Status, l[4].Status, c.want1, c.want5)
			}
			if l[5].Status != "planned" || l[1].Status != "not-started" {
				t.Errorf("stage 6 %s, stage 2 %s", l[5].Status, l[1].Status)
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
	write(t, filepath.Join(runs, "approvals", "A.json"), `{"approval_id":"A","stage":4,"decision":"granted","actor":"jp","approval_text":"I approve.","recorded_at":"2026-06-01T00:00:00Z","expires_at":"2026-06-02T00:00:00Z"}`)
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
	write(t, filepath.Join(runs, "approvals", "B.json"), `{"approval_id":"B","stage":4,"decision":"denied","actor":"jp","recorded_at":"2026-06-01T01:00:00Z"}`)
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
