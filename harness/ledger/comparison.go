package ledger

import (
	"fmt"
	"slices"
	"strings"
)

// ComparisonFile is the comparison report inside its directory.
const ComparisonFile = "comparison.json"

// Unknown is what a metric a lane does not report is shown as: never 0.
const Unknown = "unknown"

// Lane statuses.
const (
	LaneRan     = "ran"
	LaneBlocked = "blocked"
)

// Run kinds.
const (
	KindRepeat  = "repeat"  // one of the k runs on the case
	KindFixture = "fixture" // a failure fixture
)

// Comparison is a lane comparison: k runs per lane on the same frozen base
// and contract, and each lane's failure fixtures, with per-lane metrics and
// the candidate-default verdict. Written by sotvet harness compare as
// RUNS/<comparison-id>/comparison.json.
type Comparison struct {
	SchemaVersion  int      `json:"schema_version"`
	ComparisonID   string   `json:"comparison_id"`
	CaseID         string   `json:"case_id"`
	ContractSHA256 string   `json:"contract_sha256"`
	BaseTreeSHA256 string   `json:"base_tree_sha256"` // the frozen base every run started from
	BaseConsistent bool     `json:"base_consistent"`  // every run that copied the base got the same tree
	K              int      `json:"k"`
	Engines        []string `json:"engines"`
	Fixtures       []string `json:"fixtures"`
	Candidate      string   `json:"candidate"`
	// Shard is "i/n" for one slice, "" for a whole comparison; a merge
	// lists the slices it combined in MergedFrom.
	Shard      string   `json:"shard"`
	Shards     int      `json:"shards"`
	MergedFrom []string `json:"merged_from"`
	Complete   bool     `json:"complete"`
	CreatedAt  string   `json:"created_at"`

	Runs                     []RunResult `json:"runs"`
	Lanes                    []Lane      `json:"lanes"`
	CandidateDefault         Candidate   `json:"candidate_default"`
	RuntimeDefaultActivation bool        `json:"runtime_default_activation"`
	Seal
}

// RunResult is one run of the comparison, read back from its evidence.
type RunResult struct {
	Engine          string   `json:"engine"` // the lane as named on the command line
	Kind            string   `json:"kind"`
	Index           int      `json:"index"` // 1..k for repeats, 0 for fixtures
	Fixture         string   `json:"fixture"`
	Job             int      `json:"job"` // position in the full job list
	RunID           string   `json:"run_id"`
	Dir             string   `json:"dir"` // relative to the runs root
	Status          string   `json:"status"`
	Blockers        []string `json:"blockers"`
	BackendStarted  bool     `json:"backend_started"`
	ExpectedStatus  string   `json:"expected_status"`
	ExpectedBlocker string   `json:"expected_blocker"`
	Verified        bool     `json:"verified"`
	ReportShapeOK   bool     `json:"report_shape_ok"`
	EventsOK        bool     `json:"events_ok"`
	PathsOK         bool     `json:"paths_ok"`
	WallMS          int64    `json:"wall_ms"`
	Tokens          any      `json:"tokens"` // number or "unknown"
	Cost            any      `json:"cost"`   // number or "unknown"
	BaseTreeSHA256  string   `json:"base_tree_sha256"`
	ReportSHA256    string   `json:"report_sha256"`
}

// Lane is one lane's metrics.
type Lane struct {
	Engine                string   `json:"engine"`
	Status                string   `json:"status"`
	Blocker               string   `json:"blocker"`
	Runs                  []string `json:"runs"`
	PassAt1               float64  `json:"pass_at_1"`
	PassPowK              float64  `json:"pass_pow_k"`
	Flaky                 bool     `json:"flaky"`
	ReportShapeOK         bool     `json:"report_shape_ok"`
	EventValidityOK       bool     `json:"event_validity_ok"`
	AllowedPathCompliance float64  `json:"allowed_path_compliance"`
	FailureClosure        any      `json:"failure_closure"` // number or "unknown"
	ArtifactCompleteness  float64  `json:"artifact_completeness"`
	WallMS                int64    `json:"wall_ms"` // mean over the k runs
	Tokens                any      `json:"tokens"`  // sum, or "unknown"
	Cost                  any      `json:"cost"`    // sum, or "unknown"
}

// Candidate is the computed candidate-default verdict. It is evidence for
// a discussion, never an activation: runtime_default_activation stays false.
type Candidate struct {
	Engine   string `json:"engine"`
	Eligible bool   `json:"eligible"`
	Reason   string `json:"reason"`
}

// Compute derives the lanes and the candidate verdict from the runs. It is
// what compare writes and what verify recomputes.
func Compute(c *Comparison) {
	// The frozen base: every run that copied the case got the same tree
	// (dirty-start dirties it on purpose, after the baseline).
	c.BaseTreeSHA256, c.BaseConsistent = "", true
	for _, r := range c.Runs {
		if r.BaseTreeSHA256 == "" {
			continue
		}
		if c.BaseTreeSHA256 == "" {
			c.BaseTreeSHA256 = r.BaseTreeSHA256
		} else if r.BaseTreeSHA256 != c.BaseTreeSHA256 {
			c.BaseConsistent = false
		}
	}
	c.Lanes = []Lane{}
	for _, e := range c.Engines {
		c.Lanes = append(c.Lanes, laneOf(e, c.Runs, c.K))
	}
	c.CandidateDefault = candidate(c)
	c.RuntimeDefaultActivation = false
}

func laneOf(engine string, runs []RunResult, k int) Lane {
	l := Lane{Engine: engine, Status: LaneRan, Runs: []string{}, FailureClosure: Unknown, Tokens: Unknown, Cost: Unknown, ReportShapeOK: true, EventValidityOK: true}
	var rep, fx []RunResult
	for _, r := range runs {
		if r.Engine != engine {
			continue
		}
		l.Runs = append(l.Runs, r.RunID)
		if r.Kind == KindFixture {
			fx = append(fx, r)
		} else {
			rep = append(rep, r)
		}
		l.ReportShapeOK = l.ReportShapeOK && r.ReportShapeOK
		l.EventValidityOK = l.EventValidityOK && r.EventsOK
	}
	all := append(slices.Clone(rep), fx...)
	if len(all) == 0 {
		l.Status, l.Blocker = LaneBlocked, "no_runs"
		return l
	}
	if !slices.ContainsFunc(all, func(r RunResult) bool { return r.BackendStarted }) {
		l.Status = LaneBlocked
		if len(all[0].Blockers) > 0 {
			l.Blocker = all[0].Blockers[0]
		}
	}
	verified := 0
	for _, r := range all {
		if r.Verified {
			verified++
		}
	}
	l.ArtifactCompleteness = ratio(verified, len(all))
	passes, paths := 0, 0
	var wall int64
	var tok, cost float64
	tokKnown, costKnown := len(rep) > 0, len(rep) > 0
	for _, r := range rep {
		if r.Status == "pass" && r.Verified {
			passes++
		}
		if r.PathsOK {
			paths++
		}
		wall += r.WallMS
		if v, ok := r.Tokens.(float64); ok {
			tok += v
		} else {
			tokKnown = false
		}
		if v, ok := r.Cost.(float64); ok {
			cost += v
		} else {
			costKnown = false
		}
	}
	if len(rep) > 0 {
		l.PassAt1 = ratio(passes, len(rep))
		if passes == len(rep) && len(rep) >= k {
			l.PassPowK = 1
		}
		l.Flaky = passes > 0 && passes < len(rep)
		l.AllowedPathCompliance = ratio(paths, len(rep))
		l.WallMS = wall / int64(len(rep))
	}
	if tokKnown {
		l.Tokens = tok
	}
	if costKnown {
		l.Cost = cost
	}
	if len(fx) > 0 {
		closed := 0
		for _, r := range fx {
			if r.Verified && r.Status == r.ExpectedStatus && slices.Contains(r.Blockers, r.ExpectedBlocker) {
				closed++
			}
		}
		l.FailureClosure = ratio(closed, len(fx))
	}
	return l
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	// Three decimals keep the JSON stable across machines.
	return float64(int64(float64(a)/float64(b)*1000+0.5)) / 1000
}

func candidate(c *Comparison) Candidate {
	name := c.Candidate
	var cand *Lane
	for i := range c.Lanes {
		if c.Lanes[i].Engine == name {
			cand = &c.Lanes[i]
		}
	}
	v := Candidate{Engine: name}
	switch {
	case cand == nil:
		v.Reason = "the candidate lane " + name + " is not in the comparison"
		return v
	case cand.Status != LaneRan:
		v.Reason = "the candidate lane is blocked: " + cand.Blocker
		return v
	case !c.Complete:
		v.Reason = "the comparison is incomplete (shard " + c.Shard + "); merge every shard first"
		return v
	}
	cc, cknown := cand.FailureClosure.(float64)
	var behind []string
	for _, l := range c.Lanes {
		if l.Engine == name || l.Status != LaneRan {
			continue
		}
		if l.ArtifactCompleteness > cand.ArtifactCompleteness {
			behind = append(behind, fmt.Sprintf("artifact completeness %.3f < %s's %.3f", cand.ArtifactCompleteness, l.Engine, l.ArtifactCompleteness))
		}
		if oc, ok := l.FailureClosure.(float64); ok {
			if !cknown {
				behind = append(behind, fmt.Sprintf("failure closure unknown, %s's is %.3f", l.Engine, oc))
			} else if oc > cc {
				behind = append(behind, fmt.Sprintf("failure closure %.3f < %s's %.3f", cc, l.Engine, oc))
			}
		}
	}
	if len(behind) > 0 {
		v.Reason = "behind another runnable lane: " + strings.Join(behind, "; ")
		return v
	}
	v.Eligible = true
	v.Reason = "matches or beats every other runnable lane on artifact completeness and failure closure"
	return v
}
