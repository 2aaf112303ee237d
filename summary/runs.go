package summary

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"

	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/verify"
)

// Runs are the evidence runs, per lane.
type Runs struct {
	Total       int          `json:"total"`
	Lanes       []Lane       `json:"lanes"`
	Matrices    []MatrixRef  `json:"matrices"`
	Comparisons []Comparison `json:"comparisons"`
}

// Lane is one backend's runs.
type Lane struct {
	Engine string         `json:"engine"`
	Total  int            `json:"total"`
	Counts map[string]int `json:"counts"` // by status
	// Latest are the newest runs, newest first.
	Latest []Run `json:"latest"`
}

// Run is one run directory.
type Run struct {
	ID       string   `json:"id"`
	Dir      string   `json:"dir"` // relative to the runs root
	Matrix   string   `json:"matrix"`
	CaseID   string   `json:"case_id"`
	Engine   string   `json:"engine"`
	Fixture  string   `json:"fixture"`
	Stage    int      `json:"stage"`
	Status   string   `json:"status"`
	Blockers []string `json:"blockers"`
	// Verified is the verify verdict; Violations what it found.
	Verified   bool     `json:"verified"`
	Violations []string `json:"violations"`
	// Authenticity is what a valid verdict proves about who wrote the
	// run, in harness verify's words ("unsigned: anyone can rewrite this
	// run", "signed by trusted key ..."); "" when verify rejects it.
	Authenticity string `json:"authenticity"`
	// Trusted: verify accepts the run and one of the trusted keys
	// signed it.
	Trusted          bool     `json:"trusted"`
	StartedAt        string   `json:"started_at"`
	FinishedAt       string   `json:"finished_at"`
	ChangedFiles     []string `json:"changed_files"`
	ApprovalStatus   string   `json:"approval_status"`
	ApprovalID       string   `json:"approval_id"`
	ApprovalConsumed bool     `json:"approval_consumed"`
	ConsumedByPass   string   `json:"consumed_by_pass_evidence"`
	OutcomeRequired  bool     `json:"operator_outcome_required"`
	MutationMode     string   `json:"mutation_mode"`
	Sandbox          string   `json:"sandbox"`
	// SourceNonMutation is the run's proof that the source repository
	// was not changed: unchanged, changed, or "" when it has none.
	SourceNonMutation string `json:"source_non_mutation"`
	Outcome           string `json:"outcome"` // accepted, rejected or ""
	// Replay are the artifacts to replay the run from, relative to the
	// runs root.
	Replay map[string]string `json:"replay"`
}

// MatrixRef is one matrix directory.
type MatrixRef struct {
	ID     string `json:"id"`
	Dir    string `json:"dir"`
	Status string `json:"status"`
	Runs   int    `json:"runs"`
	Path   string `json:"path"`
}

// Comparison is one lane comparison (<dir>/comparison.json).
type Comparison struct {
	ID               string           `json:"id"`
	CaseID           string           `json:"case_id"`
	Path             string           `json:"path"`
	CreatedAt        string           `json:"created_at"`
	Complete         bool             `json:"complete"`
	Lanes            []ComparisonLane `json:"lanes"`
	CandidateDefault CandidateDefault `json:"candidate_default"`
}

// ComparisonLane is one lane of a comparison.
type ComparisonLane struct {
	Engine  string   `json:"engine"`
	Status  string   `json:"status"` // ran or blocked
	Blocker string   `json:"blocker"`
	Runs    int      `json:"runs"`
	PassAt1 *float64 `json:"pass_at_1"`
	Flaky   bool     `json:"flaky"`
}

func (r *loadedRun) summary() Run {
	rep := &r.rep
	out := Run{ID: r.id(), Dir: r.dir, Matrix: r.matrix, CaseID: rep.CaseID, Engine: rep.Backend,
		Fixture: rep.Fixture, Stage: rep.Stage, Status: rep.Status, Blockers: []string{},
		Verified: r.verified, Violations: r.violations, StartedAt: rep.RunStartedAt,
		Authenticity: r.authenticity, Trusted: r.verified && r.trusted,
		FinishedAt: rep.RunFinishedAt, ChangedFiles: rep.ChangedFiles,
		ApprovalStatus: rep.ApprovalStatus, ApprovalID: rep.ApprovalID,
		ApprovalConsumed: rep.ApprovalConsumed, ConsumedByPass: rep.ConsumedByPassEvidence,
		OutcomeRequired: rep.OperatorOutcomeRequired, MutationMode: rep.MutationMode, Sandbox: rep.Sandbox,
		Replay: map[string]string{}}
	if out.ChangedFiles == nil {
		out.ChangedFiles = []string{}
	}
	for _, b := range rep.Blockers {
		out.Blockers = append(out.Blockers, b.Code)
	}
	if r.outcome != nil {
		out.Outcome = r.outcome.Decision
	}
	if p := rep.SourceNonMutation; p != nil {
		out.SourceNonMutation = "changed"
		if p.Unchanged {
			out.SourceNonMutation = "unchanged"
		}
	}
	for _, a := range []string{evidence.ReportJSON, evidence.EventsFile, evidence.PatchFile, evidence.TestLog} {
		out.Replay[a] = r.dir + "/" + a
	}
	if r.matrix != "" {
		out.Replay["matrix.json"] = r.matrix + "/matrix.json"
	}
	return out
}

func runsOf(ev *evidenceSet, latest int) Runs {
	rs := Runs{Total: len(ev.runs), Lanes: []Lane{}, Matrices: []MatrixRef{}, Comparisons: []Comparison{}}
	byLane := map[string][]*loadedRun{}
	for _, r := range ev.runs {
		lane := r.rep.Backend
		if lane == "" {
			lane = "unknown"
		}
		byLane[lane] = append(byLane[lane], r)
	}
	var lanes []string
	for l := range byLane {
		lanes = append(lanes, l)
	}
	sort.Strings(lanes)
	for _, l := range lanes {
		runs := byLane[l]
		newestFirst(runs)
		lane := Lane{Engine: l, Total: len(runs), Counts: map[string]int{}, Latest: []Run{}}
		for i, r := range runs {
			lane.Counts[r.rep.Status]++
			if i < latest {
				lane.Latest = append(lane.Latest, r.summary())
			}
		}
		rs.Lanes = append(rs.Lanes, lane)
	}
	for _, m := range ev.matrices {
		id := m.m.ID
		if id == "" {
			id = path.Base(m.dir)
		}
		rs.Matrices = append(rs.Matrices, MatrixRef{ID: id, Dir: m.dir, Status: m.m.Status, Runs: len(m.m.Runs), Path: m.dir + "/matrix.json"})
	}
	for _, c := range ev.comparisons {
		id := c.c.ComparisonID
		if id == "" {
			id = c.dir
		}
		cmp := Comparison{ID: id, CaseID: c.c.CaseID, Path: c.dir + "/" + comparisonFile, CreatedAt: c.c.CreatedAt,
			Complete: c.complete(), Lanes: []ComparisonLane{},
			CandidateDefault: CandidateDefault{Engine: c.c.CandidateDefault.Engine, Eligible: c.c.CandidateDefault.Eligible,
				Reason: c.c.CandidateDefault.Reason, Comparison: "runs/" + c.dir + "/" + comparisonFile}}
		for _, l := range c.c.Lanes {
			cl := ComparisonLane{Engine: l.Engine, Status: l.Status, Blocker: l.Blocker, Runs: len(l.Runs), Flaky: l.Flaky}
			if l.Status != "blocked" {
				// A lane that could not run has no pass rate, not a zero one.
				cl.PassAt1 = &l.PassAt1
			}
			cmp.Lanes = append(cmp.Lanes, cl)
		}
		rs.Comparisons = append(rs.Comparisons, cmp)
	}
	return rs
}

// newestFirst sorts runs by start time, newest first; ties by directory.
func newestFirst(runs []*loadedRun) {
	sort.SliceStable(runs, func(i, j int) bool {
		a, b := runs[i].rep.RunStartedAt, runs[j].rep.RunStartedAt
		if a != b {
			return a > b
		}
		return runs[i].dir < runs[j].dir
	})
}

// LoadRun reads one run directory, dir being relative to the runs root:
// the same view of it the summary gives, verified with trust. dir is
// opened under the root.
func LoadRun(runsRoot, dir string, trust verify.Options) (Run, error) {
	ev := &evidenceSet{trust: trust}
	r, err := os.OpenRoot(runsRoot)
	if err != nil {
		return Run{}, err
	}
	defer r.Close()
	if !isDir(r, dir) || !exists(r, dir+"/"+evidence.ReportJSON) {
		return Run{}, fs.ErrNotExist
	}
	matrixDir := ""
	if d := path.Dir(dir); d != "." && exists(r, d+"/matrix.json") {
		matrixDir = d
	}
	ev.loadRun(r, runsRoot, dir, matrixDir)
	if len(ev.runs) == 0 {
		return Run{}, fmt.Errorf("%s: %s", ev.unreadable[0].Path, ev.unreadable[0].Reason)
	}
	return ev.runs[0].summary(), nil
}
