// Package codex is the OpenAI Codex lane: `codex exec --json`, run as the
// native binary the npm package ships, isolated from the user's Codex
// configuration, with the provider given entirely by -c overrides.
//
// Its verdict comes from the JSON stream on stdout, never from the exit
// code alone: a rejected or failed write still exits 0 with turn.completed.
package codex

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/svrnty/sotvet/harness/engine"
)

// Name is the lane's backend id.
const Name = "codex"

// KeyEnv is the variable the API key reaches codex in (its env_key).
const KeyEnv = "SOTVET_LANE_API_KEY"

// providerID is the model_providers table the overrides define.
const providerID = "sotvet"

// StreamIdleTimeoutMS bounds a stall mid-stream; nothing in codex bounds a
// request that never returns headers, so the harness timeout must.
const StreamIdleTimeoutMS = 60000

// Engine is the codex lane.
type Engine struct{}

// Name implements engine.Engine.
func (Engine) Name() string { return Name }

// Provider implements engine.Engine.
func (Engine) Provider() string { return "codex-cli" }

// CLI implements engine.Lane.
func (Engine) CLI() string { return "codex" }

// WireAPI implements engine.Lane: codex speaks only the Responses API.
func (Engine) WireAPI() string { return "responses" }

// UntrustedDirs implements engine.Lane. A project's .codex/config.toml is
// ignored by codex for untrusted projects, and exec never trusts one.
func (Engine) UntrustedDirs() []string { return nil }

// VersionArgs implements engine.Lane.
func (Engine) VersionArgs() []string { return []string{"--version"} }

// ParseVersion implements engine.Lane: "codex-cli 0.169.0".
func (Engine) ParseVersion(stdout, _ []byte) string {
	v, ok := strings.CutPrefix(strings.TrimSpace(string(stdout)), "codex-cli ")
	if !ok || v == "" || strings.ContainsAny(v, " \n") {
		return ""
	}
	return v
}

// Resolve implements engine.Lane: the npm bin is a Node shim; the lane
// runs the native binary it would start, found in the platform package.
func (Engine) Resolve(found string) (string, bool, error) {
	real, err := filepath.EvalSymlinks(found)
	if err != nil {
		return "", false, err
	}
	if !strings.HasSuffix(real, ".js") {
		return real, false, nil // already the native binary
	}
	pkg := filepath.Dir(filepath.Dir(real)) // .../@openai/codex
	triple := "x86_64-unknown-linux-musl"
	if archARM() {
		triple = "aarch64-unknown-linux-musl"
	}
	for _, base := range []string{
		filepath.Join(pkg, "node_modules", "@openai", "codex-linux-x64"),
		filepath.Join(filepath.Dir(pkg), "codex-linux-x64"),
		filepath.Join(pkg, "node_modules", "@openai", "codex-linux-arm64"),
		filepath.Join(filepath.Dir(pkg), "codex-linux-arm64"),
		pkg,
	} {
		p := filepath.Join(base, "vendor", triple, "bin", "codex")
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return p, false, nil
		}
	}
	return "", false, fmt.Errorf("codex at %s: no native binary for %s in its package", found, triple)
}

// Invocation implements engine.Engine.
func (Engine) Invocation(job engine.Job) (engine.Invocation, error) {
	if job.Program == "" || job.BaseURL == "" || job.Model == "" {
		return engine.Invocation{}, errors.New("codex: program, base URL and model are required")
	}
	table := fmt.Sprintf(`{name=%q,base_url=%q,wire_api="responses",env_key=%q,request_max_retries=0,stream_max_retries=0,stream_idle_timeout_ms=%d}`,
		providerID, job.BaseURL, KeyEnv, StreamIdleTimeoutMS)
	argv := []string{job.Program, "exec", "--json",
		"--skip-git-repo-check", "--ephemeral", "--ignore-user-config", "--ignore-rules",
		"--sandbox", innerSandbox(job),
		// No traffic but the provider's: no plugin sync, no analytics, and
		// no hosted web search tool offered to the model.
		"--disable", "plugins", "-c", "analytics.enabled=false", "-c", `web_search="disabled"`,
		// The task is the prompt: the repository's AGENTS.md is not injected.
		"-c", "project_doc_max_bytes=0",
		"-c", "model_provider=" + providerID,
		"-c", "model_providers." + providerID + "=" + table,
		"-m", job.Model,
		prompt(job),
	}
	return engine.Invocation{Argv: argv, Dir: job.Workspace, Env: []string{"CODEX_HOME=" + job.Home}, KeyEnv: KeyEnv, InnerSandbox: "codex --sandbox " + innerSandbox(job),
		OwnNamespaces: !job.Confined}, nil
}

// innerSandbox is codex's own sandbox mode. Confined by the harness's
// Landlock, codex's sandbox fails silently (a failed file_change, then
// exit 0 and turn.completed), so it is off and Landlock is the sandbox;
// unconfined, codex's workspace-write sandbox (bubblewrap) is the only one.
func innerSandbox(job engine.Job) string {
	if job.Confined {
		return "danger-full-access"
	}
	return "workspace-write"
}

// prompt is the task as the agent is given it.
func prompt(job engine.Job) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(job.Task))
	if len(job.AllowedWrites) > 0 {
		fmt.Fprintf(&b, "\n\nYou may change only: %s.", strings.Join(job.AllowedWrites, ", "))
	}
	if len(job.ForbiddenPaths) > 0 {
		fmt.Fprintf(&b, " Do not change: %s.", strings.Join(job.ForbiddenPaths, ", "))
	}
	return b.String()
}

type item struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Text     string `json:"text"`
	Message  string `json:"message"`
	Status   string `json:"status"`
	ExitCode *int   `json:"exit_code"`
	Changes  []struct {
		Path string `json:"path"`
		Kind string `json:"kind"`
	} `json:"changes"`
}

type line struct {
	Type  string `json:"type"`
	Item  *item  `json:"item"`
	Usage *struct {
		InputTokens       int64 `json:"input_tokens"`
		CachedInputTokens int64 `json:"cached_input_tokens"`
		OutputTokens      int64 `json:"output_tokens"`
		ReasoningTokens   int64 `json:"reasoning_output_tokens"`
	} `json:"usage"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
	Message string `json:"message"`
}

// Terminal implements engine.Engine. The last turn.completed or
// turn.failed decides; a failed file_change fails a completed turn.
func (Engine) Terminal(stdout, stderr []byte, _ int) engine.Signal {
	sig := engine.Signal{Status: engine.StatusNone}
	// A patch codex could not apply shows on stderr only, with no item.
	engine.EachLine(stderr, func(b []byte) {
		s := string(b)
		if strings.Contains(s, "codex_core::tools::router") || strings.Contains(s, "patch rejected") {
			if len(s) > 300 {
				s = s[:300] + "..."
			}
			sig.Findings = append(sig.Findings, "codex stderr: "+s)
		}
	})
	var in, out int64
	usage := false
	planned := false
	var failedChanges []string
	var changed []string
	messages := 0
	engine.EachLine(stdout, func(b []byte) {
		var l line
		if json.Unmarshal(b, &l) != nil {
			return
		}
		switch l.Type {
		case "turn.started":
			if !planned {
				planned = true
				sig.Events = append(sig.Events, engine.Event{Type: "plan.updated", Data: map[string]any{"from": "codex turn.started"}})
			}
		case "turn.completed":
			sig.Status, sig.Detail = engine.StatusSuccess, "turn.completed"
			if l.Usage != nil {
				usage = true
				in += l.Usage.InputTokens
				out += l.Usage.OutputTokens
			}
		case "turn.failed":
			msg := ""
			if l.Error != nil {
				msg = l.Error.Message
			}
			sig.Status, sig.Detail = failureStatus(msg), "turn.failed: "+msg
		case "item.completed":
			it := l.Item
			if it == nil {
				return
			}
			switch it.Type {
			case "agent_message":
				messages++
			case "error":
				// Non-fatal (unknown model metadata, for one).
				sig.Findings = append(sig.Findings, "codex error item: "+it.Message)
			case "file_change":
				var paths []string
				for _, c := range it.Changes {
					paths = append(paths, c.Path)
				}
				if it.Status == "completed" {
					changed = append(changed, paths...)
					sig.Events = append(sig.Events, engine.Event{Type: "patch.applied", Data: map[string]any{"from": "codex file_change", "files": paths}})
				} else if it.Status == "failed" {
					failedChanges = append(failedChanges, paths...)
				}
			case "command_execution":
				if it.Status == "completed" && it.ExitCode != nil && *it.ExitCode == 0 {
					sig.Events = append(sig.Events, engine.Event{Type: "patch.applied", Data: map[string]any{"from": "codex command_execution"}})
				}
			}
		}
	})
	if usage {
		sig.Usage = &engine.Usage{InputTokens: engine.Int64(in), OutputTokens: engine.Int64(out), TotalTokens: engine.Int64(in + out)}
	}
	if messages == 0 {
		sig.Findings = append(sig.Findings, "codex gave no agent_message")
	}
	if len(failedChanges) > 0 && sig.Status == engine.StatusSuccess {
		sig.Status = engine.StatusFailure
		sig.Detail = "turn.completed, but a file_change failed: " + strings.Join(failedChanges, ", ")
	}
	return sig
}

// failureStatus maps a turn.failed message to a status: transport and
// server faults are the provider's, everything else the backend's.
func failureStatus(msg string) string {
	m := strings.ToLower(msg)
	for _, s := range []string{"high demand", "stream disconnected", "idle timeout", "internal server error", "connection refused", "timed out", "service unavailable", "bad gateway", "error sending request"} {
		if strings.Contains(m, s) {
			return engine.StatusProviderUnavailable
		}
	}
	return engine.StatusFailure
}
