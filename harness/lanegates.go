package harness

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/svrnty/sotvet/harness/engine"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/internal/proc"
	"github.com/svrnty/sotvet/internal/safefs"
)

// Environment variables an external lane's provider is read from, unless
// the options name others. The base URL is never taken from argv.
const (
	DefaultBaseURLEnv = "SOTVET_PROVIDER_BASE_URL"
	DefaultAPIKeyEnv  = "SOTVET_PROVIDER_API_KEY"
)

// ProbePrompt is the response-shape probe's request. A model that answers
// it with reasoning only cannot drive an agent.
const ProbePrompt = "Reply with the single word: ready"

// DefaultProbeMaxTokens is the probe's token budget: realistic, because a
// reasoning model given a tiny budget spends it all thinking, which would
// be a false block.
const DefaultProbeMaxTokens = 2048

// Model admission statuses, as report.json's model_admission_status.
const (
	AdmissionAdmitted    = "admitted"
	AdmissionMissing     = "missing_admission"
	AdmissionMismatch    = "mismatch"
	AdmissionInvalid     = "invalid_admission"
	AdmissionNotAdmitted = "not_admitted"
)

// laneState is what the lane gates found, for the backend's start.
type laneState struct {
	lane     engine.Lane
	provider string
	model    string
	baseURL  string
	key      string
	keyEnv   string
	program  string
	node     string
}

// laneGates runs the external lane's gates in order; each writes its own
// marker in backend/ and the first that fails blocks the run before any
// process starts.
func (r *run) laneGates() bool {
	lane, ok := r.entry.Engine.(engine.Lane)
	if !ok {
		return true
	}
	r.lane = &laneState{lane: lane}
	return r.admissionGate() && r.providerGate() && r.credentialsGate() &&
		r.cliGate() && r.workspaceConfigGate() && r.probeGate()
}

// gateMarker records a lane gate's decision in backend/gate-<name>.txt.
func (r *run) gateMarker(gate string, passed bool, lines ...string) {
	decision := "passed"
	if !passed {
		decision = "blocked"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "engine: %s\ngate: %s\ndecision: %s\n", r.name, gate, decision)
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	if !passed {
		b.WriteString("backend process started: false\n")
	}
	r.payload = append(r.payload, payloadFile{evidence.BackendDir + "/gate-" + gate + ".txt", []byte(b.String())})
	r.tr("gate."+gate, map[string]any{"passed": passed})
}

func (r *run) laneBlocked(gate, code, reason string, lines ...string) bool {
	r.gateMarker(gate, false, append(lines, "reason: "+reason)...)
	r.gateBlocked(gate, code, reason)
	return false
}

// admissionRecord is the user's model-provider admission record.
type admissionRecord struct {
	Status                string `json:"status"`
	Provider              string `json:"provider"`
	Model                 string `json:"model"`
	CredentialSourceClass string `json:"credential_source_class"`
	AllowedNetworkClass   string `json:"allowed_network_class"`
	ApprovalSource        string `json:"approval_source"`
	AdmissionTimestamp    string `json:"admission_timestamp"`
	ReviewTrigger         string `json:"review_trigger"`
}

// maxRecord bounds an admission record.
const maxRecord = 1 << 20

func (r *run) admissionGate() bool {
	const gate = "model-admission"
	provider, model, ok := strings.Cut(r.opt.Model, "/")
	r.lane.provider, r.lane.model = provider, model
	r.rep.ModelProvider, r.rep.Model = provider, model
	status := func(s string) { r.rep.ModelAdmissionStatus = s }
	if r.opt.Model == "" {
		status(AdmissionMissing)
		return r.laneBlocked(gate, evidence.ModelNotAdmitted, "no model requested: --model PROVIDER/MODEL is required for the "+r.name+" lane", "model_admission_status: "+AdmissionMissing)
	}
	if !ok || provider == "" || model == "" {
		status(AdmissionMismatch)
		return r.laneBlocked(gate, evidence.ModelNotAdmitted, fmt.Sprintf("--model %q is not PROVIDER/MODEL, so no admission record can match it", r.opt.Model), "model_admission_status: "+AdmissionMismatch)
	}
	if r.opt.AdmissionFile == "" {
		status(AdmissionMissing)
		return r.laneBlocked(gate, evidence.ModelNotAdmitted, "no model admission record: --admission FILE is required", "model_admission_status: "+AdmissionMissing)
	}
	rec, err := readAdmission(r.opt.AdmissionFile)
	if err != nil {
		status(AdmissionInvalid)
		return r.laneBlocked(gate, evidence.ModelNotAdmitted, "the model admission record is invalid: "+err.Error(), "model_admission_status: "+AdmissionInvalid)
	}
	info := []string{"record: " + filepath.Base(r.opt.AdmissionFile), "record_provider: " + rec.Provider, "record_model: " + rec.Model, "record_status: " + rec.Status}
	switch {
	case rec.Status != "admitted":
		status(AdmissionNotAdmitted)
		return r.laneBlocked(gate, evidence.ModelNotAdmitted, fmt.Sprintf("the admission record's status is %q, not admitted", rec.Status), append(info, "model_admission_status: "+AdmissionNotAdmitted)...)
	case rec.Provider != provider || rec.Model != model:
		status(AdmissionMismatch)
		return r.laneBlocked(gate, evidence.ModelNotAdmitted, fmt.Sprintf("the admission record admits %s/%s, not the requested %s/%s", rec.Provider, rec.Model, provider, model), append(info, "model_admission_status: "+AdmissionMismatch)...)
	}
	status(AdmissionAdmitted)
	r.gateMarker(gate, true, append(info, "model_admission_status: "+AdmissionAdmitted)...)
	return true
}

// readAdmission reads a record strictly: unknown or missing members and
// trailing data are errors, as in the records check.
func readAdmission(path string) (*admissionRecord, error) {
	// A FIFO or a device must not hang the gate: regular files only, bounded.
	data, err := safefs.ReadPath(path, maxRecord)
	if err != nil {
		return nil, err
	}
	// Unknown and duplicate members are errors, with their byte offset.
	var rec admissionRecord
	if err := jsonv2.Unmarshal(data, &rec, jsonv2.RejectUnknownMembers(true)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var missing []string
	for name, v := range map[string]string{"status": rec.Status, "provider": rec.Provider, "model": rec.Model,
		"credential_source_class": rec.CredentialSourceClass, "allowed_network_class": rec.AllowedNetworkClass,
		"approval_source": rec.ApprovalSource, "admission_timestamp": rec.AdmissionTimestamp, "review_trigger": rec.ReviewTrigger} {
		if strings.TrimSpace(v) == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		sortStrings(missing)
		return nil, fmt.Errorf("%s: missing or empty members: %s", path, strings.Join(missing, ", "))
	}
	return &rec, nil
}

// envName is the variable a provider value is read from: the option (a
// flag), else the case's provider_env, else the default.
func (r *run) envName(set, def string) string {
	if set != "" {
		return set
	}
	if r.c != nil {
		switch def {
		case DefaultBaseURLEnv:
			if r.c.BaseURLEnv != "" {
				return r.c.BaseURLEnv
			}
		case DefaultAPIKeyEnv:
			if r.c.APIKeyEnv != "" {
				return r.c.APIKeyEnv
			}
		}
	}
	switch {
	case def == DefaultBaseURLEnv && r.opt.ConfigBaseURLEnv != "":
		return r.opt.ConfigBaseURLEnv
	case def == DefaultAPIKeyEnv && r.opt.ConfigAPIKeyEnv != "":
		return r.opt.ConfigAPIKeyEnv
	}
	return def
}

func (r *run) providerGate() bool {
	const gate = "provider-config"
	name := r.envName(r.opt.BaseURLEnv, DefaultBaseURLEnv)
	raw := proc.EnvValue(r.opt.Environ, name)
	info := []string{"base_url_env: " + name}
	if raw == "" {
		return r.laneBlocked(gate, evidence.ProviderNotConfigured, "the provider's base URL is not configured: set "+name+" in the environment", info...)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return r.laneBlocked(gate, evidence.ProviderNotConfigured, name+" is not an http(s) URL without credentials", info...)
	}
	r.lane.baseURL = strings.TrimRight(raw, "/")
	if r.fx != nil && r.fx.inject.noProvider {
		// The provider-unavailable fixture on a real lane: an endpoint
		// nothing listens on (the discard port on loopback).
		r.lane.baseURL = "http://127.0.0.1:9/v1"
		r.tr("fixture.provider_unreachable", map[string]any{"fixture": r.fx.Name})
	}
	r.gateMarker(gate, true, append(info, "base_url: set (not recorded)", "scheme: "+u.Scheme)...)
	return true
}

func (r *run) credentialsGate() bool {
	const gate = "credentials"
	name := r.envName(r.opt.APIKeyEnv, DefaultAPIKeyEnv)
	key := proc.EnvValue(r.opt.Environ, name)
	info := []string{"api_key_env: " + name}
	if strings.TrimSpace(key) == "" {
		return r.laneBlocked(gate, evidence.CredentialsMissing, "no credentials for the "+r.name+" lane: set "+name+" in the environment", info...)
	}
	r.lane.key, r.lane.keyEnv = key, name
	r.gateMarker(gate, true, append(info, "api_key: present (not recorded)")...)
	return true
}

func (r *run) cliGate() bool {
	const gate = "cli"
	l := r.lane.lane
	path := r.pathEnv()
	found, err := proc.LookPath(l.CLI(), path)
	if err != nil {
		return r.laneBlocked(gate, evidence.CLIMissing, fmt.Sprintf("the %s CLI (%s) is not on PATH", r.name, l.CLI()))
	}
	prog, node, err := l.Resolve(found)
	if err != nil {
		return r.laneBlocked(gate, evidence.CLIMissing, err.Error(), "found: "+found)
	}
	argv := append([]string{prog}, l.VersionArgs()...)
	if node {
		n, err := proc.LookPath("node", path)
		if err != nil {
			return r.laneBlocked(gate, evidence.CLIMissing, "the "+r.name+" CLI needs node, which is not on PATH", "program: "+prog)
		}
		r.lane.node = n
		argv = append([]string{n}, argv...)
	}
	r.lane.program = prog
	r.rep.CLISource = r.opt.CLISource
	if pl, ok := l.(engine.PackagedLane); ok {
		v, err := pl.PackageVersion(prog)
		if err != nil || v == "" {
			return r.laneBlocked(gate, evidence.CLIVersionUnrecorded, fmt.Sprintf("the %s CLI's package version could not be read: %v", r.name, err), "program: "+prog)
		}
		r.rep.CLIVersion = v
		r.gateMarker(gate, true, r.cliSourceInfo("program: "+prog, "version: "+v, "version_source: package.json")...)
		return true
	}
	if len(l.VersionArgs()) == 0 {
		// No version flag: the binary's digest is its version.
		v, err := fileDigest(prog)
		if err != nil {
			return r.laneBlocked(gate, evidence.CLIVersionUnrecorded, "the "+r.name+" CLI could not be digested: "+err.Error(), "program: "+prog)
		}
		r.rep.CLIVersion = v
		r.gateMarker(gate, true, r.cliSourceInfo("program: "+prog, "version: "+v)...)
		return true
	}
	pr := proc.Run(context.Background(), proc.Spec{Argv: argv, Dir: r.home, Env: r.env(path), Timeout: 30 * time.Second, MaxOutput: 64 << 10, Contain: true})
	v := ""
	if pr.Started && !pr.TimedOut && pr.ExitCode == 0 {
		v = l.ParseVersion(pr.Stdout, pr.Stderr)
	}
	info := []string{"program: " + prog}
	if v == "" {
		return r.laneBlocked(gate, evidence.CLIVersionUnrecorded, fmt.Sprintf("%s %s did not report a version (exit %d)", prog, strings.Join(l.VersionArgs(), " "), pr.ExitCode), info...)
	}
	r.rep.CLIVersion = v
	r.gateMarker(gate, true, r.cliSourceInfo(append(info, "version: "+v)...)...)
	return true
}

// workspaceConfigGate refuses a case repository holding configuration the
// CLI would obey (pi's .pi/ can make it install npm packages).
func (r *run) workspaceConfigGate() bool {
	const gate = "workspace-config"
	for _, d := range r.lane.lane.UntrustedDirs() {
		if _, err := os.Lstat(filepath.Join(r.c.RepoPath(), d)); err == nil {
			return r.laneBlocked(gate, evidence.UntrustedLaneConfig, fmt.Sprintf("the case repository holds %s/, which the %s CLI would read as its own configuration", d, r.name))
		}
	}
	r.gateMarker(gate, true, "untrusted_dirs: "+strings.Join(r.lane.lane.UntrustedDirs(), ", "))
	return true
}

// probeGate asks the provider one small question through the lane's wire
// API. A transport or HTTP failure is provider_unavailable; a reply with
// no text and no tool call (reasoning only) is an unusable shape.
func (r *run) probeGate() bool {
	const gate = "response-shape"
	budget := r.opt.ProbeMaxTokens
	if budget <= 0 {
		budget = DefaultProbeMaxTokens
	}
	info := []string{"wire_api: " + r.lane.lane.WireAPI(), fmt.Sprintf("max_tokens: %d", budget)}
	shape, err := probe(r.lane, budget, r.opt.ProbeTimeout)
	if err != nil {
		msg := r.redactText(err.Error())
		return r.laneBlocked(gate, evidence.ProviderUnavailable, "the provider probe failed: "+msg, info...)
	}
	if shape != "" {
		return r.laneBlocked(gate, evidence.ProviderShapeUnavailable, "provider response shape unavailable: "+shape, info...)
	}
	r.gateMarker(gate, true, append(info, "shape: text or tool call")...)
	return true
}

// probe returns "" for a usable reply, or what is wrong with its shape.
func probe(l *laneState, budget int, timeout time.Duration) (string, error) {
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	var endpoint string
	var body map[string]any
	if l.lane.WireAPI() == "responses" {
		endpoint = l.baseURL + "/responses"
		body = map[string]any{"model": l.model, "input": ProbePrompt, "max_output_tokens": budget, "stream": false, "store": false}
	} else {
		endpoint = l.baseURL + "/chat/completions"
		body = map[string]any{"model": l.model, "messages": []any{map[string]any{"role": "user", "content": ProbePrompt}}, "max_completion_tokens": budget, "stream": false}
	}
	data, _ := json.Marshal(body)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(data))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+l.key)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return "", fmt.Errorf("no answer within %s", timeout)
		}
		return "", err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	var reply struct {
		Output []struct {
			Type    string `json:"type"`
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"output"`
		Choices []struct {
			Message struct {
				Content   *string `json:"content"`
				ToolCalls []any   `json:"tool_calls"`
				Reasoning string  `json:"reasoning_content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(out, &reply); err != nil {
		return "", fmt.Errorf("the reply is not JSON: %v", err)
	}
	reasoning := false
	for _, o := range reply.Output {
		switch o.Type {
		case "message":
			for _, c := range o.Content {
				if c.Type == "output_text" && strings.TrimSpace(c.Text) != "" {
					return "", nil
				}
			}
		case "function_call", "custom_tool_call":
			return "", nil
		case "reasoning":
			reasoning = true
		}
	}
	for _, c := range reply.Choices {
		if (c.Message.Content != nil && strings.TrimSpace(*c.Message.Content) != "") || len(c.Message.ToolCalls) > 0 {
			return "", nil
		}
		if c.Message.Reasoning != "" {
			reasoning = true
		}
	}
	if reasoning {
		return fmt.Sprintf("the model replied with reasoning only within %d tokens", budget), nil
	}
	return "the model replied with no text and no tool call", nil
}

// fileDigest is the version recorded for a CLI without a version flag.
func fileDigest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// cliSourceInfo adds the user's statement of the CLI's source to a marker.
func (r *run) cliSourceInfo(info ...string) []string {
	if r.opt.CLISource == "" {
		return info
	}
	return append(info, "source (as stated by the user): "+r.opt.CLISource)
}

// checkCLISource refuses a --cli-source that is not short printable text.
func checkCLISource(s string) error {
	if len(s) > 200 {
		return fmt.Errorf("--cli-source is %d bytes, over 200", len(s))
	}
	for _, c := range s {
		if !unicode.IsPrint(c) {
			return fmt.Errorf("--cli-source %q holds a character that is not printable", s)
		}
	}
	return nil
}
