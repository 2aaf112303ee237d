// Package fake is the deterministic fake lane: a backend process that
// solves a case by laying the case's solution overlay over the workspace,
// or that misbehaves in one named way so that the harness's fail-closed
// checks can be proved.
//
// The backend is a real process, started by the harness like any other
// lane: the harness re-executes its own binary with a spec file (see
// Engine.Command) and that process calls Main. Everything the fake backend
// does lands in the workspace or on its own stdout; the harness learns the
// outcome only by observing them.
package fake

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness/engine"
)

// Name is the lane's backend id.
const Name = "fake"

// Behaviors the fake backend can act out.
const (
	Solve          = "solve"           // apply the solution and report success
	NoDiff         = "no-diff"         // report success, change nothing
	DisallowedFile = "disallowed-file" // solve, and also write outside allowed_writes
	WrongFix       = "wrong-fix"       // change an allowed file without fixing it
	MissingEvent   = "missing-event"   // solve, but never report the events in Spec.Withhold
	ReviewerReject = "reviewer-reject" // solve; the reviewer rejects the result
	Hang           = "hang"            // solve, start a late writer, never finish
	DirtyEnd       = "dirty-end"       // solve so that the tests leave a file behind
)

// Behaviors lists every behavior, sorted.
var Behaviors = []string{DirtyEnd, DisallowedFile, Hang, MissingEvent, NoDiff, ReviewerReject, Solve, WrongFix}

// Files the misbehaviours write, named so the harness's findings can be
// recognised in reports.
const (
	UnapprovedFile = "FAKE-UNAPPROVED-CHANGE.md"
	DirtyOutput    = "fake-dirty.out"
	LateWriteFile  = "late-write.txt"
)

// SpecFile is the spec's base name in the run's backend/ directory.
const SpecFile = "fake-spec.json"

// ExitUnavailable is the backend's exit code when its provider is missing
// (EX_UNAVAILABLE).
const ExitUnavailable = 69

// Spec is the fake backend's input.
type Spec struct {
	RunID         string   `json:"run_id"`
	Workspace     string   `json:"workspace"`
	Solution      string   `json:"solution"`
	Behavior      string   `json:"behavior"`
	AllowedWrites []string `json:"allowed_writes"`
	Self          []string `json:"self"` // how to start this binary again (the late writer)
	LateDelayMS   int      `json:"late_delay_ms,omitempty"`
	// Withhold are the events missing-event leaves out (plan.updated and
	// patch.applied when empty).
	Withhold []string `json:"withhold,omitempty"`
}

// Engine is the fake lane's harness-side half.
type Engine struct {
	// Command starts this program's backend half; Main must be reached with
	// the arguments that follow it. cmd/sotvet uses its own executable and
	// "harness fake-backend".
	Command []string
}

// Name implements engine.Engine.
func (e *Engine) Name() string { return Name }

// Provider implements engine.Engine.
func (e *Engine) Provider() string { return "fake-solution-overlay" }

// Invocation implements engine.Engine.
func (e *Engine) Invocation(job engine.Job) (engine.Invocation, error) {
	if len(e.Command) == 0 {
		return engine.Invocation{}, errors.New("fake engine: no backend command configured")
	}
	b := job.FakeBehavior
	if b == "" {
		b = Solve
	}
	spec := Spec{
		RunID:         job.RunID,
		Workspace:     job.Workspace,
		Solution:      job.FakeSolution,
		Behavior:      b,
		AllowedWrites: job.AllowedWrites,
		Self:          e.Command,
		Withhold:      job.FakeWithhold,
	}
	data, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return engine.Invocation{}, err
	}
	argv := append(append([]string{}, e.Command...), "--spec", filepath.Join(job.BackendDir, SpecFile))
	return engine.Invocation{Argv: argv, Dir: job.Workspace, Files: map[string][]byte{SpecFile: append(data, '\n')}}, nil
}

// record is one line of the fake backend's stdout stream.
type record struct {
	Type     string         `json:"type"`
	Data     map[string]any `json:"data,omitempty"`
	Status   string         `json:"status,omitempty"`
	Reviewer string         `json:"reviewer,omitempty"`
	Detail   string         `json:"detail,omitempty"`
}

// Terminal implements engine.Engine: it reads the JSON lines of the
// backend's stdout. The last "result" record is the terminal signal.
func (e *Engine) Terminal(stdout, _ []byte, _ int) engine.Signal {
	sig := engine.Signal{Status: engine.StatusNone}
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var r record
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.Type == "" {
			continue
		}
		if r.Type == "result" {
			sig.Status, sig.Reviewer, sig.Detail = r.Status, r.Reviewer, r.Detail
			switch sig.Status {
			case engine.StatusSuccess, engine.StatusFailure, engine.StatusProviderUnavailable:
			default:
				sig.Status = engine.StatusNone
			}
			continue
		}
		sig.Events = append(sig.Events, engine.Event{Type: r.Type, Data: r.Data})
	}
	return sig
}

// Main is the fake backend process. args are what follows the Command
// prefix: "--spec FILE", or "--late-writer FILE --delay-ms N" for the
// child a hanging backend leaves behind.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 4 && args[0] == "--late-writer" && args[2] == "--delay-ms" {
		ms, _ := strconv.Atoi(args[3])
		time.Sleep(time.Duration(ms) * time.Millisecond)
		if err := os.WriteFile(args[1], []byte("written after the backend was meant to stop\n"), 0o644); err != nil {
			fmt.Fprintln(stderr, "late writer:", err)
			return 1
		}
		return 0
	}
	if len(args) != 2 || args[0] != "--spec" {
		fmt.Fprintln(stderr, "usage: fake-backend --spec FILE")
		return 2
	}
	data, err := os.ReadFile(args[1])
	if err != nil {
		fmt.Fprintln(stderr, "fake backend:", err)
		return 2
	}
	var spec Spec
	if err := json.Unmarshal(data, &spec); err != nil {
		fmt.Fprintln(stderr, "fake backend: spec:", err)
		return 2
	}
	b := &backend{spec: spec, out: json.NewEncoder(stdout), log: stderr}
	return b.run()
}

type backend struct {
	spec Spec
	out  *json.Encoder
	log  io.Writer
}

func (b *backend) emit(r record) { _ = b.out.Encode(r) }

func (b *backend) result(status, reviewer, detail string) {
	b.emit(record{Type: "result", Status: status, Reviewer: reviewer, Detail: detail})
}

func (b *backend) run() int {
	fmt.Fprintf(b.log, "fake backend: run %s behavior %s\n", b.spec.RunID, b.spec.Behavior)
	var keys []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(b.log, "fake backend: environment: %s\n", strings.Join(keys, " "))
	files, err := solutionFiles(b.spec.Solution)
	if err != nil {
		fmt.Fprintf(b.log, "fake backend: provider unavailable: %v\n", err)
		b.result(engine.StatusProviderUnavailable, "", "solution provider unavailable: "+err.Error())
		return ExitUnavailable
	}
	if !b.withheld("plan.updated") {
		b.emit(record{Type: "plan.updated", Data: map[string]any{"steps": []string{"read the task", "edit " + strings.Join(files, ", "), "hand over for verification"}}})
	}
	if b.spec.Behavior == Flaky {
		b.spec.Behavior = flakyBehavior(b.spec.RunID)
		fmt.Fprintf(b.log, "fake backend: flaky: acting out %s\n", b.spec.Behavior)
	}
	var changed []string
	switch b.spec.Behavior {
	case NoDiff:
		// Claims the patch without making it.
		changed = files
	case WrongFix:
		f := files[0]
		if err := appendFile(filepath.Join(b.spec.Workspace, filepath.FromSlash(f)), "\n// fake backend: an attempted fix that does not work\n"); err != nil {
			return b.crash(err)
		}
		changed = []string{f}
	case Solve, DisallowedFile, MissingEvent, ReviewerReject, Hang, DirtyEnd, ForbiddenPush, MutateSource:
		if err := b.apply(files); err != nil {
			return b.crash(err)
		}
		changed = files
	default:
		fmt.Fprintf(b.log, "fake backend: unknown behavior %q\n", b.spec.Behavior)
		b.result(engine.StatusFailure, "", "unknown behavior "+b.spec.Behavior)
		return 2
	}
	switch b.spec.Behavior {
	case DisallowedFile:
		if err := os.WriteFile(filepath.Join(b.spec.Workspace, UnapprovedFile), []byte("Changed by the fake backend outside allowed_writes.\n"), 0o644); err != nil {
			return b.crash(err)
		}
		changed = append(changed, UnapprovedFile)
	case DirtyEnd:
		// The file is already among the changed ones.
		if _, err := b.writeDirtyTest(files); err != nil {
			return b.crash(err)
		}
	}
	if !b.withheld("patch.applied") {
		b.emit(record{Type: "patch.applied", Data: map[string]any{"files": changed}})
	}
	switch b.spec.Behavior {
	case ForbiddenPush:
		b.tryForbidden()
	case MutateSource:
		b.mutateSource()
	}
	switch b.spec.Behavior {
	case Hang:
		return b.hang()
	case ReviewerReject:
		fmt.Fprintln(b.log, "fake backend: reviewer: rejected: the change does not meet the review bar")
		b.result(engine.StatusSuccess, engine.ReviewerRejected, "reviewer rejected the change")
		return 0
	}
	b.result(engine.StatusSuccess, engine.ReviewerApproved, "patch applied")
	return 0
}

// withheld reports whether the missing-event behaviour leaves ev out.
func (b *backend) withheld(ev string) bool {
	if b.spec.Behavior != MissingEvent {
		return false
	}
	return len(b.spec.Withhold) == 0 || slices.Contains(b.spec.Withhold, ev)
}

func (b *backend) crash(err error) int {
	fmt.Fprintln(b.log, "fake backend:", err)
	b.result(engine.StatusFailure, "", err.Error())
	return 1
}

// apply lays the solution overlay over the workspace.
func (b *backend) apply(files []string) error {
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(b.spec.Solution, filepath.FromSlash(f)))
		if err != nil {
			return err
		}
		dst := filepath.Join(b.spec.Workspace, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeDirtyTest makes the tests leave an untracked file behind, inside
// the change the contract allows: the solution's first Go file (not a
// test) gains an init that writes DirtyOutput when a test binary runs it.
// A new test file would be a disallowed change on cases that allow only
// the solution's files, and the run must end dirty, not disallowed.
func (b *backend) writeDirtyTest(files []string) (string, error) {
	for _, f := range files {
		if !strings.HasSuffix(f, ".go") || strings.HasSuffix(f, "_test.go") {
			continue
		}
		p := filepath.Join(b.spec.Workspace, filepath.FromSlash(f))
		src, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		lines := strings.SplitAfter(string(src), "\n")
		at := -1
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), "package ") {
				at = i
				break
			}
		}
		if at < 0 {
			continue
		}
		var out strings.Builder
		for i, l := range lines {
			out.WriteString(l)
			if i == at {
				out.WriteString("\nimport fakedirtyos \"os\"\n")
			}
		}
		fmt.Fprintf(&out, `
// init leaves %s behind whenever a test binary runs this package: the
// fake backend's dirty-end misbehaviour.
func init() {
	if a := fakedirtyos.Args[0]; len(a) > 5 && a[len(a)-5:] == ".test" {
		_ = fakedirtyos.WriteFile(%q, []byte("left behind by a test\n"), 0o644)
	}
}
`, DirtyOutput, DirtyOutput)
		return f, os.WriteFile(p, []byte(out.String()), 0o644)
	}
	return "", errors.New("no Go file in the solution to make dirty")
}

// hang starts a child that writes into the workspace later, then waits
// forever: only the harness's timeout ends it.
func (b *backend) hang() int {
	delay := b.spec.LateDelayMS
	if delay <= 0 {
		delay = 3000
	}
	argv := append(append([]string{}, b.spec.Self...), "--late-writer", filepath.Join(b.spec.Workspace, LateWriteFile), "--delay-ms", strconv.Itoa(delay))
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		return b.crash(err)
	}
	fmt.Fprintf(b.log, "fake backend: late writer pid %d started; waiting forever\n", cmd.Process.Pid)
	b.emit(record{Type: "backend.progress", Data: map[string]any{"late_writer_pid": cmd.Process.Pid}})
	for {
		time.Sleep(time.Hour)
	}
}

// solutionFiles lists the overlay's regular files, slash-separated and
// sorted. A missing or empty overlay is an unavailable provider.
func solutionFiles(dir string) ([]string, error) {
	if dir == "" {
		return nil, errors.New("the case has no fake solution")
	}
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("solution %s is empty", dir)
	}
	sort.Strings(out)
	return out, nil
}

func appendFile(p, s string) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
