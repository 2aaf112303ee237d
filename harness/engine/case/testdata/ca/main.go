// Command ca is a stand-in for WorkOS Case's `ca` (which the project cannot
// install) for the case lane's tests. It follows the contract recorded in
// ../shared/research/lanes/samples/case, misbehaviours included:
//
//   - config from $CASE_DATA_DIR/config.json and projects.json, the model
//     from config.json's models.default, the endpoint from the built-in
//     openai provider overridden in $PI_CODING_AGENT_DIR/models.json, the
//     key from OPENAI_API_KEY;
//   - the pipeline implement, verify, review, close, retrospective, each
//     agent talking to the provider (Chat Completions) with tools write and
//     bash (started in a new session, as pi's detached children are) and
//     ending with an AGENT_RESULT block;
//   - the record in <repo>/.case/<task>/events/run-<id>.jsonl, not stdout;
//     human text on stdout, JSON log lines on stderr;
//   - exit 0 when the pipeline fails; exit 1 only when it throws (unknown
//     model, bad config); a transport error is swallowed into "AGENT_RESULT
//     start delimiter not found"; a pipeline whose agents all claim
//     completion is completed whether or not anything changed; trailing
//     "skipped" phase_end lines after the retrospective (before it, with
//     close's, when a phase failed); a retrospective "completed" whatever
//     its agent did; every tool call of a turn started before any ends;
//     markers tested and
//     reviewed holding only a timestamp; no usage anywhere; no signal
//     handler, so its tools' children outlive it.
package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

const (
	resultStart = "<<<AGENT_RESULT"
	resultEnd   = "AGENT_RESULT>>>"
)

type config struct {
	Version  int    `json:"version"`
	Projects string `json:"projects"`
	Models   struct {
		Default struct {
			Provider string `json:"provider"`
			Model    string `json:"model"`
		} `json:"default"`
	} `json:"models"`
}

type project struct {
	Name     string `json:"name"`
	Path     string `json:"path"`
	Commands struct {
		Test string `json:"test"`
	} `json:"commands"`
}

type pipeline struct {
	runID, taskID, repo string
	events              *os.File
	seq                 int
	baseURL, model, key string
	taskMD              string
	test                string
}

func main() { os.Exit(run(os.Args[1:])) }

func logf(level, msg string, kv ...any) {
	m := map[string]any{"ts": now(), "level": level, "msg": msg}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	data, _ := json.Marshal(m)
	fmt.Fprintln(os.Stderr, string(data))
}

func now() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }

func crash(err error) int {
	logf("error", "pipeline crashed", "error", err.Error())
	fmt.Fprintln(os.Stderr, "Fatal: "+err.Error())
	return 1
}

func run(args []string) int {
	if len(args) == 0 || args[0] != "run" {
		// Anything else (--version included) is read as an issue to find.
		return crash(errors.New("Repo not found in projects.json"))
	}
	var taskPath string
	for i := 1; i < len(args); i++ {
		if args[i] == "--task" && i+1 < len(args) {
			taskPath = args[i+1]
			i++
		}
	}
	dataDir := os.Getenv("CASE_DATA_DIR")
	if dataDir == "" {
		dataDir = filepath.Join(os.Getenv("HOME"), ".config", "case")
	}
	var cfg config
	if err := readJSON(filepath.Join(dataDir, "config.json"), &cfg); err != nil {
		return crash(err)
	}
	var projects struct {
		Repos []project `json:"repos"`
	}
	if err := readJSON(filepath.Join(dataDir, cfg.Projects), &projects); err != nil {
		return crash(err)
	}
	if taskPath == "" {
		return crash(errors.New("no task given"))
	}
	raw := map[string]any{}
	if err := readJSON(taskPath, &raw); err != nil {
		return crash(err)
	}
	id, _ := raw["id"].(string)
	repoName, _ := raw["repo"].(string)
	var proj *project
	for i := range projects.Repos {
		if projects.Repos[i].Name == repoName {
			proj = &projects.Repos[i]
		}
	}
	if proj == nil {
		return crash(fmt.Errorf("Repo not found in projects.json: %s", repoName))
	}
	// The model: provider openai, overridden in pi's models.json.
	var models struct {
		Providers map[string]struct {
			BaseURL string `json:"baseUrl"`
			APIKey  string `json:"apiKey"`
			Models  []struct {
				ID string `json:"id"`
			} `json:"models"`
		} `json:"providers"`
	}
	_ = readJSON(filepath.Join(os.Getenv("PI_CODING_AGENT_DIR"), "models.json"), &models)
	prov, ok := models.Providers[cfg.Models.Default.Provider]
	found := false
	for _, m := range prov.Models {
		found = found || m.ID == cfg.Models.Default.Model
	}
	if !ok || !found {
		return crash(fmt.Errorf("Model not found: %s/%s. Check ~/.config/case/config.json", cfg.Models.Default.Provider, cfg.Models.Default.Model))
	}
	// Startup writes the pi package manifest into the data directory.
	_ = os.MkdirAll(filepath.Join(dataDir, "pi-package"), 0o755)
	_ = os.WriteFile(filepath.Join(dataDir, "pi-package", "package.json"), []byte(`{"name":"case-pi-package","private":true}`+"\n"), 0o644)

	md, _ := os.ReadFile(strings.TrimSuffix(taskPath, ".task.json") + ".md")
	var rnd [16]byte
	_, _ = rand.Read(rnd[:])
	h := hex.EncodeToString(rnd[:])
	p := &pipeline{runID: h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], taskID: id, repo: proj.Path,
		baseURL: prov.BaseURL, model: cfg.Models.Default.Model, key: os.Getenv("OPENAI_API_KEY"), taskMD: string(md), test: proj.Commands.Test}
	evDir := filepath.Join(proj.Path, ".case", id, "events")
	if err := os.MkdirAll(evDir, 0o755); err != nil {
		return crash(err)
	}
	f, err := os.OpenFile(filepath.Join(evDir, "run-"+p.runID+".jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return crash(err)
	}
	defer f.Close()
	p.events = f
	phases := []struct{ phase, agent string }{{"implement", "implementer"}, {"verify", "verifier"}, {"review", "reviewer"}, {"close", "closer"}}
	plan := map[string]any{"runId": p.runID, "taskId": id, "profile": "standard", "phases": []any{}}
	for _, ph := range phases {
		plan["phases"] = append(plan["phases"].([]any), map[string]any{"phase": ph.phase, "agent": ph.agent})
	}
	pj, _ := json.Marshal(plan)
	_ = os.WriteFile(filepath.Join(proj.Path, ".case", id, "plan.json"), pj, 0o644)
	logf("info", "pipeline started", "phase", "dag", "mode", "unattended", "task", id, "runId", p.runID)
	start := time.Now()
	p.emit(map[string]any{"event": "pipeline_start", "taskId": id, "profile": "standard", "plan": plan})

	status := "active"
	outcome, failedAgent := "completed", ""
	agents := map[string]any{}
	for _, ph := range phases {
		p.emit(map[string]any{"event": "phase_start", "phase": ph.phase, "agent": ph.agent})
		next := map[string]string{"implement": "implementing", "verify": "verifying", "review": "reviewing", "close": "closing"}[ph.phase]
		p.emit(map[string]any{"event": "status_changed", "from": status, "to": next})
		status = next
		fmt.Printf("[unattended] [%s] starting %s...\n", ph.phase, ph.agent)
		res, dur := p.agent(ph.phase, ph.agent)
		if res["status"] != "completed" && ph.agent == "implementer" {
			// One retry of a failed implementer.
			res, dur = p.agent(ph.phase, ph.agent)
		}
		agents[ph.agent] = map[string]any{"started": now(), "completed": now(), "status": "pending"}
		oc := "completed"
		if res["status"] != "completed" {
			oc = "failed"
		}
		p.emit(map[string]any{"event": "phase_end", "phase": ph.phase, "agent": ph.agent, "outcome": oc, "durationMs": dur, "result": res})
		if oc == "failed" {
			fmt.Printf("[unattended] Auto-selecting: Abort\n[unattended] [%s] %s FAILED (0s)\n", ph.phase, ph.agent)
			outcome, failedAgent = "failed", ph.agent
			// The revision cycle's unused nodes, then close, before the
			// retrospective (as Case 30b1fa1 records an abort).
			for i, rest := range phases[:3] {
				if i > slices.IndexFunc(phases[:3], func(q struct{ phase, agent string }) bool { return q.phase == ph.phase }) {
					p.emit(map[string]any{"event": "phase_end", "phase": rest.phase, "agent": rest.agent, "outcome": "skipped", "durationMs": 0})
				}
			}
			skipRevisions(p, phases[:3])
			p.emit(map[string]any{"event": "phase_end", "phase": "close", "agent": "closer", "outcome": "skipped", "durationMs": 0})
			break
		}
		fmt.Printf("[unattended] [%s] %s done (0s)\n", ph.phase, ph.agent)
		marker := map[string]string{"verify": "tested", "review": "reviewed"}[ph.phase]
		if marker != "" {
			_ = os.WriteFile(filepath.Join(proj.Path, ".case", id, marker), []byte(now()+"\n"), 0o644)
		}
		back := "active"
		if ph.phase == "close" {
			back = "pr-opened" // as soon as the closer claims it, with no PR made
		} else if ph.phase == "review" {
			back = "evaluating"
		}
		p.emit(map[string]any{"event": "status_changed", "from": status, "to": back})
		status = back
	}
	fmt.Println("[unattended] [retrospective] starting retrospective...")
	p.emit(map[string]any{"event": "phase_start", "phase": "retrospective", "agent": "retrospective"})
	res, dur := p.agent("retrospective", "retrospective")
	// The retrospective is completed whatever its agent did.
	p.emit(map[string]any{"event": "phase_end", "phase": "retrospective", "agent": "retrospective", "outcome": "completed", "durationMs": dur, "result": res})
	fmt.Println("[unattended] [retrospective] retrospective done (0s)")
	if outcome == "completed" {
		// The revision cycle's unused nodes, after the retrospective.
		skipRevisions(p, phases[:3])
	}
	end := map[string]any{"event": "pipeline_end", "outcome": outcome, "durationMs": time.Since(start).Milliseconds()}
	if failedAgent != "" {
		end["failedAgent"] = failedAgent
	}
	p.emit(end)
	raw["status"] = status
	raw["agents"] = agents
	if tj, err := json.MarshalIndent(raw, "", "  "); err == nil {
		_ = os.WriteFile(taskPath, tj, 0o644)
	}
	rl, _ := json.Marshal(map[string]any{"runId": p.runID, "task": id, "repo": repoName, "outcome": outcome, "failedAgent": nilIfEmpty(failedAgent)})
	appendFile(filepath.Join(proj.Path, ".case", "run-log.jsonl"), append(rl, '\n'))
	if outcome == "completed" {
		fmt.Println("[unattended] Pipeline completed successfully.")
	} else {
		fmt.Printf("[unattended] Pipeline failed at %s phase.\n", failedAgent)
	}
	logf("info", "pipeline finished", "outcome", outcome, "failedAgent", nilIfEmpty(failedAgent), "runId", p.runID,
		"eventLog", f.Name())
	return 0 // also when the pipeline failed
}

// skipRevisions records the revision cycle's two unused rounds.
func skipRevisions(p *pipeline, cycle []struct{ phase, agent string }) {
	for i := 0; i < 2; i++ {
		for _, ph := range cycle {
			p.emit(map[string]any{"event": "phase_end", "phase": ph.phase, "agent": ph.agent, "outcome": "skipped", "durationMs": 0})
		}
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (p *pipeline) emit(ev map[string]any) {
	p.seq++
	ev["ts"] = now()
	ev["sequence"] = p.seq
	ev["runId"] = p.runID
	data, _ := json.Marshal(ev)
	_, _ = p.events.Write(append(data, '\n'))
}

var rolePrompt = map[string]string{
	"implementer":   "# Implementer — make the change, commit it, and end with an AGENT_RESULT block.",
	"verifier":      "# Verifier — run the tests and end with an AGENT_RESULT block.",
	"reviewer":      "# Reviewer — review the diff and end with an AGENT_RESULT block.",
	"closer":        "# Closer — open the pull request and end with an AGENT_RESULT block.",
	"retrospective": "# Retrospective — summarise the run and end with an AGENT_RESULT block.",
}

func failed(msg string) map[string]any {
	return map[string]any{"status": "failed", "summary": "", "error": msg,
		"artifacts": map[string]any{"commit": nil, "filesChanged": []string{}, "testsPassed": nil, "screenshotUrls": []string{}, "evidenceMarkers": []string{}, "prUrl": nil, "prNumber": nil}}
}

// agent runs one agent to its AGENT_RESULT. Like Case's in-process pi
// agent, a provider error does not surface: the missing result does.
func (p *pipeline) agent(phase, agent string) (map[string]any, int64) {
	start := time.Now()
	logf("info", "spawning agent", "agent", agent, "cwd", p.repo, "provider", "openai", "model", p.model, "timeout", 600000)
	msgs := []any{
		map[string]any{"role": "system", "content": rolePrompt[agent] + "\n\nTest command: " + p.test},
		map[string]any{"role": "user", "content": p.taskMD},
	}
	text := ""
	for turn := 0; turn < 8; turn++ {
		reply, err := p.complete(msgs)
		if err != nil {
			logf("warn", "agent error", "agent", agent, "error", err.Error())
			break
		}
		msgs = append(msgs, reply)
		calls, _ := reply["tool_calls"].([]any)
		if len(calls) == 0 {
			text, _ = reply["content"].(string)
			break
		}
		// Case's agent starts every call of a turn before any ends (they
		// run in parallel); the stand-in runs them in order.
		type toolCall struct{ id, name, args string }
		var batch []toolCall
		for _, c := range calls {
			call, _ := c.(map[string]any)
			fn, _ := call["function"].(map[string]any)
			tc := toolCall{}
			tc.name, _ = fn["name"].(string)
			tc.args, _ = fn["arguments"].(string)
			tc.id, _ = call["id"].(string)
			batch = append(batch, tc)
			p.emit(map[string]any{"event": "tool_start", "phase": phase, "agent": agent, "toolCallId": tc.id, "tool": tc.name, "args": tc.args})
		}
		for _, tc := range batch {
			t0 := time.Now()
			out, isErr := p.tool(tc.name, tc.args)
			res, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": out}}})
			p.emit(map[string]any{"event": "tool_end", "phase": phase, "agent": agent, "toolCallId": tc.id, "tool": tc.name, "durationMs": time.Since(t0).Milliseconds(), "isError": isErr, "result": string(res)})
			msgs = append(msgs, map[string]any{"role": "tool", "tool_call_id": tc.id, "content": out})
		}
	}
	dur := time.Since(start).Milliseconds()
	i := strings.LastIndex(text, resultStart)
	if i < 0 {
		return failed("AGENT_RESULT start delimiter not found"), dur
	}
	rest := text[i+len(resultStart):]
	j := strings.Index(rest, resultEnd)
	if j < 0 {
		return failed("AGENT_RESULT end delimiter not found"), dur
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(rest[:j])), &res); err != nil {
		return failed("AGENT_RESULT JSON parse error: " + err.Error()), dur
	}
	if s, _ := res["status"].(string); s != "completed" && s != "failed" && s != "blocked" {
		return failed(fmt.Sprintf("AGENT_RESULT invalid status: %v", res["status"])), dur
	}
	return res, dur
}

func (p *pipeline) complete(msgs []any) (map[string]any, error) {
	body, _ := json.Marshal(map[string]any{"model": p.model, "messages": msgs, "stream": false, "store": false, "max_completion_tokens": 8192,
		"tools": []any{
			map[string]any{"type": "function", "function": map[string]any{"name": "write", "parameters": map[string]any{"type": "object"}}},
			map[string]any{"type": "function", "function": map[string]any{"name": "bash", "parameters": map[string]any{"type": "object"}}},
		}})
	req, err := http.NewRequest(http.MethodPost, strings.TrimRight(p.baseURL, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+p.key)
	// Case's fixed per-agent abort.
	client := &http.Client{Timeout: 600 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%d %s", resp.StatusCode, strings.TrimSpace(string(data)))
	}
	var out struct {
		Choices []struct {
			Message map[string]any `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	if len(out.Choices) == 0 {
		return nil, errors.New("no choices")
	}
	return out.Choices[0].Message, nil
}

func (p *pipeline) tool(name, args string) (string, bool) {
	var a map[string]string
	if err := json.Unmarshal([]byte(args), &a); err != nil {
		return "invalid arguments: " + err.Error(), true
	}
	switch name {
	case "write":
		path := filepath.Join(p.repo, filepath.FromSlash(a["path"]))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err.Error(), true
		}
		if err := os.WriteFile(path, []byte(a["content"]), 0o644); err != nil {
			return err.Error(), true
		}
		return "wrote " + a["path"], false
	case "bash":
		cmd := exec.Command("bash", "-c", a["command"])
		cmd.Dir = p.repo
		// pi's bash tool spawns detached: a new session.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		out, err := cmd.CombinedOutput()
		if err != nil {
			return string(out) + err.Error(), true
		}
		return string(out), false
	}
	return "unknown tool " + name, true
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

func appendFile(path string, data []byte) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return
	}
	_, _ = f.Write(data)
	_ = f.Close()
}
