// Package pi is the Pi coding agent lane: `pi -p --mode json --no-session`
// run by node, with its agent directory (models.json, settings.json)
// written by the harness, offline, and an explicit tool list.
//
// Pi's JSON mode exits 0 on provider errors, and its auto-retries continue
// after agent_end: the verdict is the last assistant stopReason in the
// whole stream, and usage is summed over every assistant message.
package pi

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
const Name = "pi"

// KeyEnv is the variable models.json names as the provider's apiKey.
const KeyEnv = "SOTVET_LANE_API_KEY"

// AgentDir is where the agent directory goes, under the backend's HOME.
const AgentDir = ".pi/agent"

const providerID = "sotvet"

// ProviderTimeoutMS bounds the wait for response headers.
const ProviderTimeoutMS = 60000

// Engine is the pi lane.
type Engine struct{}

// Name implements engine.Engine.
func (Engine) Name() string { return Name }

// Provider implements engine.Engine.
func (Engine) Provider() string { return "pi-coding-agent" }

// CLI implements engine.Lane.
func (Engine) CLI() string { return "pi" }

// WireAPI implements engine.Lane.
func (Engine) WireAPI() string { return "chat" }

// UntrustedDirs implements engine.Lane: a workspace .pi/settings.json can
// make pi run npm install, whatever flags say; .pi/ is refused.
func (Engine) UntrustedDirs() []string { return []string{".pi"} }

// VersionArgs implements engine.Lane.
func (Engine) VersionArgs() []string { return []string{"--version"} }

// ParseVersion implements engine.Lane: pi prints its version on stderr.
func (Engine) ParseVersion(stdout, stderr []byte) string {
	for _, out := range [][]byte{stderr, stdout} {
		v := strings.TrimSpace(string(out))
		if v != "" && !strings.ContainsAny(v, " \n") && strings.Count(v, ".") >= 1 {
			return v
		}
	}
	return ""
}

// Resolve implements engine.Lane: the npm bin links to dist/cli.js, which
// node runs.
func (Engine) Resolve(found string) (string, bool, error) {
	real, err := filepath.EvalSymlinks(found)
	if err != nil {
		return "", false, err
	}
	if !strings.HasSuffix(real, ".js") {
		return "", false, fmt.Errorf("pi at %s is not the npm package's cli.js", found)
	}
	if _, err := os.Stat(real); err != nil {
		return "", false, err
	}
	return real, true, nil
}

// Package is the npm package pi's CLI comes from.
const Package = "@mariozechner/pi-coding-agent"

// PackageVersion implements engine.PackagedLane: the version in the
// package.json beside dist/.
func (Engine) PackageVersion(program string) (string, error) {
	data, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(program)), "package.json"))
	if err != nil {
		return "", err
	}
	var pkg struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		return "", err
	}
	if pkg.Name != Package || pkg.Version == "" {
		return "", fmt.Errorf("%s is not the package.json of %s", program, Package)
	}
	return pkg.Version, nil
}

// Invocation implements engine.Engine.
func (Engine) Invocation(job engine.Job) (engine.Invocation, error) {
	if job.Program == "" || job.Node == "" || job.BaseURL == "" || job.Model == "" || job.Home == "" {
		return engine.Invocation{}, errors.New("pi: program, node, base URL, model and home are required")
	}
	models := map[string]any{"providers": map[string]any{providerID: map[string]any{
		"baseUrl": job.BaseURL, "api": "openai-completions", "apiKey": KeyEnv,
		"compat": map[string]any{"supportsDeveloperRole": false, "supportsReasoningEffort": false},
		"models": []any{map[string]any{"id": job.Model, "reasoning": false, "contextWindow": 128000, "maxTokens": 8192}},
	}}}
	// Auto-retries and SDK retries off: the harness judges one attempt,
	// and its timeout, not pi's, ends a stall.
	settings := map[string]any{"retry": map[string]any{"enabled": false, "provider": map[string]any{"timeoutMs": ProviderTimeoutMS, "maxRetries": 0}}}
	mj, _ := json.MarshalIndent(models, "", "  ")
	sj, _ := json.MarshalIndent(settings, "", "  ")
	argv := []string{job.Node, job.Program, "-p", "--mode", "json", "--no-session",
		"--provider", providerID, "--model", job.Model,
		"--no-extensions", "--no-skills", "--no-prompt-templates", "--no-themes", "--no-context-files",
		"--tools", "read,bash,edit,write",
		prompt(job)}
	return engine.Invocation{
		Argv: argv, Dir: job.Workspace, KeyEnv: KeyEnv,
		Env: []string{
			"PI_CODING_AGENT_DIR=" + filepath.Join(job.Home, filepath.FromSlash(AgentDir)),
			"PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0",
		},
		HomeFiles: map[string][]byte{
			AgentDir + "/models.json":   append(mj, '\n'),
			AgentDir + "/settings.json": append(sj, '\n'),
		},
	}, nil
}

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

type message struct {
	Role         string `json:"role"`
	StopReason   string `json:"stopReason"`
	ErrorMessage string `json:"errorMessage"`
	Usage        *struct {
		Input       int64 `json:"input"`
		Output      int64 `json:"output"`
		TotalTokens int64 `json:"totalTokens"`
		Cost        *struct {
			Total *float64 `json:"total"`
		} `json:"cost"`
	} `json:"usage"`
}

type line struct {
	Type       string   `json:"type"`
	Message    *message `json:"message"`
	ToolName   string   `json:"toolName"`
	IsError    bool     `json:"isError"`
	Success    *bool    `json:"success"`
	FinalError string   `json:"finalError"`
	Args       struct {
		Path string `json:"path"`
	} `json:"args"`
}

// Terminal implements engine.Engine.
func (Engine) Terminal(stdout, _ []byte, _ int) engine.Signal {
	sig := engine.Signal{Status: engine.StatusNone}
	session := false
	planned := false
	last := (*message)(nil)
	var in, out, total int64
	var cost float64
	costKnown, usage := true, false
	retryFailed := ""
	toolErrors := 0
	engine.EachLine(stdout, func(b []byte) {
		var l line
		if json.Unmarshal(b, &l) != nil {
			return
		}
		switch l.Type {
		case "session":
			session = true
		case "agent_start":
			if !planned {
				planned = true
				sig.Events = append(sig.Events, engine.Event{Type: "plan.updated", Data: map[string]any{"from": "pi agent_start"}})
			}
		case "message_end":
			m := l.Message
			if m == nil || m.Role != "assistant" {
				return
			}
			last = m
			if m.Usage != nil {
				usage = true
				in += m.Usage.Input
				out += m.Usage.Output
				total += m.Usage.TotalTokens
				if m.Usage.Cost != nil && m.Usage.Cost.Total != nil {
					cost += *m.Usage.Cost.Total
				} else {
					costKnown = false
				}
			}
		case "tool_execution_end":
			if l.IsError {
				toolErrors++
				return
			}
			switch l.ToolName {
			case "edit", "write", "bash":
				data := map[string]any{"from": "pi " + l.ToolName}
				if l.Args.Path != "" {
					data["files"] = []string{l.Args.Path}
				}
				sig.Events = append(sig.Events, engine.Event{Type: "patch.applied", Data: data})
			}
		case "auto_retry_end":
			if l.Success != nil && !*l.Success {
				retryFailed = l.FinalError
				if retryFailed == "" {
					retryFailed = "auto-retries exhausted"
				}
			}
		}
	})
	if usage {
		sig.Usage = &engine.Usage{InputTokens: engine.Int64(in), OutputTokens: engine.Int64(out), TotalTokens: engine.Int64(total)}
		if costKnown {
			sig.Usage.CostUSD = &cost
		}
	}
	if toolErrors > 0 {
		sig.Findings = append(sig.Findings, fmt.Sprintf("pi reported %d failed tool call(s)", toolErrors))
	}
	switch {
	case !session:
		sig.Detail = "no session header in pi's stream"
	case last == nil:
		sig.Detail = "no assistant message in pi's stream"
	case retryFailed != "":
		sig.Status, sig.Detail = failureStatus(retryFailed), "auto_retry_end success:false: "+retryFailed
	case last.StopReason == "stop":
		sig.Status, sig.Detail = engine.StatusSuccess, "stopReason stop"
	case last.StopReason == "error" || last.StopReason == "aborted":
		sig.Status, sig.Detail = failureStatus(last.ErrorMessage), "stopReason "+last.StopReason+": "+last.ErrorMessage
	default:
		sig.Detail = "last stopReason " + last.StopReason
	}
	return sig
}

// failureStatus maps pi's errorMessage: server and transport faults are
// the provider's ("500 ...", "Request timed out."), the rest the backend's.
func failureStatus(msg string) string {
	m := strings.ToLower(msg)
	if len(m) >= 4 && m[0] == '5' && m[3] == ' ' {
		return engine.StatusProviderUnavailable
	}
	for _, s := range []string{"timed out", "connection error", "econnrefused", "econnreset", "socket hang up", "fetch failed"} {
		if strings.Contains(m, s) {
			return engine.StatusProviderUnavailable
		}
	}
	return engine.StatusFailure
}
