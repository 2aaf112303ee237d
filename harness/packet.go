package harness

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness/contract"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/internal/gitws"
	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/harness/verify"
	"github.com/svrnty/sotvet/internal/stage"
)

// PacketOptions name the run an approval packet is for.
type PacketOptions struct {
	CaseDir  string
	Engine   string
	Stage    int
	Table    *stage.Table
	Repo     string
	RunsRoot string
	Expires  time.Duration // how long a grant lasts; 24h when 0
	Environ  []string
}

// Packet is what an operator approves: exactly the run that will consume
// the approval.
type Packet struct {
	CaseID         string
	ContractSHA256 string
	Engine         string
	Stage          stage.Stage
	Repo           string
	RepoHead       string
	RunsRoot       string
	AllowedPaths   []string
	ForbiddenPaths []string
	BlockedActions []string
	Verification   []string
	Expires        time.Duration
	Scope          string
	ApprovalText   string
}

// BuildPacket prepares the approval packet of a staged run.
func BuildPacket(o PacketOptions) (*Packet, error) {
	t := o.Table
	if t == nil {
		t = stage.Default()
	}
	s, err := t.Lookup(o.Stage)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUsage, err)
	}
	c, err := contract.Load(o.CaseDir)
	if err != nil {
		return nil, err
	}
	eng := o.Engine
	if eng == "" {
		eng = DefaultEngine
	}
	root, err := filepath.Abs(o.RunsRoot)
	if err != nil {
		return nil, err
	}
	p := &Packet{CaseID: c.ID, ContractSHA256: c.Digest, Engine: eng, Stage: s, RunsRoot: root, Expires: o.Expires,
		AllowedPaths: c.AllowedWrites, ForbiddenPaths: c.ForbiddenPaths}
	if p.Expires <= 0 {
		p.Expires = approvalExpiryDefault
	}
	if s.NeedsRepo() {
		if o.Repo == "" {
			return nil, fmt.Errorf("%w: stage %d (%s) needs --repo PATH", ErrUsage, s.Number, s.MutationScope)
		}
		if p.Repo, err = canonicalRepo(o.Repo); err != nil {
			return nil, err
		}
		tmp, err := os.MkdirTemp("", "sotvet-packet-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		path := "/usr/local/bin:/usr/bin:/bin"
		for _, e := range o.Environ {
			if v, ok := strings.CutPrefix(e, "PATH="); ok && v != "" {
				path = v
			}
		}
		if p.RepoHead, err = (&gitws.Repo{Dir: p.Repo, Home: tmp, Tmp: tmp, Path: path}).Head(); err != nil {
			return nil, fmt.Errorf("HEAD of %s: %w", p.Repo, err)
		}
	} else if o.Repo != "" {
		return nil, fmt.Errorf("%w: stage %d works on the case's own fixture; --repo is for stages 3 to 6", ErrUsage, s.Number)
	}
	p.BlockedActions = slices.Clone(c.ForbiddenActions)
	for _, a := range []string{"git push", "git remote", "git fetch", "gh"} {
		if !slices.Contains(p.BlockedActions, a) {
			p.BlockedActions = append(p.BlockedActions, a)
		}
	}
	for _, v := range c.Verification {
		p.Verification = append(p.Verification, v.String())
	}
	p.Scope = scopeText(c.ID, s.Number, s.MutationMode, p.Repo, c.AllowedWrites)
	where := "a copy of the case fixture"
	if p.Repo != "" {
		where = fmt.Sprintf("%s at %s", p.Repo, p.RepoHead)
	}
	p.ApprovalText = fmt.Sprintf("I approve one run of engine %s on case %s (contract sha256 %s) at stage %d (%s, mutation mode %s) on %s, writing only %s, with %s blocked, valid for %s after this decision.",
		eng, c.ID, c.Digest, s.Number, s.Name, s.MutationMode, where, strings.Join(c.AllowedWrites, ", "), strings.Join(p.BlockedActions, ", "), p.Expires)
	return p, nil
}

// Text renders the packet exactly as the operator reads it.
func (p *Packet) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Approval packet: stage %d (%s)\n\n", p.Stage.Number, p.Stage.Name)
	fmt.Fprintf(&b, "What will run:    engine %s on case %s\n", p.Engine, p.CaseID)
	fmt.Fprintf(&b, "Contract sha256:  %s\n", p.ContractSHA256)
	fmt.Fprintf(&b, "Mutation scope:   %s (mode %s)\n", p.Stage.MutationScope, p.Stage.MutationMode)
	if p.Repo != "" {
		fmt.Fprintf(&b, "Where:            %s (HEAD %s)\n", p.Repo, p.RepoHead)
	} else {
		fmt.Fprintf(&b, "Where:            a copy of the case fixture\n")
	}
	fmt.Fprintf(&b, "Evidence under:   %s\n", p.RunsRoot)
	fmt.Fprintf(&b, "Allowed paths:    %s\n", strings.Join(p.AllowedPaths, ", "))
	fmt.Fprintf(&b, "Forbidden paths:  %s\n", strings.Join(p.ForbiddenPaths, ", "))
	fmt.Fprintf(&b, "Blocked actions:  %s\n", strings.Join(p.BlockedActions, ", "))
	fmt.Fprintf(&b, "Verification:     %s\n", strings.Join(p.Verification, "; "))
	fmt.Fprintf(&b, "Expiry:           %s after the decision; consumed by exactly one run\n", p.Expires)
	fmt.Fprintf(&b, "Operator outcome: %t\n", p.Stage.OperatorOutcomeRequired)
	fmt.Fprintf(&b, "\nApproval sentence (copy it):\n\n  %s\n", p.ApprovalText)
	return b.String()
}

// Digest is the packet's sha256, as an approval records it.
func (p *Packet) Digest() string { return evidence.Digest([]byte(p.Text())) }

// RecordApproval writes the operator's decision on p under the runs root.
func RecordApproval(p *Packet, grant bool, actor string, key ed25519.PrivateKey, now time.Time) (*ledger.Approval, string, error) {
	if strings.TrimSpace(actor) == "" {
		return nil, "", fmt.Errorf("%w: --actor NAME is required", ErrUsage)
	}
	id, err := ledger.NewID(now)
	if err != nil {
		return nil, "", err
	}
	a := &ledger.Approval{
		SchemaVersion: ledger.SchemaVersion, ApprovalID: id, CaseID: p.CaseID, ContractSHA256: p.ContractSHA256,
		Engine: p.Engine, Stage: p.Stage.Number, Repo: p.Repo, RepoHead: p.RepoHead, Decision: ledger.Denied, Actor: actor, Scope: p.Scope,
		MutationMode: p.Stage.MutationMode, AllowedPaths: nonNil(p.AllowedPaths), BlockedActions: nonNil(p.BlockedActions),
		ApprovalText: p.ApprovalText, PacketSHA256: p.Digest(),
		RecordedAt: evidence.FormatTime(now), ExpiresAt: evidence.FormatTime(now.Add(p.Expires)),
	}
	if grant {
		a.Decision = ledger.Granted
	}
	data, err := ledger.Marshal(a, key)
	if err != nil {
		return nil, "", err
	}
	path := ledger.ApprovalPath(p.RunsRoot, id)
	if err := ledger.WriteNew(path, data); err != nil {
		return nil, "", err
	}
	return a, path, nil
}

// ErrOutcome marks an outcome that cannot be recorded.
var ErrOutcome = errors.New("outcome refused")

// RecordOutcome writes the operator's accept or reject of a verified run.
func RecordOutcome(runDir string, accept bool, actor, reason string, key ed25519.PrivateKey, trust verify.Options, now time.Time) (*ledger.Outcome, error) {
	if strings.TrimSpace(actor) == "" || strings.TrimSpace(reason) == "" {
		return nil, fmt.Errorf("%w: --actor NAME and --reason TEXT are required", ErrUsage)
	}
	out := filepath.Join(runDir, ledger.OutcomeFile)
	if _, err := os.Lstat(out); err == nil {
		return nil, fmt.Errorf("%w: %s already has an operator outcome", ErrOutcome, runDir)
	}
	vs, rep, err := verify.Dir(runDir, trust)
	if err != nil {
		return nil, err
	}
	if len(vs) > 0 {
		return nil, fmt.Errorf("%w: %s does not verify (%d violations, first: %s); an outcome is recorded after verification", ErrOutcome, runDir, len(vs), vs[0])
	}
	if accept && rep.Status != evidence.StatusPass {
		return nil, fmt.Errorf("%w: run %s has status %s; only a pass can be accepted", ErrOutcome, rep.RunID, rep.Status)
	}
	reportBytes, err := ledger.ReadFile(filepath.Join(runDir, evidence.ReportJSON))
	if err != nil {
		return nil, err
	}
	o := &ledger.Outcome{SchemaVersion: ledger.SchemaVersion, RunID: rep.RunID, Decision: ledger.Rejected, Actor: actor, Reason: reason,
		RecordedAt: evidence.FormatTime(now), ReportSHA256: evidence.Digest(reportBytes)}
	if accept {
		o.Decision = ledger.Accepted
	}
	data, err := ledger.Marshal(o, key)
	if err != nil {
		return nil, err
	}
	return o, ledger.WriteNew(out, data)
}

// canonicalRepo is --repo as an absolute path with links resolved, checked
// to be the top of a git work tree with its own .git directory.
func canonicalRepo(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if ev, err := filepath.EvalSymlinks(abs); err == nil {
		abs = ev
	}
	info, err := os.Stat(filepath.Join(abs, ".git"))
	if err != nil || !info.IsDir() {
		return "", fmt.Errorf("%w: --repo %s is not the top of a git work tree with its own .git directory", ErrUsage, p)
	}
	return abs, nil
}
