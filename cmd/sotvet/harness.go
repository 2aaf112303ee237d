package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/engine/fake"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/gocache"
	"github.com/svrnty/sotvet/harness/matrix"
	"github.com/svrnty/sotvet/harness/sandbox"
	"github.com/svrnty/sotvet/harness/trust"
	"github.com/svrnty/sotvet/harness/verify"
	"github.com/svrnty/sotvet/internal/quotepath"
	"github.com/svrnty/sotvet/secrets"
)

// defaultCasesDir is where case ids are looked up.
const defaultCasesDir = "testdata/cases"

func harnessUsage(w io.Writer) {
	fmt.Fprint(w, `usage: sotvet harness <command> [arguments]

commands:
  run --case <dir|id> [--engine fake] [--fixture NAME] [--out DIR] [--json] [--sign-key FILE]
      [--sandbox auto|landlock|none]
      [--engine codex|pi --allow-engine NAME --model PROVIDER/MODEL --admission FILE]
                        run a case and write its evidence (exit 0 pass, 1 fail, 3 blocked)
  verify [--pub-key FILE] [--json] <run-dir|comparison-dir|record.json>
                        re-check a run directory, a comparison or an approval/outcome
                        record (exit 0 valid, 1 invalid)
  matrix [--out DIR] [--jobs N] [--cases DIR] [--json] [--sandbox auto|landlock|none]
         [--engine codex|pi|case --allow-engine NAME --model PROVIDER/MODEL --admission FILE]
                        run every case and every failure fixture, then verify them all
  run --stage N [--repo PATH] [--source-admission FILE] [--target-admission FILE] ...
                        a staged run of the proof ladder (stages 1-6; see docs/harness.md)
  approve --case <dir|id> --stage N [--repo PATH] --out DIR (--packet | --grant|--deny --actor NAME [--expires 24h])
                        print the approval packet of a staged run, or record the decision
  outcome <run-dir> --accept|--reject --actor NAME --reason TEXT
                        record the operator outcome of a verified run
  ladder [--out DIR] [--engine NAME] [--json]
                        which stages the evidence under DIR validates, and why not
  compare --case <dir|id> --engine fake,codex,pi [-k 5] [--jobs N] [--shard i/n] --out DIR
  compare --merge --out DIR SHARD-DIR...
                        k runs per lane on the same base: pass@1, pass^k, flakiness,
                        closure, completeness; writes DIR/<id>/comparison.json
  fixtures              list the failure fixtures and the outcome each must reach
`)
}

func cmdHarness(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		harnessUsage(stderr)
		return exitError
	}
	if args[0] == "run" || args[0] == "matrix" || args[0] == "compare" {
		// Backends must not find the harness's secrets in
		// /proc/$PPID/environ, nor the signing key's path in its cmdline.
		if err := dropEnviron(args[0]); err != nil {
			fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
			return exitError
		}
	}
	switch args[0] {
	case "run":
		return harnessRun(args[1:], stdout, stderr)
	case "verify":
		return harnessVerify(args[1:], stdout, stderr)
	case "matrix":
		return harnessMatrix(args[1:], stdout, stderr)
	case "approve":
		return harnessApprove(args[1:], stdout, stderr)
	case "outcome":
		return harnessOutcome(args[1:], stdout, stderr)
	case "compare":
		return harnessCompare(args[1:], stdout, stderr)
	case "ladder":
		return harnessLadder(args[1:], stdout, stderr)
	case "fixtures":
		fmt.Fprintf(stdout, "%-24s %-24s %-8s %-4s %s\n", "FIXTURE", "BLOCKER", "STATUS", "EXIT", "EVENT")
		for _, f := range harness.Fixtures {
			fmt.Fprintf(stdout, "%-24s %-24s %-8s %-4d %s\n", f.Name, f.Blocker, f.Status, f.ExitCode(), f.Event)
		}
		return exitClean
	case "fake-backend":
		// The fake lane's backend process; started by the harness itself.
		return fake.Main(args[1:], stdout, stderr)
	case "gocache":
		// The GOCACHEPROG of a run's go commands; started by them.
		return gocache.Main(args[1:], os.Stdin, stdout, stderr)
	case "sandbox-exec":
		// The Landlock shim: restricts itself to the policy its arguments
		// give, then executes the backend in its place. Started by the
		// harness itself.
		return sandbox.Main(args[1:], stderr)
	case "help", "-h", "--help", "-help":
		harnessUsage(stdout)
		return exitClean
	}
	fmt.Fprintf(stderr, "sotvet harness: unknown command %q\n", args[0])
	harnessUsage(stderr)
	return exitError
}

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// fakeCommand is how the harness starts the fake backend: this binary.
func fakeCommand() ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find the sotvet executable for the fake lane: %w", err)
	}
	return []string{exe, "harness", "fake-backend"}, nil
}

// redactor returns the secrets scanner used to redact backend output.
func redactor() (harness.Redactor, error) {
	sc, err := secrets.NewScanner(secrets.DefaultConfig())
	if err != nil {
		return nil, fmt.Errorf("secrets scanner: %w", err)
	}
	return sc, nil
}

func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

func harnessRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("harness run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	caseRef := fs.String("case", "", "case directory or id (required)")
	casesDir := fs.String("cases", "", "directory case ids are looked up in (default: "+defaultCasesDir+" in the current directory, its repository, or the sotvet source this binary was built from)")
	eng := fs.String("engine", harness.DefaultEngine, "backend lane")
	fixture := fs.String("fixture", "", "failure fixture to act out (fake lane): "+strings.Join(harness.FixtureNames(), ", "))
	out := fs.String("out", "", "runs root (default "+harness.DefaultRunsRoot()+")")
	asJSON := fs.Bool("json", false, "print report.json instead of a summary")
	runDir := fs.String("run-dir", "", "exact run directory to create (must not exist); overrides --out")
	signKey := fs.String("sign-key", "", "ed25519 private key (PKCS #8 PEM) to sign the attestation with")
	approve := fs.Bool("approve", false, "grant operator approval for a case that requires it")
	sb := fs.String("sandbox", sandbox.Auto, sandboxUsage)
	lrf := addLadderRunFlags(fs)
	var allow listFlag
	fs.Var(&allow, "allow-engine", "open the gate of a lane that is disabled by default (repeatable)")
	var lf laneFlags
	lf.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sotvet harness run --case <dir|id> [flags]")
		fs.PrintDefaults()
	}
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(pos) > 0 || *caseRef == "" {
		fs.Usage()
		return exitError
	}
	dir, err := resolveCase(*caseRef, caseRoots(*casesDir))
	if err != nil {
		fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
		return exitError
	}
	opt, code := runOptions(*out, stderr)
	if code != 0 {
		return code
	}
	opt.CaseDir, opt.Engine, opt.Fixture, opt.AllowEngines, opt.RunDir = dir, *eng, *fixture, allow, *runDir
	opt.Sandbox = *sb
	if !lrf.apply(fs, &opt, stderr) {
		return exitError
	}
	lf.apply(&opt)
	if *approve {
		opt.Approver = harness.StaticApprover{Granted: true, Actor: "operator:" + firstNonEmpty(os.Getenv("USER"), "unknown"), Reason: "approved with --approve"}
	}
	if *signKey != "" {
		if opt.SignKey, err = loadSigningKey(*signKey); err != nil {
			fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
			return exitError
		}
	}
	ctx, cancel := signalContext()
	defer cancel()
	res, err := harness.Run(ctx, opt)
	if err != nil {
		fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
		return exitError
	}
	for _, e := range res.ContractErrors {
		fmt.Fprintln(stderr, e)
	}
	if *asJSON {
		data, err := os.ReadFile(filepath.Join(res.RunDir, evidence.ReportJSON))
		if err != nil {
			fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
			return exitError
		}
		stdout.Write(data)
	} else {
		printSummary(stdout, res)
	}
	return res.ExitCode
}

func runOptions(out string, stderr io.Writer) (harness.Options, int) {
	if out == "" {
		out = harness.DefaultRunsRoot()
	}
	cmd, err := fakeCommand()
	if err != nil {
		fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
		return harness.Options{}, exitError
	}
	red, err := redactor()
	if err != nil {
		fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
		return harness.Options{}, exitError
	}
	return harness.Options{
		RunsRoot:       out,
		FakeCommand:    cmd,
		SandboxCommand: []string{cmd[0], "harness", "sandbox-exec"},
		Environ:        harnessEnviron(),
		Redactor:       red,
		Version:        version(),
	}, 0
}

const sandboxUsage = "confine the backend and the verification commands: auto (Landlock where the kernel supports it), landlock (required: the run is blocked without it) or none"

func printSummary(w io.Writer, res *harness.Result) {
	r := res.Report
	fmt.Fprintf(w, "run %s: %s\n", r.RunID, r.Status)
	fmt.Fprintf(w, "  case: %s  backend: %s", r.CaseID, r.Backend)
	if r.Fixture != "" {
		fmt.Fprintf(w, "  fixture: %s", r.Fixture)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  dir: %s\n", res.RunDir)
	if r.Sandbox == sandbox.KindLandlock {
		fmt.Fprintf(w, "  sandbox: landlock (ABI %d)\n", r.SandboxInfo.KernelABI)
	} else {
		fmt.Fprintf(w, "  sandbox: none (%s)\n", r.SandboxInfo.Reason)
	}
	if len(r.ChangedFiles) > 0 {
		fmt.Fprintf(w, "  changed: %s\n", quotepath.Join(r.ChangedFiles, ", "))
	}
	if r.Verification.Ran {
		fmt.Fprintf(w, "  tests passed: %t\n", r.TestsPassed)
	}
	for _, b := range r.Blockers {
		fmt.Fprintf(w, "  blocker %s: %s", b.Code, b.Message)
		if len(b.Paths) > 0 {
			fmt.Fprintf(w, " (%s)", quotepath.Join(b.Paths, ", "))
		}
		fmt.Fprintln(w)
	}
}

func harnessVerify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("harness verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pubKey := fs.String("pub-key", "", "trusted ed25519 public key (PKIX PEM) the attestation must be signed with")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	workspace := fs.String("workspace", ".", "workspace `dir` whose sotvet.yaml trusted-keys are required without --pub-key")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sotvet harness verify [flags] <run-dir>")
		fs.PrintDefaults()
	}
	dirs, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(dirs) != 1 {
		fs.Usage()
		return exitError
	}
	opt, err := verifyTrust(*workspace, *pubKey)
	if err != nil {
		fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
		return exitError
	}
	vs, auth, err := verifyAny(dirs[0], opt)
	if err != nil {
		fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
		return exitError
	}
	if *asJSON {
		type jv struct {
			Artifact string `json:"artifact"`
			Message  string `json:"message"`
		}
		out := struct {
			OK           bool     `json:"ok"`
			Dir          string   `json:"dir"`
			Authenticity string   `json:"authenticity"`
			Violations   []jv     `json:"violations"`
			Decisions    []string `json:"operator_decisions,omitempty"`
		}{OK: len(vs) == 0, Dir: dirs[0], Authenticity: auth, Violations: []jv{}, Decisions: guardNotes(dirs[0])}
		for _, v := range vs {
			out.Violations = append(out.Violations, jv{v.Artifact, v.Message})
		}
		data, _ := evidence.Marshal(out)
		stdout.Write(data)
	} else {
		for _, v := range vs {
			fmt.Fprintf(stdout, "%s: %s\n", dirs[0], v)
		}
		if len(vs) == 0 {
			fmt.Fprintf(stdout, "%s: valid (%s)\n", dirs[0], auth)
		} else {
			fmt.Fprintf(stdout, "%s: invalid: %d violations\n", dirs[0], len(vs))
		}
		for _, n := range guardNotes(dirs[0]) {
			fmt.Fprintf(stdout, "%s: operator decision: %s\n", dirs[0], n)
		}
	}
	if len(vs) > 0 {
		return exitFindings
	}
	return exitClean
}

func harnessMatrix(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("harness matrix", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "runs root (default "+harness.DefaultRunsRoot()+")")
	casesDir := fs.String("cases", "", "directory holding the cases (default: "+defaultCasesDir+" in the current directory, its repository, or the sotvet source this binary was built from)")
	jobs := fs.Int("jobs", 2, "runs in parallel")
	fixtureCase := fs.String("fixture-case", "", "case the failure fixtures run on (default r1-string-slugify, else the first case)")
	asJSON := fs.Bool("json", false, "print matrix.json instead of a table")
	sb := fs.String("sandbox", sandbox.Auto, sandboxUsage)
	eng := fs.String("engine", harness.DefaultEngine, "lane the matrix runs through; a real lane runs the fixture case and the fixtures that apply to it")
	var allow listFlag
	fs.Var(&allow, "allow-engine", "open the gate of a lane that is disabled by default (repeatable)")
	var lf laneFlags
	lf.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sotvet harness matrix [flags]")
		fs.PrintDefaults()
	}
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(pos) > 0 || *jobs < 1 {
		fs.Usage()
		return exitError
	}
	if err := sandbox.CheckMode(*sb); err != nil {
		fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
		return exitError
	}
	opt, code := runOptions(*out, stderr)
	if code != 0 {
		return code
	}
	opt.Sandbox = *sb
	cases, err := firstCasesDir(caseRoots(*casesDir))
	if err != nil {
		fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
		return exitError
	}
	opt.AllowEngines = allow
	lf.apply(&opt)
	ctx, cancel := signalContext()
	defer cancel()
	m, err := matrix.Run(ctx, matrix.Options{Base: opt, CasesDir: cases, Jobs: *jobs, FixtureCase: *fixtureCase, Engine: *eng})
	if err != nil {
		fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
		return exitError
	}
	if *asJSON {
		data, err := os.ReadFile(m.Path)
		if err != nil {
			fmt.Fprintf(stderr, "sotvet harness: %v\n", err)
			return exitError
		}
		stdout.Write(data)
	} else {
		matrix.WriteTable(stdout, m)
	}
	if m.Status != matrix.StatusPass {
		return exitFindings
	}
	return exitClean
}

// verifyTrust is whom harness verify believes: --pub-key, or else the
// workspace's trusted-keys (package trust). The workspace's configuration
// is not read when a key is given, so a broken sotvet.yaml does not stop
// verify --pub-key.
func verifyTrust(workspace, pubKey string) (verify.Options, error) {
	if pubKey != "" {
		return trust.WithPublicKey(verify.Options{}, pubKey)
	}
	return trust.Workspace(workspace)
}
