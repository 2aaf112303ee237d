package harness

import (
	"fmt"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness/evidence"
)

func (r *run) approve() bool {
	c := r.c
	at := r.now()
	req := ApprovalRequest{
		RunID: r.rep.RunID, CaseID: c.ID, MutationMode: c.MutationMode, RequestedAt: at, Expiry: at.Add(time.Hour),
		Scope: fmt.Sprintf("case %s: writes to %s within the copied workspace", c.ID, strings.Join(c.AllowedWrites, ", ")),
	}
	r.rep.ApprovalStatus = evidence.ApprovalRequested
	r.event("approval.requested", "harness", map[string]any{
		"actor": "sotvet-harness", "scope": req.Scope, "mutation_mode": req.MutationMode,
		"timestamp": evidence.FormatTime(at), "expiry": evidence.FormatTime(req.Expiry),
	})
	var dec ApprovalDecision
	switch {
	case r.fx != nil && r.fx.inject.denyApproval:
		dec = ApprovalDecision{Granted: false, Actor: "operator (approval-denied fixture)", Reason: "the operator denied the mutation"}
	case r.opt.Approver != nil:
		dec = r.opt.Approver.Decide(req)
	default:
		dec = ApprovalDecision{Granted: false, Actor: "sotvet-harness", Reason: "approval is required and no approver was configured"}
	}
	decided := r.now()
	r.rep.Approval = &evidence.Approval{
		Actor: dec.Actor, Scope: req.Scope, MutationMode: req.MutationMode,
		RequestedAt: evidence.FormatTime(at), DecidedAt: evidence.FormatTime(decided), Expiry: evidence.FormatTime(req.Expiry), Reason: dec.Reason,
	}
	typ, st := "approval.granted", evidence.ApprovalGranted
	if !dec.Granted {
		typ, st = "approval.denied", evidence.ApprovalDenied
	}
	r.rep.ApprovalStatus = st
	r.event(typ, "harness", map[string]any{
		"actor": dec.Actor, "scope": req.Scope, "mutation_mode": req.MutationMode,
		"timestamp": evidence.FormatTime(decided), "expiry": evidence.FormatTime(req.Expiry), "reason": dec.Reason,
	})
	if !dec.Granted {
		r.block(evidence.ApprovalDeniedCode, "approval denied by "+dec.Actor+": "+dec.Reason, nil)
		r.notApplicable("blocked before the backend started: " + evidence.ApprovalDeniedCode)
		fmt.Fprintln(&r.testLog, "verification not run: approval was denied")
		return false
	}
	return true
}
