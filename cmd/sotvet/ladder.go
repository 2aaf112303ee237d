package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/contract"
	"github.com/svrnty/sotvet/harness/engine/fake"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/trust"
	"github.com/svrnty/sotvet/harness/verify"
	"github.com/svrnty/sotvet/internal/stage"
)

// stageTable reads the ladder policy: sotvet.yaml's harness.stages over
// the default table. An explicit --config must exist.
func stageTable(path string, explicit bool) (*stage.Table, error) {
	if explicit {
		if _, err := os.Stat(path); err != nil {
			return nil, err
		}
	}
	return stage.LoadConfig(path)
}

// ladderFlags are the flags every ladder command shares.
type ladderFlags struct {
	config  *string
	pubKey  *string
	signKey *string
}

func addLadderFlags(fs *flag.FlagSet) ladderFlags {
	return ladderFlags{
		config:  fs.String("config", "sotvet.yaml", "sotvet.yaml whose harness.stages overrides the stage table (ignored when absent, unless given)"),
		pubKey:  fs.String("pub-key", "", "trusted ed25519 public key (PKIX PEM): approvals, outcomes and earlier-stage evidence must be signed with it"),
		signKey: fs.String("sign-key", "", "ed25519 private key (PKCS #8 PEM) to sign what this command writes"),
	}
}

func (l ladderFlags) explicitConfig(fs *flag.FlagSet) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "config" {
			set = true
		}
	})
	return set
}

// load resolves the table and keys: whom the command trusts is --pub-key,
// or else the trusted-keys of the --config file (package trust).
func (l ladderFlags) load(fs *flag.FlagSet, stderr io.Writer) (t *stage.Table, ok bool, signKey []byte, tr verify.Options) {
	var err error
	if t, err = stageTable(*l.config, l.explicitConfig(fs)); err != nil {
		fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
		return nil, false, nil, tr
	}
	if *l.signKey != "" {
		k, err := evidence.LoadSigningKey(*l.signKey)
		if err != nil {
			fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
			return nil, false, nil, tr
		}
		signKey = k
	}
	if tr, err = l.trust(); err != nil {
		fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
		return nil, false, nil, tr
	}
	return t, true, signKey, tr
}

// trust is whom the command believes: --pub-key, or the --config file's
// trusted-keys.
func (l ladderFlags) trust() (verify.Options, error) {
	tr, err := trust.ConfigFile(*l.config)
	if err != nil {
		return tr, err
	}
	return trust.WithPublicKey(tr, *l.pubKey)
}

// usageErr reports a usage or I/O error: exit 2 either way.
func usageErr(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
	return exitError
}

func harnessApprove(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("harness approve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	caseRef := fs.String("case", "", "case directory or id (required)")
	casesDir := fs.String("cases", defaultCasesDir, "directory case ids are looked up in")
	eng := fs.String("engine", harness.DefaultEngine, "backend lane the approval is for")
	stageN := fs.Int("stage", 0, "stage of the run, 1 to 6 (required)")
	repo := fs.String("repo", "", "repository the run works on (stages 3 to 6)")
	out := fs.String("out", "", "runs root (default "+harness.DefaultRunsRoot()+")")
	packet := fs.Bool("packet", false, "print the approval packet, record nothing")
	grant := fs.Bool("grant", false, "record a grant")
	deny := fs.Bool("deny", false, "record a denial")
	actor := fs.String("actor", "", "who decides (required with --grant or --deny)")
	expires := fs.Duration("expires", 24*time.Hour, "how long a grant lasts")
	lf := addLadderFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sotvet harness approve --case <dir|id> --stage N [--repo PATH] --out RUNS (--packet | --grant|--deny --actor NAME [--expires 24h])")
		fs.PrintDefaults()
	}
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	n := 0
	for _, b := range []bool{*packet, *grant, *deny} {
		if b {
			n++
		}
	}
	if len(pos) > 0 || *caseRef == "" || *stageN == 0 || n != 1 || *expires <= 0 {
		fs.Usage()
		return exitError
	}
	t, ok, key, _ := lf.load(fs, stderr)
	if !ok {
		return exitError
	}
	dir, err := contract.Resolve(*caseRef, *casesDir)
	if err != nil {
		return usageErr(stderr, err)
	}
	root := *out
	if root == "" {
		root = harness.DefaultRunsRoot()
	}
	p, err := harness.BuildPacket(harness.PacketOptions{CaseDir: dir, Engine: *eng, Stage: *stageN, Table: t, Repo: *repo, RunsRoot: root, Expires: *expires, Environ: os.Environ()})
	if err != nil {
		return usageErr(stderr, err)
	}
	if !p.Stage.ApprovalRequired {
		fmt.Fprintf(stderr, "sotvet harness: note: stage %d does not require approval; a recorded decision is not consulted\n", p.Stage.Number)
	}
	if *packet {
		fmt.Fprint(stdout, p.Text())
		return exitClean
	}
	a, path, err := harness.RecordApproval(p, *grant, *actor, key, time.Now())
	if err != nil {
		return usageErr(stderr, err)
	}
	fmt.Fprintf(stdout, "approval %s: %s by %s\n  scope: %s\n  mutation mode: %s\n  recorded: %s\n  expires: %s\n  file: %s\n",
		a.ApprovalID, a.Decision, a.Actor, a.Scope, a.MutationMode, a.RecordedAt, a.ExpiresAt, path)
	return exitClean
}

func harnessOutcome(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("harness outcome", flag.ContinueOnError)
	fs.SetOutput(stderr)
	accept := fs.Bool("accept", false, "accept the run's result")
	reject := fs.Bool("reject", false, "reject the run's result")
	actor := fs.String("actor", "", "who decides (required)")
	reason := fs.String("reason", "", "why (required)")
	lf := addLadderFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sotvet harness outcome RUN-DIR --accept|--reject --actor NAME --reason TEXT")
		fs.PrintDefaults()
	}
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(pos) != 1 || *accept == *reject {
		fs.Usage()
		return exitError
	}
	_, ok, key, pub := lf.load(fs, stderr)
	if !ok {
		return exitError
	}
	o, err := harness.RecordOutcome(pos[0], *accept, *actor, *reason, key, pub, time.Now())
	if err != nil {
		fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
		if errors.Is(err, harness.ErrOutcome) {
			return exitFindings
		}
		return exitError
	}
	fmt.Fprintf(stdout, "outcome for run %s: %s by %s: %s\n", o.RunID, o.Decision, o.Actor, o.Reason)
	return exitClean
}

func harnessLadder(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("harness ladder", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "runs root (default "+harness.DefaultRunsRoot()+")")
	eng := fs.String("engine", harness.DefaultEngine, "backend lane")
	asJSON := fs.Bool("json", false, "print the stage table and statuses as JSON")
	lf := addLadderFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sotvet harness ladder [--out RUNS] [--engine NAME] [--json]")
		fs.PrintDefaults()
	}
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		fs.Usage()
		return exitError
	}
	t, ok, _, pub := lf.load(fs, stderr)
	if !ok {
		return exitError
	}
	root := *out
	if root == "" {
		root = harness.DefaultRunsRoot()
	}
	st := harness.LadderStatus(root, *eng, t, pub)
	if *asJSON {
		data, _ := evidence.Marshal(struct {
			Engine   string                `json:"engine"`
			RunsRoot string                `json:"runs_root"`
			Table    *stage.Table          `json:"table"`
			Status   []harness.StageStatus `json:"status"`
		}{*eng, root, t, st})
		stdout.Write(data)
		return exitClean
	}
	fmt.Fprintf(stdout, "ladder for engine %s under %s (policy: %s)\n", *eng, root, t.Source)
	for i, s := range st {
		sd := t.Stages[i]
		mark := "not validated"
		if s.Validated {
			mark = "validated by " + s.PassRun
		}
		fmt.Fprintf(stdout, "stage %d %-24s %-17s approval=%t outcome=%t: %s\n", s.Stage, sd.Name, sd.MutationMode, sd.ApprovalRequired, sd.OperatorOutcomeRequired, mark)
		for _, r := range s.Reasons {
			fmt.Fprintf(stdout, "  %s: %s\n", r.Code, r.Message)
		}
	}
	return exitClean
}

// ladderRunFlags are harness run's staged-run flags.
type ladderRunFlags struct {
	stage           *int
	repo            *string
	sourceAdmission *string
	targetAdmission *string
	fakeBehavior    *string
	lf              ladderFlags
}

func addLadderRunFlags(fs *flag.FlagSet) *ladderRunFlags {
	return &ladderRunFlags{
		stage:           fs.Int("stage", 0, "run at this stage of the proof ladder, 1 to 6 (0: unstaged)"),
		repo:            fs.String("repo", "", "local repository stages 3 to 6 work on (copied, cloned or worktree'd; never pushed)"),
		sourceAdmission: fs.String("source-admission", "", "the lane's source admission record (JSON)"),
		targetAdmission: fs.String("target-admission", "", "the target-repository admission record (JSON), for stages 5 and 6"),
		fakeBehavior:    fs.String("fake-behavior", "", "fake lane only: act out "+strings.Join(fakeLadderBehaviors(), ", ")),
		lf:              ladderFlags{config: fs.String("config", "sotvet.yaml", "sotvet.yaml whose harness.stages overrides the stage table"), pubKey: fs.String("pub-key", "", "trusted ed25519 public key (PKIX PEM) approvals and earlier-stage evidence must be signed with")},
	}
}

// apply sets the staged-run options.
func (f *ladderRunFlags) apply(fs *flag.FlagSet, opt *harness.Options, stderr io.Writer) bool {
	opt.FakeBehavior = *f.fakeBehavior
	// sotvet.yaml's harness.provider_env names the provider's variables
	// (below the flags and the case's provider_env).
	if _, err := os.Stat(*f.lf.config); err == nil || f.lf.explicitConfig(fs) {
		t, err := stageTable(*f.lf.config, f.lf.explicitConfig(fs))
		if err != nil {
			fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
			return false
		}
		opt.ConfigBaseURLEnv, opt.ConfigAPIKeyEnv = t.BaseURLEnv, t.APIKeyEnv
	}
	if *f.stage == 0 {
		if *f.repo != "" {
			fmt.Fprintln(stderr, "sotvet harness: --repo is for staged runs (--stage 3 to 6)")
			return false
		}
		return true
	}
	t, err := stageTable(*f.lf.config, f.lf.explicitConfig(fs))
	if err != nil {
		fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
		return false
	}
	opt.Ladder = harness.Ladder{Stage: *f.stage, Table: t, Repo: *f.repo, SourceAdmission: *f.sourceAdmission, TargetAdmission: *f.targetAdmission}
	if opt.Ladder.Trust, err = f.lf.trust(); err != nil {
		fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
		return false
	}
	return true
}

func fakeLadderBehaviors() []string { return fake.LadderBehaviors }

// verifyAny verifies what path is: a run directory, a comparison
// directory, or a ledger record file.
func verifyAny(path string, opt verify.Options) ([]verify.Violation, string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, "", err
	}
	// A record verify accepts with a trusted key given is signed by it.
	recordAuth := "unsigned or signed by an untrusted key: anyone can rewrite this record"
	if opt.PublicKey != nil || len(opt.TrustedKeys) > 0 {
		recordAuth = "signed by a trusted key"
	}
	if !info.IsDir() {
		vs, err := verify.Record(path, opt)
		return vs, recordAuth, err
	}
	if verify.IsComparison(path) {
		vs, _, err := verify.Comparison(path, opt)
		return vs, recordAuth, err
	}
	vs, rep, err := verify.Dir(path, opt)
	return vs, verify.Authenticity(rep, opt), err
}
