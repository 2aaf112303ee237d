package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/harness/verify"
	"github.com/svrnty/sotvet/internal/stage"
)

// Reasons a stage is not validated.
const (
	ReasonNoPassingRun        = "no_passing_run"
	ReasonEvidenceInvalid     = "evidence_invalid"
	ReasonMissingArtifact     = "missing_artifact"
	ReasonOutcomeRejected     = "operator_outcome_rejected"
	ReasonFailureClassMissing = "failure_class_not_closed"
)

// Reason is one reason a stage is not validated.
type Reason struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// StageStatus says whether evidence under a runs root validates a stage
// for an engine, and why not.
type StageStatus struct {
	Stage     int      `json:"stage"`
	Name      string   `json:"name"`
	Engine    string   `json:"engine"`
	Validated bool     `json:"validated"`
	PassRun   string   `json:"pass_run"` // the run that validates it
	Closed    []string `json:"failure_classes_closed"`
	Reasons   []Reason `json:"reasons"`
}

// Summary is the reasons in one line.
func (s StageStatus) Summary() string {
	if s.Validated {
		return "validated by " + s.PassRun
	}
	var parts []string
	for _, r := range s.Reasons {
		parts = append(parts, r.Code+" ("+r.Message+")")
	}
	return strings.Join(parts, "; ")
}

// ladderRun is one run directory read back for the ladder.
type ladderRun struct {
	dir     string
	rep     *evidence.Report
	valid   bool
	outcome *ledger.Outcome
}

// readRuns reads and verifies the run directories directly under root.
func readRuns(root string, trust verify.Options) []ladderRun {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var out []ladderRun
	for _, e := range ents {
		if !e.IsDir() || e.Name() == ledger.ApprovalsDir {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if !stagedReport(filepath.Join(dir, evidence.ReportJSON)) {
			continue
		}
		vs, rep, err := verify.Dir(dir, trust)
		if err != nil || rep == nil || rep.Stage == 0 {
			continue
		}
		lr := ladderRun{dir: dir, rep: rep, valid: len(vs) == 0}
		if data, err := ledger.ReadFile(filepath.Join(dir, ledger.OutcomeFile)); err == nil {
			var o ledger.Outcome
			if len(ledger.Unmarshal(data, &o, trust.Keys()...)) == 0 {
				lr.outcome = &o
			}
		}
		out = append(out, lr)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rep.RunID < out[j].rep.RunID })
	return out
}

// StageStatusOf says whether stage n is validated for engine by the runs
// under root.
func StageStatusOf(root, engine string, t *stage.Table, n int, trust verify.Options) StageStatus {
	return stageStatus(readRuns(root, trust), readComparisons(root, trust), engine, t, n)
}

// Ladder reports every stage's status for engine.
func LadderStatus(root, engine string, t *stage.Table, trust verify.Options) []StageStatus {
	runs, cmps := readRuns(root, trust), readComparisons(root, trust)
	var out []StageStatus
	for n := 1; n <= len(t.Stages); n++ {
		out = append(out, stageStatus(runs, cmps, engine, t, n))
	}
	return out
}

// stageStatus: a stage is validated when a verified run at that stage and
// engine passed with the stage's required artifacts (and, where required,
// an accepted operator outcome), and every required failure class is
// closed by a verified run at that stage ending with the fixture's blocker
// and status.
func stageStatus(runs []ladderRun, comparisons []*ledger.Comparison, engine string, t *stage.Table, n int) StageStatus {
	s, err := t.Lookup(n)
	st := StageStatus{Stage: n, Engine: engine, Closed: []string{}, Reasons: []Reason{}}
	if err != nil {
		st.Reasons = append(st.Reasons, Reason{ReasonNoPassingRun, err.Error()})
		return st
	}
	st.Name = s.Name
	var best []Reason
	found := false
	for _, lr := range runs {
		r := lr.rep
		if r.Stage != n || r.Backend != engine || r.Status != evidence.StatusPass {
			continue
		}
		var why []Reason
		if !lr.valid {
			why = append(why, Reason{ReasonEvidenceInvalid, r.RunID + " does not verify"})
		}
		for _, a := range s.RequiredArtifacts {
			switch a {
			case stage.ArtifactSourceNonMutation:
				if _, ok := r.ArtifactDigests[a]; !ok || r.SourceNonMutation == nil || !r.SourceNonMutation.Unchanged {
					why = append(why, Reason{ReasonMissingArtifact, r.RunID + " has no source non-mutation proof"})
				}
			case stage.ArtifactApproval:
				if r.ApprovalID == "" || !r.ApprovalConsumed {
					why = append(why, Reason{ReasonMissingArtifact, r.RunID + " consumed no approval"})
				}
			case stage.ArtifactOperatorOutcome:
				why = append(why, outcomeReasons(lr)...)
			case stage.ArtifactComparison:
				if !candidateIn(comparisons, engine) {
					why = append(why, Reason{ReasonMissingArtifact, "no verified, complete comparison under the runs root has engine " + engine + " as an eligible candidate default"})
				}
			}
		}
		if s.OperatorOutcomeRequired && !slices.Contains(s.RequiredArtifacts, stage.ArtifactOperatorOutcome) {
			why = append(why, outcomeReasons(lr)...)
		}
		if len(why) == 0 {
			found = true
			st.PassRun = r.RunID
			break
		}
		if best == nil || len(why) < len(best) {
			best = why
		}
	}
	if !found {
		if best == nil {
			best = []Reason{{ReasonNoPassingRun, fmt.Sprintf("no run at stage %d with engine %s passed", n, engine)}}
		}
		st.Reasons = append(st.Reasons, best...)
	}
	for _, fc := range s.RequiredFailureClasses {
		fx, ok := FixtureByName(fc)
		closed := ok && slices.ContainsFunc(runs, func(lr ladderRun) bool {
			r := lr.rep
			return lr.valid && r.Stage == n && r.Backend == engine && r.Status == fx.Status &&
				slices.ContainsFunc(r.Blockers, func(b evidence.Blocker) bool { return b.Code == fx.Blocker })
		})
		if closed {
			st.Closed = append(st.Closed, fc)
		} else {
			st.Reasons = append(st.Reasons, Reason{ReasonFailureClassMissing, fmt.Sprintf("no verified run at stage %d ended %s with %s (failure class %s)", n, fx.Status, fx.Blocker, fc)})
		}
	}
	st.Validated = len(st.Reasons) == 0
	return st
}

func outcomeReasons(lr ladderRun) []Reason {
	switch {
	case lr.outcome == nil:
		return []Reason{{evidence.MissingOperatorOutcome, lr.rep.RunID + " has no operator outcome (sotvet harness outcome)"}}
	case lr.outcome.Decision != ledger.Accepted:
		return []Reason{{ReasonOutcomeRejected, lr.rep.RunID + " was rejected by " + lr.outcome.Actor + ": " + lr.outcome.Reason}}
	}
	return nil
}

// stagedReport says, cheaply, whether path is a report of a staged run:
// only those are verified in full.
func stagedReport(path string) bool {
	data, err := ledger.ReadFile(path)
	if err != nil {
		return false
	}
	var probe struct {
		Stage int `json:"stage"`
	}
	return json.Unmarshal(data, &probe) == nil && probe.Stage > 0
}

// readComparisons reads the verified comparisons directly under root.
func readComparisons(root string, trust verify.Options) []*ledger.Comparison {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var out []*ledger.Comparison
	for _, e := range ents {
		dir := filepath.Join(root, e.Name())
		if !e.IsDir() || !verify.IsComparison(dir) {
			continue
		}
		vs, c, err := verify.Comparison(dir, trust)
		if err == nil && len(vs) == 0 && c != nil {
			out = append(out, c)
		}
	}
	return out
}

// candidateIn says whether a complete comparison judges engine an
// eligible candidate default.
func candidateIn(cs []*ledger.Comparison, engine string) bool {
	return slices.ContainsFunc(cs, func(c *ledger.Comparison) bool {
		return c.Complete && c.CandidateDefault.Engine == engine && c.CandidateDefault.Eligible && !c.RuntimeDefaultActivation
	})
}
