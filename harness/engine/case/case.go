// Package caselane is the WorkOS Case lane: `ca run --task FILE --mode
// unattended`, with the task JSON and markdown, config.json, projects.json
// and the embedded pi's models.json written by the harness under the run's
// HOME (outside the workspace), CASE_DATA_DIR and PI_CODING_AGENT_DIR
// isolated there.
//
// ca exits 0 when its pipeline fails, and writes its machine-readable
// record not to stdout but to <workspace>/.case/<task>/events/run-*.jsonl.
// The verdict is the last pipeline_end there; each phase's AGENT_RESULT
// claims (filesChanged, testsPassed) are handed to the harness to check
// against what it observed. Case reports no usage: tokens stay unknown.
package caselane

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness/engine"
)

// Name is the lane's backend id.
const Name = "case"

// KeyEnv: Case's in-process pi agent finds keys only in pi-ai's built-in
// map, so the lane overrides the built-in openai provider and its key.
const KeyEnv = "OPENAI_API_KEY"

// StateDir is Case's state directory in the workspace.
const StateDir = ".case"

// Paths under the backend's HOME.
const (
	DataDir  = ".config/case"
	AgentDir = ".pi/agent"
	TaskDir  = "task"
)

// Engine is the case lane.
type Engine struct{}

// Name implements engine.Engine.
func (Engine) Name() string { return Name }

// Provider implements engine.Engine.
func (Engine) Provider() string { return "workos-case" }

// CLI implements engine.Lane.
func (Engine) CLI() string { return "ca" }

// WireAPI implements engine.Lane.
func (Engine) WireAPI() string { return "chat" }

// UntrustedDirs implements engine.Lane: a repository that already holds
// .case/ would make ca resume an earlier run's log.
func (Engine) UntrustedDirs() []string { return []string{StateDir} }

// StateDirs implements engine.WorkspaceLane.
func (Engine) StateDirs() []string { return []string{StateDir} }

// VersionArgs implements engine.Lane: ca has no version flag (it reads
// --version as an issue to work on), so the harness records the binary's
// digest instead.
func (Engine) VersionArgs() []string { return nil }

// ParseVersion implements engine.Lane.
func (Engine) ParseVersion(_, _ []byte) string { return "" }

// Resolve implements engine.Lane. ca must be a copy outside its checkout:
// next to its package.json it silently uses the checkout's prompts.
func (Engine) Resolve(found string) (string, bool, error) {
	real, err := filepath.EvalSymlinks(found)
	if err != nil {
		return "", false, err
	}
	for d := filepath.Dir(real); ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "package.json")); err == nil && strings.Contains(string(data), `"name": "case"`) {
			return "", false, fmt.Errorf("ca at %s is inside its checkout (%s): copy the binary out, or it uses the checkout's prompts", real, d)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return real, false, nil
}

var unsafeID = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// TaskID is the Case task id the lane uses for a harness case.
func TaskID(caseID string) string {
	id := strings.Trim(unsafeID.ReplaceAllString(caseID, "-"), "-.")
	if id == "" {
		id = "task"
	}
	return id
}

// Invocation implements engine.Engine.
func (Engine) Invocation(job engine.Job) (engine.Invocation, error) {
	if job.Program == "" || job.BaseURL == "" || job.Model == "" || job.Home == "" {
		return engine.Invocation{}, errors.New("case: program, base URL, model and home are required")
	}
	id := TaskID(job.CaseID)
	var tests []string
	for _, argv := range job.Verification {
		tests = append(tests, shellJoin(argv))
	}
	test := strings.Join(tests, " && ")
	if test == "" {
		test = "true"
	}
	config := map[string]any{"version": 1, "projects": "./projects.json", "assetsRepo": "example/none", "defaultModel": job.Model,
		"models": map[string]any{"default": map[string]any{"provider": "openai", "model": job.Model}}}
	projects := map[string]any{"repos": []any{map[string]any{
		"name": id, "path": job.Workspace, "remote": "git@example.invalid:none/" + id + ".git",
		"description": "copied fixture of harness case " + job.CaseID, "language": "text", "packageManager": "none",
		"commands": map[string]any{"setup": "true", "build": "true", "test": test, "lint": "true", "typecheck": "true"},
	}}}
	models := map[string]any{"providers": map[string]any{"openai": map[string]any{
		"baseUrl": job.BaseURL, "api": "openai-completions", "apiKey": KeyEnv,
		"compat": map[string]any{"supportsDeveloperRole": false, "supportsReasoningEffort": false},
		"models": []any{map[string]any{"id": job.Model, "reasoning": false, "contextWindow": 128000, "maxTokens": 8192}},
	}}}
	task := map[string]any{"id": id, "status": "active", "created": "2026-01-01T00:00:00.000Z", "repo": id,
		"mode": "unattended", "profile": "standard", "agents": map[string]any{}}
	md := fmt.Sprintf("# %s\n\n## Objective\n\n%s\n\n## Acceptance Criteria\n\n- [ ] `%s` passes\n", job.CaseID, strings.TrimSpace(job.Task), test)
	if len(job.AllowedWrites) > 0 {
		md += fmt.Sprintf("- [ ] only these paths change: %s\n", strings.Join(job.AllowedWrites, ", "))
	}
	md += "\n## Progress Log\n\n<!-- Agents append entries below. Do not edit existing entries. -->\n"
	files := map[string][]byte{
		DataDir + "/config.json":          marshal(config),
		DataDir + "/projects.json":        marshal(projects),
		AgentDir + "/models.json":         marshal(models),
		TaskDir + "/" + id + ".task.json": marshal(task),
		TaskDir + "/" + id + ".md":        []byte(md),
	}
	return engine.Invocation{
		Argv:   []string{job.Program, "run", "--task", filepath.Join(job.Home, TaskDir, id+".task.json"), "--mode", "unattended"},
		Dir:    job.Workspace,
		KeyEnv: KeyEnv,
		Env: []string{
			"CASE_DATA_DIR=" + filepath.Join(job.Home, filepath.FromSlash(DataDir)),
			"PI_CODING_AGENT_DIR=" + filepath.Join(job.Home, filepath.FromSlash(AgentDir)),
			"PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0",
		},
		HomeFiles: files,
	}, nil
}

func marshal(v any) []byte {
	data, _ := json.MarshalIndent(v, "", "  ")
	return append(data, '\n')
}

// shellJoin quotes argv for the sh -c Case runs its test command with.
func shellJoin(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && !strings.ContainsFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
		}) {
			out[i] = a
		} else {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

// Terminal implements engine.Engine; Case's verdict is in the workspace,
// so without it there is none.
func (Engine) Terminal(_, _ []byte, _ int) engine.Signal {
	return engine.Signal{Status: engine.StatusNone, Detail: "case's verdict is read from its events file"}
}

// AgentResult is a Case agent's result, as phase_end carries it.
type AgentResult struct {
	Status    string `json:"status"`
	Summary   string `json:"summary"`
	Error     string `json:"error"`
	Artifacts struct {
		FilesChanged []string `json:"filesChanged"`
		TestsPassed  *bool    `json:"testsPassed"`
	} `json:"artifacts"`
}

type event struct {
	Event       string       `json:"event"`
	Phase       string       `json:"phase"`
	Agent       string       `json:"agent"`
	Outcome     string       `json:"outcome"`
	FailedAgent string       `json:"failedAgent"`
	Result      *AgentResult `json:"result"`
	Plan        *struct {
		Phases []struct {
			Phase string `json:"phase"`
			Agent string `json:"agent"`
		} `json:"phases"`
	} `json:"plan"`
}

// maxEvents bounds the events file read.
const maxEvents = 64 << 20

// EventsFile returns the newest events/run-*.jsonl of the job's task.
func EventsFile(job engine.Job) (string, error) {
	dir := filepath.Join(job.Workspace, StateDir, TaskID(job.CaseID), "events")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var best string
	var bestT time.Time
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), "run-") || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if best == "" || info.ModTime().After(bestT) {
			best, bestT = filepath.Join(dir, e.Name()), info.ModTime()
		}
	}
	if best == "" {
		return "", fmt.Errorf("no run-*.jsonl in %s", dir)
	}
	return best, nil
}

// TerminalIn implements engine.WorkspaceLane.
func (Engine) TerminalIn(job engine.Job, _, stderr []byte, exitCode int) engine.Signal {
	sig := engine.Signal{Status: engine.StatusNone}
	if exitCode > 0 {
		// ca exits non-zero only when it throws (bad config, unknown model);
		// killed (-1), its events file still tells how far it got.
		msg := lastFatal(stderr)
		sig.Status, sig.Detail = engine.StatusFailure, "ca crashed: "+msg
		return sig
	}
	path, err := EventsFile(job)
	if err != nil {
		sig.Detail = "no events file: " + err.Error()
		return sig
	}
	data, err := readBounded(path)
	if err != nil {
		sig.Detail = "events file: " + err.Error()
		return sig
	}
	sig.Files = map[string][]byte{"case-events.jsonl": data}
	sig.Findings = append(sig.Findings, "events file: "+filepath.ToSlash(strings.TrimPrefix(path, job.Workspace+string(filepath.Separator))))
	phases := map[string]*AgentResult{} // first non-skipped phase_end per agent
	var order []string
	var end *event
	engine.EachLine(data, func(b []byte) {
		var ev event
		if json.Unmarshal(b, &ev) != nil {
			return
		}
		switch ev.Event {
		case "pipeline_start":
			var steps []string
			if ev.Plan != nil {
				for _, p := range ev.Plan.Phases {
					steps = append(steps, p.Phase+" ("+p.Agent+")")
				}
			}
			sig.Events = append(sig.Events, engine.Event{Type: "plan.updated", Data: map[string]any{"from": "case pipeline_start", "steps": steps}})
		case "phase_end":
			if ev.Outcome == "skipped" || ev.Result == nil {
				return
			}
			if _, seen := phases[ev.Agent]; !seen {
				r := *ev.Result
				r.Status = ev.Outcome
				phases[ev.Agent] = &r
				order = append(order, ev.Agent)
			}
			if ev.Agent == "implementer" && ev.Outcome == "completed" {
				sig.Handoff = true
				sig.Events = append(sig.Events, engine.Event{Type: "patch.applied", Data: map[string]any{"from": "case implementer phase_end", "files": nonNil(ev.Result.Artifacts.FilesChanged)}})
			}
		case "pipeline_end":
			e := ev
			end = &e
		}
	})
	claims := &engine.Claims{}
	for _, agent := range order {
		r := phases[agent]
		sig.Findings = append(sig.Findings, fmt.Sprintf("case %s: %s%s", agent, r.Status, errSuffix(r.Error)))
		if agent == "implementer" {
			claims.FilesChanged = r.Artifacts.FilesChanged
		}
		if r.Artifacts.TestsPassed != nil && (agent == "implementer" || agent == "verifier") {
			v := *r.Artifacts.TestsPassed
			if claims.TestsPassed == nil || !v {
				claims.TestsPassed = &v
			}
		}
	}
	if _, ok := phases["implementer"]; ok {
		sig.Claims = claims
	}
	switch {
	case end == nil:
		sig.Detail = "no pipeline_end in the events file"
	case end.Outcome == "completed":
		sig.Status, sig.Detail = engine.StatusSuccess, "pipeline_end completed"
	case end.FailedAgent == "reviewer" && sig.Handoff:
		// Case's own reviewer refused the implementer's change: the
		// harness still judges the change, and records the rejection.
		sig.Status, sig.Reviewer = engine.StatusSuccess, engine.ReviewerRejected
		sig.Detail = "pipeline_end failed at reviewer"
		if r := phases["reviewer"]; r != nil && r.Error != "" {
			sig.Detail += ": " + r.Error
		}
	default:
		detail := "pipeline_end " + end.Outcome
		if end.FailedAgent != "" {
			detail += " at " + end.FailedAgent
			if r := phases[end.FailedAgent]; r != nil && r.Error != "" {
				detail += ": " + r.Error
			}
		}
		sig.Status, sig.Detail = engine.StatusFailure, detail
	}
	return sig
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func errSuffix(e string) string {
	if e == "" {
		return ""
	}
	return " (" + e + ")"
}

func lastFatal(stderr []byte) string {
	msg := "exit without a pipeline"
	engine.EachLine(stderr, func(b []byte) {
		if s, ok := strings.CutPrefix(string(b), "Fatal: "); ok {
			msg = s
		}
	})
	return msg
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxEvents+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxEvents {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxEvents)
	}
	return data, nil
}
