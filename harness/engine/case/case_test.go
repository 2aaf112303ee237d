package caselane

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/harness/engine"
)

// workspaceWith lays a recorded events file (from WorkOS Case itself, see
// ../shared/research/lanes/samples/case) where ca writes it.
func workspaceWith(t *testing.T, sample string) engine.Job {
	t.Helper()
	job := engine.Job{CaseID: "say-hello", Workspace: t.TempDir()}
	data, err := os.ReadFile(filepath.Join("testdata", "samples", sample, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(job.Workspace, StateDir, "say-hello", "events")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run-0000.jsonl"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return job
}

func TestTerminalIn(t *testing.T) {
	for _, tc := range []struct {
		sample, status, detail string
		claimed                []string // nil: no implementer claims
	}{
		{"success", engine.StatusSuccess, "pipeline_end completed", []string{"hello.txt"}},
		// Every role claims completion and nothing changed: Case says
		// completed, and the claim is left for the harness to refute.
		{"claimed-success-no-change", engine.StatusSuccess, "pipeline_end completed", []string{"hello.txt"}},
		{"error500", engine.StatusFailure, "pipeline_end failed at implementer: AGENT_RESULT start delimiter not found", []string{}},
		{"text-only-no-agent-result", engine.StatusFailure, "at implementer", []string{}},
		{"hang-killed-at-60s", engine.StatusNone, "no pipeline_end", nil},
	} {
		t.Run(tc.sample, func(t *testing.T) {
			job := workspaceWith(t, tc.sample)
			sig := Engine{}.TerminalIn(job, nil, nil, 0)
			if sig.Status != tc.status || !strings.Contains(sig.Detail, tc.detail) {
				t.Errorf("status %q detail %q, want %q containing %q", sig.Status, sig.Detail, tc.status, tc.detail)
			}
			if sig.Usage != nil {
				t.Errorf("Case reports no usage, got %+v", sig.Usage)
			}
			switch {
			case tc.claimed == nil && sig.Claims != nil:
				t.Errorf("claims %+v, want none", sig.Claims)
			case tc.claimed != nil && (sig.Claims == nil || strings.Join(sig.Claims.FilesChanged, ",") != strings.Join(tc.claimed, ",")):
				t.Errorf("claims %+v, want files %v", sig.Claims, tc.claimed)
			}
			if sig.Files["case-events.jsonl"] == nil {
				t.Error("the events file is not kept")
			}
		})
	}
}

// ca exits 1 only when it throws; its Fatal line is the detail.
func TestTerminalInCrash(t *testing.T) {
	stderr, err := os.ReadFile(filepath.Join("testdata", "samples", "config-error-stderr.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sig := Engine{}.TerminalIn(engine.Job{CaseID: "x", Workspace: t.TempDir()}, nil, stderr, 1)
	if sig.Status != engine.StatusFailure || !strings.Contains(sig.Detail, "Model not found: openai/no-such-model") {
		t.Errorf("%+v", sig)
	}
}

func TestInvocationKeepsTasksOutOfTheWorkspace(t *testing.T) {
	inv, err := Engine{}.Invocation(engine.Job{CaseID: "r1 x", Program: "/bin/ca", BaseURL: "http://127.0.0.1:1/v1", Model: "m", Home: "/h", Workspace: "/w",
		Verification: [][]string{{"go", "test", "./..."}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(inv.Argv, " "); got != "/bin/ca run --task /h/task/r1-x.task.json --mode unattended" {
		t.Errorf("argv %s", got)
	}
	if inv.KeyEnv != "OPENAI_API_KEY" {
		t.Errorf("key env %s", inv.KeyEnv)
	}
	if !strings.Contains(string(inv.HomeFiles[DataDir+"/projects.json"]), `"test": "go test ./..."`) {
		t.Errorf("projects.json %s", inv.HomeFiles[DataDir+"/projects.json"])
	}
}

func TestShellJoin(t *testing.T) {
	if got := shellJoin([]string{"go", "test", "-run", "A B", "it's"}); got != `go test -run 'A B' 'it'\''s'` {
		t.Errorf("got %s", got)
	}
}

// TestOpenPhase follows a pipeline as ca writes it: a phase is open from
// its phase_start to its phase_end, a phase run again is a new one, and
// nothing is open after pipeline_end or before any record.
func TestOpenPhase(t *testing.T) {
	job := engine.Job{CaseID: "say-hello", Workspace: t.TempDir()}
	if _, _, open := (Engine{}).OpenPhase(job); open {
		t.Fatal("open with no events file")
	}
	dir := filepath.Join(job.Workspace, StateDir, "say-hello", "events")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var lines []string
	step := func(line, wantPhase string, wantOpen bool) int {
		t.Helper()
		lines = append(lines, line)
		if err := os.WriteFile(filepath.Join(dir, "run-0000.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		phase, start, open := (Engine{}).OpenPhase(job)
		if open != wantOpen || (open && phase != wantPhase) {
			t.Errorf("after %s: %q %v, want %q %v", line, phase, open, wantPhase, wantOpen)
		}
		return start
	}
	step(`{"event":"pipeline_start","taskId":"say-hello"}`, "", false)
	first := step(`{"event":"phase_start","phase":"implement","agent":"implementer"}`, "implement (implementer)", true)
	step(`{"event":"status_changed","from":"active","to":"implementing"}`, "implement (implementer)", true)
	step(`{"event":"phase_end","phase":"implement","agent":"implementer","outcome":"completed"}`, "", false)
	step(`{"event":"phase_start","phase":"verify","agent":"verifier"}`, "verify (verifier)", true)
	step(`{"event":"phase_end","phase":"verify","agent":"verifier","outcome":"failed"}`, "", false)
	again := step(`{"event":"phase_start","phase":"implement","agent":"implementer"}`, "implement (implementer)", true)
	if again == first {
		t.Errorf("a phase run again has the identity of its first run (%d)", first)
	}
	step(`{"event":"pipeline_end","outcome":"failed"}`, "", false)
}
