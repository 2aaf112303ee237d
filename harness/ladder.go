package harness

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/svrnty/sotvet/harness/contract"
	"github.com/svrnty/sotvet/harness/engine/fake"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/verify"
	"github.com/svrnty/sotvet/internal/stage"
)

// Ladder configures a staged run (harness run --stage N).
type Ladder struct {
	// Stage is the rung, 1 to 6; 0 is an unstaged run.
	Stage int
	// Table is the ladder policy; stage.Default() when nil.
	Table *stage.Table
	// Repo is the local repository stages 3 to 6 work on.
	Repo string
	// SourceAdmission is the lane's source admission record (JSON); a lane
	// other than fake without one is blocked at stages that gate on it.
	SourceAdmission string
	// TargetAdmission is the target-repository admission record (JSON, the
	// kind the records check vets), required by stages 5 and 6.
	TargetAdmission string
	// Trust is whom approval records and earlier-stage evidence must be
	// signed by (package trust: --pub-key, or the workspace's
	// trusted-keys); with no key they are only checked for integrity.
	Trust verify.Options
}

func (l Ladder) table() *stage.Table {
	if l.Table != nil {
		return l.Table
	}
	return stage.Default()
}

// setupLadder checks the staged-run options; a problem is a usage error.
func (r *run) setupLadder() error {
	r.ladder = r.opt.Ladder
	if b := r.opt.FakeBehavior; b != "" {
		if !slices.Contains(fake.LadderBehaviors, b) {
			return fmt.Errorf("%w: unknown fake behavior %q (want one of %s)", ErrUsage, b, strings.Join(fake.LadderBehaviors, ", "))
		}
		if r.name != fake.Name || r.fx != nil {
			return fmt.Errorf("%w: --fake-behavior is for the fake lane, without --fixture", ErrUsage)
		}
	}
	if r.ladder.Stage != 0 {
		s, err := r.ladder.table().Lookup(r.ladder.Stage)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrUsage, err)
		}
		for _, fc := range s.RequiredFailureClasses {
			if _, ok := FixtureByName(fc); !ok {
				return fmt.Errorf("%w: stage %d requires failure class %q, which is not a failure fixture (want %s)", ErrUsage, s.Number, fc, strings.Join(FixtureNames(), ", "))
			}
		}
		if r.fx != nil && s.ApprovalRequired && r.fx.inject.requireApproval {
			return fmt.Errorf("%w: at stage %d approval comes from recorded decisions; record a denial with harness approve --deny instead of --fixture %s", ErrUsage, s.Number, r.fx.Name)
		}
		r.stage = &s
	}
	return r.resolveRepo()
}

// stageReport sets the report's stage fields.
func (r *run) stageReport() {
	if r.stage == nil {
		return
	}
	r.rep.Stage = r.stage.Number
	r.rep.MutationMode = r.stage.MutationMode
	r.rep.OperatorOutcomeRequired = r.stage.OperatorOutcomeRequired
	r.rep.SourceRepo = r.repoAbs
}

// laneModeAllowed says whether the contract's mutation mode may run: in a
// staged run, what the stage allows; otherwise only the copied fixture.
func (r *run) laneModeAllowed() bool {
	if r.stage != nil {
		return slices.Contains(r.stage.ContractModes, r.c.MutationMode)
	}
	return r.c.MutationMode == contract.ModeCopiedFixture || r.c.MutationMode == contract.ModeNone
}

func (r *run) workspaceSource() string {
	if r.repoAbs != "" {
		return r.repoAbs
	}
	return r.c.RepoPath()
}

func (r *run) workspaceBlocker() string {
	if r.repoAbs != "" {
		return evidence.RepositoryUnavailable
	}
	return evidence.ProviderUnavailable
}

// ladderRoot is the runs root whose evidence and approvals the staged run
// reads and writes: the parent of an explicit run directory, else the
// runs root.
func (r *run) ladderRoot() string {
	if r.opt.RunDir != "" {
		abs, err := filepath.Abs(r.opt.RunDir)
		if err == nil {
			return filepath.Dir(abs)
		}
	}
	return r.opt.RunsRoot
}

// approvalSuffix names the approval a staged run consumed, for report.md.
func approvalSuffix(rep *evidence.Report) string {
	if rep.ApprovalID == "" {
		return ""
	}
	s := ", approval " + rep.ApprovalID
	if rep.ApprovalConsumed {
		s += " consumed by this run"
	}
	return s
}
