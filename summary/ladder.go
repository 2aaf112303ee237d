package summary

import (
	"path"
	"regexp"
	"sort"
	"strconv"

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
	// ValidatedBy are the runs at this stage that validate it: status
	// pass, accepted by verify and, when required, by the operator.
	ValidatedBy []string `json:"validated_by"`
	// Attempts counts every run recorded at this stage.
	Attempts int `json:"attempts"`
	// EvidencePaths are the stage's evidence documents and the reports
	// of the runs that validate it ("runs/<dir>/report.json").
	EvidencePaths           []string `json:"evidence_paths"`
	ApprovalRequired        bool     `json:"approval_required"`
	OperatorOutcomeRequired bool     `json:"operator_outcome_required"`
}

// stageDef is one stage of the table in the workspace's glossary
// (CONTEXT.md "Staged Proof Gates"). The harness's own stage table
// (harness/stage, issue 11) is the same data; this copy keeps the summary
// independent of it until both are merged.
type stageDef struct {
	name, scope               string
	approval, operatorOutcome bool
}

var stageDefs = []stageDef{
	{"Gated Case engine", "none", false, false},
	{"Artificial fixture", "copied artificial case only", false, false},
	{"Copied repo fixture", "copied local repository fixture only", false, false},
	{"Disposable sandbox repo", "disposable repository only", true, false},
	{"Owned noncritical repo", "explicitly owned low-risk repository only", true, true},
	{"Candidate default", "scoped real-repo use only", true, false},
}

// stageName matches the stage a document belongs to by its file name
// ("CTO-CASE-STAGE5-OWNED-NONCRITICAL-REPO-ISSUES.md").
var stageName = regexp.MustCompile(`(?i)(?:^|-)STAGE([1-6])-`)

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
			Documents: []string{}, WorkItems: []string{}, ValidatedBy: []string{}, EvidencePaths: []string{}}
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
	for _, r := range ev.runs {
		n := r.rep.Stage
		if n < 1 || n > len(out) {
			continue
		}
		st := &out[n-1]
		st.Attempts++
		if r.validates(st.OperatorOutcomeRequired) {
			st.ValidatedBy = append(st.ValidatedBy, r.id())
			st.EvidencePaths = append(st.EvidencePaths, "runs/"+r.dir+"/report.json")
		}
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

// validates reports whether the run validates its stage.
func (r *loadedRun) validates(outcomeRequired bool) bool {
	if r.rep.Status != "pass" || !r.verified {
		return false
	}
	if outcomeRequired || r.rep.OperatorOutcomeRequired {
		return r.outcome != nil && r.outcome.Decision == "accepted"
	}
	return true
}

// id is the run's id: report.json's run_id, or its directory name.
func (r *loadedRun) id() string {
	if r.rep.RunID != "" {
		return r.rep.RunID
	}
	return path.Base(r.dir)
}
