package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/harness/engine"
)

// The samples are codex 0.169.0's own outputs against a scripted provider
// (see ../shared/research/lanes/samples/codex).
func sample(t *testing.T, name string) (stdout, stderr []byte) {
	t.Helper()
	var err error
	if stdout, err = os.ReadFile(filepath.Join("testdata", name, "stdout.jsonl")); err != nil {
		t.Fatal(err)
	}
	stderr, _ = os.ReadFile(filepath.Join("testdata", name, "stderr.log"))
	return stdout, stderr
}

func TestTerminal(t *testing.T) {
	for _, tc := range []struct {
		sample, status, detail string
		tokens                 int64 // input tokens; -1: unknown
		patch                  bool
	}{
		{"success-apply-patch", engine.StatusSuccess, "turn.completed", 22, true},
		{"success-shell", engine.StatusSuccess, "turn.completed", 22, true},
		{"error500", engine.StatusProviderUnavailable, "high demand", -1, false},
		{"error400", engine.StatusFailure, "mock: bad request", -1, false},
		{"malformed", engine.StatusProviderUnavailable, "stream closed before response.completed", -1, false},
		{"reasoning-only", engine.StatusSuccess, "turn.completed", 11, false},
		{"text-only-no-edit", engine.StatusSuccess, "turn.completed", 11, false},
		// codex's own sandbox inside Landlock: the write failed, the turn
		// completed and the agent claimed success; exit 0.
		{"landlock-plus-codex-workspace-write", engine.StatusFailure, "a file_change failed", 22, false},
		{"hang-no-headers", engine.StatusNone, "", -1, false},
	} {
		t.Run(tc.sample, func(t *testing.T) {
			out, errb := sample(t, tc.sample)
			sig := Engine{}.Terminal(out, errb, 0)
			if sig.Status != tc.status || !strings.Contains(sig.Detail, tc.detail) {
				t.Errorf("status %q detail %q, want %q containing %q", sig.Status, sig.Detail, tc.status, tc.detail)
			}
			switch {
			case tc.tokens < 0 && sig.Usage != nil:
				t.Errorf("usage %+v, want unknown", sig.Usage)
			case tc.tokens >= 0 && (sig.Usage == nil || *sig.Usage.InputTokens != tc.tokens):
				t.Errorf("usage %+v, want %d input tokens", sig.Usage, tc.tokens)
			}
			patched := false
			for _, ev := range sig.Events {
				if ev.Type == "patch.applied" {
					patched = true
				}
			}
			if patched != tc.patch {
				t.Errorf("patch.applied reported %v, want %v", patched, tc.patch)
			}
		})
	}
}

func TestTerminalFindings(t *testing.T) {
	out, errb := sample(t, "reasoning-only")
	sig := Engine{}.Terminal(out, errb, 0)
	if !strings.Contains(strings.Join(sig.Findings, "\n"), "no agent_message") {
		t.Errorf("findings %q: want the missing agent_message noted", sig.Findings)
	}
}

// A line longer than any scanner buffer is still read.
func TestTerminalLongLine(t *testing.T) {
	long := `{"type":"item.completed","item":{"type":"agent_message","text":"` + strings.Repeat("x", 3<<20) + `"}}`
	sig := Engine{}.Terminal([]byte(`{"type":"turn.started"}`+"\n"+long+"\n"+`{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":2}}`), nil, 0)
	if sig.Status != engine.StatusSuccess || len(sig.Findings) != 0 {
		t.Errorf("%+v", sig)
	}
}

func TestInvocationKeepsTheKeyOut(t *testing.T) {
	inv, err := Engine{}.Invocation(engine.Job{Program: "/x/codex", BaseURL: "http://127.0.0.1:1/v1", Model: "gpt-5.5", Task: "do it", Home: "/h", Workspace: "/w", Confined: true})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(append(inv.Argv, inv.Env...), " ")
	for _, want := range []string{"--ignore-user-config", "danger-full-access", "analytics.enabled=false", "--disable plugins", `web_search="disabled"`, "project_doc_max_bytes=0", `env_key="` + KeyEnv + `"`} {
		if !strings.Contains(all, want) {
			t.Errorf("invocation lacks %q: %s", want, all)
		}
	}
	if inv.KeyEnv != KeyEnv || strings.Contains(all, "sk-") {
		t.Errorf("key handling: %+v", inv)
	}
}

func TestParseVersion(t *testing.T) {
	if v := (Engine{}).ParseVersion([]byte("codex-cli 0.169.0\n"), nil); v != "0.169.0" {
		t.Errorf("got %q", v)
	}
	if v := (Engine{}).ParseVersion([]byte("error: something\n"), nil); v != "" {
		t.Errorf("got %q", v)
	}
}
