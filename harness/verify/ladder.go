package verify

import (
	"bytes"
	"os"
	"path/filepath"

	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/ledger"
)

// ladder checks what a staged run adds: the operator outcome beside the
// report, the approval record the report names and its consumption, and
// the source non-mutation proof.
func (v *verifier) ladder() {
	r := v.rep
	const R = evidence.ReportJSON
	if data, err := ledger.ReadFile(filepath.Join(v.dir, ledger.OutcomeFile)); err == nil {
		v.outcome(data)
	} else if !os.IsNotExist(err) {
		v.bad(ledger.OutcomeFile, "%v", err)
	}
	if r.ApprovalConsumed && r.ApprovalID == "" {
		v.bad(R, "approval_consumed without an approval_id")
	}
	if r.ApprovalConsumed && r.ConsumedByPassEvidence != r.RunID {
		v.bad(R, "consumed_by_pass_evidence %q is not this run", r.ConsumedByPassEvidence)
	}
	if r.ApprovalID != "" {
		v.approval()
	}
	if p := r.SourceNonMutation; p != nil {
		want, _ := evidence.Marshal(p)
		if got, ok := v.read(SourceNonMutationFile); !ok {
			v.bad(SourceNonMutationFile, "report.json has a source non-mutation proof but the artifact is missing")
		} else if !bytes.Equal(got, want) {
			v.bad(SourceNonMutationFile, "differs from report.json's source_non_mutation")
		}
		if r.Status == evidence.StatusPass && !p.Unchanged {
			v.bad(R, "a pass with a changed source repository")
		}
	}
	if r.Status == evidence.StatusPass && len(r.ForbiddenActionsAttempted) > 0 {
		v.bad(R, "a pass with forbidden actions attempted")
	}
}

// SourceNonMutationFile is the source non-mutation proof artifact.
const SourceNonMutationFile = "source-non-mutation.json"

func (v *verifier) outcome(data []byte) {
	const O = ledger.OutcomeFile
	var o ledger.Outcome
	for _, err := range ledger.Unmarshal(data, &o, v.opt.trusted()...) {
		v.bad(O, "%v", err)
	}
	if o.SchemaVersion != ledger.SchemaVersion {
		v.bad(O, "schema_version %d, want %d", o.SchemaVersion, ledger.SchemaVersion)
	}
	if o.RunID != v.rep.RunID {
		v.bad(O, "run_id %q is not this run", o.RunID)
	}
	if o.Decision != ledger.Accepted && o.Decision != ledger.Rejected {
		v.bad(O, "decision %q, want accepted or rejected", o.Decision)
	}
	if o.Actor == "" || o.Reason == "" {
		v.bad(O, "actor and reason are required")
	}
	if rep, ok := v.read(evidence.ReportJSON); ok && evidence.Digest(rep) != o.ReportSHA256 {
		v.bad(O, "report_sha256 does not match report.json")
	}
	at, err := evidence.ParseTime(o.RecordedAt)
	fin, err2 := evidence.ParseTime(v.rep.RunFinishedAt)
	if err != nil || (err2 == nil && at.Before(fin)) {
		v.bad(O, "recorded_at %q is not a time after the run finished", o.RecordedAt)
	}
}

func (v *verifier) approval() {
	r := v.rep
	abs, _ := filepath.Abs(v.dir)
	root := filepath.Dir(abs)
	name := ledger.ApprovalsDir + "/" + r.ApprovalID + ".json"
	if !ledger.ValidID(r.ApprovalID) {
		v.bad(evidence.ReportJSON, "approval_id %q is not an approval id", r.ApprovalID)
		return
	}
	data, err := ledger.ReadFile(ledger.ApprovalPath(root, r.ApprovalID))
	if err != nil {
		v.bad(evidence.ReportJSON, "approval %s: the record beside the run (../%s) cannot be read: %v", r.ApprovalID, name, err)
		return
	}
	var a ledger.Approval
	for _, err := range ledger.Unmarshal(data, &a, v.opt.trusted()...) {
		v.bad("../"+name, "%v", err)
	}
	if a.ApprovalID != r.ApprovalID || a.Stage != r.Stage || a.CaseID != r.CaseID || a.Engine != r.Backend || a.ContractSHA256 != r.Contract.Digest {
		v.bad("../"+name, "does not match the run's approval id, stage, case, engine and contract")
	}
	want := ledger.Granted
	if r.ApprovalStatus == evidence.ApprovalDenied {
		want = ledger.Denied
	}
	if a.Decision != want {
		v.bad("../"+name, "decision %s, but the run's approval status is %s", a.Decision, r.ApprovalStatus)
	}
	if a.Repo != r.SourceRepo {
		v.bad("../"+name, "is for repository %q, but the run worked on %q", a.Repo, r.SourceRepo)
	}
	if !r.ApprovalConsumed {
		return
	}
	// A consumed grant covers the packet the run rebuilt, at the HEAD the
	// run started from.
	if a.PacketSHA256 != r.ApprovalPacketSHA256 {
		v.bad("../"+name, "packet sha256 %s, but the run matched packet %q", a.PacketSHA256, r.ApprovalPacketSHA256)
	}
	if a.RepoHead != r.ApprovalRepoHead {
		v.bad("../"+name, "granted for HEAD %q, but the run's approval gate saw %q", a.RepoHead, r.ApprovalRepoHead)
	}
	if p := r.SourceNonMutation; p != nil && a.RepoHead != p.HeadBefore {
		v.bad("../"+name, "granted for HEAD %q, but the run started from %q", a.RepoHead, p.HeadBefore)
	}
	cname := ledger.ApprovalsDir + "/" + r.ApprovalID + ".consumed.json"
	cdata, err := ledger.ReadFile(ledger.ConsumptionPath(root, r.ApprovalID))
	if err != nil {
		v.bad(evidence.ReportJSON, "approval %s: its consumption record (../%s) cannot be read: %v", r.ApprovalID, cname, err)
		return
	}
	var c ledger.Consumption
	for _, err := range ledger.Unmarshal(cdata, &c, v.opt.trusted()...) {
		v.bad("../"+cname, "%v", err)
	}
	if c.ApprovalID != r.ApprovalID || c.RunID != r.RunID || c.ConsumedByPassEvidence != r.RunID {
		v.bad("../"+cname, "names run %q, not this run", c.RunID)
	}
}

// outcomeFile is written after the run, so it is not among the digests.
const outcomeFile = ledger.OutcomeFile
