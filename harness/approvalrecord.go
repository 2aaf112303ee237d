package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/harness/verify"
	"github.com/svrnty/sotvet/internal/stage"
)

// approvalCodes are the blockers of the approval gate.
var approvalCodes = []string{evidence.ApprovalMissing, evidence.ApprovalDeniedCode, evidence.ApprovalExpired, evidence.ApprovalAlreadyConsumed, evidence.ApprovalScopeMismatch}

// LoadApprovals reads every approval record under runsRoot, sorted by
// recording time then id. Records that fail their seal are returned in bad
// (file name: problem) and left out.
func LoadApprovals(runsRoot string, trust verify.Options) (good []*ledger.Approval, bad []string) {
	dir := filepath.Join(runsRoot, ledger.ApprovalsDir)
	if info, err := os.Lstat(dir); err != nil || !info.IsDir() {
		// Absent, or a link to somewhere else: no approvals here.
		return nil, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil
	}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".consumed.json") {
			continue
		}
		data, err := ledger.ReadFile(filepath.Join(dir, name))
		if err != nil {
			bad = append(bad, name+": "+err.Error())
			continue
		}
		var a ledger.Approval
		if errs := ledger.Unmarshal(data, &a, trust.Keys()...); len(errs) > 0 {
			bad = append(bad, name+": "+errors.Join(errs...).Error())
			continue
		}
		if a.ApprovalID+".json" != name || !ledger.ValidID(a.ApprovalID) {
			bad = append(bad, name+": approval_id does not name the file")
			continue
		}
		good = append(good, &a)
	}
	sort.SliceStable(good, func(i, j int) bool {
		if good[i].RecordedAt != good[j].RecordedAt {
			return good[i].RecordedAt < good[j].RecordedAt
		}
		return good[i].ApprovalID < good[j].ApprovalID
	})
	return good, bad
}

// findApproval looks for the approval of this run: one for the same case,
// contract, engine, stage and repository. The latest decision rules: after
// a denial nothing earlier counts. Of the grants after it, the earliest
// unexpired and unconsumed one is used. A denial is returned with its
// failure, so that the report can name who denied.
func (r *run) findApproval(s stage.Stage) (*ledger.Approval, *gateFailure) {
	const g = stage.GateApproval
	all, bad := LoadApprovals(r.ladderRoot(), r.ladder.Trust)
	for _, b := range bad {
		r.tr("approval.record.invalid", map[string]any{"problem": b})
	}
	var match []*ledger.Approval
	for _, a := range all {
		if a.CaseID == r.c.ID && a.ContractSHA256 == r.c.Digest && a.Engine == r.name && a.Stage == s.Number && a.Repo == r.repoAbs {
			match = append(match, a)
		}
	}
	scope := fmt.Sprintf("case %s, stage %d, engine %s, repo %q", r.c.ID, s.Number, r.name, r.repoAbs)
	if len(match) == 0 {
		msg := "no recorded approval for " + scope + " (sotvet harness approve --grant)"
		if len(bad) > 0 {
			msg += fmt.Sprintf("; %d approval records failed their seal and were ignored", len(bad))
		}
		return nil, &gateFailure{g, evidence.ApprovalMissing, msg}
	}
	last := match[len(match)-1]
	if last.Decision == ledger.Denied {
		return last, &gateFailure{g, evidence.ApprovalDeniedCode, fmt.Sprintf("approval %s for %s was denied by %s", last.ApprovalID, scope, last.Actor)}
	}
	now := r.now()
	var expired, consumed *ledger.Approval
	start := 0
	for i, a := range match {
		if a.Decision == ledger.Denied {
			start = i + 1
		}
	}
	// A grant is for the packet the operator read: the repository at its
	// HEAD, and every line of the packet. Rebuilt now, it must be the same.
	var bound []*ledger.Approval
	var mismatch string
	for _, a := range match[start:] {
		if why := r.approvalBinding(a, s); why != "" {
			mismatch = fmt.Sprintf("approval %s for %s does not cover this run: %s", a.ApprovalID, scope, why)
			continue
		}
		bound = append(bound, a)
	}
	if len(bound) == 0 && mismatch != "" {
		return last, &gateFailure{g, evidence.ApprovalScopeMismatch, mismatch}
	}
	for _, a := range bound {
		exp, err := evidence.ParseTime(a.ExpiresAt)
		switch {
		case err != nil || !now.Before(exp):
			expired = a
		case isConsumed(r.ladderRoot(), a.ApprovalID):
			consumed = a
		default:
			return a, nil
		}
	}
	if expired != nil && (consumed == nil || expired.RecordedAt >= consumed.RecordedAt) {
		return expired, &gateFailure{g, evidence.ApprovalExpired, fmt.Sprintf("approval %s for %s expired at %s", expired.ApprovalID, scope, expired.ExpiresAt)}
	}
	return consumed, &gateFailure{g, evidence.ApprovalAlreadyConsumed, fmt.Sprintf("approval %s for %s was already consumed by another run; one approval is consumed by exactly one run", consumed.ApprovalID, scope)}
}

// approvalBinding says why a does not cover this run ("" when it does):
// the packet rebuilt now, with a's expiry, must be the one a records,
// HEAD included.
func (r *run) approvalBinding(a *ledger.Approval, s stage.Stage) string {
	rec, err1 := evidence.ParseTime(a.RecordedAt)
	exp, err2 := evidence.ParseTime(a.ExpiresAt)
	if err1 != nil || err2 != nil {
		return "its recording or expiry time cannot be read"
	}
	p, err := BuildPacket(PacketOptions{CaseDir: r.opt.CaseDir, Engine: r.name, Stage: s.Number, Table: r.ladder.table(),
		Repo: r.ladder.Repo, RunsRoot: r.ladderRoot(), Expires: exp.Sub(rec), Environ: r.opt.Environ})
	if err != nil {
		return "the packet cannot be rebuilt: " + err.Error()
	}
	switch {
	case a.RepoHead != p.RepoHead:
		return fmt.Sprintf("it was granted for HEAD %q of %s, which is now at %q", a.RepoHead, p.Repo, p.RepoHead)
	case a.PacketSHA256 != p.Digest():
		return fmt.Sprintf("it was granted for packet sha256 %s; the packet for this run is %s", a.PacketSHA256, p.Digest())
	}
	return ""
}

func isConsumed(runsRoot, id string) bool {
	_, err := os.Lstat(ledger.ConsumptionPath(runsRoot, id))
	return err == nil
}

// consumeApproval claims a for this run, exclusively: of two runs racing
// for one approval, one writes the consumption record and the other is
// blocked.
func (r *run) consumeApproval(a *ledger.Approval) *gateFailure {
	c := ledger.Consumption{
		SchemaVersion: ledger.SchemaVersion, ApprovalID: a.ApprovalID, RunID: r.rep.RunID,
		ConsumedAt: evidence.FormatTime(r.now()), ConsumedByPassEvidence: r.rep.RunID,
	}
	data, err := ledger.Marshal(&c, r.opt.SignKey)
	if err == nil {
		err = ledger.WriteNew(ledger.ConsumptionPath(r.ladderRoot(), a.ApprovalID), data)
	}
	if err != nil {
		code := evidence.ApprovalMissing
		if errors.Is(err, os.ErrExist) {
			code = evidence.ApprovalAlreadyConsumed
		}
		return &gateFailure{stage.GateApproval, code, fmt.Sprintf("approval %s could not be consumed: %v", a.ApprovalID, err)}
	}
	r.granted = a
	r.rep.ApprovalID = a.ApprovalID
	r.rep.ApprovalConsumed = true
	r.rep.ApprovalPacketSHA256 = a.PacketSHA256
	r.rep.ApprovalRepoHead = a.RepoHead
	r.rep.ConsumedByPassEvidence = r.rep.RunID
	r.tr("approval.consumed", map[string]any{"approval_id": a.ApprovalID, "run_id": r.rep.RunID})
	return nil
}

// approvalGateEvents records a failed approval gate in the events: the
// harness asked, and the answer was a denial or none.
func (r *run) approvalGateEvents(fails []gateFailure, a *ledger.Approval) {
	var f *gateFailure
	for i := range fails {
		for _, c := range approvalCodes {
			if fails[i].code == c {
				f = &fails[i]
			}
		}
	}
	if f == nil {
		return
	}
	at := r.now()
	scope, mode := r.approvalScope(), r.stage.MutationMode
	expiry := ""
	if a != nil {
		expiry = a.ExpiresAt
	}
	r.rep.ApprovalStatus = evidence.ApprovalRequested
	r.event("approval.requested", "harness", map[string]any{
		"actor": "sotvet-harness", "scope": scope, "mutation_mode": mode, "timestamp": evidence.FormatTime(at), "expiry": expiry, "stage": r.stage.Number,
	})
	if f.code != evidence.ApprovalDeniedCode || a == nil {
		return
	}
	r.rep.ApprovalStatus = evidence.ApprovalDenied
	r.rep.ApprovalID = a.ApprovalID
	r.rep.Approval = &evidence.Approval{Actor: a.Actor, Scope: a.Scope, MutationMode: a.MutationMode, RequestedAt: evidence.FormatTime(at), DecidedAt: a.RecordedAt, Expiry: a.ExpiresAt, Reason: "denied in approval record " + a.ApprovalID}
	r.event("approval.denied", "harness", map[string]any{
		"actor": a.Actor, "scope": a.Scope, "mutation_mode": a.MutationMode, "timestamp": a.RecordedAt, "expiry": a.ExpiresAt, "approval_id": a.ApprovalID,
	})
}

// approveRecorded replays the consumed approval into the run's events at
// the point where the run asks for approval.
func (r *run) approveRecorded() {
	a := r.granted
	at := r.now()
	r.rep.ApprovalStatus = evidence.ApprovalRequested
	r.event("approval.requested", "harness", map[string]any{
		"actor": "sotvet-harness", "scope": a.Scope, "mutation_mode": a.MutationMode, "timestamp": evidence.FormatTime(at), "expiry": a.ExpiresAt, "stage": a.Stage,
	})
	r.rep.Approval = &evidence.Approval{Actor: a.Actor, Scope: a.Scope, MutationMode: a.MutationMode, RequestedAt: evidence.FormatTime(at), DecidedAt: a.RecordedAt, Expiry: a.ExpiresAt, Reason: "granted in approval record " + a.ApprovalID}
	r.rep.ApprovalStatus = evidence.ApprovalGranted
	r.event("approval.granted", "harness", map[string]any{
		"actor": a.Actor, "scope": a.Scope, "mutation_mode": a.MutationMode, "timestamp": a.RecordedAt, "expiry": a.ExpiresAt, "approval_id": a.ApprovalID,
	})
}

func (r *run) approvalScope() string {
	return scopeText(r.c.ID, r.stage.Number, r.stage.MutationMode, r.repoAbs, r.c.AllowedWrites)
}

func scopeText(caseID string, stageN int, mode, repo string, allowed []string) string {
	where := "the copied case fixture"
	if repo != "" {
		where = repo
	}
	return fmt.Sprintf("case %s at stage %d (%s) on %s: writes to %s", caseID, stageN, mode, where, strings.Join(allowed, ", "))
}

// approvalExpiryDefault is how long a grant lasts when --expires is not given.
const approvalExpiryDefault = 24 * time.Hour
