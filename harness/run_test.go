package harness_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/engine/fake"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/gocache"
	"github.com/svrnty/sotvet/harness/internal/proc"
	"github.com/svrnty/sotvet/harness/sandbox"
	"github.com/svrnty/sotvet/harness/verify"
	"github.com/svrnty/sotvet/internal/raceexit"
	"github.com/svrnty/sotvet/internal/testtmp"
)

// TestMain lets the test binary act as the fake backend and as the
// sandbox shim, the way the sotvet binary does: "<binary> harness
// fake-backend ..." and "<binary> harness sandbox-exec ...". It also acts
// as the escaping backend of the Landlock tests.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "harness" {
		switch os.Args[2] {
		case "fake-backend":
			os.Exit(fake.Main(os.Args[3:], os.Stdout, os.Stderr))
		case "sandbox-exec":
			os.Exit(sandbox.Main(os.Args[3:], os.Stderr))
		case "escape-backend":
			os.Exit(escapeBackend(os.Args[3:]))
		case "plant-backend":
			os.Exit(plantBackend(os.Args[3:]))
		case "gocache":
			os.Exit(gocache.Main(os.Args[3:], os.Stdin, os.Stdout, os.Stderr))
		}
	}
	raceexit.Set() // the fake backends it runs are this binary
	os.Exit(testtmp.Run(testtmp.RunFunc(func() int {
		code := m.Run()
		plainChild.Remove()
		// A backstop for an edit the reader tests' own checks could not
		// see (one made by a test that did not ask for the run): the run
		// is left where it is, to be looked at (testtmp keeps it).
		for _, s := range []*sharedRun{unsignedRun, signedRun} {
			if err := s.unchanged(); err != nil {
				fmt.Fprintf(os.Stderr, "FAIL: %v\nleft in place: %s\n", err, s.dir)
				code = 1
				continue
			}
			s.remove()
		}
		return code
	})))
}

const casesDir = "../testdata/cases"

// options are the options of a run of the case caseID in the test's
// own temporary directory.
func options(t testing.TB, caseID string) harness.Options {
	t.Helper()
	opt := caseOptions(childExe(t), caseID)
	opt.RunsRoot = t.TempDir()
	return opt
}

// caseOptions are the options of a run of the case caseID whose
// processes start exe, without a runs root.
func caseOptions(exe, caseID string) harness.Options {
	return harness.Options{
		CaseDir:        filepath.Join(casesDir, caseID),
		FakeCommand:    []string{exe, "harness", "fake-backend"},
		SandboxCommand: []string{exe, "harness", "sandbox-exec"},
		Environ:        append(os.Environ(), "SOTVET_TEST_SECRET_TOKEN=hunter2"),
		Version:        "test",
	}
}

func run(t testing.TB, opt harness.Options) *harness.Result {
	t.Helper()
	res, err := harness.Run(context.Background(), opt)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

func mustVerify(t testing.TB, dir string) {
	t.Helper()
	vs, _, err := verify.Dir(dir, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		t.Errorf("verify %s: %s", filepath.Base(dir), v)
	}
}

func events(t testing.TB, dir string) []evidence.Event {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, evidence.EventsFile))
	if err != nil {
		t.Fatal(err)
	}
	var out []evidence.Event
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var ev evidence.Event
		if err := json.Unmarshal(l, &ev); err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
	return out
}

func eventTypes(evs []evidence.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFixtureTable holds the failure matrix to the corpus: every fixture,
// every blocker, once each, with its status.
func TestFixtureTable(t *testing.T) {
	want := []struct{ name, blocker, status string }{
		{"no-diff", "no_diff", "fail"},
		{"disallowed-file", "disallowed_file_change", "fail"},
		{"failed-tests", "verification_failed", "fail"},
		{"missing-test-command", "missing_test_command", "blocked"},
		{"missing-event", "missing_required_event", "fail"},
		{"reviewer-reject", "reviewer_rejected", "blocked"},
		{"approval-denied", "approval_denied", "blocked"},
		{"timeout", "timeout", "blocked"},
		{"dirty-start", "dirty_starting_tree", "blocked"},
		{"dirty-end", "dirty_ending_tree", "fail"},
		{"artifact-write-failure", "artifact_write_failure", "fail"},
		{"provider-unavailable", "provider_unavailable", "blocked"},
	}
	if len(harness.Fixtures) != len(want) {
		t.Fatalf("%d fixtures, want %d", len(harness.Fixtures), len(want))
	}
	seen := map[string]bool{}
	for i, w := range want {
		f := harness.Fixtures[i]
		if f.Name != w.name || f.Blocker != w.blocker || f.Status != w.status {
			t.Errorf("fixture %d = %s/%s/%s, want %s/%s/%s", i, f.Name, f.Blocker, f.Status, w.name, w.blocker, w.status)
		}
		if evidence.BlockerStatus[f.Blocker] != f.Status {
			t.Errorf("%s: blocker %s forces %q, fixture says %q", f.Name, f.Blocker, evidence.BlockerStatus[f.Blocker], f.Status)
		}
		if seen[f.Blocker] {
			t.Errorf("blocker %s used twice", f.Blocker)
		}
		seen[f.Blocker] = true
		if f.Event == "" || f.Behavior == "" {
			t.Errorf("%s: no event or behavior", f.Name)
		}
		if f.ExitCode() == 0 {
			t.Errorf("%s: exit code 0", f.Name)
		}
	}
}

func TestPass(t *testing.T) {
	for _, id := range []string{"r1-string-slugify", "r1-src-string-slugify", "r1-slugify-punctuation"} {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			opt := options(t, id)
			// The supervised processes' own races, end to end: the one
			// test whose runs start the race-built binary under -race.
			raceChildren(t, &opt)
			res := run(t, opt)
			r := res.Report
			if r.Status != "pass" || res.ExitCode != 0 || len(r.Blockers) != 0 {
				t.Fatalf("status %s exit %d blockers %+v", r.Status, res.ExitCode, r.Blockers)
			}
			if len(r.ChangedFiles) == 0 || !r.TestsPassed || !r.AllowedWritesPassed || r.BackendExitCode == nil || *r.BackendExitCode != 0 {
				t.Errorf("report: %+v", r)
			}
			if r.Sandbox != wantSandbox() || r.CaseProcessStarted || r.RuntimeDefaultActivation {
				t.Errorf("lane facts: sandbox %s (want %s) case_process_started %t", r.Sandbox, wantSandbox(), r.CaseProcessStarted)
			}
			got := eventTypes(events(t, res.RunDir))
			wantEv := []string{"run.started", "task.contract.created", "plan.updated", "patch.applied", "git.diff.checked", "verification.completed", "run.completed"}
			if !slices.Equal(got, wantEv) {
				t.Errorf("events %v, want %v", got, wantEv)
			}
			// The harness saw the change through git and ran the tests.
			if !strings.Contains(readFile(t, filepath.Join(res.RunDir, evidence.PatchFile)), "strings.Builder") {
				t.Error("patch.diff does not hold the fix")
			}
			if !strings.Contains(readFile(t, filepath.Join(res.RunDir, evidence.TestLog)), "ok  \texample.com/slugify") {
				t.Error("test.log holds no passing go test")
			}
			// No ambient secret reaches the backend.
			stderr := readFile(t, filepath.Join(res.RunDir, "backend", "stderr.log"))
			if !strings.Contains(stderr, "environment: ") || strings.Contains(stderr, "SOTVET_TEST_SECRET_TOKEN") {
				t.Errorf("backend environment: %s", stderr)
			}
			mustVerify(t, res.RunDir)
		})
	}
}

// fixturesCase is the case TestFixtures runs every fixture on.
const fixturesCase = "r1-string-slugify"

func TestFixtures(t *testing.T) {
	for _, fx := range harness.Fixtures {
		t.Run(fx.Name, func(t *testing.T) {
			t.Parallel()
			opt := options(t, fixturesCase)
			opt.Fixture = fx.Name
			res := run(t, opt)
			r := res.Report
			var codes []string
			for _, b := range r.Blockers {
				codes = append(codes, b.Code)
			}
			if r.Status != fx.Status || res.ExitCode != fx.ExitCode() || !slices.Equal(codes, []string{fx.Blocker}) {
				t.Fatalf("status %s exit %d blockers %v; want %s %d [%s]", r.Status, res.ExitCode, codes, fx.Status, fx.ExitCode(), fx.Blocker)
			}
			evs := events(t, res.RunDir)
			if !slices.Contains(eventTypes(evs), fx.Event) {
				t.Errorf("no %s event in %v", fx.Event, eventTypes(evs))
			}
			last := evs[len(evs)-1]
			if last.Type != "run.completed" || last.Data["status"] != fx.Status {
				t.Errorf("last event %s %v", last.Type, last.Data)
			}
			for _, a := range []string{evidence.ReportJSON, evidence.ReportMD, evidence.EventsFile, evidence.PatchFile, evidence.TestLog, evidence.TraceFile, evidence.Attestation} {
				_, err := os.Stat(filepath.Join(res.RunDir, a))
				if missing := err != nil; missing != (fx.Name == "artifact-write-failure" && a == evidence.TestLog) {
					t.Errorf("artifact %s: %v", a, err)
				}
			}
			observed(t, fx.Name, res, evs)
			mustVerify(t, res.RunDir)
		})
	}
}

// observed checks, per fixture, the evidence of the harness having seen
// the misbehaviour itself.
func observed(t *testing.T, name string, res *harness.Result, evs []evidence.Event) {
	r := res.Report
	file := func(rel string) string { return readFile(t, filepath.Join(res.RunDir, rel)) }
	ev := func(typ string) map[string]any {
		for _, e := range evs {
			if e.Type == typ {
				return e.Data
			}
		}
		t.Fatalf("no %s event", typ)
		return nil
	}
	switch name {
	case "no-diff":
		if file(evidence.PatchFile) != "" || len(r.ChangedFiles) != 0 || ev("git.diff.checked")["diff_empty"] != true {
			t.Error("no-diff: a diff was seen")
		}
		if r.BackendRun.TerminalStatus != "success" {
			t.Error("no-diff: the backend should have claimed success")
		}
	case "disallowed-file":
		if !slices.Contains(r.ChangedFiles, fake.UnapprovedFile) || r.AllowedWritesPassed || !strings.Contains(file(evidence.PatchFile), fake.UnapprovedFile) {
			t.Errorf("disallowed-file: changed %v allowed %t", r.ChangedFiles, r.AllowedWritesPassed)
		}
	case "failed-tests":
		if !strings.Contains(file(evidence.TestLog), "FAIL") || r.Verification.Commands[0].ExitCode == nil || *r.Verification.Commands[0].ExitCode == 0 {
			t.Error("failed-tests: no failing go test in test.log")
		}
	case "missing-test-command":
		if !strings.Contains(file(evidence.TestLog), "no command available") || !r.Verification.Missing {
			t.Error("missing-test-command: test.log does not say so")
		}
	case "missing-event":
		if !slices.Contains(r.RequiredEvents.Missing, "plan.updated") || slices.Contains(eventTypes(evs), "plan.updated") {
			t.Errorf("missing-event: missing %v", r.RequiredEvents.Missing)
		}
	case "reviewer-reject":
		if !strings.Contains(file("backend/stderr.log"), "reviewer: rejected") || ev("verification.completed")["reviewer"] != "rejected" {
			t.Error("reviewer-reject: the rejection is not in the evidence")
		}
	case "approval-denied":
		d := ev("approval.denied")
		for _, k := range []string{"actor", "scope", "mutation_mode", "timestamp", "expiry"} {
			if s, _ := d[k].(string); s == "" {
				t.Errorf("approval.denied has no %s", k)
			}
		}
		if r.BackendProcessStarted || r.ApprovalStatus != "denied" || slices.Contains(eventTypes(evs), "patch.applied") {
			t.Error("approval-denied: the backend started")
		}
	case "timeout":
		if !r.BackendRun.TimedOut || !strings.Contains(file(evidence.TraceFile), `"action":"backend.timeout"`) {
			t.Error("timeout: no timeout point in the trace")
		}
	case "dirty-start":
		if r.BackendProcessStarted || !slices.Contains(r.Baseline.DirtyPaths, harness.DirtyStartFile) || ev("task.contract.created")["clean_start"] != false {
			t.Errorf("dirty-start: %+v", r.Baseline)
		}
	case "dirty-end":
		if !slices.Contains(r.Ending.DirtyPaths, fake.DirtyOutput) || !r.TestsPassed {
			t.Errorf("dirty-end: %+v", r.Ending)
		}
	case "artifact-write-failure":
		b := r.Blockers[0]
		if b.Artifact != evidence.TestLog || !strings.Contains(file(evidence.TraceFile), `"action":"artifact.write_failed"`) {
			t.Errorf("artifact-write-failure: %+v", b)
		}
	case "provider-unavailable":
		if r.BackendExitCode == nil || *r.BackendExitCode != fake.ExitUnavailable || !strings.Contains(file("backend/stderr.log"), "provider unavailable") || len(r.ChangedFiles) != 0 {
			t.Error("provider-unavailable: not observed from the backend")
		}
	default:
		t.Fatalf("fixture %s has no observation check", name)
	}
}

// TestTimeoutLeavesNoProcess: the hanging backend's late writer is killed
// with its group and never writes.
func TestTimeoutLeavesNoProcess(t *testing.T) {
	t.Parallel()
	opt := options(t, "r1-string-slugify")
	opt.Fixture = "timeout"
	start := time.Now()
	res := run(t, opt)
	stderr := readFile(t, filepath.Join(res.RunDir, "backend", "stderr.log"))
	m := regexp.MustCompile(`late writer pid (\d+)`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("the backend did not start its late writer before the timeout:\n%s", stderr)
	}
	if pids := proc.GroupMembers(res.Report.BackendRun.Pid); len(pids) > 0 {
		t.Errorf("processes left in the backend's group: %v", pids)
	}
	// The pid it printed is its own PID namespace's when the backend runs
	// in one: look it up by its command line, which names this run.
	if pids := liveWithArgs("--late-writer", filepath.Join(res.RunDir, "workspace")); len(pids) > 0 {
		t.Errorf("late writer %v still alive", pids)
	}
	// Past the late writer's delay, the tree is as the kill left it.
	time.Sleep(time.Until(start.Add(3500 * time.Millisecond)))
	if _, err := os.Stat(filepath.Join(res.RunDir, "workspace", fake.LateWriteFile)); err == nil {
		t.Error("the late writer wrote after the kill")
	}
}

func TestGatedEngines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		engine string
		allow  bool
		code   string
	}{
		{"case", false, evidence.EngineDisabled},
		{"codex", false, evidence.EngineDisabled},
		{"pi", false, evidence.EngineDisabled},
		// Opened, the lane's own gates follow; with no model requested the
		// admission gate blocks it.
		{"case", true, evidence.ModelNotAdmitted},
		{"codex", true, evidence.ModelNotAdmitted},
		{"pi", true, evidence.ModelNotAdmitted},
	} {
		t.Run(tc.engine+strconv.FormatBool(tc.allow), func(t *testing.T) {
			opt := options(t, "r1-string-slugify")
			opt.Engine = tc.engine
			if tc.allow {
				opt.AllowEngines = []string{tc.engine}
			}
			res := run(t, opt)
			r := res.Report
			if r.Status != "blocked" || res.ExitCode != 3 || len(r.Blockers) != 1 || r.Blockers[0].Code != tc.code {
				t.Fatalf("status %s blockers %+v", r.Status, r.Blockers)
			}
			if r.BackendProcessStarted || r.CaseProcessStarted {
				t.Error("a gated engine started")
			}
			if _, err := os.Stat(filepath.Join(res.RunDir, "workspace")); err == nil {
				t.Error("the workspace was copied before the gate")
			}
			evs := events(t, res.RunDir)
			if got := eventTypes(evs); !slices.Equal(got, []string{"run.started", "task.contract.created", "backend.gate.blocked", "run.completed"}) {
				t.Errorf("events %v", got)
			}
			d := evs[2].Data
			if d["backend"] != tc.engine || d["case_executed"] != false || d["gate"] == "" || d["reason"] == "" || d["mutation_mode"] != "copied-fixture" {
				t.Errorf("backend.gate.blocked %v", d)
			}
			if _, err := os.Stat(filepath.Join(res.RunDir, "backend", tc.engine+"-gate.log")); err != nil {
				t.Error(err)
			}
			if tc.engine == "case" && r.SourceAdmissionStatus != "not_admitted" {
				t.Errorf("source_admission_status %s", r.SourceAdmissionStatus)
			}
			mustVerify(t, res.RunDir)
		})
	}
	if _, err := harness.Run(context.Background(), harness.Options{Engine: "nope", CaseDir: "x", RunsRoot: t.TempDir()}); err == nil {
		t.Error("an unknown engine is not a usage error")
	}
}

// writeCase copies a shipped case and rewrites its contract.
func writeCase(t *testing.T, from string, edit func(string) string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), from)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(casesDir, from))); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "case.yaml")
	if err := os.WriteFile(p, []byte(edit(readFile(t, p))), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestContractGates(t *testing.T) {
	t.Parallel()
	noVerify := writeCase(t, "r1-string-slugify", func(s string) string {
		return strings.Replace(s, "verification:\n  - go test -count=1 ./...\n", "verification: []\n", 1)
	})
	invalid := writeCase(t, "r1-string-slugify", func(s string) string { return s + "bogus_key: 1\n" })
	mode := writeCase(t, "r1-string-slugify", func(s string) string {
		return strings.Replace(s, "mutation_mode: copied-fixture", "mutation_mode: owned-noncritical-repo", 1)
	})
	for _, tc := range []struct{ dir, code string }{
		{noVerify, evidence.MissingTestCommand},
		{invalid, evidence.InvalidContract},
		{mode, evidence.MutationModeNotAllowed},
	} {
		opt := options(t, "")
		opt.CaseDir = tc.dir
		res := run(t, opt)
		if res.Report.Status != "blocked" || len(res.Report.Blockers) != 1 || res.Report.Blockers[0].Code != tc.code {
			t.Errorf("%s: %s %+v", tc.code, res.Report.Status, res.Report.Blockers)
		}
		if tc.code == evidence.InvalidContract && len(res.ContractErrors) == 0 {
			t.Error("no contract errors returned")
		}
		mustVerify(t, res.RunDir)
	}
}

func TestApprovalGranted(t *testing.T) {
	t.Parallel()
	dir := writeCase(t, "r1-string-slugify", func(s string) string {
		return strings.Replace(s, "approval_required: false", "approval_required: true", 1)
	})
	opt := options(t, "")
	opt.CaseDir = dir
	res := run(t, opt)
	if res.Report.Status != "blocked" || res.Report.Blockers[0].Code != evidence.ApprovalDeniedCode {
		t.Fatalf("without an approver: %s %+v", res.Report.Status, res.Report.Blockers)
	}
	opt.Approver = harness.StaticApprover{Granted: true, Actor: "operator:test", Reason: "ok"}
	res = run(t, opt)
	if res.Report.Status != "pass" || res.Report.ApprovalStatus != "granted" {
		t.Fatalf("with an approver: %s %+v", res.Report.Status, res.Report.Blockers)
	}
	got := eventTypes(events(t, res.RunDir))
	if !slices.Equal(got[2:4], []string{"approval.requested", "approval.granted"}) {
		t.Errorf("events %v", got)
	}
	mustVerify(t, res.RunDir)
}

type upper struct{}

func (upper) Redact(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte("fake backend"), []byte("[REDACTED]"))
}

// TestRedaction reads the shared unsigned run, made with the redactor upper.
func TestRedaction(t *testing.T) {
	dir, _ := unsignedRun.get(t)
	if s := readFile(t, filepath.Join(dir, "backend", "stderr.log")); strings.Contains(s, "fake backend") || !strings.Contains(s, "[REDACTED]") {
		t.Errorf("stderr.log not redacted: %s", s)
	}
	mustVerify(t, dir)
}

// tamperPositions are the bytes TestTamper flips in an artifact of n
// bytes. The full sweep (every byte of a short file, 64 spread over a long
// one) verifies the run directory a thousand times; by default the sample
// keeps the first and last bytes and 14 spread between, every artifact
// still edited, deleted and caught. SOTVET_SLOW=1 sweeps whole.
func tamperPositions(n int, full bool) []int {
	limit, k := 16, 16
	if full {
		limit, k = 256, 64
	}
	var positions []int
	if n <= limit {
		for i := range n {
			positions = append(positions, i)
		}
		return positions
	}
	for i := range k {
		positions = append(positions, i*(n-1)/(k-1))
	}
	return positions
}

func TestTamperPositions(t *testing.T) {
	for _, tc := range []struct {
		n     int
		full  bool
		count int
	}{
		{1, false, 1}, {16, false, 16}, {200, false, 16}, {5000, false, 16},
		{1, true, 1}, {200, true, 200}, {256, true, 256}, {257, true, 64}, {5000, true, 64},
	} {
		ps := tamperPositions(tc.n, tc.full)
		if len(ps) != tc.count || ps[0] != 0 || ps[len(ps)-1] != tc.n-1 || !slices.IsSorted(ps) || len(slices.Compact(slices.Clone(ps))) != len(ps) {
			t.Errorf("tamperPositions(%d, %v) = %v: want %d distinct sorted positions from 0 to %d", tc.n, tc.full, ps, tc.count, tc.n-1)
		}
	}
}

// TestTamper: a sample of single-byte changes to every artifact (all of
// them with SOTVET_SLOW=1), a deleted artifact, reordered events and an
// added file are all caught.
// It edits a copy of the shared signed run.
func TestTamper(t *testing.T) {
	shared, key := signedRun.get(t)
	dir := copyRun(t, shared)
	mustVerify(t, dir)
	invalid := func(what string) {
		t.Helper()
		vs, _, err := verify.Dir(dir, verify.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) == 0 {
			t.Errorf("%s: verify found nothing", what)
		}
	}
	var artifacts []string
	for _, a := range []string{evidence.ReportJSON, evidence.ReportMD, evidence.EventsFile, evidence.PatchFile, evidence.TestLog, evidence.TraceFile, evidence.Attestation, evidence.DSSEFile} {
		artifacts = append(artifacts, a)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "backend"))
	for _, e := range ents {
		artifacts = append(artifacts, "backend/"+e.Name())
	}
	flips := 0
	for _, a := range artifacts {
		p := filepath.Join(dir, a)
		orig, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		info, _ := os.Stat(p)
		positions := tamperPositions(len(orig), os.Getenv("SOTVET_SLOW") != "")
		for _, i := range positions {
			b := slices.Clone(orig)
			b[i] ^= 0x01
			if err := os.WriteFile(p, b, info.Mode()); err != nil {
				t.Fatal(err)
			}
			invalid(a + " byte " + strconv.Itoa(i))
			flips++
		}
		os.WriteFile(p, orig, info.Mode())
		mustVerify(t, dir)
		// Deleted.
		os.Remove(p)
		invalid(a + " deleted")
		os.WriteFile(p, orig, info.Mode())
	}
	t.Logf("%d single-byte edits over %d artifacts, all caught", flips, len(artifacts))
	// Reordered events.
	p := filepath.Join(dir, evidence.EventsFile)
	orig, _ := os.ReadFile(p)
	lines := bytes.SplitAfter(orig, []byte("\n"))
	lines[2], lines[3] = lines[3], lines[2]
	os.WriteFile(p, bytes.Join(lines, nil), 0o644)
	invalid("events reordered")
	os.WriteFile(p, orig, 0o644)
	// An added file.
	extra := filepath.Join(dir, "backend", "extra.log")
	os.WriteFile(extra, []byte("x"), 0o644)
	invalid("added file")
	os.Remove(extra)
	mustVerify(t, dir)
	// A trusted key other than the signer's.
	other, _, _ := ed25519.GenerateKey(rand.Reader)
	if vs, _, _ := verify.Dir(dir, verify.Options{PublicKey: other}); len(vs) == 0 {
		t.Error("an attestation signed by another key passed")
	}
	if vs, _, _ := verify.Dir(dir, verify.Options{PublicKey: key.Public().(ed25519.PublicKey)}); len(vs) != 0 {
		t.Errorf("trusted key: %v", vs)
	}
}

// liveWithArgs lists the live (non-zombie) processes whose command line
// holds every one of args.
func liveWithArgs(args ...string) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || len(cmd) == 0 {
			continue // exited, or a zombie (whose cmdline is empty)
		}
		all := true
		for _, a := range args {
			all = all && bytes.Contains(cmd, []byte(a))
		}
		if all {
			out = append(out, pid)
		}
	}
	return out
}
