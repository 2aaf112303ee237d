package summary

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/sotparse"
)

// ApprovalPacket is what JP reads and copies to approve one governed run.
// It is text: the summary never carries anything that executes.
type ApprovalPacket struct {
	// Source is the document or approval record it comes from.
	Source              string `json:"source"`
	ApprovalID          string `json:"approval_id"`
	Stage               int    `json:"stage"`
	ApprovalCommandText string `json:"approval_command_text"`
	// RequiredEvidencePaths are the evidence the approved run must leave.
	RequiredEvidencePaths []string `json:"required_evidence_paths"`
	AllowedPaths          []string `json:"allowed_paths"`
	BlockedActions        []string `json:"blocked_actions"`
	// Status: awaiting-approval, granted, denied, expired or
	// consumed_by_pass_evidence.
	Status string `json:"status"`
	// ProofReady: every stage below the packet's is validated.
	ProofReady bool `json:"proof_ready"`
	// Executable is always false.
	Executable bool `json:"executable"`
}

// Approval is one recorded decision (runs/approvals/<id>.json).
type Approval struct {
	ApprovalID   string `json:"approval_id"`
	CaseID       string `json:"case_id"`
	Stage        int    `json:"stage"`
	Decision     string `json:"decision"`
	Actor        string `json:"actor"`
	Scope        string `json:"scope"`
	MutationMode string `json:"mutation_mode"`
	RecordedAt   string `json:"recorded_at"`
	ExpiresAt    string `json:"expires_at"`
	Expired      bool   `json:"expired"`
	Consumed     bool   `json:"consumed"`
	Path         string `json:"path"`
}

// ConsumedApproval binds an approval to the one run that consumed it.
type ConsumedApproval struct {
	ApprovalID             string `json:"approval_id"`
	RunID                  string `json:"run_id"`
	ConsumedAt             string `json:"consumed_at"`
	ConsumedByPassEvidence string `json:"consumed_by_pass_evidence"`
	Path                   string `json:"path"`
}

// GovernedExecution is the newest approval and where it stands: none,
// granted, consumed, denied or expired. One approval allows one run.
type GovernedExecution struct {
	ApprovalID string `json:"approval_id"`
	Stage      int    `json:"stage"`
	Status     string `json:"status"`
	// RunID is the run that consumed the approval, or "".
	RunID string `json:"run_id"`
}

// BlockedLane is a lane that did not run, and why.
type BlockedLane struct {
	Engine    string `json:"engine"`
	Rationale string `json:"rationale"`
	Source    string `json:"source"`
}

// CandidateDefault is the comparison's verdict on a default candidate. It
// is eligibility only: runtime_default_activation stays false.
type CandidateDefault struct {
	Engine     string `json:"engine"`
	Eligible   bool   `json:"eligible"`
	Reason     string `json:"reason"`
	Comparison string `json:"comparison"`
}

func (s *Summary) approvalPosture(ws *sotparse.Workspace, ev *evidenceSet) {
	consumed := map[string]ConsumedApproval{}
	for _, c := range ev.consumed {
		if c.ApprovalID == "" {
			continue
		}
		consumed[c.ApprovalID] = ConsumedApproval{ApprovalID: c.ApprovalID, RunID: c.RunID, ConsumedAt: c.ConsumedAt,
			ConsumedByPassEvidence: c.ConsumedByPassEvidence, Path: "runs/" + approvalsDir + "/" + c.ApprovalID + consumedSuffix}
	}
	for _, r := range ev.runs {
		if r.verified && r.rep.ApprovalConsumed && r.rep.ApprovalID != "" {
			if _, ok := consumed[r.rep.ApprovalID]; !ok {
				consumed[r.rep.ApprovalID] = ConsumedApproval{ApprovalID: r.rep.ApprovalID, RunID: r.id(),
					ConsumedAt: r.rep.RunFinishedAt, ConsumedByPassEvidence: r.rep.ConsumedByPassEvidence,
					Path: "runs/" + r.dir + "/report.json"}
			}
		}
	}
	s.ConsumedApprovals = []ConsumedApproval{}
	for _, c := range consumed {
		s.ConsumedApprovals = append(s.ConsumedApprovals, c)
	}
	sort.Slice(s.ConsumedApprovals, func(i, j int) bool { return s.ConsumedApprovals[i].ApprovalID < s.ConsumedApprovals[j].ApprovalID })

	s.Approvals = []Approval{}
	for _, a := range ev.approvals {
		_, used := consumed[a.ApprovalID]
		s.Approvals = append(s.Approvals, Approval{ApprovalID: a.ApprovalID, CaseID: a.CaseID, Stage: a.Stage,
			Decision: a.Decision, Actor: a.Actor, Scope: a.Scope, MutationMode: a.MutationMode,
			RecordedAt: a.RecordedAt, ExpiresAt: a.ExpiresAt, Expired: expired(a.ExpiresAt, ev.now), Consumed: used,
			Path: "runs/" + approvalsDir + "/" + a.ApprovalID + ".json"})
	}
	// Newest decision last.
	sort.SliceStable(s.Approvals, func(i, j int) bool {
		a, b := s.Approvals[i], s.Approvals[j]
		if a.RecordedAt != b.RecordedAt {
			return a.RecordedAt < b.RecordedAt
		}
		return a.ApprovalID < b.ApprovalID
	})

	next := s.nextStage()
	s.ApprovalRequired = next == 0 || stageDefs[next-1].approval
	var latest *Approval
	if n := len(s.Approvals); n > 0 {
		latest = &s.Approvals[n-1]
	}
	switch {
	case latest == nil && s.ApprovalRequired:
		s.ApprovalReason = "no approval is recorded in the runs root; JP approves the packet before any governed run"
	case latest == nil:
		s.ApprovalReason = fmt.Sprintf("stage %d (%s) needs no approval; no approval is recorded", next, stageDefs[next-1].name)
	case latest.Decision != "granted":
		s.ApprovalReason = fmt.Sprintf("approval %s was %s by %s", latest.ApprovalID, latest.Decision, latest.Actor)
	case latest.Consumed:
		s.ApprovalGranted = true
		s.ApprovalReason = fmt.Sprintf("approval %s was granted and consumed by run %s; it allows no further run", latest.ApprovalID, consumed[latest.ApprovalID].RunID)
	case latest.Expired:
		s.ApprovalGranted = true
		s.ApprovalReason = fmt.Sprintf("approval %s expired at %s", latest.ApprovalID, latest.ExpiresAt)
	case s.unproven(latest.Stage) != 0:
		// Stages go in order: an approval cannot skip one.
		s.ApprovalGranted = true
		s.ApprovalReason = fmt.Sprintf("approval %s is granted for stage %d, but stage %d is not validated: stages are proven in order",
			latest.ApprovalID, latest.Stage, s.unproven(latest.Stage))
	default:
		s.ApprovalGranted = true
		s.ExecutionAllowed = true
		s.ApprovalReason = fmt.Sprintf("approval %s granted by %s allows one stage %d run", latest.ApprovalID, latest.Actor, latest.Stage)
	}
	s.GovernedExecution = GovernedExecution{Status: "none"}
	if latest != nil {
		g := GovernedExecution{ApprovalID: latest.ApprovalID, Stage: latest.Stage, Status: latest.Decision}
		switch {
		case latest.Consumed:
			c := consumed[latest.ApprovalID]
			g.Status, g.RunID = "consumed", c.RunID
			s.ApprovalConsumed, s.ConsumedByPassEvidence = true, c.ConsumedByPassEvidence
		case latest.Decision == "granted" && latest.Expired:
			g.Status = "expired"
		}
		s.GovernedExecution = g
	}
	s.ApprovalPacket = s.packet(ws, ev, latest, next)
	s.AllowedNextActions, s.BlockedNextActions = s.actions(ev)
}

// unproven returns the first stage below stage that is not validated, or
// 0 when every one is.
func (s *Summary) unproven(stage int) int {
	for _, st := range s.ProofLadder {
		if st.Stage >= stage {
			break
		}
		switch st.Status {
		case "validated", "documented", "evidence-only":
			continue
		}
		return st.Stage
	}
	return 0
}

// nextStage is the first stage not validated (by documents or evidence),
// or 0 when the ladder is validated through stage 6.
func (s *Summary) nextStage() int {
	for _, st := range s.ProofLadder {
		switch st.Status {
		case "validated", "documented", "evidence-only":
			continue
		}
		return st.Stage
	}
	return 0
}

func expired(at string, now time.Time) bool {
	if at == "" {
		return false
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	return err != nil || !now.Before(t)
}

// packet is the approval packet: from the newest approval record when
// there is one, else from the newest packet document of the workspace.
func (s *Summary) packet(ws *sotparse.Workspace, ev *evidenceSet, latest *Approval, next int) *ApprovalPacket {
	var p *ApprovalPacket
	if latest != nil {
		for _, a := range ev.approvals {
			if a.ApprovalID != latest.ApprovalID {
				continue
			}
			p = &ApprovalPacket{Source: latest.Path, ApprovalID: a.ApprovalID, Stage: a.Stage,
				ApprovalCommandText: a.ApprovalText, AllowedPaths: nonNil(a.AllowedPaths),
				BlockedActions: nonNil(a.BlockedActions), RequiredEvidencePaths: append([]string(nil), evidence.Required...)}
			switch {
			case latest.Consumed:
				p.Status = "consumed_by_pass_evidence"
			case latest.Decision == "denied":
				p.Status = "denied"
			case latest.Expired:
				p.Status = "expired"
			case latest.Decision == "granted":
				p.Status = "granted"
			default:
				p.Status = "awaiting-approval"
			}
		}
	}
	if p == nil {
		p = packetFromDocs(ws)
		if p == nil {
			return nil
		}
		p.Stage = next
		p.Status = "awaiting-approval"
	}
	p.ProofReady = true
	for _, st := range s.ProofLadder {
		if p.Stage > 0 && st.Stage >= p.Stage {
			break
		}
		if st.Status != "validated" && st.Status != "documented" && st.Status != "evidence-only" {
			p.ProofReady = false
		}
	}
	p.Executable = false
	return p
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// packetFromDocs reads the newest -PACKET document that asks for an exact
// approval sentence: the fenced text after its "Required Approval"
// heading, the bullets after "Allowed paths:" and "Forbidden actions:",
// and the "Evidence Required" section's bullets.
func packetFromDocs(ws *sotparse.Workspace) *ApprovalPacket {
	var p *ApprovalPacket
	for _, d := range ws.Docs {
		if d.Kind != sotparse.KindPacket {
			continue
		}
		if q := parsePacket(d.Path, ws.Content(d)); q != nil {
			p = q
		}
	}
	return p
}

func parsePacket(path string, content []byte) *ApprovalPacket {
	p := &ApprovalPacket{Source: path, AllowedPaths: []string{}, BlockedActions: []string{}, RequiredEvidencePaths: []string{}}
	var list *[]string
	section := ""
	inFence, capture := false, false
	var text []string
	for _, line := range strings.Split(string(content), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") {
			if inFence {
				inFence = false
				if capture {
					capture = false
					p.ApprovalCommandText = strings.TrimSpace(strings.Join(text, "\n"))
				}
			} else {
				inFence = true
				capture = strings.Contains(section, "approval") && p.ApprovalCommandText == ""
				text = nil
			}
			continue
		}
		if inFence {
			if capture {
				text = append(text, line)
			}
			continue
		}
		if strings.HasPrefix(t, "#") {
			section = strings.ToLower(strings.TrimLeft(t, "# "))
			list = nil
			if strings.Contains(section, "evidence required") || strings.Contains(section, "required evidence") {
				list = &p.RequiredEvidencePaths
			}
			continue
		}
		switch lower := strings.ToLower(t); {
		case lower == "allowed paths:":
			list = &p.AllowedPaths
			continue
		case lower == "forbidden actions:" || lower == "blocked actions:":
			list = &p.BlockedActions
			continue
		case strings.HasSuffix(lower, ":") && !strings.HasPrefix(t, "-"):
			list = nil
			continue
		}
		if list != nil && strings.HasPrefix(t, "- ") {
			*list = append(*list, strings.Trim(strings.TrimSpace(t[2:]), "`"))
		}
	}
	if p.ApprovalCommandText == "" {
		return nil
	}
	return p
}

func (s *Summary) actions(ev *evidenceSet) (allowed, blocked []string) {
	allowed, blocked = []string{}, []string{}
	if s.ExecutionAllowed {
		allowed = append(allowed, "run the one harness run the granted approval allows ("+s.ApprovalReason+")")
	} else {
		blocked = append(blocked, "execute a governed harness run: "+s.ApprovalReason)
	}
	if s.ApprovalPacket != nil && s.ApprovalPacket.Status == "awaiting-approval" {
		allowed = append(allowed, "review the approval packet and hand its exact text to JP, who approves outside the panel")
	}
	for _, r := range ev.runs {
		if r.rep.Status == "pass" && r.verified && r.rep.OperatorOutcomeRequired && r.outcome == nil {
			allowed = append(allowed, "record the operator outcome of run "+r.id()+": sotvet harness outcome "+r.id()+" --accept|--reject")
		}
	}
	if len(ev.runs) > 0 {
		allowed = append(allowed, "replay a run: sotvet harness verify <runs>/<run dir>")
	}
	allowed = append(allowed, "vet the workspace: sotvet check")
	blocked = append(blocked,
		"approve or execute from this panel: the approval packet is never executable",
		"activate a lane as runtime default: runtime_default_activation stays false",
		"promote child-local artifacts into Core: core_promotion_status is "+s.corePromotionWord())
	return allowed, blocked
}

func (s *Summary) corePromotionWord() string {
	if s.CorePromotionStatus == "" {
		return "unknown"
	}
	return s.CorePromotionStatus
}

func (s *Summary) lanesAndDefault(ev *evidenceSet) {
	s.BlockedLanes = []BlockedLane{}
	seen := map[string]bool{}
	s.CandidateDefault = CandidateDefault{Reason: "no lane comparison in the runs root"}
	var newest *loadedComparison
	for i := range ev.comparisons {
		if ev.comparisons[i].complete() {
			newest = &ev.comparisons[i] // they are sorted oldest first
		}
	}
	if newest != nil {
		c := *newest
		p := c.dir + "/" + comparisonFile
		cd := c.c.CandidateDefault
		s.CandidateDefault = CandidateDefault{Engine: cd.Engine, Eligible: cd.Eligible, Reason: cd.Reason, Comparison: "runs/" + p}
		for _, l := range c.c.Lanes {
			if l.Status == "blocked" && !seen[l.Engine] {
				seen[l.Engine] = true
				s.BlockedLanes = append(s.BlockedLanes, BlockedLane{Engine: l.Engine, Rationale: l.Blocker, Source: "runs/" + p})
			}
		}
	}
	for _, lane := range s.Runs.Lanes {
		if seen[lane.Engine] || len(lane.Latest) == 0 {
			continue
		}
		r := lane.Latest[0]
		if r.Status != "blocked" || r.Fixture != "" {
			// A failure fixture is blocked on purpose: the lane is not.
			continue
		}
		why := strings.Join(r.Blockers, ", ")
		for _, lr := range ev.runs {
			if lr.dir == r.Dir && len(lr.rep.Blockers) > 0 {
				why = lr.rep.Blockers[0].Code + ": " + lr.rep.Blockers[0].Message
			}
		}
		seen[lane.Engine] = true
		s.BlockedLanes = append(s.BlockedLanes, BlockedLane{Engine: lane.Engine, Rationale: why, Source: "runs/" + r.Dir + "/report.json"})
	}
	sort.Slice(s.BlockedLanes, func(i, j int) bool { return s.BlockedLanes[i].Engine < s.BlockedLanes[j].Engine })
	s.RuntimeDefaultActivation = false
}

// nextAction is the one thing the operator should do next, first match
// wins: broken evidence, error findings, a run verify rejects, a missing
// operator outcome, an allowed run, an approval to give, a stage to prove.
func (s *Summary) nextAction() string {
	if len(s.Unreadable) > 0 {
		return "repair unreadable evidence: " + s.Unreadable[0].Path + " (" + s.Unreadable[0].Reason + ")"
	}
	if s.Findings.Errors > 0 {
		if s.Findings.Errors == 1 {
			return "fix the error finding: sotvet check"
		}
		return fmt.Sprintf("fix the %d error findings: sotvet check", s.Findings.Errors)
	}
	for _, l := range s.Runs.Lanes {
		for _, r := range l.Latest {
			if !r.Verified {
				return "investigate run " + r.ID + ": verify rejects its evidence"
			}
		}
	}
	for _, l := range s.Runs.Lanes {
		for _, r := range l.Latest {
			if r.Status == "pass" && r.OutcomeRequired && r.Outcome == "" {
				return "record the operator outcome of run " + r.ID
			}
		}
	}
	if s.ExecutionAllowed {
		return "run the approved harness run: " + s.ApprovalReason
	}
	next := s.nextStage()
	if next == 0 {
		return "none: the proof ladder is validated through stage 6; runtime default activation stays false"
	}
	st := stageDefs[next-1]
	if st.approval && !s.ApprovalGranted {
		return fmt.Sprintf("obtain JP approval for stage %d (%s) with the approval packet", next, st.name)
	}
	return fmt.Sprintf("prove stage %d (%s): mutation scope %s", next, st.name, st.scope)
}
