package summary

import (
	"path"
	"slices"
	"sort"
	"strconv"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/internal/lazyre"
	"github.com/svrnty/sotvet/internal/stage"
	"github.com/svrnty/sotvet/sotparse"
)

// Stage is one rung of the proof ladder.
type Stage struct {
	Stage         int    `json:"stage"`
	Name          string `json:"name"`
	MutationScope string `json:"mutation_scope"`
	// Status joins the two sources: validated (documents and a verified
	// run agree), documented (the documents say validated, no verified
	// run backs it), evidence-only (a verified run, the documents do not
	// say validated yet), in-progress, planned, not-started.
	Status string `json:"status"`
	// Label is Status in words, for people.
	Label string `json:"label"`
	// DocStatus is what the documents say: validated, in-progress,
	// planned or absent.
	DocStatus string   `json:"doc_status"`
	Documents []string `json:"documents"`
	WorkItems []string `json:"work_items"`
	// ValidatedBy are the passing runs that validate the stage for their
	// lane: accepted by verify, with the stage's required evidence
	// (source non-mutation proof, a consumed approval, an accepted
	// operator outcome, an eligible comparison, as the stage needs), and
	// every required failure class closed by a verified fixture run of
	// the same lane at this stage.
	ValidatedBy []string `json:"validated_by"`
	// Reasons say why the runs at this stage do not validate it yet.
	Reasons []string `json:"reasons"`
	// FailureClasses are the failure fixtures the stage must see closed.
	FailureClasses []string `json:"failure_classes"`
	// Attempts counts every run recorded at this stage.
	Attempts int `json:"attempts"`
	// EvidencePaths are the stage's evidence documents and the reports
	// of the runs that validate it ("runs/<dir>/report.json").
	EvidencePaths           []string `json:"evidence_paths"`
	ApprovalRequired        bool     `json:"approval_required"`
	OperatorOutcomeRequired bool     `json:"operator_outcome_required"`
}

// stageDef is what the summary needs of one stage of the harness's own
// table (internal/stage), so a stage is judged here as the harness's entry
// gates judge it.
type stageDef struct {
	name, scope               string
	approval, operatorOutcome bool
	sourceProof, comparison   bool     // evidence the passing run needs
	failureClasses            []string // failure fixture names
}

var stageDefs = defsOf(stage.Default())

func defsOf(t *stage.Table) []stageDef {
	out := make([]stageDef, 0, len(t.Stages))
	for _, s := range t.Stages {
		out = append(out, stageDef{
			name: s.Name, scope: s.MutationScope,
			approval: s.ApprovalRequired, operatorOutcome: s.OperatorOutcomeRequired,
			sourceProof:    slices.Contains(s.RequiredArtifacts, stage.ArtifactSourceNonMutation),
			comparison:     slices.Contains(s.RequiredArtifacts, stage.ArtifactComparison),
			failureClasses: s.RequiredFailureClasses,
		})
	}
	return out
}

// stageName matches the stage a document belongs to by its file name
// ("CTO-CASE-STAGE5-OWNED-NONCRITICAL-REPO-ISSUES.md").
var stageName = lazyre.New(`(?i)(?:^|-)STAGE([1-6])-`)

var stageLabels = map[string]string{
	"validated":     "validated: documents and a verified run agree",
	"documented":    "validated in the documents; no verified run backs it",
	"evidence-only": "a verified run passed; the documents do not say validated",
	"in-progress":   "in progress",
	"planned":       "planned",
	"not-started":   "not started",
}

// doneStatus reports whether a work item status means finished.
func doneStatus(s string) bool {
	switch s {
	case "validated", "done", "closed", "complete", "completed", "accepted":
		return true
	}
	return false
}

func ladderOf(ws *sotparse.Workspace, ev *evidenceSet) []Stage {
	out := make([]Stage, len(stageDefs))
	for i, d := range stageDefs {
		out[i] = Stage{Stage: i + 1, Name: d.name, MutationScope: d.scope,
			ApprovalRequired: d.approval, OperatorOutcomeRequired: d.operatorOutcome,
			Documents: []string{}, WorkItems: []string{}, ValidatedBy: []string{}, Reasons: []string{},
			FailureClasses: append([]string{}, d.failureClasses...), EvidencePaths: []string{}}
	}
	items := map[int]map[string]bool{}
	for _, d := range ws.Docs {
		m := stageName.FindStringSubmatch(path.Base(d.Path))
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		st := &out[n-1]
		st.Documents = append(st.Documents, d.Path)
		if d.Kind == sotparse.KindEvidence || d.Kind == sotparse.KindCloseout {
			st.EvidencePaths = append(st.EvidencePaths, d.Path)
		}
		if items[n] == nil {
			items[n] = map[string]bool{}
		}
		for _, w := range d.WorkItems {
			items[n][w.ID] = true
		}
	}
	if wb := ws.Workboard; wb != nil {
		for _, it := range wb.Items {
			if it.ID == nil || it.Source == nil {
				continue
			}
			if m := stageName.FindStringSubmatch(path.Base(it.Source.Value)); m != nil {
				n, _ := strconv.Atoi(m[1])
				if items[n] == nil {
					items[n] = map[string]bool{}
				}
				items[n][it.ID.Value] = true
			}
		}
	}
	for i := range out {
		st := &out[i]
		for id := range items[st.Stage] {
			st.WorkItems = append(st.WorkItems, id)
		}
		sort.Strings(st.WorkItems)
		st.DocStatus = docStatus(ws, st)
	}
	for i := range out {
		validateByEvidence(&out[i], stageDefs[i], ev)
	}
	for i := range out {
		st := &out[i]
		backed := len(st.ValidatedBy) > 0
		switch {
		case st.DocStatus == "validated" && backed:
			st.Status = "validated"
		case st.DocStatus == "validated":
			st.Status = "documented"
		case backed:
			st.Status = "evidence-only"
		case st.DocStatus == "in-progress" || st.Attempts > 0:
			st.Status = "in-progress"
		case st.DocStatus == "planned":
			st.Status = "planned"
		default:
			st.Status = "not-started"
		}
		st.Label = stageLabels[st.Status]
	}
	return out
}

// docStatus is what the workspace says of a stage: validated when every
// work item of its documents is finished on the workboard.
func docStatus(ws *sotparse.Workspace, st *Stage) string {
	if len(st.Documents) == 0 && len(st.WorkItems) == 0 {
		return "absent"
	}
	done, total := 0, 0
	for _, id := range st.WorkItems {
		total++
		if it := ws.Workboard.Item(id); it != nil && it.Status != nil && doneStatus(it.Status.Value) {
			done++
		}
	}
	switch {
	case total > 0 && done == total:
		return "validated"
	case done > 0:
		return "in-progress"
	}
	return "planned"
}

// validateByEvidence applies the ladder contract shared with the harness
// (issue 11's harness ladder) to the runs recorded at st's stage, lane by
// lane.
func validateByEvidence(st *Stage, d stageDef, ev *evidenceSet) {
	lanes := map[string][]*loadedRun{}
	var names []string
	for _, r := range ev.runs {
		if r.rep.Stage != st.Stage {
			continue
		}
		st.Attempts++
		if lanes[r.rep.Backend] == nil {
			names = append(names, r.rep.Backend)
		}
		lanes[r.rep.Backend] = append(lanes[r.rep.Backend], r)
	}
	sort.Strings(names)
	for _, lane := range names {
		runs := lanes[lane]
		var pass *loadedRun
		var why []string
		for _, r := range runs {
			if r.rep.Status != "pass" || r.rep.Fixture != "" {
				continue
			}
			w := passReasons(r, d, ev)
			if len(w) == 0 {
				pass = r
				break
			}
			if why == nil || len(w) < len(why) {
				why = w
			}
		}
		if pass == nil && why == nil {
			why = []string{lane + ": no passing run at this stage"}
		}
		for _, class := range d.failureClasses {
			if !closed(runs, class) {
				why = append(why, lane+": failure class "+class+" not closed by a verified run at this stage")
			}
		}
		if pass != nil && len(why) == 0 {
			st.ValidatedBy = append(st.ValidatedBy, pass.id())
			st.EvidencePaths = append(st.EvidencePaths, "runs/"+pass.dir+"/report.json")
			continue
		}
		st.Reasons = append(st.Reasons, why...)
	}
	if len(st.ValidatedBy) > 0 {
		st.Reasons = []string{}
	}
}

// passReasons says what a passing run lacks to validate its stage.
func passReasons(r *loadedRun, d stageDef, ev *evidenceSet) []string {
	var why []string
	id := r.id()
	if !r.verified {
		why = append(why, id+" does not verify")
	}
	if d.sourceProof && (r.rep.SourceNonMutation == nil || !r.rep.SourceNonMutation.Unchanged) {
		why = append(why, id+" has no source non-mutation proof")
	}
	if d.approval && (r.rep.ApprovalID == "" || !r.rep.ApprovalConsumed) {
		why = append(why, id+" consumed no approval")
	}
	if d.operatorOutcome || r.rep.OperatorOutcomeRequired {
		switch {
		case r.outcome == nil:
			why = append(why, id+" has no operator outcome")
		case r.outcome.Decision != "accepted":
			why = append(why, id+" was "+r.outcome.Decision+" by the operator")
		}
	}
	if d.comparison && !eligibleIn(ev, r.rep.Backend) {
		why = append(why, "no complete comparison makes "+r.rep.Backend+" an eligible candidate default")
	}
	return why
}

// closed reports whether a verified run of the failure fixture class
// ended with the fixture's status and blocker.
func closed(runs []*loadedRun, class string) bool {
	fx, ok := harness.FixtureByName(class)
	if !ok {
		return false
	}
	for _, r := range runs {
		if r.rep.Fixture != class || !r.verified || r.rep.Status != fx.Status {
			continue
		}
		for _, b := range r.rep.Blockers {
			if b.Code == fx.Blocker {
				return true
			}
		}
	}
	return false
}

// id is the run's id: report.json's run_id, or its directory name.
func (r *loadedRun) id() string {
	if r.rep.RunID != "" {
		return r.rep.RunID
	}
	return path.Base(r.dir)
}
