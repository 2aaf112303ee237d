package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/baseline"
	"github.com/svrnty/sotvet/cache"
	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/registry"
	"github.com/svrnty/sotvet/checks/report"
	"github.com/svrnty/sotvet/config"
	"github.com/svrnty/sotvet/internal/atomicfile"
	"github.com/svrnty/sotvet/internal/gitview"
	"github.com/svrnty/sotvet/internal/safefs"
	"github.com/svrnty/sotvet/internal/warmup"
	"github.com/svrnty/sotvet/internal/workspaces"
	"github.com/svrnty/sotvet/prose"
	"github.com/svrnty/sotvet/sotparse"
)

type checkFlags struct {
	format, failOn, enable, disable, config string
	fix, diff, noGit, noCache               bool
	unsafeFixes                             bool
	statistics                              bool

	staged, all, lines  bool
	files               bool
	fileArgs            []string // with --files: absolute paths
	changedSince        string
	baseline, writeBase string
	failOnStale         bool

	// The caps on findings reported (-1: from sotvet.yaml, else the
	// default; 0: no cap).
	maxPerFile, maxFindings int

	cpuProfile, memProfile string
	debugCache             bool

	git *gitProbe // what git says of the directory given; nil: ask as needed
}

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	start := time.Now()
	flags := flag.NewFlagSet("check", flag.ContinueOnError)
	flags.SetOutput(stderr)
	var cf checkFlags
	flags.StringVar(&cf.format, "format", "text", "output format: "+strings.Join(report.Formats, ", "))
	flags.IntVar(&cf.maxPerFile, "max-findings-per-file", -1, "report at most this many findings of one file, and count the others (0: no cap; default "+strconv.Itoa(checks.DefaultMaxPerFile)+", or max-findings-per-file in "+config.FileName+")")
	flags.IntVar(&cf.maxFindings, "max-findings", -1, "report at most this many findings in all, and count the others (0: no cap; default "+strconv.Itoa(checks.DefaultMaxFindings)+", or max-findings in "+config.FileName+")")
	flags.StringVar(&cf.failOn, "fail-on", "", "lowest severity that makes the exit code 1: error or warning (default error)")
	flags.StringVar(&cf.enable, "enable", "", "comma-separated checks or check/category codes to run (default all)")
	flags.StringVar(&cf.disable, "disable", "", "comma-separated checks or check/category codes not to run")
	flags.StringVar(&cf.config, "config", "", "configuration file (default DIR/"+config.FileName+" if present)")
	flags.BoolVar(&cf.fix, "fix", false, "apply the safe suggested fixes to the workspace, then report what remains")
	flags.BoolVar(&cf.diff, "diff", false, "print the suggested fixes as a unified diff, unsafe ones included; write nothing")
	flags.BoolVar(&cf.unsafeFixes, "unsafe-fixes", false, "with --fix, also apply the fixes that assert a person's judgement (a status validated, a review date)")
	flags.BoolVar(&cf.statistics, "statistics", false, "end with the number of findings of each check/category code, to decide what to configure")
	flags.BoolVar(&cf.noGit, "no-git", false, "do not ask git for ignore rules")
	flags.BoolVar(&cf.noCache, "no-cache", false, "with --staged or --changed-since, read and parse every document instead of reusing cached summaries")
	flags.BoolVar(&cf.staged, "staged", false, "vet the content staged in the git index, reporting findings in staged files only")
	flags.BoolVar(&cf.files, "files", false, "the arguments are files, as pre-commit passes them: vet the workspaces under . and report findings in those files only")
	flags.BoolVar(&cf.all, "all", false, "with --staged or --changed-since, report findings in every file")
	flags.StringVar(&cf.changedSince, "changed-since", "", "report findings only in files changed since the git revision `rev`")
	flags.BoolVar(&cf.lines, "lines", false, "with --changed-since, report findings only on changed lines")
	flags.StringVar(&cf.baseline, "baseline", "", "report only findings not recorded in the baseline `file`")
	flags.StringVar(&cf.writeBase, "write-baseline", "", "record the current findings in the baseline `file` and exit 0")
	flags.BoolVar(&cf.failOnStale, "fail-on-stale", false, "with --baseline, exit 1 when baseline entries match no finding")
	flags.StringVar(&cf.cpuProfile, "debug.cpuprofile", "", "write a CPU profile to `file`")
	flags.StringVar(&cf.memProfile, "debug.memprofile", "", "write a heap profile to `file` at the end")
	flags.BoolVar(&cf.debugCache, "debug.cache", false, "report on stderr what the run took from the summary cache")
	// Per-check flags, as multichecker does: -<check>.<flag>.
	for _, a := range registry.All {
		a.Flags.VisitAll(func(f *flag.Flag) {
			flags.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	flags.Usage = func() { checkUsage(stderr, flags) }
	dirs, code, ok := parseArgs(flags, args)
	if !ok {
		return code
	}
	dir := "."
	switch {
	case cf.files:
		for _, f := range dirs {
			abs, err := filepath.Abs(f)
			if err == nil {
				// A mistyped path, or a flag pre-commit put after the file
				// names, would otherwise vet nothing and pass.
				_, err = os.Lstat(abs)
			}
			if err != nil {
				fmt.Fprintf(stderr, "sotvet: --files: %v\n", err)
				return exitError
			}
			cf.fileArgs = append(cf.fileArgs, abs)
		}
	case len(dirs) > 1:
		fmt.Fprintln(stderr, "sotvet check: want at most one directory (or --files)")
		return exitError
	case len(dirs) == 1:
		dir = dirs[0]
	}
	explicit := map[string]bool{}
	flags.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
	if stop, err := startProfiles(cf.cpuProfile, cf.memProfile); err != nil {
		fmt.Fprintf(stderr, "sotvet: %v\n", err)
		return exitError
	} else {
		defer stop()
	}
	// The prose check's style sets are kept between runs: reading their
	// YAML is most of what reading them costs (docs/prose.md).
	if d, err := cache.DefaultDir(); err == nil {
		prose.SetStyleCache(&prose.StyleCache{Dir: filepath.Join(d, cache.StylesDir), Key: cache.BuildKey(version())})
	}

	root, err := filepath.Abs(dir)
	if err == nil {
		var info os.FileInfo
		if info, err = os.Stat(root); err == nil && !info.IsDir() {
			err = fmt.Errorf("%s is not a directory", dir)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "sotvet: %v\n", err)
		return exitError
	}
	cf.git = probeGit(root, cf.noGit)
	// Not note: a note is advice, and never fails a run.
	if cf.failOn != "" && checks.Severity(cf.failOn).Rank() < checks.SeverityWarning.Rank() {
		fmt.Fprintf(stderr, "sotvet: --fail-on %q: want error or warning\n", cf.failOn)
		return exitError
	}
	if !contains(report.Formats, cf.format) {
		fmt.Fprintf(stderr, "sotvet: unknown format %q (want %s)\n", cf.format, strings.Join(report.Formats, ", "))
		return exitError
	}
	if err := cf.validate(); err != nil {
		fmt.Fprintf(stderr, "sotvet: %v\n", err)
		return exitError
	}
	rootCfg, err := loadConfig(root, cf.config)
	if err != nil {
		fmt.Fprintf(stderr, "sotvet: %v\n", err)
		return exitError
	}
	cf.maxPerFile = findingsCap(cf.maxPerFile, rootCfg.MaxFindingsPerFile, checks.DefaultMaxPerFile)
	cf.maxFindings = findingsCap(cf.maxFindings, rootCfg.MaxFindings, checks.DefaultMaxFindings)
	warmUp(rootCfg, cf)
	wsDirs, err := cf.findWorkspaces(root, rootCfg)
	if err != nil {
		fmt.Fprintf(stderr, "sotvet: %v\n", err)
		return exitError
	}
	if up, ok := workspaces.Enclosing(root); ok && len(wsDirs) == 0 && cf.config == "" && !cf.files {
		// Run inside a workspace (in .sot/, say): vet the one that holds
		// the directory, as git finds a repository from a subdirectory.
		fmt.Fprintf(stderr, "sotvet: vetting the workspace that holds %s: %s\n", dir, up)
		root = up
		cf.git = probeGit(root, cf.noGit)
		if rootCfg, err = loadConfig(root, cf.config); err == nil {
			wsDirs, err = cf.findWorkspaces(root, rootCfg)
		}
		if err != nil {
			fmt.Fprintf(stderr, "sotvet: %v\n", err)
			return exitError
		}
	}
	if len(wsDirs) == 0 {
		// Exit 0 here would be a false green: nothing was vetted.
		fmt.Fprintf(stderr, "sotvet: no workspace found in %s: no directory holds %s (name them under workspaces: in %s)\n", dir, workspaces.Markers, config.FileName)
		return exitError
	}
	base := cf.git.base()

	// Each workspace runs with its own configuration; the check flags it
	// sets are put back before the next one, and at the end.
	restore := snapshotFlags()
	defer restore()
	var runs []*wsRun
	for i, d := range wsDirs {
		if i > 0 {
			restore()
		}
		r, err := cf.vetWorkspace(d, root, rootCfg, base, explicit, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "sotvet: %v\n", err)
			return exitError
		}
		defer r.close()
		runs = append(runs, r)
	}
	failOn := checks.Severity(cf.failOn)
	if failOn == "" {
		failOn = strictestFailOn(runs)
	}

	if cf.writeBase != "" {
		all := combine(runs)
		if err := writeOutput(cf.writeBase, baseline.New(all.Findings).Marshal()); err != nil {
			fmt.Fprintf(stderr, "sotvet: writing baseline: %v\n", err)
			return exitError
		}
		fmt.Fprintf(stderr, "sotvet: recorded %d findings in %s\n", len(all.Findings), cf.writeBase)
		return exitClean
	}
	// The baseline: --baseline for every workspace, else each
	// workspace's configured one (sotvet.yaml baseline:, relative to it).
	var stale []baseline.Entry
	groups := baselineGroups(cf.baseline, runs)
	if cf.failOnStale && len(groups) == 0 {
		fmt.Fprintf(stderr, "sotvet: --fail-on-stale needs --baseline (or baseline: in %s)\n", config.FileName)
		return exitError
	}
	for _, g := range groups {
		b, err := g.load()
		if err != nil {
			fmt.Fprintf(stderr, "sotvet: %v\n", err)
			return exitError
		}
		st := filterBaseline(b, g.runs)
		for _, e := range st {
			fmt.Fprintf(stderr, "sotvet: stale baseline entry %s: %s: [%s] %s\n", e.Fingerprint, e.File, e.Code(), e.Message)
		}
		stale = append(stale, st...)
	}

	if cf.fix || cf.diff {
		if code, done := cf.applyFixes(runs, failOn, stdout, stderr); done {
			return code
		}
	}

	res := combine(runs)
	// Capped once the baseline has filtered: what it accepts takes no room.
	res.Cap(cf.maxPerFile, cf.maxFindings)
	// Rule metadata for the checks that ran (and the suppression findings),
	// so JUnit and SARIF never claim a disabled check passed.
	var ran []report.Rule
	for _, r := range rules() {
		if contains(res.Checked, r.Name) || r.Name == checks.SuppressionCheck {
			ran = append(ran, r)
		}
	}
	ropt := report.Options{FailOn: failOn, Rules: ran, Tool: "sotvet", Version: version(), SrcRoot: base, Elapsed: time.Since(start), MaxPerFile: cf.maxPerFile, MaxFindings: cf.maxFindings}
	if err := report.Write(stdout, cf.format, res, ropt); err != nil {
		fmt.Fprintf(stderr, "sotvet: %v\n", err)
		return exitError
	}
	if cf.statistics {
		// After the findings on stdout in text; on stderr in a machine
		// format, whose stdout is the report.
		w := stdout
		if cf.format != "text" {
			w = stderr
		}
		writeStatistics(w, res.Findings)
	}
	switch {
	case len(res.Findings) == 0:
		// One line, on stderr: stdout stays the report (empty in text).
		fmt.Fprintf(stderr, "All checks passed: 0 findings in %s.\n", plural(res.Files, "file", "files"))
	case cf.format == "text":
		fmt.Fprintf(stderr, "%s%s\n", summaryLine(res.Findings), omittedSummary(res))
	}
	if res.Fails(failOn) {
		return exitFindings
	}
	if cf.failOnStale && len(stale) > 0 {
		return exitFindings
	}
	return exitClean
}

// warmUp starts, in the background, the one-time builds of the checks the
// configuration selects, so that they overlap git and reading the
// workspace. A workspace configuration selecting other checks costs only
// their builds in the foreground, as without this.
func warmUp(cfg *config.Config, cf checkFlags) {
	analyzers, _, err := selectChecks(cfg, cf)
	if err != nil {
		return // reported when the workspace is vetted
	}
	names := make([]string, len(analyzers))
	for i, a := range analyzers {
		names[i] = a.Name
	}
	warmup.Start(names...)
}

func (cf *checkFlags) validate() error {
	switch {
	case strings.HasPrefix(cf.changedSince, "-"):
		// git would take it as an option (--output=FILE writes a file).
		return fmt.Errorf("--changed-since %q: a revision cannot start with \"-\"", cf.changedSince)
	case cf.staged && cf.changedSince != "":
		return errors.New("--staged and --changed-since cannot be combined")
	case cf.files && (cf.staged || cf.changedSince != "" || cf.all):
		return errors.New("--files names the files to report on; it cannot be combined with --staged, --changed-since or --all")
	case cf.all && !cf.staged && cf.changedSince == "":
		return errors.New("--all needs --staged or --changed-since")
	case cf.lines && cf.changedSince == "":
		return errors.New("--lines needs --changed-since")
	case cf.baseline != "" && cf.writeBase != "":
		return errors.New("--baseline and --write-baseline cannot be combined")
	case cf.unsafeFixes && !cf.fix:
		return errors.New("--unsafe-fixes needs --fix (--diff shows the unsafe fixes already)")
	case (cf.fix || cf.diff) && cf.staged:
		return errors.New("--fix and --diff work on the work tree, not with --staged")
	}
	return nil
}

// source is where a check run reads the workspace from.
type source struct {
	index    *gitview.Index  // the git index, with --staged
	scope    map[string]bool // the files to report on; nil for all
	pack     *cache.Pack     // the summary cache, when the run reuses it
	files    *cache.Files    // the work tree's files, read through the cache's stat index
	cacheDir string
}

// cacheMaxAge is how long the pack of a workspace no run looks at is kept.
const cacheMaxAge = 30 * 24 * time.Hour

func (s *source) close() {
	if s.index != nil {
		s.index.Close()
	}
}

// openSource sets opt up to read the work tree (minus what git ignores) or,
// with --staged, the index; and, for a run scoped to a few files, to reuse
// the other documents' cached summaries unless --no-cache.
func (cf *checkFlags) openSource(root string, opt *checks.Options, stderr io.Writer) (*source, error) {
	src := &source{}
	var err error
	switch {
	case cf.staged:
		// The index view: what will be committed, whole, so cross-file
		// checks still see every file.
		if src.index, err = gitview.ReadIndex(root); err != nil {
			return nil, fmt.Errorf("--staged: %w", err)
		}
		opt.FS = src.index.FS()
	case !cf.noGit:
		if opt.Ignored, err = cf.git.ignored(root); err != nil {
			return nil, err
		}
	}
	if src.scope, err = cf.scopeFiles(root); err != nil {
		src.close()
		return nil, err
	}
	if src.scope != nil && !cf.noCache && !cf.fix && !cf.diff {
		src.pack, src.cacheDir = openCache(root, cf.debugCache, stderr)
	}
	switch {
	case src.pack != nil:
		scope := src.scope
		opt.Reuse = &sotparse.Reuse{Focus: func(p string) bool { return scope[p] }, Store: src.pack}
		if src.index != nil {
			opt.Reuse.ID, opt.Reuse.Prefetch = src.index.ID, src.index.Prefetch
		} else if root, ok := opt.FS.(*safefs.FS); ok {
			// The work tree: the files unchanged since a run before,
			// by the cache's stat index, are neither read nor hashed.
			limit := opt.MaxFileSize
			if limit <= 0 {
				limit = sotparse.DefaultMaxFileSize
			}
			src.files = cache.NewFiles(root, limit, src.pack, false)
			opt.FS, opt.Reuse.ID = src.files, src.files.ID
		}
	case src.index != nil:
		// Every staged file is read: in one exchange with git.
		var all []string
		for _, p := range src.index.Paths() {
			if sotparse.RoleOf(p) != 0 {
				all = append(all, p)
			}
		}
		src.index.Prefetch(all)
	}
	return src, nil
}

// scopeFiles returns the files the user asked about: staged files with
// --staged, files changed since a revision with --changed-since; nil for
// every file (no scope, or --all).
func (cf *checkFlags) scopeFiles(root string) (map[string]bool, error) {
	if cf.files {
		in := map[string]bool{}
		for _, f := range cf.fileArgs {
			// The file's directory is resolved, not the file: a named
			// file that is a link out of the workspace is the link's
			// finding, which resolving it put out of scope.
			dir, ok := workspaces.Rel(root, filepath.Dir(f))
			if base := filepath.Base(f); ok && base != "." && base != ".." && base != string(filepath.Separator) {
				in[path.Join(dir, base)] = true
			}
		}
		return in, nil
	}
	if cf.all || (!cf.staged && cf.changedSince == "") {
		return nil, nil
	}
	var files []string
	var err error
	if cf.staged {
		files, err = gitview.Staged(root)
	} else {
		files, err = gitview.ChangedSince(root, cf.changedSince)
	}
	if err != nil {
		return nil, err
	}
	in := make(map[string]bool, len(files))
	for _, f := range files {
		in[f] = true
	}
	return in, nil
}

// scope keeps the findings in the files of scopeFiles, and with --lines on
// the changed lines. The whole workspace was loaded either way, so
// cross-file rules stay correct.
func (cf *checkFlags) scope(root string, in map[string]bool, findings []checks.Finding) ([]checks.Finding, error) {
	if in == nil {
		return findings, nil
	}
	var lines map[string]map[int]bool
	var err error
	if cf.lines {
		if lines, err = gitview.ChangedLines(root, cf.changedSince); err != nil {
			return nil, err
		}
	}
	var out []checks.Finding
	for _, f := range findings {
		if !in[f.File] {
			continue
		}
		// A file missing from the diff is untracked: every line is new.
		if ls, ok := lines[f.File]; cf.lines && ok && !ls[f.Line] {
			continue
		}
		out = append(out, f)
	}
	return out, nil
}

// openCache opens the workspace's summary cache, or returns nil (with a
// warning) when there is no usable cache directory: the run is then a full
// one, slower but the same.
func openCache(root string, debug bool, stderr io.Writer) (*cache.Pack, string) {
	dir, err := cache.DefaultDir()
	if err != nil {
		fmt.Fprintf(stderr, "sotvet: warning: no cache directory (%v); reading every document\n", err)
		return nil, ""
	}
	pack := cache.Open(dir, root, cache.BuildKey(version()))
	if err := pack.Problem(); err != nil && debug {
		fmt.Fprintf(stderr, "sotvet: cache: %v\n", err)
	}
	return pack, dir
}

// parseArgs parses a subcommand's flags and returns its positional
// arguments; when it returns false the command ends with the exit code:
// 0 for -h (the flag package printed the usage), 2 for a bad flag.
func parseArgs(flags *flag.FlagSet, args []string) ([]string, int, bool) {
	// The flag package prints the whole usage after a bad flag; the Go
	// tools print the error and where to look instead. Usage is printed
	// for -h only.
	usage, out := flags.Usage, flags.Output()
	flags.Usage = func() {}
	flags.SetOutput(io.Discard)
	pos, err := parseInterleaved(flags, args)
	if err == nil {
		err = negativeCap(flags)
	}
	flags.Usage = usage
	flags.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		usage()
		return nil, exitClean, false
	case err != nil:
		fmt.Fprintf(out, "sotvet %s: %v\n", flags.Name(), err)
		if s := suggestFlag(flags, err); s != "" {
			fmt.Fprintf(out, "did you mean --%s?\n", s)
		}
		fmt.Fprintf(out, "Run 'sotvet %s --help' for usage.\n", flags.Name())
		return nil, exitError, false
	}
	return pos, 0, true
}

// negativeCap refuses a findings cap given below zero. check and summary
// take -1 for a cap not given (the configuration's or the default then
// applies), so a negative one would be read as no flag at all.
func negativeCap(flags *flag.FlagSet) (err error) {
	flags.Visit(func(f *flag.Flag) {
		if (f.Name == "max-findings" || f.Name == "max-findings-per-file") && strings.HasPrefix(f.Value.String(), "-") {
			err = fmt.Errorf("--%s %s: want a number of findings (0: no cap)", f.Name, f.Value)
		}
	})
	return err
}

// parseInterleaved parses flags that may follow the positional arguments
// ("sotvet check dir --format json"), as users of other linters expect.
// After "--" every argument is positional, a file named "-skip-binary"
// included: the flag package consumes the "--" it stops at, so that is
// told from what it consumed.
func parseInterleaved(flags *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := flags.Parse(args); err != nil {
			return nil, err
		}
		rest := flags.Args()
		if endedByTerminator(flags, args[:len(args)-len(rest)]) {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// endedByTerminator reports whether the arguments flags.Parse consumed
// end with a "--" it stopped at, not one given as a flag's value
// ("--format --").
func endedByTerminator(flags *flag.FlagSet, consumed []string) bool {
	n := len(consumed)
	if n == 0 || consumed[n-1] != "--" {
		return false
	}
	if n == 1 {
		return true
	}
	prev := consumed[n-2]
	if !strings.HasPrefix(prev, "-") || prev == "--" || strings.Contains(prev, "=") {
		return true
	}
	f := flags.Lookup(strings.TrimLeft(prev, "-"))
	if f == nil {
		return true
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag() // a flag that takes a value took this "--"
}

func loadConfig(root, explicit string) (*config.Config, error) {
	var cfg *config.Config
	var err error
	if explicit != "" {
		cfg, err = config.Load(explicit, registry.All)
	} else {
		cfg, err = config.LoadIn(root, registry.All)
	}
	if err != nil {
		if explicit == "" && errors.Is(err, fs.ErrNotExist) {
			return &config.Config{}, nil
		}
		return nil, err
	}
	return cfg, nil
}

// selectChecks returns the checks that run and the severities their
// findings get, from the configuration and the command line: --enable
// replaces enable:, --disable adds to disable:. Either takes checks and
// check/category codes.
func selectChecks(cfg *config.Config, cf checkFlags) ([]*analysis.Analyzer, map[string]checks.Severity, error) {
	enable := cfg.Enable
	if cf.enable != "" {
		enable = splitList(cf.enable)
	}
	disable := append(append([]string(nil), cfg.Disable...), splitList(cf.disable)...)
	sev := map[string]checks.Severity{}
	for k, v := range cfg.Severity {
		sev[k] = checks.Severity(v)
	}
	return checks.Select(enable, disable, sev)
}

// staleTemp is how old a temporary file of --fix must be before another
// --fix removes it: a younger one may belong to a --fix still running.
const staleTemp = 10 * time.Minute

// fixTarget returns the file a fix of the workspace path p is written to:
// through a link, its target, which must be inside the root (the link
// stays a link); never a file outside the workspace.
func fixTarget(root, p string) (string, error) {
	name := filepath.Join(root, filepath.FromSlash(p))
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		return "", err
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	if rel, ok := sotparse.RelPath(realRoot, real); !ok || rel == "." {
		return "", fmt.Errorf("%s: leads outside the workspace (%s); not written", p, real)
	}
	return real, nil
}

// writeAtomic replaces (or creates) name with data, keeping an existing
// file's mode: a crash leaves the old or the new content, never a part.
func writeAtomic(name string, data []byte) error { return atomicfile.Write(name, data, 0o644) }

// writeOutput writes a file the user named (--write-baseline): a device
// such as /dev/null is written to, never replaced.
func writeOutput(name string, data []byte) error { return atomicfile.WriteOutput(name, data, 0o644) }

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// startProfiles starts CPU profiling and arranges a heap profile, for
// measuring sotvet on large workspaces; the returned func finishes both.
func startProfiles(cpu, mem string) (func(), error) {
	var cpuFile *os.File
	if cpu != "" {
		f, err := os.Create(cpu)
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, err
		}
		cpuFile = f
	}
	return func() {
		if cpuFile != nil {
			pprof.StopCPUProfile()
			cpuFile.Close()
		}
		if mem != "" {
			if f, err := os.Create(mem); err == nil {
				runtime.GC()
				pprof.WriteHeapProfile(f)
				f.Close()
			}
		}
	}, nil
}

// checkUsage prints check's flags one a line, and the per-check flags by
// name only: their long defaults (the built-in forbidden claims) are for
// `sotvet explain <check>` and `sotvet init`, so that the help fits a screen.
func checkUsage(w io.Writer, flags *flag.FlagSet) {
	fmt.Fprintln(w, "usage: sotvet check [flags] [dir]")
	fmt.Fprintln(w, "\nVet the planning workspace at dir (default .) and report findings.\n\nFlags:")
	perCheck := map[string][]string{}
	flags.VisitAll(func(f *flag.Flag) {
		if check, name, ok := strings.Cut(f.Name, "."); ok && checks.Lookup(check) != nil {
			perCheck[check] = append(perCheck[check], name)
			return
		}
		arg, usage := flag.UnquoteUsage(f)
		name := "-" + f.Name
		if arg != "" && arg != "value" {
			name += " " + arg
		}
		switch f.DefValue {
		case "", "false", "0":
		default:
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "  %-24s %s\n", name, usage)
	})
	fmt.Fprintln(w, "\nCheck flags, -<check>.<flag>, also settable in sotvet.yaml; 'sotvet explain <check>'\ngives each one's meaning and default, 'sotvet init' writes them all out:")
	for _, a := range registry.All {
		if names := perCheck[a.Name]; len(names) > 0 {
			fmt.Fprintf(w, "  %-12s %s\n", a.Name, strings.Join(names, " "))
		}
	}
}
