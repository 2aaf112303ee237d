package harness

import (
	"bytes"
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness/engine"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/sandbox"
	"github.com/svrnty/sotvet/internal/quotepath"
)

func (r *run) newReport(start time.Time, caseID string) *evidence.Report {
	rep := &evidence.Report{
		SchemaVersion:         evidence.SchemaVersion,
		CaseID:                caseID,
		RunID:                 filepath.Base(r.dir),
		Backend:               r.name,
		RunStartedAt:          evidence.FormatTime(start),
		ArtifactsDir:          r.dir,
		ChangedFiles:          []string{},
		PathViolations:        []evidence.PathViolation{},
		AllowedWritesPassed:   false,
		ForbiddenPathsPassed:  false,
		ApprovalStatus:        evidence.ApprovalNotRequired,
		NotApplicable:         map[string]string{},
		Provider:              r.entry.Engine.Provider(),
		SourceAdmissionStatus: "not_applicable",
		Sandbox:               sandbox.KindNone,
		SandboxInfo:           evidence.SandboxInfo{Mode: r.sb.Mode, KernelABI: r.sb.KernelABI, Writable: []string{}, Readable: []string{}, Confined: []string{}, Reason: r.sb.Reason},
		Harness:               evidence.Harness{Name: "sotvet", Version: r.opt.Version},
		Verification:          evidence.Verification{Commands: []evidence.CommandResult{}},
		RequiredEvents:        evidence.RequiredEvents{Required: []string{}, Missing: []string{}},
		Baseline:              evidence.Baseline{DirtyPaths: []string{}},
		Ending:                evidence.Ending{DirtyPaths: []string{}},
		BackendRun:            evidence.BackendRun{Argv: []string{}, Survivors: []int{}, TerminalStatus: engine.StatusNone},
	}
	if r.fx != nil {
		rep.Fixture = r.fx.Name
	}
	if engine.IsGatedLane(r.name) {
		rep.SourceAdmissionStatus = "not_admitted"
	}
	if c := r.c; c != nil {
		rep.Contract = evidence.ContractInfo{
			Path: c.Path, Digest: c.Digest, MutationMode: c.MutationMode,
			AllowedWrites: c.AllowedWrites, ForbiddenPaths: c.ForbiddenPaths, ForbiddenActions: c.ForbiddenActions,
			RequireDiff: c.RequireDiff,
		}
		rep.RequiredEvents.Required = c.RequiredEvents
		rep.Verification.Required = true
		rep.BackendRun.TimeoutMS = r.backendTimeout().Milliseconds()
	} else {
		rep.Contract = evidence.ContractInfo{AllowedWrites: []string{}, ForbiddenPaths: []string{}, ForbiddenActions: []string{}}
	}
	return rep
}

func (r *run) contractData() map[string]any {
	c := r.c
	return map[string]any{
		"case_id":           c.ID,
		"contract_sha256":   c.Digest,
		"mutation_mode":     c.MutationMode,
		"allowed_writes":    c.AllowedWrites,
		"forbidden_paths":   c.ForbiddenPaths,
		"forbidden_actions": c.ForbiddenActions,
		"required_events":   c.RequiredEvents,
		"verification":      len(c.Verification),
	}
}

// requiredEvents checks the contract's required events, in order, once
// the run got as far as it could without another blocker.
func (r *run) requiredEvents() {
	if r.c == nil {
		return
	}
	re := &r.rep.RequiredEvents
	re.Checked = true
	types := append(r.chain.Types(), "run.completed")
	i := 0
	var missing []string
	for _, want := range r.c.RequiredEvents {
		j := slices.Index(types[i:], want)
		if j < 0 {
			missing = append(missing, want)
			continue
		}
		i += j + 1
	}
	re.Missing = nonNil(missing)
	re.Passed = len(missing) == 0
	r.tr("required_events.checked", map[string]any{"required": r.c.RequiredEvents, "missing": re.Missing})
	if len(missing) > 0 {
		r.block(evidence.MissingRequiredEvent, "required events are missing or out of order: "+strings.Join(missing, ", "), nil)
	}
}

func (r *run) writeFailed(rel string, err error) {
	r.blockers = append(r.blockers, evidence.Blocker{Code: evidence.ArtifactWriteFailure, Message: err.Error(), Artifact: rel})
	r.tr("artifact.write_failed", map[string]any{"artifact": rel, "error": err.Error()})
}

func (r *run) write(rel string, data []byte) {
	if err := r.w.Write(rel, data); err != nil {
		r.writeFailed(rel, err)
		return
	}
	r.tr("artifact.written", map[string]any{"artifact": rel, "sha256": evidence.Digest(data), "bytes": len(data)})
}

// settle sets the report's blockers, status and exit code.
func (r *run) settle() {
	r.rep.Blockers = append([]evidence.Blocker{}, r.blockers...)
	r.rep.Status = evidence.StatusOf(r.rep.Blockers)
	r.rep.ExitCode = evidence.ExitCode(r.rep.Status)
}

// finish decides the run and writes the evidence.
func (r *run) finish() (*Result, error) {
	if r.c != nil {
		r.ladderChecks()
		r.endCheck()
		if len(r.blockers) == 0 {
			r.requiredEvents()
		}
	}
	// Payload artifacts.
	for _, p := range r.payload {
		r.write(p.rel, p.data)
	}
	if r.rep.BackendProcessStarted || r.rep.BackendRun.Pid != 0 {
		pj, _ := evidence.Marshal(r.rep.BackendRun)
		r.write(evidence.BackendDir+"/process.json", pj)
	}
	r.write(evidence.PatchFile, r.patch)
	r.write(evidence.TestLog, r.testLog.Bytes())

	r.settle()
	r.rep.RunFinishedAt = evidence.FormatTime(r.now())
	codes := []string{}
	for _, b := range r.rep.Blockers {
		codes = append(codes, b.Code)
	}
	r.event("run.completed", "harness", map[string]any{"status": r.rep.Status, "blockers": codes, "exit_code": r.rep.ExitCode})
	r.rep.Events = evidence.EventsSummary{Count: r.chain.Len(), ChainHead: r.chain.Head()}
	r.write(evidence.EventsFile, r.chain.Bytes())
	tb, err := r.trace.Bytes()
	if err != nil {
		r.writeFailed(evidence.TraceFile, err)
	} else {
		r.write(evidence.TraceFile, tb)
	}
	// A write failure so far changes the status the report will carry.
	r.settle()
	if md, err := r.markdown(); err == nil {
		if err := r.w.Write(evidence.ReportMD, md); err != nil {
			r.writeFailed(evidence.ReportMD, err)
		}
	}
	r.settle()
	_ = os.RemoveAll(r.tmp)
	if err := r.writeReport(); err != nil {
		_ = os.WriteFile(filepath.Join(r.dir, "INCOMPLETE"), []byte(err.Error()+"\n"), 0o644)
		return nil, fmt.Errorf("run %s: %w", r.dir, err)
	}
	return &Result{RunDir: r.dir, Report: r.rep, ExitCode: r.rep.ExitCode}, nil
}

// writeReport writes report.json and the attestation. If the attestation
// cannot be written, report.json is written again naming the failure.
func (r *run) writeReport() error {
	r.rep.ArtifactDigests = r.w.Digests()
	r.rep.ArtifactPaths = artifactPaths(r.opt.SignKey != nil)
	r.rep.Freshness = evidence.Freshness{
		RunStartedAt:  r.rep.RunStartedAt,
		CheckedAt:     evidence.FormatTime(r.now()),
		WrittenAt:     r.w.WrittenAt(),
		AllAfterStart: true,
	}
	for _, at := range r.rep.Freshness.WrittenAt {
		if at < r.rep.RunStartedAt {
			r.rep.Freshness.AllAfterStart = false
		}
	}
	if r.opt.SignKey != nil {
		r.rep.Signing = evidence.SigningInfo(r.opt.SignKey.Public().(ed25519.PublicKey))
	}
	data, err := evidence.Marshal(r.rep)
	if err != nil {
		return err
	}
	if err := r.w.Write(evidence.ReportJSON, data); err != nil {
		return err
	}
	digests := r.w.Digests()
	st, err := evidence.BuildStatement(r.rep, digests)
	if err == nil {
		err = r.w.Write(evidence.Attestation, st)
	}
	if err == nil && r.opt.SignKey != nil {
		var env []byte
		if env, err = evidence.Sign(st, r.opt.SignKey); err == nil {
			if err = r.w.Write(evidence.DSSEFile, env); err != nil {
				os.Remove(filepath.Join(r.dir, evidence.Attestation))
			}
		}
	}
	if err == nil {
		return nil
	}
	// The attestation is missing: say so in the report.
	r.blockers = append(r.blockers, evidence.Blocker{Code: evidence.ArtifactWriteFailure, Message: err.Error(), Artifact: evidence.Attestation})
	r.settle()
	digs := r.w.Digests()
	delete(digs, evidence.ReportJSON)
	delete(digs, evidence.Attestation)
	delete(digs, evidence.DSSEFile)
	r.rep.ArtifactDigests = digs
	wa := r.w.WrittenAt()
	delete(wa, evidence.ReportJSON)
	delete(wa, evidence.Attestation)
	delete(wa, evidence.DSSEFile)
	r.rep.Freshness.WrittenAt = wa
	data, err = evidence.Marshal(r.rep)
	if err != nil {
		return err
	}
	return r.w.Write(evidence.ReportJSON, data)
}

// artifactPaths names the artifacts, relative to the run directory.
func artifactPaths(signed bool) map[string]string {
	m := map[string]string{
		"report_json": evidence.ReportJSON,
		"report_md":   evidence.ReportMD,
		"events":      evidence.EventsFile,
		"patch":       evidence.PatchFile,
		"test_log":    evidence.TestLog,
		"trace":       evidence.TraceFile,
		"backend":     evidence.BackendDir + "/",
		"attestation": evidence.Attestation,
	}
	if signed {
		m["attestation_dsse"] = evidence.DSSEFile
	}
	return m
}

// markdown renders report.md.
func (r *run) markdown() ([]byte, error) {
	rep := r.rep
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Harness run %s\n\n", rep.RunID)
	fmt.Fprintf(&b, "- case: `%s`\n- backend: `%s`\n", rep.CaseID, rep.Backend)
	if rep.Fixture != "" {
		fmt.Fprintf(&b, "- fixture: `%s`\n", rep.Fixture)
	}
	fmt.Fprintf(&b, "- status: `%s`\n- exit code: %d\n", rep.Status, rep.ExitCode)
	fmt.Fprintf(&b, "- started: %s\n- finished: %s\n", rep.RunStartedAt, rep.RunFinishedAt)
	if rep.BackendExitCode != nil {
		fmt.Fprintf(&b, "- backend exit code: %d\n", *rep.BackendExitCode)
	} else {
		fmt.Fprintf(&b, "- backend exit code: none\n")
	}
	fmt.Fprintf(&b, "- backend process started: %t\n- case process started: %t\n", rep.BackendProcessStarted, rep.CaseProcessStarted)
	if rep.Stage > 0 {
		fmt.Fprintf(&b, "- stage: %d (mutation mode %s)%s\n", rep.Stage, rep.MutationMode, approvalSuffix(rep))
	}
	fmt.Fprintf(&b, "- approval: %s\n- sandbox: %s", rep.ApprovalStatus, rep.Sandbox)
	if si := rep.SandboxInfo; rep.Sandbox == sandbox.KindLandlock {
		fmt.Fprintf(&b, " (Landlock ABI %d, ruleset ABI %d; writable: %s; confined: %s)", si.KernelABI, si.RulesetABI, strings.Join(si.Writable, ", "), strings.Join(si.Confined, ", "))
	} else if si.Reason != "" {
		fmt.Fprintf(&b, " (%s)", si.Reason)
	}
	b.WriteString("\n")
	if si := rep.SandboxInfo; rep.Sandbox == sandbox.KindLandlock && si.ReadsConfined {
		fmt.Fprintf(&b, "- reads: confined to the writable paths and %s\n", strings.Join(si.Readable, ", "))
	} else if rep.Sandbox == sandbox.KindLandlock {
		b.WriteString("- reads: not confined (every file the user can read)\n")
	} else {
		b.WriteString("- reads: not confined (no sandbox)\n")
	}
	if si := rep.SandboxInfo; si.Terminal != "" {
		fmt.Fprintf(&b, "- terminal: %s\n", si.Terminal)
		for _, l := range []struct {
			name string
			v    []string
		}{{"network", si.Network}, {"ipc", si.IPC}, {"not enforced", si.Unenforced}} {
			for _, v := range l.v {
				fmt.Fprintf(&b, "- %s: %s\n", l.name, v)
			}
		}
	}
	fmt.Fprintf(&b, "- baseline commit: `%s`\n", rep.Baseline.Commit)
	b.WriteString("\n## Blockers\n\n")
	if len(rep.Blockers) == 0 {
		b.WriteString("None.\n")
	}
	for _, bl := range rep.Blockers {
		fmt.Fprintf(&b, "- `%s`: %s", bl.Code, bl.Message)
		if len(bl.Paths) > 0 {
			fmt.Fprintf(&b, " (%s)", quotepath.Join(bl.Paths, ", "))
		}
		if bl.Artifact != "" {
			fmt.Fprintf(&b, " [artifact %s]", bl.Artifact)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n## Changed files\n\n")
	if len(rep.ChangedFiles) == 0 {
		b.WriteString("None.\n")
	}
	for _, f := range rep.ChangedFiles {
		fmt.Fprintf(&b, "- `%s`\n", quotepath.Path(f))
	}
	fmt.Fprintf(&b, "\nAllowed writes passed: %t. Forbidden paths passed: %t.\n", rep.AllowedWritesPassed, rep.ForbiddenPathsPassed)
	b.WriteString("\n## Verification\n\n")
	if !rep.Verification.Ran {
		fmt.Fprintf(&b, "Not run: %s.\n", firstNonEmpty(rep.Verification.Skipped, "not reached"))
	}
	for _, c := range rep.Verification.Commands {
		st := "failed"
		switch {
		case c.Passed:
			st = "passed"
		case c.Missing:
			st = "missing"
		case c.TimedOut:
			st = "timed out"
		}
		fmt.Fprintf(&b, "- `%s`: %s\n", strings.Join(c.Argv, " "), st)
	}
	fmt.Fprintf(&b, "\n## Events\n\n%d events, chain head `%s`.\n", rep.Events.Count, rep.Events.ChainHead)
	return b.Bytes(), nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
