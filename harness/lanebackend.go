package harness

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/svrnty/sotvet/harness/engine"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/internal/proc"
	"github.com/svrnty/sotvet/harness/internal/tree"
)

// laneJob hands an external lane what its gates found. The API key is not
// among it: the harness alone puts it in the backend's environment.
func (r *run) laneJob(job *engine.Job) {
	if r.lane == nil {
		return
	}
	l := r.lane
	job.Program, job.Node, job.Provider, job.Model, job.BaseURL, job.Home = l.program, l.node, l.provider, l.model, l.baseURL, r.home
	job.Confined = r.policy != nil
}

// laneFiles writes the lane's configuration under the backend's HOME
// (scratch, removed at the end of the run) and a copy with the endpoint
// and key redacted into backend/lane-config/ for the evidence.
func (r *run) laneFiles(inv engine.Invocation) error {
	if inv.InnerSandbox != "" {
		r.rep.BackendRun.InnerSandbox = inv.InnerSandbox
		r.tr("backend.inner_sandbox", map[string]any{"setting": inv.InnerSandbox, "harness_confined": r.policy != nil})
	}
	names := make([]string, 0, len(inv.HomeFiles))
	for n := range inv.HomeFiles {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if !filepath.IsLocal(filepath.FromSlash(n)) {
			return &os.PathError{Op: "write lane file", Path: n, Err: os.ErrInvalid}
		}
		dst := filepath.Join(r.home, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(dst, inv.HomeFiles[n], 0o600); err != nil {
			return err
		}
		rel := evidence.BackendDir + "/lane-config/" + strings.ReplaceAll(strings.TrimPrefix(n, "."), "/", "_")
		if err := r.w.Write(rel, []byte(r.redactText(string(inv.HomeFiles[n])))); err != nil {
			r.writeFailed(rel, err)
		}
	}
	return nil
}

// laneKey adds the API key to the backend's environment under the name the
// lane asked for; nothing else ever carries it.
func (r *run) laneKey(env []string, name string) []string {
	if r.lane == nil || name == "" {
		return env
	}
	return append(env, name+"="+r.lane.key)
}

// redactText removes the provider's endpoint (the URL, and its host as
// error messages name it) and key from text bound for an artifact.
func (r *run) redactText(s string) string { return string(r.redactBytes([]byte(s))) }

func (r *run) redactBytes(b []byte) []byte {
	l := r.lane
	if l == nil {
		return b
	}
	urlVar := "${" + r.envName(r.opt.BaseURLEnv, DefaultBaseURLEnv) + "}"
	if l.key != "" {
		b = bytes.ReplaceAll(b, []byte(l.key), []byte("[REDACTED:"+l.keyEnv+"]"))
	}
	if l.baseURL != "" {
		b = bytes.ReplaceAll(b, []byte(l.baseURL), []byte(urlVar))
		if u, err := url.Parse(l.baseURL); err == nil && u.Host != "" {
			b = bytes.ReplaceAll(b, []byte(u.Host), []byte(urlVar+".host"))
		}
	}
	return b
}

// laneRedactor redacts the run's endpoint and key, then whatever the
// configured redactor finds.
type laneRedactor struct {
	r     *run
	inner Redactor
}

func (l laneRedactor) Redact(b []byte) []byte { return l.inner.Redact(l.r.redactBytes(b)) }

// laneSignal records the lane's usage and findings. Tokens and cost the
// lane did not give stay unknown, never 0.
func (r *run) laneSignal(sig engine.Signal) {
	br := &r.rep.BackendRun
	names := make([]string, 0, len(sig.Files))
	for n := range sig.Files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if filepath.Base(n) == n && !strings.HasPrefix(n, ".") {
			r.payload = append(r.payload, payloadFile{evidence.BackendDir + "/" + n, r.red.Redact(sig.Files[n])})
		}
	}
	for _, f := range sig.Findings {
		br.Findings = append(br.Findings, r.redactText(f))
	}
	if r.lane == nil {
		return
	}
	u := &evidence.Usage{}
	if s := sig.Usage; s != nil {
		u.InputTokens = count(s.InputTokens)
		u.OutputTokens = count(s.OutputTokens)
		u.TotalTokens = count(s.TotalTokens)
		if s.CostUSD != nil {
			u.CostUSD = evidence.Cost{USD: *s.CostUSD, Known: true}
		}
	}
	br.Usage = u
	r.tr("backend.usage", map[string]any{"reported": sig.Usage != nil})
}

func count(p *int64) evidence.Count {
	if p == nil {
		return evidence.Count{}
	}
	return evidence.Count{N: *p, Known: true}
}

// lateCheck re-digests the workspace after the backend's processes were
// killed and the change captured: anything that changed since is a late
// write by a process that outlived the backend. It reports whether the
// run may go on.
func (r *run) lateCheck() bool {
	if r.postBackend == nil {
		return true
	}
	now, err := tree.Of(r.ws)
	if err != nil {
		r.tr("late_write.error", map[string]any{"error": err.Error()})
		return true
	}
	late := tree.Diff(r.postBackend, now)
	r.tr("late_write.checked", map[string]any{"changed": nonNil(late), "tree_sha256": now.Sum})
	if len(late) == 0 {
		return true
	}
	r.block(evidence.LateWorkspaceChange, "the workspace changed after the backend's processes were killed", late)
	return false
}

func sortStrings(s []string) { sort.Strings(s) }

// laneStateDirs keeps a workspace lane's state directories out of the
// backend's changes: listed in .git/info/exclude before the backend starts
// (so the agent's own git add does not commit them) and left out of the
// capture. Everything else ignored is still captured, so they hide nothing.
func (r *run) laneStateDirs() {
	wl, ok := r.entry.Engine.(engine.WorkspaceLane)
	if !ok {
		return
	}
	dirs := wl.StateDirs()
	r.repo.Exclude = dirs
	var b strings.Builder
	for _, d := range dirs {
		b.WriteString("/" + d + "/\n")
	}
	p := filepath.Join(r.ws, ".git", "info", "exclude")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err == nil {
			_, err = f.WriteString(b.String())
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			r.tr("lane.state_dirs.error", map[string]any{"error": err.Error()})
		}
	}
	r.tr("lane.state_dirs", map[string]any{"excluded": dirs})
}

// terminal reads the backend's verdict: from its outputs, or for a
// workspace lane from the state it left in the workspace.
func (r *run) terminal(job engine.Job, pr proc.Result) engine.Signal {
	if wl, ok := r.entry.Engine.(engine.WorkspaceLane); ok && pr.Started {
		return wl.TerminalIn(job, pr.Stdout, pr.Stderr, pr.ExitCode)
	}
	return r.entry.Engine.Terminal(pr.Stdout, pr.Stderr, pr.ExitCode)
}

// claimCheck compares what the backend claims it did with what the
// harness observed: a file it says it changed that did not change, or
// tests it says passed that the harness saw fail, fail the run.
func (r *run) claimCheck(c *engine.Claims) {
	if c == nil {
		return
	}
	var missing []string
	for _, f := range c.FilesChanged {
		f = strings.TrimPrefix(filepath.ToSlash(filepath.Clean(f)), "./")
		if !slices.Contains(r.rep.ChangedFiles, f) {
			missing = append(missing, f)
		}
	}
	var unclaimed []string
	for _, f := range r.rep.ChangedFiles {
		if !slices.Contains(c.FilesChanged, f) {
			unclaimed = append(unclaimed, f)
		}
	}
	r.tr("claims.checked", map[string]any{"claimed_files": nonNil(c.FilesChanged), "claimed_but_unchanged": nonNil(missing), "changed_but_unclaimed": nonNil(unclaimed), "claimed_tests_passed": c.TestsPassed})
	if len(unclaimed) > 0 {
		r.rep.BackendRun.Findings = append(r.rep.BackendRun.Findings, "changed but not claimed: "+strings.Join(unclaimed, ", "))
	}
	if len(missing) > 0 {
		r.block(evidence.BackendClaimMismatch, "the backend claims changes the harness did not observe", missing)
	}
	// Only a test the harness ran and saw fail contradicts the claim; a
	// missing or timed-out command has its own blocker.
	failed := slices.ContainsFunc(r.rep.Verification.Commands, func(c evidence.CommandResult) bool { return c.ExitCode != nil && *c.ExitCode != 0 })
	if c.TestsPassed != nil && *c.TestsPassed && failed {
		r.block(evidence.BackendClaimMismatch, "the backend claims the tests passed; the harness's own run of them failed", nil)
	}
}

// lifecycle judges a backend stopped before its end (why: at its timeout,
// or a phase past its budget) on the change it handed over. It reports
// whether the run was decided here; when the change does not pass every
// check, the run ends with those blockers and code (timeout,
// phase_timeout).
func (r *run) lifecycle(ctx context.Context, sig engine.Signal, code, why string) bool {
	r.tr("lifecycle.handoff", map[string]any{"detail": r.redactText(sig.Detail)})
	if !r.capture(true) || !r.lateCheck() {
		r.block(code, why+", and the change it handed over did not pass the harness's checks", nil)
		return true
	}
	r.verify(ctx)
	if !r.rep.Verification.Passed {
		r.block(code, why+", and the change it handed over failed verification", nil)
		return true
	}
	r.claimCheck(sig.Claims)
	br := &r.rep.BackendRun
	br.TerminalStatus = engine.StatusSuccess
	br.Detail = "harness-completed lifecycle: " + r.redactText(sig.Detail)
	marker := fmt.Sprintf("engine: %s\nlifecycle: completed by the harness\nreason: %s; its implementer had handed over a change\nchanged_files: %s\nverification: passed\nlingering phases: stopped (%s)\n",
		r.name, why, strings.Join(r.rep.ChangedFiles, ", "), br.Containment)
	br.Lifecycle = evidence.LifecycleHarnessCompleted
	r.payload = append(r.payload, payloadFile{evidence.LifecycleMarker, []byte(marker)})
	r.tr("lifecycle.completed", map[string]any{"changed_files": r.rep.ChangedFiles})
	return true
}
