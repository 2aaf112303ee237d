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
	"slices"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/svrnty/sotvet/baseline"
	"github.com/svrnty/sotvet/cache"
	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/registry"
	"github.com/svrnty/sotvet/config"
	"github.com/svrnty/sotvet/internal/atomicfile"
	"github.com/svrnty/sotvet/internal/gitview"
	"github.com/svrnty/sotvet/internal/safefs"
	"github.com/svrnty/sotvet/internal/workspaces"
	"github.com/svrnty/sotvet/sotparse"
)

// findWorkspaces returns the absolute directories of the workspaces to vet:
// those sotvet.yaml names under workspaces:, else root when it is one, else
// every workspace below root (in the index with --staged; git-ignored
// directories skipped). A tree of harness cases with no workspace is vetted
// as it is, for the cases check.
func (cf *checkFlags) findWorkspaces(root string, cfg *config.Config) ([]string, error) {
	if len(cfg.Workspaces) > 0 {
		var out []string
		for _, p := range cfg.Workspaces {
			d := filepath.Join(filepath.Dir(cfg.Path), filepath.FromSlash(p.Value))
			if st, err := os.Stat(d); err != nil || !st.IsDir() {
				return nil, cfg.Errorf(p, "workspace %q: no such directory", p.Value)
			}
			if !workspaces.IsWorkspace(d) {
				return nil, cfg.Errorf(p, "workspace %q holds no %s", p.Value, workspaces.Markers)
			}
			out = append(out, d)
		}
		return out, nil
	}
	if workspaces.IsWorkspace(root) {
		return []string{root}, nil
	}
	var rel []string
	hasCases := false
	if cf.staged {
		ix, err := gitview.ReadIndex(root)
		if err != nil {
			return nil, fmt.Errorf("--staged: %w", err)
		}
		paths := ix.Paths()
		ix.Close()
		rel = workspaces.FromPaths(paths)
		hasCases = slices.ContainsFunc(paths, func(p string) bool { return path.Base(p) == "case.yaml" })
	} else {
		var ignored func(string, bool) bool
		if !cf.noGit {
			var err error
			if ignored, err = cf.git.ignored(root); err != nil {
				return nil, err
			}
		}
		var err error
		if rel, err = workspaces.Find(root, ignored); err != nil {
			return nil, err
		}
		if len(rel) == 0 {
			d, err := sotparse.Discover(os.DirFS(root), sotparse.DiscoverOptions{Ignored: ignored})
			if err != nil {
				return nil, err
			}
			hasCases = slices.ContainsFunc(d.Entries, func(e sotparse.Entry) bool { return e.Role == sotparse.RoleCase })
		}
	}
	if len(rel) == 0 && hasCases {
		return []string{root}, nil
	}
	out := make([]string, len(rel))
	for i, r := range rel {
		out[i] = filepath.Join(root, filepath.FromSlash(r))
	}
	return out, nil
}

// wsRun is the outcome of vetting one workspace.
type wsRun struct {
	dir    string // absolute
	prefix string // slash path of dir relative to the report's base; "" for the base
	cfg    *config.Config
	opt    checks.Options
	res    *checks.Result
	ws     *sotparse.Workspace
	focus  map[string]bool // the files reported on (workspace-relative); nil for all
	fs     *safefs.FS      // the workspace root every read resolves under; closed by close
}

func (r *wsRun) close() { r.fs.Close() }

// workspaceOptions returns the checks.Options of the workspace at dir: its
// configuration (its own sotvet.yaml, or --config, or rootCfg) applied to
// the checks, the checks selected, severities, and a file system confined
// to dir, which the caller closes. It is what a long-lived caller (an
// editor's checks.Session) needs to check a workspace as check does.
func (cf *checkFlags) workspaceOptions(dir, root string, rootCfg *config.Config, explicit map[string]bool) (checks.Options, *config.Config, *safefs.FS, error) {
	cfg := rootCfg
	if cf.config == "" && dir != root {
		own, err := config.Load(filepath.Join(dir, config.FileName), registry.All)
		switch {
		case err == nil:
			cfg = own
		case !errors.Is(err, fs.ErrNotExist):
			return checks.Options{}, nil, nil, err
		}
	}
	if err := cfg.Apply(registry.All, explicit); err != nil {
		return checks.Options{}, nil, nil, err
	}
	for _, k := range append(slices.Clone(cfg.SeverityKeys), cfg.CodeKeys...) {
		check, cat, ok := strings.Cut(k.Value, "/")
		if known := checks.Categories(check); ok && !slices.Contains(known, cat) && !checks.OpenCategory(check, cat) {
			hint := checks.CodeHint(k.Value)
			if hint == "" {
				hint = " (it has " + strings.Join(known, ", ") + ")"
			}
			return checks.Options{}, nil, nil, cfg.Errorf(k, "check %s has no category %q%s", check, cat, hint)
		}
	}
	analyzers, sev, err := selectChecks(cfg, *cf)
	if err != nil {
		return checks.Options{}, nil, nil, err
	}
	// Every workspace read is resolved under its root: no link leads out.
	rootFS, err := safefs.Open(dir, cfg.MaxFileSize)
	if err != nil {
		return checks.Options{}, nil, nil, err
	}
	// A run that reports keeps the typed model and lets the texts go, at
	// any size; one that fixes edits the texts.
	release := !cf.fix && !cf.diff
	// With no baseline to filter them before the cap, the run holds only
	// the findings the report can show (vetWorkspace also needs no focus).
	maxFindings := 0
	if release && cf.baseline == "" && cf.writeBase == "" && cfg.BaselinePath() == "" {
		maxFindings = cf.maxFindings
	}
	parsed, forgotten := workspaceCollections()
	return checks.Options{MaxPerFile: cf.maxPerFile, Root: dir, FS: rootFS, Analyzers: analyzers, Severity: sev, MaxFileSize: cfg.MaxFileSize, ReleaseText: release, MaxFindings: maxFindings, NoFixes: release, ForgetModel: release, Parsed: parsed, Forgotten: forgotten}, cfg, rootFS, nil
}

// vetWorkspace runs the checks over the workspace at dir with its own
// sotvet.yaml (or --config, or the one of the directory given), keeps the
// findings in focus, and names their files from base.
func (cf *checkFlags) vetWorkspace(dir, root string, rootCfg *config.Config, base string, explicit map[string]bool, stderr io.Writer) (*wsRun, error) {
	opt, cfg, rootFS, err := cf.workspaceOptions(dir, root, rootCfg, explicit)
	if err != nil {
		return nil, err
	}
	src, err := cf.openSource(dir, &opt, stderr)
	if err != nil {
		rootFS.Close()
		return nil, err
	}
	defer src.close()
	if src.scope != nil {
		opt.MaxFindings = 0 // the findings out of focus are filtered after the run
	}
	res, ws, err := checks.Run(opt)
	if err != nil {
		rootFS.Close()
		return nil, err
	}
	if src.pack != nil {
		found, added := src.pack.Stats()
		if err := src.pack.Save(); err != nil {
			fmt.Fprintf(stderr, "sotvet: warning: saving the cache: %v\n", err)
		} else if err := cache.Trim(src.cacheDir, cacheMaxAge); err != nil {
			fmt.Fprintf(stderr, "sotvet: warning: trimming the cache: %v\n", err)
		}
		if cf.debugCache && src.files != nil {
			fmt.Fprintf(stderr, "sotvet: cache: %d summaries reused, %d added, %d files read\n", found, added, src.files.Reads())
		} else if cf.debugCache {
			fmt.Fprintf(stderr, "sotvet: cache: %d summaries reused, %d added\n", found, added)
		}
	}
	r := &wsRun{dir: dir, cfg: cfg, opt: opt, res: res, ws: ws, focus: src.scope, fs: rootFS}
	r.prefix, _ = workspaces.Rel(base, dir)
	if err := r.scope(cf); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// scope keeps the findings in focus and names their files from the base.
// Fingerprints stay workspace-relative, so baselines do not depend on where
// the workspace sits in the repository.
func (r *wsRun) scope(cf *checkFlags) error {
	fs, err := cf.scope(r.dir, r.focus, r.res.Findings)
	if err != nil {
		return err
	}
	// One name per file, shared by its findings.
	named := map[string]string{}
	name := func(p string) string {
		n, ok := named[p]
		if !ok {
			n = r.path(p)
			named[p] = n
		}
		return n
	}
	for i := range fs {
		fs[i].File = name(fs[i].File)
		for j := range fs[i].Related {
			fs[i].Related[j].File = name(fs[i].Related[j].File)
		}
	}
	r.res.Findings = fs
	// The findings beyond the caps, as the kept ones: in focus, named
	// from the base.
	if o := r.res.Omitted; o.Total > 0 {
		r.res.Omitted = checks.Omitted{}
		kept := 0
		for p, n := range o.ByFile {
			if r.focus == nil || r.focus[p] {
				kept += n
				if r.res.Omitted.ByFile == nil {
					r.res.Omitted.ByFile = map[string]int{}
				}
				r.res.Omitted.ByFile[name(p)] = n
			}
		}
		if kept > 0 {
			// By severity the count is the run's: a file out of focus
			// cannot be told apart there, so none is dropped.
			r.res.Omitted.Total, r.res.Omitted.BySeverity = o.Total, o.BySeverity
		}
	}
	return nil
}

// path names a workspace-relative file from the report's base.
func (r *wsRun) path(p string) string {
	if r.prefix == "" {
		return p
	}
	return path.Join(r.prefix, p)
}

// snapshotFlags records every check flag's value and returns a func that
// puts them back, so one workspace's configuration does not leak into the
// next.
func snapshotFlags() func() {
	type saved struct {
		f *flag.Flag
		v string
	}
	var all []saved
	for _, a := range registry.All {
		a.Flags.VisitAll(func(f *flag.Flag) { all = append(all, saved{f, f.Value.String()}) })
	}
	return func() {
		for _, s := range all {
			// Only what changed: setting a flag can cost a compilation
			// (the forbidden claims are dozens of patterns).
			if s.f.Value.String() != s.v {
				_ = s.f.Value.Set(s.v) // a value its own String gave back
			}
		}
	}
}

// strictestFailOn is the fail-on of the run when the command line sets
// none: the lowest one any workspace's configuration asks for, so that no
// workspace passes on a threshold it did not choose.
func strictestFailOn(runs []*wsRun) checks.Severity {
	out := checks.SeverityError
	for _, r := range runs {
		if s := checks.Severity(r.cfg.FailOn); s.Rank() > 0 && s.Rank() < out.Rank() {
			out = s
		}
	}
	return out
}

// combine merges the runs' results: findings sorted by file (each file's
// findings keep their order), checks that ran in any workspace.
func combine(runs []*wsRun) *checks.Result {
	if len(runs) == 1 {
		return runs[0].res
	}
	// Sized once: appended run by run, a hundred thousand findings were
	// copied over and over as the slice grew (0.5 s of CPU on ten nested
	// workspaces).
	n := 0
	for _, r := range runs {
		n += len(r.res.Findings)
	}
	out := &checks.Result{Findings: make([]checks.Finding, 0, n)}
	for _, r := range runs {
		out.Omitted.Merge(r.res.Omitted)
		out.Files += r.res.Files
		out.Findings = append(out.Findings, r.res.Findings...)
		for _, c := range r.res.Checked {
			if !contains(out.Checked, c) {
				out.Checked = append(out.Checked, c)
			}
		}
	}
	sort.Strings(out.Checked)
	sort.SliceStable(out.Findings, func(i, j int) bool { return out.Findings[i].File < out.Findings[j].File })
	return out
}

// filterBaseline drops the findings the baseline accepts and returns the
// stale entries: those no workspace matched, and, in a run scoped to a few
// files, only those of a file in focus (an entry of a file the run does
// not report on cannot be judged stale).
// baselineGroup is a baseline file and the workspace runs it applies to.
type baselineGroup struct {
	path string
	// dir, for a workspace's configured baseline, is its configuration's
	// directory: the file is read under it (baseline.LoadIn).
	dir  string
	runs []*wsRun
}

// load reads the group's baseline: --baseline as the user named it, a
// configured one only inside its configuration's directory.
func (g baselineGroup) load() (*baseline.File, error) {
	if g.dir == "" {
		return baseline.Load(g.path)
	}
	rel, err := filepath.Rel(g.dir, g.path)
	if err != nil {
		return nil, err
	}
	return baseline.LoadIn(g.dir, rel)
}

// baselineGroups returns the baselines of a run: flag for every workspace
// when set, else the one each workspace's configuration names, in the
// order of the runs; none when a write of the baseline is asked for.
func baselineGroups(flag string, runs []*wsRun) []baselineGroup {
	if flag != "" {
		return []baselineGroup{{path: flag, runs: runs}}
	}
	var groups []baselineGroup
	at := map[string]int{}
	for _, r := range runs {
		p := r.cfg.BaselinePath()
		if p == "" {
			continue
		}
		i, ok := at[p]
		if !ok {
			i = len(groups)
			at[p] = i
			groups = append(groups, baselineGroup{path: p, dir: filepath.Dir(r.cfg.Path)})
		}
		groups[i].runs = append(groups[i].runs, r)
	}
	return groups
}

func filterBaseline(b *baseline.File, runs []*wsRun) []baseline.Entry {
	staleIn := map[string]int{}
	var focus map[string]bool
	for _, r := range runs {
		var st []baseline.Entry
		r.res.Findings, st = b.Filter(r.res.Findings)
		for _, e := range st {
			staleIn[e.Fingerprint]++
		}
		if r.focus != nil {
			if focus == nil {
				focus = map[string]bool{}
			}
			for p := range r.focus {
				focus[r.path(p)] = true
			}
		}
	}
	scoped := !slices.ContainsFunc(runs, func(r *wsRun) bool { return r.focus == nil })
	var stale []baseline.Entry
	for _, e := range b.Findings {
		if staleIn[e.Fingerprint] == len(runs) && (!scoped || focus[e.File]) {
			stale = append(stale, e)
		}
	}
	return stale
}

// applyFixes applies (--fix) or prints (--diff) the suggested fixes of
// every workspace. --fix takes the safe fixes only, and the unsafe ones
// too with --unsafe-fixes; --diff shows both. With --diff it ends the
// command: exit 1 while findings at or above fail-on remain after the
// diff, since the diff does not make them go away. With --fix the
// workspaces with applied fixes are vetted again.
func (cf *checkFlags) applyFixes(runs []*wsRun, failOn checks.Severity, stdout, stderr io.Writer) (int, bool) {
	var total checks.FixCount
	files, left := 0, 0
	for _, r := range runs {
		changed, n := checks.ApplyFixes(r.ws, r.res.Findings, cf.diff || cf.unsafeFixes)
		if cf.diff {
			// The count of unsafe fixes shown: those a plain --fix leaves.
			_, safe := checks.ApplyFixes(r.ws, r.res.Findings, false)
			n.Unsafe = safe.Unsafe
		}
		total.Applied += n.Applied
		total.Unsafe += n.Unsafe
		total.NoFix += n.NoFix
		files += len(changed)
		paths := make([]string, 0, len(changed))
		for p := range changed {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		if cf.diff {
			for _, f := range r.res.Findings {
				if len(f.Fixes) == 0 && f.Severity.Rank() >= failOn.Rank() {
					left++
				}
			}
			// The preview is printed: a secret in its context lines is masked.
			red, err := checks.Redactor()
			if err != nil {
				fmt.Fprintf(stderr, "sotvet: %v\n", err)
				return exitError, true
			}
			for _, p := range paths {
				// And every line of a secret (a key's body lines) is masked
				// before the diff is made, the lines kept lines.
				a, b, err := checks.MaskSecretLines(p, r.ws.File(p).Content, changed[p])
				if err != nil {
					fmt.Fprintf(stderr, "sotvet: %v\n", err)
					return exitError, true
				}
				stdout.Write(red(diff.Diff("a/"+r.path(p), a, "b/"+r.path(p), b)))
			}
			continue
		}
		if removed, err := atomicfile.CleanStale(r.dir, staleTemp); err != nil {
			fmt.Fprintf(stderr, "sotvet: warning: removing stale temporary files: %v\n", err)
		} else if len(removed) > 0 {
			fmt.Fprintf(stderr, "sotvet: removed %d stale temporary files of an interrupted --fix\n", len(removed))
		}
		for _, p := range paths {
			target, err := fixTarget(r.dir, p)
			if err == nil {
				err = writeAtomic(target, changed[p])
			}
			if err != nil {
				fmt.Fprintf(stderr, "sotvet: writing fix: %v\n", err)
				return exitError, true
			}
		}
		if n.Applied == 0 {
			continue
		}
		res, _, err := checks.Run(r.opt)
		if err != nil {
			fmt.Fprintf(stderr, "sotvet: %v\n", err)
			return exitError, true
		}
		r.res = res
		if err := r.scope(cf); err != nil {
			fmt.Fprintf(stderr, "sotvet: %v\n", err)
			return exitError, true
		}
	}
	if total != (checks.FixCount{}) {
		fmt.Fprintf(stderr, "sotvet: %s\n", fixSummary(cf.diff, total, files))
	}
	if cf.diff {
		if left > 0 {
			return exitFindings, true
		}
		return exitClean, true
	}
	return 0, false
}

// fixSummary is the last line of --fix and --diff: "3 fixes applied in 2
// files; 29 findings have no fix; 4 unsafe fixes available with
// --unsafe-fixes".
func fixSummary(diff bool, n checks.FixCount, files int) string {
	verb := "applied"
	if diff {
		verb = "shown"
	}
	head := fmt.Sprintf("%s %s in %s", plural(n.Applied, "fix", "fixes"), verb, plural(files, "file", "files"))
	if diff && n.Unsafe > 0 {
		head += fmt.Sprintf(" (%d unsafe: applied only with --fix --unsafe-fixes)", n.Unsafe)
	}
	parts := []string{head}
	if n.NoFix > 0 {
		parts = append(parts, plural(n.NoFix, "finding has no fix", "findings have no fix"))
	}
	if !diff && n.Unsafe > 0 {
		parts = append(parts, plural(n.Unsafe, "unsafe fix available with --unsafe-fixes", "unsafe fixes available with --unsafe-fixes"))
	}
	return strings.Join(parts, "; ")
}

// summaryLine is the text format's last line: "20 findings (20 errors) in 9 files".
func summaryLine(fs []checks.Finding) string {
	files := map[string]bool{}
	errs, warns, notes := 0, 0, 0
	for _, f := range fs {
		files[f.File] = true
		switch f.Severity {
		case checks.SeverityWarning:
			warns++
		case checks.SeverityNote:
			notes++
		default:
			errs++
		}
	}
	var parts []string
	if errs > 0 {
		parts = append(parts, plural(errs, "error", "errors"))
	}
	if warns > 0 {
		parts = append(parts, plural(warns, "warning", "warnings"))
	}
	if notes > 0 {
		parts = append(parts, plural(notes, "note", "notes"))
	}
	return fmt.Sprintf("%s (%s) in %s", plural(len(fs), "finding", "findings"), strings.Join(parts, ", "), plural(len(files), "file", "files"))
}

// omittedSummary ends the summary line when the caps left findings out.
func omittedSummary(res *checks.Result) string {
	if res.Omitted.Total == 0 {
		return ""
	}
	return fmt.Sprintf("; %d more not shown (over --max-findings-per-file or --max-findings)", res.Omitted.Total)
}

// findingsCap is a cap given by flag (>= 0), else by sotvet.yaml, else def.
func findingsCap(flagValue int, configured *int, def int) int {
	switch {
	case flagValue >= 0:
		return flagValue
	case configured != nil:
		return *configured
	}
	return def
}

// writeStatistics writes the number of findings of each code, most
// frequent first, as ruff --statistics does: what a team silences or
// baselines first.
func writeStatistics(w io.Writer, fs []checks.Finding) {
	type stat struct {
		code string
		sev  checks.Severity
		n    int
	}
	at := map[string]int{}
	var stats []stat
	for i := range fs {
		code := fs[i].Code()
		j, ok := at[code]
		if !ok {
			j = len(stats)
			at[code] = j
			stats = append(stats, stat{code: code, sev: fs[i].Severity})
		}
		stats[j].n++
		if fs[i].Severity.Rank() > stats[j].sev.Rank() {
			stats[j].sev = fs[i].Severity
		}
	}
	if len(stats) == 0 {
		return
	}
	sort.Slice(stats, func(i, j int) bool {
		if stats[i].n != stats[j].n {
			return stats[i].n > stats[j].n
		}
		return stats[i].code < stats[j].code
	})
	fmt.Fprintln(w, "count  severity  code")
	for _, s := range stats {
		fmt.Fprintf(w, "%5d  %-8s  %s\n", s.n, s.sev, s.code)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
