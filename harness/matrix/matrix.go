// Package matrix is the harness's health command: every case on the fake
// lane plus every failure fixture, run in parallel, each run then verified,
// and the outcomes compared with what the failure matrix requires.
package matrix

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/contract"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/verify"
)

// FileName is the aggregate's file name.
const FileName = "matrix.json"

// Matrix statuses.
const (
	StatusPass = "pass"
	StatusFail = "fail"
)

// DefaultFixtureCase is the case the fixtures run on when it exists.
const DefaultFixtureCase = "r1-string-slugify"

// Options configure a matrix run.
type Options struct {
	Base        harness.Options // RunsRoot, FakeCommand, Environ, Redactor, ...
	CasesDir    string
	Jobs        int
	FixtureCase string // case id for the fixtures
	// Engine is the lane the matrix runs through (the fake lane when
	// empty). A real lane runs the fixture case and the fixtures that
	// change the run's surroundings (Fixture.Lanes); with a scripted
	// provider (FixturePlaceholder in the base URL) also those it can
	// drive the lane's CLI into (Fixture.Scripted). The others are listed
	// not applicable, with the reason.
	Engine string
}

// Entry is one run of the matrix.
type Entry struct {
	CaseID          string   `json:"case_id"`
	Fixture         string   `json:"fixture"`
	RunID           string   `json:"run_id"`
	RunDir          string   `json:"run_dir"`
	ExpectedStatus  string   `json:"expected_status"`
	Status          string   `json:"status"`
	ExpectedBlocker string   `json:"expected_blocker"`
	Blockers        []string `json:"blockers"`
	ExpectedExit    int      `json:"expected_exit_code"`
	ExitCode        int      `json:"exit_code"`
	Verified        bool     `json:"verified"`
	Violations      []string `json:"violations"`
	OK              bool     `json:"ok"`
	NotApplicable   string   `json:"not_applicable,omitempty"`
	Error           string   `json:"error"`
	DurationMS      int64    `json:"duration_ms"`
}

// Matrix is matrix.json.
type Matrix struct {
	SchemaVersion int     `json:"schema_version"`
	ID            string  `json:"id"`
	Status        string  `json:"status"`
	StartedAt     string  `json:"started_at"`
	FinishedAt    string  `json:"finished_at"`
	WallMS        int64   `json:"wall_ms"`
	Jobs          int     `json:"jobs"`
	Runs          []Entry `json:"runs"`

	Dir  string `json:"-"`
	Path string `json:"-"`
}

type job struct {
	caseDir string
	caseID  string
	fixture *harness.Fixture
}

// Run runs the matrix and writes matrix.json.
func Run(ctx context.Context, opt Options) (*Matrix, error) {
	clock := opt.Base.Clock
	if clock == nil {
		clock = time.Now
	}
	dirs, err := contract.List(opt.CasesDir)
	if err != nil {
		return nil, fmt.Errorf("cases: %w", err)
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("cases: no case under %s", opt.CasesDir)
	}
	var jobs []job
	fixtureDir := ""
	real := opt.Engine != "" && opt.Engine != harness.DefaultEngine
	for _, d := range dirs {
		id := filepath.Base(d)
		if !real {
			jobs = append(jobs, job{caseDir: d, caseID: id})
		}
		if id == opt.FixtureCase || (opt.FixtureCase == "" && id == DefaultFixtureCase) {
			fixtureDir = d
		}
	}
	if opt.FixtureCase != "" && fixtureDir == "" {
		return nil, fmt.Errorf("fixture case %q is not under %s", opt.FixtureCase, opt.CasesDir)
	}
	if fixtureDir == "" {
		fixtureDir = dirs[0]
	}
	if real {
		// A real lane's provider solves what it is given: the fixture case.
		jobs = append(jobs, job{caseDir: fixtureDir, caseID: filepath.Base(fixtureDir)})
	}
	for i := range harness.Fixtures {
		jobs = append(jobs, job{caseDir: fixtureDir, caseID: filepath.Base(fixtureDir), fixture: &harness.Fixtures[i]})
	}

	start := clock()
	var rnd [3]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return nil, err
	}
	m := &Matrix{
		SchemaVersion: 1,
		ID:            fmt.Sprintf("%s-matrix-%s", start.UTC().Format("20060102T150405Z"), hex.EncodeToString(rnd[:])),
		StartedAt:     evidence.FormatTime(start),
		Jobs:          max(opt.Jobs, 1),
		Runs:          make([]Entry, len(jobs)),
	}
	if opt.Base.RunsRoot == "" {
		return nil, fmt.Errorf("%w: no runs root", harness.ErrUsage)
	}
	m.Dir = filepath.Join(opt.Base.RunsRoot, m.ID)
	if err := os.MkdirAll(m.Dir, 0o755); err != nil {
		return nil, err
	}

	// The runs of each case share the build outputs of the harness's own
	// build of that pristine case, and nothing any run wrote.
	share := &harness.GoCacheShare{Root: m.Dir}
	defer share.Close()
	for _, j := range jobs {
		share.Plan(j.caseDir)
	}
	sem := make(chan struct{}, m.Jobs)
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			m.Runs[i] = runOne(ctx, opt, share, m.Dir, j)
		}()
	}
	wg.Wait()
	if err := share.Close(); err != nil {
		return nil, fmt.Errorf("shared build cache: %w", err)
	}

	finish := clock()
	m.FinishedAt = evidence.FormatTime(finish)
	m.WallMS = finish.Sub(start).Milliseconds()
	m.Status = StatusPass
	for _, e := range m.Runs {
		if !e.OK {
			m.Status = StatusFail
		}
	}
	data, err := evidence.Marshal(m)
	if err != nil {
		return nil, err
	}
	m.Path = filepath.Join(m.Dir, FileName)
	if err := evidence.WriteFileAtomic(m.Path, data); err != nil {
		return nil, err
	}
	return m, nil
}

func runOne(ctx context.Context, opt Options, share *harness.GoCacheShare, root string, j job) Entry {
	e := Entry{CaseID: j.caseID, ExpectedStatus: evidence.StatusPass, ExpectedExit: evidence.ExitPass, Blockers: []string{}, Violations: []string{}}
	ro := opt.Base
	ro.CaseDir = j.caseDir
	ro.RunsRoot = root
	if ro.GoScratch == "" {
		ro.GoScratch = opt.Base.RunsRoot
	}
	ro.Engine = harness.DefaultEngine
	if opt.Engine != "" {
		ro.Engine = opt.Engine
	}
	ro.Fixture = ""
	if ro.Engine != harness.DefaultEngine {
		scenario := ScriptedSolve
		if j.fixture != nil {
			scenario = j.fixture.Name
		}
		scripted := scriptProvider(&ro, j.caseDir, scenario)
		if j.fixture != nil && !j.fixture.Lanes {
			why := ""
			switch {
			case !j.fixture.RunsOn(ro.Engine):
				why = "no provider can make the " + ro.Engine + " CLI act this fixture out: " + j.fixture.Unscripted
			case !scripted:
				why = "the fixture needs the fake backend's misbehaviour, or a scripted provider (" + FixturePlaceholder + " in the base URL)"
			}
			if why != "" {
				e.Fixture = j.fixture.Name
				e.Status = "n/a"
				e.NotApplicable = why
				e.OK = true
				return e
			}
		}
	}
	if j.fixture != nil {
		e.Fixture = j.fixture.Name
		e.ExpectedStatus = j.fixture.Status
		e.ExpectedBlocker = j.fixture.Blocker
		e.ExpectedExit = j.fixture.ExitCode()
		ro.Fixture = j.fixture.Name
	}
	ro = share.For(ctx, ro)
	t0 := time.Now()
	res, err := harness.Run(ctx, ro)
	e.DurationMS = time.Since(t0).Milliseconds()
	if err != nil {
		e.Error = err.Error()
		return e
	}
	r := res.Report
	e.RunID, e.RunDir, e.Status, e.ExitCode = r.RunID, res.RunDir, r.Status, res.ExitCode
	for _, b := range r.Blockers {
		e.Blockers = append(e.Blockers, b.Code)
	}
	vs, _, err := verify.Dir(res.RunDir, verify.Options{})
	if err != nil {
		e.Error = err.Error()
		return e
	}
	for _, v := range vs {
		e.Violations = append(e.Violations, v.String())
	}
	e.Verified = len(vs) == 0
	wantBlockers := []string{}
	if e.ExpectedBlocker != "" {
		wantBlockers = []string{e.ExpectedBlocker}
	}
	e.OK = e.Verified && e.Status == e.ExpectedStatus && e.ExitCode == e.ExpectedExit &&
		strings.Join(e.Blockers, ",") == strings.Join(wantBlockers, ",")
	return e
}

// WriteTable prints the matrix as a table.
func WriteTable(w io.Writer, m *Matrix) {
	fmt.Fprintf(w, "%-24s %-24s %-8s %-24s %-4s %-8s %s\n", "CASE", "FIXTURE", "STATUS", "BLOCKER", "EXIT", "VERIFIED", "OK")
	for _, e := range m.Runs {
		fx := e.Fixture
		if fx == "" {
			fx = "-"
		}
		bl := strings.Join(e.Blockers, ",")
		if bl == "" {
			bl = "-"
		}
		ok := "ok"
		if e.NotApplicable != "" {
			ok = "n/a (" + e.NotApplicable + ")"
		}
		if !e.OK {
			ok = "FAIL"
			if e.Error != "" {
				ok += " (" + e.Error + ")"
			}
		}
		fmt.Fprintf(w, "%-24s %-24s %-8s %-24s %-4d %-8t %s\n", e.CaseID, fx, e.Status, bl, e.ExitCode, e.Verified, ok)
		for _, v := range e.Violations {
			fmt.Fprintf(w, "    %s\n", v)
		}
	}
	fmt.Fprintf(w, "matrix %s: %s (%d runs, %d jobs, %d ms)\n", m.ID, m.Status, len(m.Runs), m.Jobs, m.WallMS)
	fmt.Fprintf(w, "matrix.json: %s\n", m.Path)
}

// FixturePlaceholder in the provider's base URL marks a scripted provider
// (internal/mockprovider): on a real lane the matrix replaces it with the
// fixture's name, or ScriptedSolve for a run without one, so that the
// provider drives the real CLI into each fixture's misbehaviour.
const FixturePlaceholder = "{fixture}"

// ScriptedSolve is the scripted provider's scenario for a healthy run.
const ScriptedSolve = "solve"

// scriptProvider replaces FixturePlaceholder in the run's base URL
// variable (--base-url-env, else the case's provider_env.base_url, else
// the default) with scenario, and reports whether there was one.
func scriptProvider(ro *harness.Options, caseDir, scenario string) bool {
	name := ro.BaseURLEnv
	if name == "" {
		if c, err := contract.Load(caseDir); err == nil {
			name = c.BaseURLEnv
		}
	}
	if name == "" {
		name = cmp.Or(ro.ConfigBaseURLEnv, harness.DefaultBaseURLEnv)
	}
	env := slices.Clone(ro.Environ)
	found := false
	for i, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if ok && k == name && strings.Contains(v, FixturePlaceholder) {
			env[i] = k + "=" + strings.ReplaceAll(v, FixturePlaceholder, scenario)
			found = true
		}
	}
	ro.Environ = env
	return found
}
