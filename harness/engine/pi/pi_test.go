package pi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/harness/engine"
)

// The samples are pi 0.73.1's own outputs against a scripted provider (see
// ../shared/research/lanes/samples/pi).
func sample(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name, "stdout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestTerminal(t *testing.T) {
	for _, tc := range []struct {
		sample, status, detail string
		tokens                 int64 // total tokens summed over every assistant message
		patch                  bool
	}{
		{"success-edit", engine.StatusSuccess, "stopReason stop", 36, true},
		{"success-bash", engine.StatusSuccess, "stopReason stop", 36, true},
		{"error500", engine.StatusProviderUnavailable, "500 mock: internal server error", 0, false},
		// Auto-retries continue after agent_end: the last word is theirs.
		{"error500-default-retries", engine.StatusProviderUnavailable, "auto_retry_end success:false", 0, false},
		{"error400", engine.StatusFailure, "400 mock: bad request", 0, false},
		{"malformed", engine.StatusFailure, "Expected property name", 0, false},
		{"reasoning-only", engine.StatusSuccess, "stopReason stop", 18, false},
		{"text-only-no-edit", engine.StatusSuccess, "stopReason stop", 18, false},
		{"tool-error-edit-mismatch", engine.StatusSuccess, "stopReason stop", 36, false},
		{"hang-defaults", engine.StatusNone, "no assistant message", -1, false},
	} {
		t.Run(tc.sample, func(t *testing.T) {
			sig := Engine{}.Terminal(sample(t, tc.sample), nil, 0)
			if sig.Status != tc.status || !strings.Contains(sig.Detail, tc.detail) {
				t.Errorf("status %q detail %q, want %q containing %q", sig.Status, sig.Detail, tc.status, tc.detail)
			}
			switch {
			case tc.tokens < 0 && sig.Usage != nil:
				t.Errorf("usage %+v, want unknown", sig.Usage)
			case tc.tokens >= 0 && (sig.Usage == nil || *sig.Usage.TotalTokens != tc.tokens):
				got := any(nil)
				if sig.Usage != nil {
					got = *sig.Usage.TotalTokens
				}
				t.Errorf("total tokens %v, want %d", got, tc.tokens)
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

func TestTerminalToolErrorFinding(t *testing.T) {
	sig := Engine{}.Terminal(sample(t, "tool-error-edit-mismatch"), nil, 0)
	if !strings.Contains(strings.Join(sig.Findings, "\n"), "failed tool call") {
		t.Errorf("findings %q", sig.Findings)
	}
}

func TestInvocation(t *testing.T) {
	inv, err := Engine{}.Invocation(engine.Job{Program: "/p/cli.js", Node: "/usr/bin/node", BaseURL: "http://127.0.0.1:1/v1", Model: "m", Task: "t", Home: "/h", Workspace: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(append(inv.Argv, inv.Env...), " ")
	for _, want := range []string{"--no-session", "--mode json", "--no-context-files", "--tools read,bash,edit,write", "PI_OFFLINE=1", "PI_CODING_AGENT_DIR=/h/.pi/agent"} {
		if !strings.Contains(all, want) {
			t.Errorf("invocation lacks %q: %s", want, all)
		}
	}
	var models struct {
		Providers map[string]struct {
			APIKey string `json:"apiKey"`
		} `json:"providers"`
	}
	if err := json.Unmarshal(inv.HomeFiles[AgentDir+"/models.json"], &models); err != nil {
		t.Fatal(err)
	}
	if models.Providers[providerID].APIKey != KeyEnv {
		t.Errorf("models.json must name the key's variable, not hold a key: %+v", models)
	}
}
