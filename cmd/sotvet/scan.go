package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/svrnty/sotvet/baseline"
	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/report"
	secretscheck "github.com/svrnty/sotvet/checks/secrets"
	"github.com/svrnty/sotvet/internal/gitview"
	"github.com/svrnty/sotvet/internal/safefs"
	"github.com/svrnty/sotvet/internal/textenc"
	"github.com/svrnty/sotvet/internal/workspaces"
	"github.com/svrnty/sotvet/secrets"
	"github.com/svrnty/sotvet/sotparse"
)

// cmdScan runs the secrets engine over arbitrary files, directories, or the
// content staged in git, for repositories that are not SOT workspaces. It has
// the output formats and exit codes of check.
func cmdScan(args []string, stdout, stderr io.Writer) int {
	limitScan()
	fset := flag.NewFlagSet("scan", flag.ContinueOnError)
	fset.SetOutput(stderr)
	format := fset.String("format", "text", "output format: "+strings.Join(report.Formats, ", "))
	staged := fset.Bool("staged", false, "scan the content staged in the git index (files changed against HEAD)")
	maxSize := fset.Int64("max-file-size", sotparse.DefaultMaxFileSize, "read files up to this many `bytes`; a larger one is reported as not scanned")
	skipBinary := fset.Bool("skip-binary", false, "do not scan binary files (a NUL in the first 8 KiB); each is reported as not scanned")
	maxPerFile := fset.Int("max-findings-per-file", checks.DefaultMaxPerFile, "report at most this many findings of one file, and count the others (0: no cap)")
	maxFindings := fset.Int("max-findings", checks.DefaultMaxFindings, "report at most this many findings in all, and count the others (0: no cap)")
	allowUnscanned := fset.Bool("allow-unscanned", false, "report files that were not scanned as warnings, which do not fail the scan")
	baseFile := fset.String("baseline", "", "report only findings not recorded in the baseline `file`")
	writeBase := fset.String("write-baseline", "", "record the current findings in the baseline `file` and exit 0")
	cpuProfile := fset.String("debug.cpuprofile", "", "write a CPU profile to `file`")
	memProfile := fset.String("debug.memprofile", "", "write a heap profile to `file` at the end")
	secretscheck.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		fset.Var(f.Value, "secrets."+f.Name, f.Usage)
	})
	fset.Usage = func() {
		fmt.Fprintln(stderr, "usage: sotvet scan [flags] [paths...]")
		fset.PrintDefaults()
	}
	paths, code, ok := parseArgs(fset, args)
	if !ok {
		return code
	}
	if !contains(report.Formats, *format) {
		fmt.Fprintf(stderr, "sotvet scan: unknown format %q (want %s)\n", *format, strings.Join(report.Formats, ", "))
		return exitError
	}
	if *maxSize <= 0 {
		// No "no limit": a file is read whole to be scanned, and a 3 GB
		// one would be held whole.
		fmt.Fprintf(stderr, "sotvet scan: --max-file-size %d: want a size of 1 byte or more (the default is %d)\n", *maxSize, sotparse.DefaultMaxFileSize)
		return exitError
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	for _, p := range paths {
		if p == "" {
			fmt.Fprintln(stderr, "sotvet scan: an empty path argument (name a file or a directory, or . for the current one)")
			return exitError
		}
	}
	stop, err := startProfiles(*cpuProfile, *memProfile)
	if err != nil {
		fmt.Fprintf(stderr, "sotvet scan: %v\n", err)
		return exitError
	}
	defer stop()
	cfg, err := secretscheck.Config()
	var ignores gitleaksIgnores
	if err == nil {
		ignores, err = loadGitleaksIgnore(paths)
	}
	if err != nil {
		fmt.Fprintf(stderr, "sotvet scan: %v\n", err)
		return exitError
	}
	cfg.GitleaksIgnore = ignores.cwd
	sc, err := secrets.NewScanner(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "sotvet scan: %v\n", err)
		return exitError
	}
	redactWith(stderr, sc.Redact)
	// A directory with its own .gitleaksignore has its own scanner: its
	// entries allow findings in its files only.
	scanners := map[string]*secrets.Scanner{}
	for root := range ignores.byRoot {
		c := cfg
		c.GitleaksIgnore = ignores.forRoot(root)
		if scanners[root], err = secrets.NewScanner(c); err != nil {
			fmt.Fprintf(stderr, "sotvet scan: %v\n", err)
			return exitError
		}
	}
	rd := scanReader{maxSize: *maxSize, skipBinary: *skipBinary}
	// Paths are reported relative to the current directory when they lie in
	// it (an absolute argument included), so SARIF URIs are relative to
	// %SRCROOT%, the current directory.
	cwd, _ := os.Getwd()
	rename := newRenamer(paths, cwd)
	source := func(emit func(scanFile)) error {
		each := func(f scanFile) {
			f.name = rename.name(f.name)
			f.sc = scanners[f.root]
			emit(f)
		}
		if !*staged {
			return rd.walk(paths, each)
		}
		files, err := rd.stagedFiles(paths)
		for _, f := range files {
			each(f)
		}
		return err
	}
	// Without a baseline to filter them first, a file's findings past
	// the per-file cap are only counted: a file of a hundred thousand
	// findings costs the memory of the cap.
	keep := 0
	if *baseFile == "" && *writeBase == "" && *maxPerFile > 0 {
		keep = *maxPerFile
	}
	// Nor is a file kept whose findings --max-findings omits (runBudget).
	var budget *runBudget
	if *baseFile == "" && *writeBase == "" && useRunBudget {
		budget = newRunBudget(*maxFindings, *maxPerFile)
	}
	held, nfiles, err := scanStream(sc, rd, source, keep, budget)
	if err != nil {
		fmt.Fprintf(stderr, "sotvet scan: %v\n", err)
		return exitError
	}
	res := &checks.Result{Checked: []string{"secrets"}, Files: nfiles}
	n := 0
	for _, f := range held {
		n += len(f.found)
		if f.unscanned != "" {
			n++
		}
	}
	if n > 0 {
		res.Findings = make([]checks.Finding, 0, n)
	}
	seen := reportedKeys(held)
	for _, f := range held {
		if f.unscanned != "" {
			res.Findings = append(res.Findings, unscannedFinding(f.name, f.unscanned, *allowUnscanned))
			continue
		}
		if o := f.omitted; o != nil {
			for _, k := range o.keys {
				if n, ok := seen[k]; ok { // else no reported finding's number depends on it
					seen[k] = n + 1
				}
			}
			for rule, n := range o.byRule {
				res.Omitted.Add("secrets", f.name, ruleSeverity(rule), n)
			}
			continue
		}
		for _, s := range f.found {
			if s.Allowed {
				continue
			}
			msg := fmt.Sprintf("%s: %s (%s)", s.RuleID, s.Description, s.Shown())
			if s.Unjustified {
				msg += "; sotvet:allow-secret on this line gives no reason, so it allows nothing"
			}
			// Keyed on (rule, secret) only: a baseline survives moves.
			key := fingerprintKey(s.Fingerprint)
			seen[key]++
			res.Findings = append(res.Findings, checks.Finding{
				Check: "secrets", Category: s.RuleID, Severity: ruleSeverity(s.RuleID),
				File: f.name, Line: s.Line, Col: s.Col, EndLine: s.EndLine, EndCol: s.EndCol, Offset: s.Start,
				Message: msg, Fingerprint: fmt.Sprintf("%s:%d", key, seen[key]),
			})
		}
	}
	for _, f := range held {
		for rule, n := range f.more {
			res.Omitted.Add("secrets", f.name, ruleSeverity(rule), n)
		}
	}
	checks.SortFindings(res.Findings)
	if *writeBase != "" {
		if err := writeOutput(*writeBase, baseline.New(res.Findings).Marshal()); err != nil {
			fmt.Fprintf(stderr, "sotvet scan: writing baseline: %v\n", err)
			return exitError
		}
		fmt.Fprintf(stderr, "sotvet: recorded %d findings in %s\n", len(res.Findings), *writeBase)
		return exitClean
	}
	if *baseFile != "" {
		b, err := baseline.Load(*baseFile)
		if err != nil {
			fmt.Fprintf(stderr, "sotvet scan: %v\n", err)
			return exitError
		}
		var stale []baseline.Entry
		res.Findings, stale = b.Filter(res.Findings)
		for _, e := range stale {
			fmt.Fprintf(stderr, "sotvet: stale baseline entry %s: %s: [%s] %s\n", e.Fingerprint, e.File, e.Code(), e.Message)
		}
	}
	// Capped once the baseline has filtered; the others are counted, and
	// every format says how many.
	res.Cap(*maxPerFile, *maxFindings)
	var rule []report.Rule
	for _, r := range rules() {
		if r.Name == "secrets" {
			rule = append(rule, r)
		}
	}
	if err := report.Write(stdout, *format, res, report.Options{FailOn: checks.SeverityError, Rules: rule, Tool: "sotvet", Version: version(), SrcRoot: cwd, MaxPerFile: *maxPerFile, MaxFindings: *maxFindings}); err != nil {
		fmt.Fprintf(stderr, "sotvet scan: %v\n", err)
		return exitError
	}
	if len(res.Findings) > 0 && *format == "text" {
		fmt.Fprintln(stderr, summaryLine(res.Findings)+omittedSummary(res))
	}
	if res.Fails(checks.SeverityError) {
		return exitFindings
	}
	return exitClean
}

type scanFile struct {
	name    string // as given, slash-separated
	content []byte
	// path, when set, is the file to read for content (by scanStream, which
	// reads and scans in parallel); skip is set when it turned out not to
	// be a regular file.
	path string
	skip bool
	// unscanned says why the file was not read ("" when it was): a scan
	// never says clean about a file it did not read.
	unscanned string
	// root is the path argument the file was found under; sc, when set,
	// the scanner for that root (its own .gitleaksignore).
	root string
	sc   *secrets.Scanner
}

// renamer rewrites the absolute names of files that lie in cwd relative
// to it. Each absolute argument is resolved once (symbolic links
// included, which costs a system call per path element) and its files
// renamed by prefix: the walk follows no link below an argument.
type renamer struct {
	cwd   string
	roots []renameRoot
}

type renameRoot struct {
	abs, rel string
	in       bool // in cwd
}

func newRenamer(paths []string, cwd string) renamer {
	r := renamer{cwd: cwd}
	if cwd == "" {
		return r
	}
	for _, p := range paths {
		if filepath.IsAbs(p) {
			rel, ok := workspaces.Rel(cwd, p)
			r.roots = append(r.roots, renameRoot{filepath.ToSlash(filepath.Clean(p)), rel, ok})
		}
	}
	return r
}

// name is the name a file found as name is reported by.
func (r renamer) name(name string) string {
	if r.cwd == "" || !path.IsAbs(name) {
		return name
	}
	for _, root := range r.roots {
		rest, ok := strings.CutPrefix(name, root.abs)
		if !ok || rest != "" && rest[0] != '/' && !strings.HasSuffix(root.abs, "/") {
			continue
		}
		if n := path.Join(root.rel, strings.TrimPrefix(rest, "/")); root.in && n != "" && n != "." {
			return n
		}
		return name
	}
	if rel, ok := workspaces.Rel(r.cwd, filepath.FromSlash(name)); ok && rel != "" {
		return rel
	}
	return name
}

// scanReader reads the files scan looks at. Binary files are scanned for
// the textual rules, as trufflehog does by default (a NUL byte must not
// hide a token from the secrets hook); files over maxSize, and binary
// files with skipBinary, are not read but reported, so that a scan never
// passes a file it did not read without saying so.
type scanReader struct {
	maxSize    int64
	skipBinary bool
}

// file returns the scan file for name, given its content or, when the
// file is too large to read, its size.
func (rd scanReader) file(name string, content []byte, size int64) scanFile {
	// UTF-16 and UTF-32 text is scanned as the text it holds: read byte by
	// byte, a token in it would be split by zeros and never match.
	content, _ = textenc.ToUTF8(content)
	switch {
	case size > rd.maxSize:
		return scanFile{name: name, unscanned: fmt.Sprintf("%d bytes, over --max-file-size %d", size, rd.maxSize)}
	case rd.skipBinary && isBinary(content):
		return scanFile{name: name, unscanned: "a binary file (a NUL byte in its first 8 KiB), skipped with --skip-binary"}
	}
	return scanFile{name: name, content: content}
}

// unscannedFinding reports a file scan did not read: an error, or a
// warning (which does not fail the scan) with --allow-unscanned.
func unscannedFinding(name, why string, allowed bool) checks.Finding {
	hint := "pass --allow-unscanned to accept it"
	if strings.Contains(why, "--max-file-size") {
		hint = "raise --max-file-size, or " + hint
	}
	sev := checks.SeverityError
	if allowed {
		sev = checks.SeverityWarning
	}
	return checks.Finding{
		Check: "secrets", Category: "unscanned", Severity: sev, File: name, Line: 1, Col: 1,
		Message:     "unscanned: not scanned: " + why + "; it may hold secrets (" + hint + ")",
		Fingerprint: "unscanned:" + name,
	}
}

// walk gives emit the files named by paths, descending into directories
// (skipping .git), for scanStream to read; symbolic links are not
// followed and only regular files are read. A file is given once however
// the paths overlap ("scan . sub", "scan . ./a.txt", "scan x x"): a path
// that is, or lies in, one walked before is skipped, and so is a
// directory of a later path's tree that an earlier path walked.
func (rd scanReader) walk(paths []string, emit func(scanFile)) error {
	var walked []os.FileInfo // each path's file, once walked
	for _, root := range paths {
		dir := walkRoot(root)
		info, err := os.Lstat(dir)
		if err == nil && inWalked(walked, dir, info) {
			continue
		}
		err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == ".git" && p != dir {
					return fs.SkipDir
				}
				if p != dir && len(walked) > 0 {
					if di, err := d.Info(); err == nil && sameAsAny(walked, di) {
						return fs.SkipDir // an earlier path's tree
					}
				}
				return nil
			}
			switch {
			case d.Type().IsRegular():
				emit(scanFile{name: filepath.ToSlash(p), path: p, root: root})
			case p == dir:
				// Named on the command line: said, not skipped in silence.
				why := "not a regular file (a FIFO, a device or a socket), so not read"
				if d.Type()&fs.ModeSymlink != 0 {
					why = "a symbolic link, which scan does not follow (name its target)"
				}
				emit(scanFile{name: filepath.ToSlash(p), unscanned: why, root: root})
			}
			return nil
		})
		if err != nil {
			return err
		}
		if info != nil {
			walked = append(walked, info)
		}
	}
	return nil
}

// walkRoot is the path a walk of root reads: root, unless cleaning it
// (filepath.WalkDir cleans every path it joins) names another file than
// the system resolves, as "link/.." does where link is a symbolic link to
// a directory: the walk would list link's parent's entries and read the
// files of the directory holding link. Then it is the path resolved.
func walkRoot(root string) string {
	clean := filepath.Clean(root)
	if clean == root || !strings.Contains(root, "..") {
		return root
	}
	a, errA := os.Stat(root)
	b, errB := os.Stat(clean)
	if errA != nil || errB == nil && os.SameFile(a, b) {
		return root
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		return r
	}
	return root
}

// inWalked reports whether path (info is its Lstat) is, or lies in, a
// file walked: its own file or one of its directories is among them.
func inWalked(walked []os.FileInfo, path string, info os.FileInfo) bool {
	if len(walked) == 0 {
		return false
	}
	if sameAsAny(walked, info) {
		return true
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if di, err := os.Stat(dir); err == nil && sameAsAny(walked, di) {
			return true
		}
		if dir == filepath.Dir(dir) {
			return false
		}
	}
}

func sameAsAny(walked []os.FileInfo, info os.FileInfo) bool {
	for _, w := range walked {
		if os.SameFile(w, info) {
			return true
		}
	}
	return false
}

// read reads f.path: regular only, not through a symbolic link, and
// bounded even if the file changed since the walk.
func (rd scanReader) read(f *scanFile) error {
	root, sc := f.root, f.sc
	defer func() { f.root, f.sc = root, sc }()
	b, err := safefs.ReadNoFollow(f.path, rd.maxSize)
	var tooLarge *safefs.TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		size := rd.maxSize + 1 // grew past the limit while read
		if info, err := os.Lstat(f.path); err == nil && info.Size() > rd.maxSize {
			size = info.Size()
		}
		*f = rd.file(f.name, nil, size)
	case errors.Is(err, safefs.ErrNotRegular) && f.path == f.root:
		// Named on the command line, and replaced since the walk.
		f.unscanned = "not a regular file, so not read"
	case errors.Is(err, safefs.ErrNotRegular):
		f.skip = true
	case errors.Is(err, fs.ErrNotExist):
		// Listed by the walk, gone when read (a build or a checkout
		// running beside the scan): said, and the rest still scanned.
		f.unscanned = "removed or renamed while the scan ran, so not read"
	case err != nil:
		return err
	default:
		*f = rd.file(f.name, b, int64(len(b)))
	}
	return nil
}

// stagedFiles reads the staged content of the files changed in the index
// under each path (a directory, or a file's directory).
func (rd scanReader) stagedFiles(paths []string) ([]scanFile, error) {
	var out []scanFile
	for _, p := range paths {
		dir, only := p, ""
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			dir, only = filepath.Dir(p), filepath.Base(p)
		}
		changed, err := gitview.Staged(dir)
		if err != nil {
			return nil, err
		}
		want := map[string]bool{}
		for _, c := range changed {
			if only == "" || c == only {
				want[c] = true
			}
		}
		ix, err := gitview.ReadIndex(dir)
		if err != nil {
			return nil, err
		}
		defer ix.Close()
		index := ix.FS()
		names := make([]string, 0, len(want))
		for n := range want {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			name := filepath.ToSlash(filepath.Join(dir, n))
			if info, err := fs.Stat(index, n); err == nil && info.Size() > rd.maxSize {
				f := rd.file(name, nil, info.Size())
				f.root = p
				out = append(out, f)
				continue
			}
			b, err := fs.ReadFile(index, n)
			if err != nil {
				// Staged but not in the index: a deletion.
				continue
			}
			f := rd.file(name, b, int64(len(b)))
			f.root = p
			out = append(out, f)
		}
	}
	return out, nil
}

func isBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}

// ruleSeverity is the severity of rule's findings: an error, or the
// rule's default (prefixed-token: a warning).
func ruleSeverity(rule string) checks.Severity {
	if d, ok := checks.DefaultSeverity["secrets/"+rule]; ok {
		return d
	}
	return checks.SeverityError
}
