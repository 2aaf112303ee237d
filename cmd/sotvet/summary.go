package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/registry"
	"github.com/svrnty/sotvet/config"
	"github.com/svrnty/sotvet/harness/trust"
	"github.com/svrnty/sotvet/internal/jsonstream"
	"github.com/svrnty/sotvet/internal/workspaces"
	"github.com/svrnty/sotvet/sotparse"
	"github.com/svrnty/sotvet/summary"
)

// summarySchemaKind is the summary's name for sotvet schema.
const summarySchemaKind = "summary"

// summarySchema is the summary's JSON Schema, for sotvet schema.
func summarySchema() []byte { return summary.Schema() }

// summaryInputs are the flags sotvet summary and sotvet serve share.
type summaryInputs struct {
	runs, config            string
	noGit                   bool
	maxPerFile, maxFindings int
}

func (in *summaryInputs) register(flags *flag.FlagSet) {
	flags.StringVar(&in.runs, "runs", "", "harness runs root to read runs, matrices, comparisons and approvals from (default none)")
	flags.StringVar(&in.config, "config", "", "configuration file (default DIR/sotvet.yaml if present)")
	flags.BoolVar(&in.noGit, "no-git", false, "do not ask git for ignore rules")
	flags.IntVar(&in.maxPerFile, "max-findings-per-file", -1, "list at most this many findings of one file, and count the others (0: no cap; default "+strconv.Itoa(checks.DefaultMaxPerFile)+", or max-findings-per-file in "+config.FileName+")")
	flags.IntVar(&in.maxFindings, "max-findings", -1, "list at most this many findings in all, and count the others (0: no cap; default "+strconv.Itoa(checks.DefaultMaxFindings)+", or max-findings in "+config.FileName+")")
}

// options turns the flags and the workspace directory into summary
// options: the checks and severities sotvet check would use.
// parse reads the command line of summary and serve: flags and at most
// one workspace directory (default .), resolved into summary options.
func (in *summaryInputs) parse(flags *flag.FlagSet, args []string, stderr io.Writer) (summary.Options, int, bool) {
	dirs, code, ok := parseArgs(flags, args)
	if !ok {
		return summary.Options{}, code, false
	}
	if len(dirs) > 1 {
		fmt.Fprintf(stderr, "sotvet %s: want at most one directory\n", flags.Name())
		return summary.Options{}, exitError, false
	}
	dir := "."
	if len(dirs) == 1 {
		dir = dirs[0]
	}
	opt, err := in.options(dir)
	if err != nil {
		fmt.Fprintf(stderr, "sotvet: %v\n", err)
		return summary.Options{}, exitError, false
	}
	return opt, 0, true
}

func (in *summaryInputs) options(dir string) (summary.Options, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return summary.Options{}, err
	}
	info, err := os.Stat(root)
	if err != nil {
		return summary.Options{}, err
	}
	if !info.IsDir() {
		return summary.Options{}, fmt.Errorf("%s is not a directory", dir)
	}
	if root, err = summaryRoot(dir, root); err != nil {
		return summary.Options{}, err
	}
	cfg, err := loadConfig(root, in.config)
	if err != nil {
		return summary.Options{}, err
	}
	if err := cfg.Apply(registry.All, nil); err != nil {
		return summary.Options{}, err
	}
	analyzers, sev, err := selectChecks(cfg, checkFlags{})
	if err != nil {
		return summary.Options{}, err
	}
	opt := summary.Options{
		Root: root, Analyzers: analyzers, Severity: sev, MaxFileSize: cfg.MaxFileSize,
		MaxPerFile:  findingsCap(in.maxPerFile, cfg.MaxFindingsPerFile, checks.DefaultMaxPerFile),
		MaxFindings: findingsCap(in.maxFindings, cfg.MaxFindings, checks.DefaultMaxFindings),
	}
	opt.Parsed, _ = workspaceCollections() // the model is kept for the summary: nothing is forgotten
	// Runs and records are believed as harness verify --workspace
	// believes them: signed by one of the workspace's trusted-keys.
	if opt.Trust, err = trust.FromConfig(cfg); err != nil {
		return summary.Options{}, err
	}
	if !in.noGit {
		if opt.Ignored, err = sotparse.GitIgnored(root); err != nil {
			return summary.Options{}, err
		}
	}
	if in.runs != "" {
		if opt.RunsRoot, err = filepath.Abs(in.runs); err != nil {
			return summary.Options{}, err
		}
		if info, err := os.Stat(opt.RunsRoot); err != nil || !info.IsDir() {
			return summary.Options{}, fmt.Errorf("--runs %s: not a directory", in.runs)
		}
	}
	return opt, nil
}

// summaryRoot returns the workspace a summary is of: the directory given,
// the workspace that holds it (run in .sot/, say), or the one workspace
// below it. A directory that is none of these is an error, as for check:
// an empty summary would read as a clean one.
func summaryRoot(dir, abs string) (string, error) {
	if up, ok := workspaces.Enclosing(abs); ok {
		return up, nil
	}
	below, err := workspaces.Find(abs, nil)
	if err != nil {
		return "", err
	}
	switch len(below) {
	case 0:
		return "", fmt.Errorf("no workspace found in %s or above it: no directory holds %s", dir, workspaces.Markers)
	case 1:
		return filepath.Join(abs, filepath.FromSlash(below[0])), nil
	}
	return "", fmt.Errorf("%s holds %d workspaces (%s): name one", dir, len(below), strings.Join(below, ", "))
}

func cmdSummary(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("summary", flag.ContinueOnError)
	flags.SetOutput(stderr)
	var in summaryInputs
	in.register(flags)
	asJSON := flags.Bool("json", false, "print the summary as JSON (schema: sotvet schema summary)")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: sotvet summary [--json] [--runs DIR] [dir]")
		flags.PrintDefaults()
	}
	opt, code, ok := in.parse(flags, args, stderr)
	if !ok {
		return code
	}
	s, err := summary.Compute(opt)
	if err != nil {
		fmt.Fprintf(stderr, "sotvet: %v\n", err)
		return exitError
	}
	if *asJSON {
		// Streamed: the JSON of every finding is not held at once.
		if err := jsonstream.WriteIndent(stdout, s); err != nil {
			fmt.Fprintf(stderr, "sotvet: %v\n", err)
			return exitError
		}
		return exitClean
	}
	writeDashboard(stdout, s)
	return exitClean
}

// writeDashboard prints the summary for a person: the ladder, the
// approval posture, the counts, and the next action last, where the eye
// ends.
func writeDashboard(w io.Writer, s *summary.Summary) {
	runs := "no runs root"
	if s.RunsRoot != "" {
		runs = fmt.Sprintf("runs root %s, %d runs", s.RunsRoot, s.Runs.Total)
	}
	fmt.Fprintf(w, "sotvet summary of %s (%s)\n%s\n", s.Workspace, runs, s.Authority)

	fmt.Fprintln(w, "\nPROOF LADDER")
	for _, st := range s.ProofLadder {
		mark := map[string]string{"validated": "[x]", "documented": "[~]", "evidence-only": "[~]"}[st.Status]
		if mark == "" {
			mark = "[ ]"
		}
		line := fmt.Sprintf("  %s %d %-24s %-13s %s", mark, st.Stage, st.Name, st.Status, runList(st.ValidatedBy))
		fmt.Fprintln(w, strings.TrimRight(line, " "))
		if len(st.Reasons) > 0 {
			fmt.Fprintf(w, "        not yet: %s\n", st.Reasons[0])
		}
	}

	fmt.Fprintln(w, "\nAPPROVAL")
	fmt.Fprintf(w, "  approval_required: %t  approval_granted: %t  execution_allowed: %t\n", s.ApprovalRequired, s.ApprovalGranted, s.ExecutionAllowed)
	fmt.Fprintf(w, "  %s\n", s.ApprovalReason)
	if p := s.ApprovalPacket; p != nil {
		fmt.Fprintf(w, "  packet: %s (%s, proof ready: %t, executable: %t)\n", p.Source, p.Status, p.ProofReady, p.Executable)
	}
	for _, c := range s.ConsumedApprovals {
		fmt.Fprintf(w, "  consumed: %s by run %s (consumed_by_pass_evidence: %s)\n", c.ApprovalID, c.RunID, orDash(c.ConsumedByPassEvidence))
	}

	fmt.Fprintf(w, "\nFINDINGS  %s, %s\n", plural(s.Findings.Errors, "error", "errors"), plural(s.Findings.Warnings, "warning", "warnings"))
	width := 12
	for _, c := range s.Findings.ByCheck {
		width = max(width, len(c.Check))
	}
	for _, c := range s.Findings.ByCheck {
		fmt.Fprintf(w, "  %-*s %s, %s\n", width, c.Check, plural(c.Errors, "error", "errors"), plural(c.Warnings, "warning", "warnings"))
	}

	var cols []string
	total := 0
	for _, c := range s.Workboard.Columns {
		cols = append(cols, fmt.Sprintf("%s %d", c.Status, len(c.Items)))
		total += len(c.Items)
	}
	switch {
	case s.Workboard.NotRead != "":
		fmt.Fprintf(w, "\nWORKBOARD  not read: %s\n", s.Workboard.NotRead)
	case !s.Workboard.Present:
		fmt.Fprintf(w, "\nWORKBOARD  none (no WORKBOARD.yaml)\n")
	default:
		fmt.Fprintf(w, "\nWORKBOARD  %d items (%s), %d blocked\n", total, strings.Join(cols, ", "), len(s.Workboard.Blocked))
	}
	for _, b := range s.Workboard.Blocked {
		var by []string
		for _, x := range b.By {
			by = append(by, x.ID+" ("+x.Status+")")
		}
		fmt.Fprintf(w, "  %s waits on %s\n", b.ID, strings.Join(by, ", "))
	}

	fmt.Fprintf(w, "\nRUNS  %d runs, %d matrices, %d comparisons\n", s.Runs.Total, len(s.Runs.Matrices), len(s.Runs.Comparisons))
	for _, l := range s.Runs.Lanes {
		var counts []string
		for _, st := range sortedKeys(l.Counts) {
			counts = append(counts, fmt.Sprintf("%s %d", st, l.Counts[st]))
		}
		fmt.Fprintf(w, "  %-6s %s\n", l.Engine, strings.Join(counts, ", "))
		if len(l.Latest) > 0 {
			r := l.Latest[0]
			fx := ""
			if r.Fixture != "" {
				fx = " (failure fixture " + r.Fixture + ")"
			}
			fmt.Fprintf(w, "         latest %s: %s%s, verify %s\n", r.ID, r.Status, fx, verdict(r))
		}
	}
	for _, m := range s.Runs.Matrices {
		fmt.Fprintf(w, "  matrix %s: %s (%d runs)\n", m.ID, m.Status, m.Runs)
	}

	fmt.Fprintln(w, "\nLANES")
	for _, b := range s.BlockedLanes {
		fmt.Fprintf(w, "  blocked %s: %s\n", b.Engine, b.Rationale)
	}
	cd := s.CandidateDefault
	if cd.Engine != "" {
		fmt.Fprintf(w, "  candidate default: %s eligible %t (%s)\n", cd.Engine, cd.Eligible, cd.Reason)
	} else {
		fmt.Fprintf(w, "  candidate default: none (%s)\n", cd.Reason)
	}
	fmt.Fprintf(w, "  runtime_default_activation: %t  core_promotion_status: %s\n", s.RuntimeDefaultActivation, s.CorePromotionStatus)
	if g := s.Guard; g != nil {
		fmt.Fprintf(w, "\nGUARD  %s %s ago (%s): guard_status %s, core_route_admission_status %s, blocked_reason %s\n",
			g.GuardID, age(g.AgeSeconds), printable(g.Repo), g.GuardStatus, g.CoreRouteAdmissionStatus, g.BlockedReason)
		fmt.Fprintf(w, "  next_allowed_action: %s\n", g.NextAllowedAction)
		for _, a := range g.AssumedOutside {
			fmt.Fprintf(w, "  assumed outside by the operator (--assume-outside): %s\n", printable(a))
		}
	}
	for _, u := range s.Unreadable {
		fmt.Fprintf(w, "\nUNREADABLE %s: %s\n", u.Path, u.Reason)
	}
	fmt.Fprintf(w, "\nNEXT  %s\n", s.NextOperatorAction)
}

// age says how long ago in the largest whole unit.
func age(seconds int64) string {
	switch {
	case seconds < 60:
		return fmt.Sprintf("%ds", seconds)
	case seconds < 3600:
		return fmt.Sprintf("%dm", seconds/60)
	case seconds < 48*3600:
		return fmt.Sprintf("%dh", seconds/3600)
	}
	return fmt.Sprintf("%dd", seconds/86400)
}

func runList(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	if len(ids) > 2 {
		return fmt.Sprintf("runs %s, %s and %d more", ids[0], ids[1], len(ids)-2)
	}
	return "runs " + strings.Join(ids, ", ")
}

// verdict is verify's verdict on a run in harness verify's words.
func verdict(r summary.Run) string {
	if r.Verified {
		return "valid (" + r.Authenticity + ")"
	}
	return "REJECTED"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
