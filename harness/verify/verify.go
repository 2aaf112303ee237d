// Package verify re-checks a harness run directory from its bytes alone:
// every digest, the event chain and its order, report.json's required
// fields and types, freshness, the attestation and its signature, and the
// consistency rules that tie the report to its artifacts. Any single-byte
// edit to any artifact is caught.
package verify

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness/contract"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/sandbox"
	"github.com/svrnty/sotvet/internal/quotepath"
	"github.com/svrnty/sotvet/internal/safefs"
)

// Violation is one problem with a run directory.
type Violation struct {
	Artifact string // the artifact it concerns, relative to the run directory
	Message  string
}

func (v Violation) String() string { return v.Artifact + ": " + v.Message }

// Options tune Dir.
type Options struct {
	// PublicKey, when set, is the key the attestation envelope must be
	// signed with; otherwise the key named in report.json is used and
	// only the envelope's integrity is proved.
	PublicKey ed25519.PublicKey
	// TrustedKeys, when set, are keys one of which must have signed the
	// envelope (the workspace's trusted-keys). An unsigned run is invalid
	// when PublicKey or TrustedKeys is set.
	TrustedKeys []ed25519.PublicKey
}

// Keys returns the keys a signature must come from; none means the
// signature, if any, is only checked against itself.
func (o Options) Keys() []ed25519.PublicKey { return o.trusted() }

// Fingerprint names the keys o trusts, so that a verdict cached under
// one set of keys is not reused under another.
func (o Options) Fingerprint() string {
	var ids []string
	for _, k := range o.trusted() {
		ids = append(ids, evidence.KeyID(k))
	}
	slices.Sort(ids)
	return strings.Join(ids, ",")
}

func (o Options) trusted() []ed25519.PublicKey {
	keys := slices.Clone(o.TrustedKeys)
	if o.PublicKey != nil {
		keys = append(keys, o.PublicKey)
	}
	return keys
}

// Authenticity says in words what a valid verdict on rep proves about who
// wrote the run: without a trusted key, digests and the event chain only
// catch accidents, since anyone who can write the directory can recompute
// them (and sign with a key of their own).
func Authenticity(rep *evidence.Report, opt Options) string {
	switch {
	case rep == nil:
		return "unknown"
	case len(opt.trusted()) > 0 && rep.Signing != nil:
		return "signed by trusted key " + rep.Signing.KeyID
	case rep.Signing == nil:
		return "unsigned: anyone can rewrite this run"
	default:
		return "signed by key " + rep.Signing.KeyID + ", but no trusted key was given: anyone can re-sign this run"
	}
}

// MaxArtifactSize caps one artifact verify reads: a larger one is reported
// missing rather than read.
const MaxArtifactSize = 256 << 20

// Dir verifies the run directory dir. The error is for a directory that
// cannot be read at all; every other problem is a violation. The report is
// returned when it could be decoded.
func Dir(dir string, opt Options) ([]Violation, *evidence.Report, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, nil, err
	}
	if !info.IsDir() {
		return nil, nil, fmt.Errorf("%s is not a directory", dir)
	}
	v := &verifier{dir: dir, opt: opt, files: map[string][]byte{}}
	v.run()
	sort.SliceStable(v.out, func(i, j int) bool {
		if v.out[i].Artifact != v.out[j].Artifact {
			return v.out[i].Artifact < v.out[j].Artifact
		}
		return v.out[i].Message < v.out[j].Message
	})
	return v.out, v.rep, nil
}

type verifier struct {
	dir    string
	opt    Options
	out    []Violation
	rep    *evidence.Report
	files  map[string][]byte
	events []evidence.Event
	// missingOK are artifacts the report itself says could not be written.
	missingOK map[string]bool
}

func (v *verifier) bad(artifact, format string, args ...any) {
	v.out = append(v.out, Violation{Artifact: artifact, Message: fmt.Sprintf(format, args...)})
}

func (v *verifier) read(rel string) ([]byte, bool) {
	if b, ok := v.files[rel]; ok {
		return b, true
	}
	// Under the run directory only, regular files only, bounded: a forged
	// run cannot make verify read outside it, block on a FIFO or stream a
	// device.
	b, err := safefs.ReadIn(v.dir, rel, MaxArtifactSize)
	if err != nil {
		return nil, false
	}
	v.files[rel] = b
	return b, true
}

func (v *verifier) run() {
	if _, err := os.Stat(filepath.Join(v.dir, "INCOMPLETE")); err == nil {
		v.bad("INCOMPLETE", "the run did not finish writing its evidence")
	}
	data, ok := v.read(evidence.ReportJSON)
	if !ok {
		v.bad(evidence.ReportJSON, "missing")
		return
	}
	if !v.report(data) {
		return
	}
	v.missingOK = map[string]bool{}
	for _, b := range v.rep.Blockers {
		if b.Code == evidence.ArtifactWriteFailure && b.Artifact != "" {
			v.missingOK[b.Artifact] = true
		}
	}
	v.presence()
	v.digests()
	v.freshness()
	v.chain()
	v.consistency()
	v.attestation()
	v.ladder()
}

// requiredFields are report.json's required members and their JSON kinds.
var requiredFields = []struct{ name, kind string }{
	{"schema_version", "number"}, {"case_id", "string"}, {"run_id", "string"}, {"status", "string"},
	{"backend", "string"}, {"run_started_at", "string"}, {"run_finished_at", "string"},
	{"backend_exit_code", "number|null"}, {"artifacts_dir", "string"}, {"changed_files", "array"},
	{"allowed_writes_passed", "boolean"}, {"approval_status", "string"}, {"verification", "object"},
	{"blockers", "array"}, {"artifact_paths", "object"}, {"artifact_digests", "object"}, {"freshness", "object"},
	{"exit_code", "number"}, {"events", "object"}, {"case_process_started", "boolean"},
	{"runtime_default_activation", "boolean"}, {"sandbox", "string"}, {"sandbox_info", "object"},
}

func kindOf(x any) string {
	switch x.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

func (v *verifier) report(data []byte) bool {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		v.bad(evidence.ReportJSON, "not a JSON object: %v", err)
		return false
	}
	ok := true
	for _, f := range requiredFields {
		x, present := m[f.name]
		if !present {
			v.bad(evidence.ReportJSON, "required field %s is missing", f.name)
			ok = false
			continue
		}
		if k := kindOf(x); !slices.Contains(strings.Split(f.kind, "|"), k) {
			v.bad(evidence.ReportJSON, "field %s is %s, want %s", f.name, k, f.kind)
			ok = false
		}
	}
	var rep evidence.Report
	if err := evidence.DecodeStrict(data, &rep); err != nil {
		v.bad(evidence.ReportJSON, "does not match the report schema: %v", err)
		return false
	}
	if again, err := evidence.Marshal(&rep); err != nil || !bytes.Equal(again, data) {
		v.bad(evidence.ReportJSON, "is not in the canonical form the harness writes")
	}
	v.rep = &rep
	if rep.SchemaVersion != evidence.SchemaVersion {
		v.bad(evidence.ReportJSON, "schema_version %d, want %d", rep.SchemaVersion, evidence.SchemaVersion)
	}
	abs, _ := filepath.Abs(v.dir)
	if rep.RunID != filepath.Base(abs) {
		// Runs may be moved, but not renamed: the id is the directory.
		v.bad(evidence.ReportJSON, "run_id %q does not name this directory", rep.RunID)
	}
	return ok
}

// excluded are the run directory's entries that are not digested in
// report.json.
func excluded(rel string) bool {
	switch rel {
	case evidence.ReportJSON, evidence.Attestation, evidence.DSSEFile, "INCOMPLETE", outcomeFile:
		return true
	}
	return rel == evidence.WorkspaceDir || strings.HasPrefix(rel, evidence.WorkspaceDir+"/") ||
		rel == evidence.TmpDir || strings.HasPrefix(rel, evidence.TmpDir+"/")
}

func (v *verifier) presence() {
	for _, a := range evidence.Required {
		if v.missingOK[a] {
			continue
		}
		if _, err := os.Stat(filepath.Join(v.dir, a)); err != nil {
			v.bad(a, "required artifact is missing")
		}
	}
	if info, err := os.Stat(filepath.Join(v.dir, evidence.BackendDir)); err != nil || !info.IsDir() {
		v.bad(evidence.BackendDir+"/", "required artifact directory is missing")
	}
	if v.rep.Signing != nil && !v.missingOK[evidence.Attestation] {
		if _, err := os.Stat(filepath.Join(v.dir, evidence.DSSEFile)); err != nil {
			v.bad(evidence.DSSEFile, "report.json names a signing key but the envelope is missing")
		}
	}
	for k, p := range v.rep.ArtifactPaths {
		if err := contract.CheckRelPath(strings.TrimSuffix(p, "/")); err != nil {
			v.bad(evidence.ReportJSON, "artifact_paths.%s: %v", k, err)
		}
	}
}

func (v *verifier) digests() {
	for rel, want := range v.rep.ArtifactDigests {
		if err := contract.CheckRelPath(rel); err != nil || excluded(rel) {
			v.bad(evidence.ReportJSON, "artifact_digests names %q, which is not a digestible artifact", rel)
			continue
		}
		data, ok := v.read(rel)
		if !ok {
			if !v.missingOK[rel] {
				v.bad(rel, "listed in artifact_digests but missing")
			}
			continue
		}
		if got := evidence.Digest(data); got != want {
			v.bad(rel, "sha256 is %s, report.json says %s", got, want)
		}
	}
	// Every file in the run directory must be accounted for.
	_ = filepath.WalkDir(v.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(v.dir, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if excluded(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if _, listed := v.rep.ArtifactDigests[rel]; !listed {
			v.bad(rel, "file is not listed in artifact_digests")
		}
		return nil
	})
	for _, a := range evidence.Required {
		if excluded(a) || v.missingOK[a] {
			continue
		}
		if _, listed := v.rep.ArtifactDigests[a]; !listed {
			v.bad(evidence.ReportJSON, "artifact_digests has no digest for %s", a)
		}
	}
}

func (v *verifier) freshness() {
	r := v.rep
	f := r.Freshness
	start, err := evidence.ParseTime(r.RunStartedAt)
	if err != nil {
		v.bad(evidence.ReportJSON, "run_started_at %q is not a timestamp", r.RunStartedAt)
		return
	}
	finish, err1 := evidence.ParseTime(r.RunFinishedAt)
	checked, err2 := evidence.ParseTime(f.CheckedAt)
	if err1 != nil || err2 != nil {
		v.bad(evidence.ReportJSON, "run_finished_at or freshness.checked_at is not a timestamp")
		return
	}
	if f.RunStartedAt != r.RunStartedAt {
		v.bad(evidence.ReportJSON, "freshness.run_started_at differs from run_started_at")
	}
	if finish.Before(start) || checked.Before(finish) {
		v.bad(evidence.ReportJSON, "timestamps out of order: started %s, finished %s, checked %s", r.RunStartedAt, r.RunFinishedAt, f.CheckedAt)
	}
	if !f.AllAfterStart {
		v.bad(evidence.ReportJSON, "freshness.all_after_start is false")
	}
	for rel := range r.ArtifactDigests {
		at, ok := f.WrittenAt[rel]
		if !ok {
			v.bad(evidence.ReportJSON, "freshness has no write time for %s", rel)
			continue
		}
		t, err := evidence.ParseTime(at)
		if err != nil {
			v.bad(evidence.ReportJSON, "freshness.written_at[%s] is not a timestamp", rel)
			continue
		}
		if t.Before(start) || t.After(checked) {
			v.bad(rel, "written at %s, outside the run (%s to %s)", at, r.RunStartedAt, f.CheckedAt)
		}
		if info, err := os.Stat(filepath.Join(v.dir, filepath.FromSlash(rel))); err == nil && info.ModTime().Before(start.Add(-time.Second)) {
			v.bad(rel, "file modified at %s, before the run started", info.ModTime().UTC().Format(time.RFC3339))
		}
	}
	for rel := range f.WrittenAt {
		if _, ok := r.ArtifactDigests[rel]; !ok {
			v.bad(evidence.ReportJSON, "freshness names %s, which has no digest", rel)
		}
	}
}

// rank orders the normalized events; approval.granted and approval.denied
// share a place.
//
// A lane that plans before it asks for approval reports plan.updated first,
// as the contract lists them; a lane approved before it starts (the fake
// lane) asks first. Both are in order: plan.updated and the approval
// events share a place between task.contract.created and patch.applied,
// and approval.requested must still precede its answer (checked apart).
func rank(typ string) int {
	switch typ {
	case "approval.requested", "approval.granted", "approval.denied":
		typ = "plan.updated"
	case "backend.gate.blocked":
		typ = "task.contract.created"
	}
	return slices.Index(contract.Events, typ)
}

func (v *verifier) chain() {
	data, ok := v.read(evidence.EventsFile)
	if !ok {
		return
	}
	if len(data) == 0 || data[len(data)-1] != '\n' {
		v.bad(evidence.EventsFile, "does not end with a newline")
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	prev := evidence.GenesisHash
	last := -1
	for i, line := range lines {
		n := i + 1
		var ev evidence.Event
		if err := evidence.DecodeStrict(line, &ev); err != nil {
			v.bad(evidence.EventsFile, "line %d: not a normalized event: %v", n, err)
			prev = evidence.LineHash(line)
			continue
		}
		if again, err := evidence.MarshalLine(ev); err != nil || !bytes.Equal(again, line) {
			v.bad(evidence.EventsFile, "line %d: not in canonical form", n)
		}
		if ev.Seq != n {
			v.bad(evidence.EventsFile, "line %d: seq %d, want %d", n, ev.Seq, n)
		}
		if ev.Prev != prev {
			v.bad(evidence.EventsFile, "line %d: chain broken: prev does not hash the line before", n)
		}
		if _, err := evidence.ParseTime(ev.Time); err != nil {
			v.bad(evidence.EventsFile, "line %d: time %q is not a timestamp", n, ev.Time)
		}
		if rk := rank(ev.Type); rk >= 0 {
			if rk < last {
				v.bad(evidence.EventsFile, "line %d: %s is out of order", n, ev.Type)
			}
			last = max(last, rk)
		} else {
			v.bad(evidence.EventsFile, "line %d: unknown event type %q", n, ev.Type)
		}
		if ev.Source != "harness" && ev.Source != "backend" {
			v.bad(evidence.EventsFile, "line %d: source %q, want harness or backend", n, ev.Source)
		}
		if ev.Source == "backend" && ev.Type != "plan.updated" && ev.Type != "patch.applied" {
			v.bad(evidence.EventsFile, "line %d: a backend cannot report %s", n, ev.Type)
		}
		prev = evidence.LineHash(line)
		v.events = append(v.events, ev)
	}
	req := slices.IndexFunc(v.events, func(e evidence.Event) bool { return e.Type == "approval.requested" })
	for i, e := range v.events {
		if (e.Type == "approval.granted" || e.Type == "approval.denied") && (req < 0 || req > i) {
			v.bad(evidence.EventsFile, "line %d: %s without an earlier approval.requested", i+1, e.Type)
		}
	}
	if len(v.events) > 0 {
		if v.events[0].Type != "run.started" {
			v.bad(evidence.EventsFile, "the first event is %s, want run.started", v.events[0].Type)
		}
		if v.events[len(v.events)-1].Type != "run.completed" {
			v.bad(evidence.EventsFile, "the last event is %s, want run.completed", v.events[len(v.events)-1].Type)
		}
	}
	if v.rep.Events.Count != len(lines) {
		v.bad(evidence.ReportJSON, "events.count %d, but %s has %d lines", v.rep.Events.Count, evidence.EventsFile, len(lines))
	}
	if v.rep.Events.ChainHead != prev {
		v.bad(evidence.ReportJSON, "events.chain_head does not hash the last event")
	}
}

func (v *verifier) has(typ string) bool {
	return slices.ContainsFunc(v.events, func(e evidence.Event) bool { return e.Type == typ })
}

func (v *verifier) consistency() {
	r := v.rep
	const R = evidence.ReportJSON
	switch r.Status {
	case evidence.StatusPass, evidence.StatusFail, evidence.StatusBlocked:
	default:
		v.bad(R, "status %q, want pass, fail or blocked", r.Status)
	}
	for _, b := range r.Blockers {
		if _, known := evidence.BlockerStatus[b.Code]; !known {
			v.bad(R, "unknown blocker code %q", b.Code)
		}
	}
	if want := evidence.StatusOf(r.Blockers); r.Status != want {
		v.bad(R, "status %s, but its blockers make it %s", r.Status, want)
	}
	if r.ExitCode != evidence.ExitCode(r.Status) {
		v.bad(R, "exit_code %d does not match status %s", r.ExitCode, r.Status)
	}
	switch r.ApprovalStatus {
	case evidence.ApprovalNotRequired, evidence.ApprovalRequested, evidence.ApprovalGranted, evidence.ApprovalDenied:
	default:
		v.bad(R, "approval_status %q is not one of not-required, requested, granted, denied", r.ApprovalStatus)
	}
	if r.TestsPassed != r.Verification.Passed {
		v.bad(R, "tests_passed and verification.passed disagree")
	}
	if r.RuntimeDefaultActivation {
		v.bad(R, "runtime_default_activation must be false")
	}
	if r.CaseProcessStarted && r.Backend != "case" {
		v.bad(R, "case_process_started is true for backend %s", r.Backend)
	}
	if r.Status == evidence.StatusPass {
		switch {
		case r.Contract.RequireDiff && len(r.ChangedFiles) == 0:
			v.bad(R, "a pass needs a non-empty diff")
		case !r.AllowedWritesPassed || !r.ForbiddenPathsPassed || len(r.PathViolations) > 0:
			v.bad(R, "a pass needs every change within allowed_writes and outside forbidden_paths")
		case !r.Verification.Ran || !r.Verification.Passed || len(r.Verification.Commands) == 0:
			v.bad(R, "a pass needs verification that ran and passed")
		case !r.RequiredEvents.Checked || !r.RequiredEvents.Passed:
			v.bad(R, "a pass needs every required event")
		case (r.BackendExitCode == nil || *r.BackendExitCode != 0) && !r.HarnessCompleted():
			v.bad(R, "a pass needs backend exit code 0")
		case r.ApprovalStatus != evidence.ApprovalNotRequired && r.ApprovalStatus != evidence.ApprovalGranted:
			v.bad(R, "a pass needs approval granted or not required")
		case !r.Baseline.Clean || !r.Ending.Checked || !r.Ending.Clean:
			v.bad(R, "a pass needs a clean start and a clean end")
		}
		// The required events must really be in the chain, in order.
		i := 0
		types := make([]string, len(v.events))
		for k, e := range v.events {
			types[k] = e.Type
		}
		for _, want := range r.RequiredEvents.Required {
			j := slices.Index(types[i:], want)
			if j < 0 {
				v.bad(evidence.EventsFile, "a pass needs the required event %s (in order)", want)
				continue
			}
			i += j + 1
		}
	}
	if !r.BackendProcessStarted {
		for _, t := range []string{"plan.updated", "patch.applied", "git.diff.checked", "verification.completed"} {
			if v.has(t) {
				v.bad(evidence.EventsFile, "%s, but the backend never started", t)
			}
		}
		if r.BackendExitCode != nil {
			v.bad(R, "backend_exit_code set, but the backend never started")
		}
		if len(r.ChangedFiles) > 0 {
			v.bad(R, "changed_files set, but the backend never started")
		}
		for _, k := range []string{"patch", "diff", "verification"} {
			if r.NotApplicable[k] == "" {
				v.bad(R, "blocked before the backend started, but not_applicable.%s gives no reason", k)
			}
		}
	}
	if v.has("backend.gate.blocked") && r.Status != evidence.StatusBlocked {
		v.bad(R, "backend.gate.blocked in the events, but status %s", r.Status)
	}
	switch r.ApprovalStatus {
	case evidence.ApprovalDenied:
		if !v.has("approval.denied") || r.Approval == nil {
			v.bad(R, "approval denied without an approval.denied event and record")
		}
	case evidence.ApprovalGranted:
		if !v.has("approval.granted") || r.Approval == nil {
			v.bad(R, "approval granted without an approval.granted event and record")
		}
	case evidence.ApprovalNotRequired:
		if v.has("approval.requested") {
			v.bad(R, "approval not required, but approval.requested in the events")
		}
	}
	if n := len(v.events); n > 0 && v.events[n-1].Type == "run.completed" {
		st, _ := v.events[n-1].Data["status"].(string)
		if st != r.Status && !v.writeFailed() {
			v.bad(evidence.EventsFile, "run.completed says %s, report.json says %s", st, r.Status)
		}
	}
	// The patch and the changed files must agree.
	if patch, ok := v.read(evidence.PatchFile); ok {
		if files, ok := patchFiles(patch); ok {
			got := slices.Clone(r.ChangedFiles)
			sort.Strings(got)
			if !slices.Equal(files, got) {
				v.bad(evidence.PatchFile, "touches [%s], report.json lists changed_files [%s]", quotepath.Join(files, " "), quotepath.Join(got, " "))
			}
		}
	}
	if r.BackendRun.TimedOut && !r.HarnessCompleted() && !slices.ContainsFunc(r.Blockers, func(b evidence.Blocker) bool { return b.Code == evidence.Timeout || b.Code == evidence.PhaseTimeout }) {
		v.bad(R, "the backend timed out but there is no timeout blocker")
	}
	if len(r.BackendRun.Survivors) > 0 {
		v.bad(R, "processes of the backend's group survived the kill: %v", r.BackendRun.Survivors)
	}
	for _, c := range r.Verification.Commands {
		if len(c.Survivors) > 0 && c.Passed {
			v.bad(R, "verification %q passed although processes of its group survived: %v", strings.Join(c.Argv, " "), c.Survivors)
		}
	}
	v.sandbox()
}

// sandbox checks that the report's account of confinement holds together:
// a Landlock run names the ABI, what could be written and that the backend
// ran confined; a run that required Landlock either had it or was blocked
// before the backend started.
func (v *verifier) sandbox() {
	r := v.rep
	si := r.SandboxInfo
	const R = evidence.ReportJSON
	if !slices.Contains(sandbox.Modes, si.Mode) {
		v.bad(R, "sandbox_info.mode %q, want one of %s", si.Mode, strings.Join(sandbox.Modes, ", "))
	}
	unavailable := slices.ContainsFunc(r.Blockers, func(b evidence.Blocker) bool { return b.Code == evidence.SandboxUnavailable })
	switch r.Sandbox {
	case sandbox.KindLandlock:
		switch {
		case si.Mode == sandbox.None:
			v.bad(R, "sandbox landlock, but sandbox_info.mode is none")
		case si.RulesetABI < 1 || si.KernelABI < si.RulesetABI:
			v.bad(R, "sandbox landlock with Landlock ABI %d and ruleset ABI %d", si.KernelABI, si.RulesetABI)
		case len(si.Writable) == 0:
			v.bad(R, "sandbox landlock, but sandbox_info.writable is empty")
		case !slices.Contains(si.Confined, "backend") || !r.BackendProcessStarted:
			v.bad(R, "sandbox landlock, but the backend did not run confined")
		case unavailable:
			v.bad(R, "sandbox landlock, but a sandbox_unavailable blocker")
		}
	case sandbox.KindNone:
		if len(si.Confined) > 0 || si.RulesetABI != 0 {
			v.bad(R, "sandbox none, but sandbox_info says %v ran confined with ruleset ABI %d", si.Confined, si.RulesetABI)
		}
		if si.Mode == sandbox.Landlock && r.BackendProcessStarted {
			v.bad(R, "Landlock was required, but the backend ran unconfined")
		}
	default:
		v.bad(R, "sandbox %q, want landlock or none", r.Sandbox)
	}
	if unavailable && r.BackendProcessStarted {
		v.bad(R, "a sandbox_unavailable blocker, but the backend started")
	}
}

func (v *verifier) writeFailed() bool {
	return slices.ContainsFunc(v.rep.Blockers, func(b evidence.Blocker) bool { return b.Code == evidence.ArtifactWriteFailure })
}

// patchFiles lists the paths a git patch touches, sorted; ok is false when
// a path is quoted and so cannot be compared simply.
func patchFiles(patch []byte) ([]string, bool) {
	set := map[string]bool{}
	for _, line := range strings.Split(string(patch), "\n") {
		rest, ok := strings.CutPrefix(line, "diff --git ")
		if !ok {
			continue
		}
		if strings.HasPrefix(rest, `"`) {
			return nil, false
		}
		a, b, ok := strings.Cut(rest, " b/")
		if !ok || !strings.HasPrefix(a, "a/") {
			return nil, false
		}
		if a[2:] != b {
			return nil, false
		}
		set[path.Clean(b)] = true
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, true
}

func (v *verifier) attestation() {
	if v.missingOK[evidence.Attestation] {
		if len(v.opt.trusted()) > 0 {
			v.bad(evidence.ReportJSON, "the run is not signed (its attestation was not written), but a trusted key is required")
		}
		return
	}
	got, ok := v.read(evidence.Attestation)
	if !ok {
		return // reported by presence
	}
	digests := map[string]string{}
	for _, a := range evidence.AttestedArtifacts {
		if data, ok := v.read(a); ok {
			digests[a] = evidence.Digest(data)
		}
	}
	want, err := evidence.BuildStatement(v.rep, digests)
	if err != nil {
		v.bad(evidence.Attestation, "cannot be rebuilt: %v", err)
		return
	}
	if !bytes.Equal(got, want) {
		var st evidence.Statement
		if err := evidence.DecodeStrict(got, &st); err != nil {
			v.bad(evidence.Attestation, "not an in-toto statement: %v", err)
		} else {
			var sw evidence.Statement
			_ = json.Unmarshal(want, &sw)
			for i, s := range st.Subject {
				if i < len(sw.Subject) && s.Name == sw.Subject[i].Name && s.Digest["sha256"] != sw.Subject[i].Digest["sha256"] {
					v.bad(evidence.Attestation, "subject %s digest does not match the artifact", s.Name)
				}
			}
			v.bad(evidence.Attestation, "does not match the statement the run's artifacts and report give")
		}
	}
	trusted := v.opt.trusted()
	if v.rep.Signing == nil {
		if len(trusted) > 0 {
			// Dropping the signature and recomputing every digest and the
			// chain is all a forger needs without a trusted key.
			v.bad(evidence.ReportJSON, "the run is not signed, but a trusted key is required")
		}
		return
	}
	env, ok := v.read(evidence.DSSEFile)
	if !ok {
		if len(trusted) > 0 {
			v.bad(evidence.DSSEFile, "the signature envelope is missing or unreadable")
		}
		return
	}
	pub, err := base64.StdEncoding.DecodeString(v.rep.Signing.PublicKey)
	if err != nil || len(pub) != ed25519.PublicKeySize {
		v.bad(evidence.ReportJSON, "signing.public_key is not an ed25519 key")
		return
	}
	if v.rep.Signing.KeyID != evidence.KeyID(pub) || v.rep.Signing.Algorithm != "ed25519" {
		v.bad(evidence.ReportJSON, "signing.keyid or algorithm does not match the key")
	}
	if len(trusted) > 0 && !slices.ContainsFunc(trusted, func(k ed25519.PublicKey) bool { return bytes.Equal(k, pub) }) {
		v.bad(evidence.DSSEFile, "signed with a key other than the trusted one")
	}
	if err := evidence.VerifyEnvelope(env, got, pub); err != nil {
		v.bad(evidence.DSSEFile, "%v", err)
	}
}

// ErrInvalid is returned by callers that turn violations into an error.
var ErrInvalid = errors.New("invalid run directory")
