package harness

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/svrnty/sotvet/checks/records"
	"github.com/svrnty/sotvet/harness/engine/fake"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/internal/stage"
)

// gateFailure is one failing stage entry gate.
type gateFailure struct {
	gate, code, msg string
}

// stageGates checks the stage's entry gates before anything starts. Every
// failing gate is recorded with its own blocker code; the run goes on only
// when all pass (and a required approval was consumed by this run).
func (r *run) stageGates() bool {
	if r.stage == nil {
		return true
	}
	s := *r.stage
	var fails []gateFailure
	fail := func(gate, code, format string, args ...any) {
		fails = append(fails, gateFailure{gate, code, fmt.Sprintf(format, args...)})
	}
	var appr *ledger.Approval
	var apprFail *gateFailure
	for _, g := range stage.Gates {
		if !s.HasGate(g) {
			continue
		}
		switch g {
		case stage.GateMutationScope:
			if !slices.Contains(s.ContractModes, r.c.MutationMode) {
				fail(g, evidence.StageMutationScopeExceeded, "stage %d (%s) allows contract mutation_mode %s, the case declares %s",
					s.Number, s.MutationScope, strings.Join(s.ContractModes, ", "), r.c.MutationMode)
			}
		case stage.GateEarlierStage:
			if s.Number > 1 {
				st := StageStatusOf(r.ladderRoot(), r.name, r.ladder.table(), s.Number-1, r.ladder.Trust)
				if !st.Validated {
					fail(g, evidence.EarlierStageNotValidated, "stage %d is not validated by evidence under %s for engine %s: %s",
						s.Number-1, r.ladderRoot(), r.name, st.Summary())
				}
			}
		case stage.GateSourceAdmission:
			r.sourceAdmissionGate(s, fail)
		case stage.GateTargetAdmission:
			r.targetAdmissionGate(fail)
		case stage.GateApproval:
			var f *gateFailure
			appr, f = r.findApproval(s)
			apprFail = f
		}
	}
	r.tr("gate.stage", map[string]any{"stage": s.Number, "gates": s.EntryGates, "failed": len(fails), "approval": apprFail == nil && appr != nil})
	if len(fails) == 0 && apprFail == nil && appr != nil {
		for tries := 0; ; tries++ {
			f := r.consumeApproval(appr)
			if f == nil {
				break
			}
			if f.code != evidence.ApprovalAlreadyConsumed || tries >= 16 {
				apprFail = f
				break
			}
			// Another run took it first: look again for an unconsumed grant.
			if appr, apprFail = r.findApproval(s); apprFail != nil {
				break
			}
		}
	}
	if apprFail != nil {
		fails = append(fails, *apprFail)
	}
	if len(fails) > 0 {
		r.stageBlocked(fails, appr)
		return false
	}
	return true
}

// stageBlocked records the failing entry gates: one backend.gate.blocked
// event, marker file and blocker each.
func (r *run) stageBlocked(fails []gateFailure, appr *ledger.Approval) {
	r.event("task.contract.created", "harness", r.contractData())
	logs := map[string]*strings.Builder{}
	var gates []string
	for _, f := range fails {
		r.event("backend.gate.blocked", "harness", map[string]any{
			"backend": r.name, "gate": f.gate, "blocker": f.code, "reason": f.msg, "stage": r.stage.Number,
			"mutation_mode": r.c.MutationMode, "case_executed": false,
		})
		r.block(f.code, f.msg, nil)
		b, ok := logs[f.gate]
		if !ok {
			b = &strings.Builder{}
			logs[f.gate] = b
			gates = append(gates, f.gate)
			fmt.Fprintf(b, "engine: %s\nstage: %d\ngate: %s\ndecision: blocked\nbackend process started: false\n", r.name, r.stage.Number, f.gate)
		}
		fmt.Fprintf(b, "blocker %s: %s\n", f.code, f.msg)
	}
	for _, g := range gates {
		r.payload = append(r.payload, payloadFile{evidence.BackendDir + "/stage-gate-" + g + ".log", []byte(logs[g].String())})
	}
	r.approvalGateEvents(fails, appr)
	r.notApplicable("blocked before the backend started: " + fails[0].code)
	fmt.Fprintf(&r.testLog, "verification not run: blocked before the backend started (%s)\n", fails[0].code)
}

// sourceAdmission is a lane's source admission record: the pinned source
// the lane runs and the execution modes it is admitted for.
type sourceAdmission struct {
	SourceName            string   `json:"source_name"`
	SourceURL             string   `json:"source_url"`
	PinnedCommit          string   `json:"pinned_commit"`
	Status                string   `json:"status"`
	AllowedExecutionModes []string `json:"allowed_execution_modes"`
	ApprovalSource        string   `json:"approval_source"`
	AdmissionTimestamp    string   `json:"admission_timestamp"`
}

func (r *run) sourceAdmissionGate(s stage.Stage, fail func(gate, code, format string, args ...any)) {
	const g = stage.GateSourceAdmission
	p := r.ladder.SourceAdmission
	if p == "" {
		if r.name == fake.Name {
			// The fake lane is sotvet's own code: there is no outside source to admit.
			r.rep.SourceAdmissionStatus = "not_applicable"
			return
		}
		r.rep.SourceAdmissionStatus = "missing"
		fail(g, evidence.SourceAdmissionMissing, "engine %s has no source admission record (--source-admission)", r.name)
		return
	}
	data, err := ledger.ReadFile(p)
	if err != nil {
		r.rep.SourceAdmissionStatus = "missing"
		fail(g, evidence.SourceAdmissionMissing, "source admission record: %v", err)
		return
	}
	var rec sourceAdmission
	if err := decodeAt(p, data, &rec); err != nil {
		r.rep.SourceAdmissionStatus = "missing"
		fail(g, evidence.SourceAdmissionMissing, "not a source admission record: %v", err)
		return
	}
	switch {
	case rec.Status != "admitted":
		r.rep.SourceAdmissionStatus = "not_admitted"
		fail(g, evidence.SourceAdmissionNotAdmitted, "source admission record %s has status %q, want admitted", p, rec.Status)
	case !slices.Contains(rec.AllowedExecutionModes, s.MutationMode):
		r.rep.SourceAdmissionStatus = "not_admitted"
		fail(g, evidence.SourceAdmissionNotAdmitted, "source admission record %s does not admit execution mode %s (allowed: %s)", p, s.MutationMode, strings.Join(rec.AllowedExecutionModes, ", "))
	default:
		r.rep.SourceAdmissionStatus = "admitted"
	}
}

// AdmittedRisk is the only risk classification an admitted target
// repository may have.
const AdmittedRisk = "low_risk_noncritical"

func (r *run) targetAdmissionGate(fail func(gate, code, format string, args ...any)) {
	const g = stage.GateTargetAdmission
	p := r.ladder.TargetAdmission
	if p == "" {
		fail(g, evidence.TargetAdmissionMissing, "no target-repository admission record (--target-admission)")
		return
	}
	data, err := ledger.ReadFile(p)
	if err != nil {
		fail(g, evidence.TargetAdmissionMissing, "target-repository admission record: %v", err)
		return
	}
	rec, err := decodeTarget(p, data)
	if err != nil {
		fail(g, evidence.TargetAdmissionMissing, "not a valid target-repository admission record: %v", err)
		return
	}
	if rec.AdmissionStatus != "admitted" {
		fail(g, evidence.TargetAdmissionNotAdmitted, "%s: admission_status is %q, want admitted", p, rec.AdmissionStatus)
	}
	if strings.TrimSpace(rec.RepositoryOwner) == "" || strings.TrimSpace(rec.OwnershipEvidence) == "" {
		fail(g, evidence.TargetOwnerNotExplicit, "%s: repository_owner and ownership_evidence must both be given", p)
	}
	if rec.RiskClassification != AdmittedRisk {
		fail(g, evidence.TargetRiskNotLow, "%s: risk_classification is %q, want %s", p, rec.RiskClassification, AdmittedRisk)
	}
	var missing []string
	for _, a := range records.RequiredForbiddenActions {
		if !slices.Contains(rec.ForbiddenActions, a) {
			missing = append(missing, "forbidden action "+a)
		}
	}
	if strings.TrimSpace(rec.ApprovalSource) == "" {
		missing = append(missing, "approval_source")
	}
	if rec.OperatorOutcomeRequired == nil || !*rec.OperatorOutcomeRequired {
		missing = append(missing, "operator_outcome_required: true")
	} else {
		r.rep.OperatorOutcomeRequired = true
	}
	if len(missing) > 0 {
		fail(g, evidence.TargetAdmissionIncomplete, "%s lacks what the admission template requires: %s", p, strings.Join(missing, ", "))
	}
	if r.repoAbs != "" && !samePath(rec.TargetRepositoryPath, r.repoAbs) {
		fail(g, evidence.TargetRepositoryMismatch, "%s admits %q, the run's --repo is %q", p, rec.TargetRepositoryPath, r.repoAbs)
	}
	if len(rec.AllowedPaths) == 0 {
		fail(g, evidence.PathOutsideAllowedPaths, "%s: allowed_paths is empty", p)
	}
	var outside, forbidden []string
	for _, w := range r.c.AllowedWrites {
		if len(rec.AllowedPaths) > 0 && !slices.ContainsFunc(rec.AllowedPaths, func(a string) bool { return within(w, a) }) {
			outside = append(outside, w)
		}
		if slices.ContainsFunc(rec.ForbiddenPaths, func(f string) bool { return overlaps(w, f) }) {
			forbidden = append(forbidden, w)
		}
	}
	if len(outside) > 0 {
		fail(g, evidence.PathOutsideAllowedPaths, "allowed_writes %s are outside the admitted allowed_paths %s", strings.Join(outside, ", "), strings.Join(rec.AllowedPaths, ", "))
	}
	if len(forbidden) > 0 {
		fail(g, evidence.PathInForbiddenPaths, "allowed_writes %s reach the admitted forbidden_paths %s", strings.Join(forbidden, ", "), strings.Join(rec.ForbiddenPaths, ", "))
	}
}

// within says whether every path the glob w may write lies in the
// admitted path a: a itself, or below a when a names a directory ("src/").
func within(w, a string) bool {
	if strings.HasSuffix(a, "/") {
		return strings.HasPrefix(w, a)
	}
	return w == a
}

// overlaps says whether the glob w may write a path the forbidden entry f
// names: f itself, anything below a directory f ("deploy/"), or a file
// matching a pattern f (".env.*").
func overlaps(w, f string) bool {
	if strings.HasSuffix(f, "/") {
		dir := strings.TrimSuffix(f, "/")
		if strings.HasPrefix(w, f) || w == dir {
			return true
		}
		// A glob like **/*.go may write below dir.
		ok, _ := doublestar.Match(w, path.Join(dir, "x"))
		return ok || strings.HasPrefix(w, "**")
	}
	if w == f {
		return true
	}
	if ok, _ := doublestar.Match(w, f); ok {
		return true
	}
	ok, _ := doublestar.Match(f, w)
	return ok
}

func samePath(a, b string) bool {
	if a == "" || b == "" || !filepath.IsAbs(a) {
		return false
	}
	ea, err1 := filepath.EvalSymlinks(a)
	eb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ea == eb
}

// resolveRepo checks --repo for a staged run and records it.
func (r *run) resolveRepo() error {
	s := r.stage
	if s == nil {
		if r.ladder.Repo != "" {
			return fmt.Errorf("%w: --repo is for staged runs (--stage 3 to 6)", ErrUsage)
		}
		return nil
	}
	if !s.NeedsRepo() {
		if r.ladder.Repo != "" {
			return fmt.Errorf("%w: stage %d works on the case's own fixture; --repo is for stages 3 to 6", ErrUsage, s.Number)
		}
		return nil
	}
	if r.ladder.Repo == "" {
		return fmt.Errorf("%w: stage %d (%s) needs --repo PATH", ErrUsage, s.Number, s.MutationScope)
	}
	abs, err := canonicalRepo(r.ladder.Repo)
	if err != nil {
		return err
	}
	runs, _ := filepath.Abs(r.ladderRoot())
	if ev, err := filepath.EvalSymlinks(runs); err == nil {
		runs = ev
	}
	if rel, err := filepath.Rel(abs, runs); err == nil && !strings.HasPrefix(rel, "..") {
		return fmt.Errorf("%w: the runs root %s is inside --repo %s; evidence would change the source", ErrUsage, runs, abs)
	}
	r.repoAbs = abs
	return nil
}
