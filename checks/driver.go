// Package checks runs the registered go/analysis checks over a planning
// workspace and turns their diagnostics into sorted, fingerprinted findings.
//
// The driver is modelled on x/tools' checker, reduced to what a workspace
// needs: one "package" (the workspace), no Go files, no facts. Each
// analyzer's Pass reads the workspace files from OtherFiles through
// ReadFile; sotparse.Analyzer is the root every check requires.
package checks

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/doccheck"
	"github.com/svrnty/sotvet/checks/internal/fixsafety"
	secretscheck "github.com/svrnty/sotvet/checks/secrets"
	"github.com/svrnty/sotvet/internal/safefs"
	"github.com/svrnty/sotvet/sotparse"
)

// Options configure one run.
type Options struct {
	// Root is the workspace directory (absolute). It names the files in
	// diagnostics and is pass.Pkg.Path().
	Root string
	// FS holds the workspace content (os.DirFS(Root), or a git index view).
	FS fs.FS
	// Ignored reports paths to skip (git ignore rules); may be nil.
	Ignored func(path string, dir bool) bool
	// Analyzers to run; their Requires are run too.
	Analyzers []*analysis.Analyzer
	// Severity overrides by "check" or "check/category".
	Severity map[string]Severity
	// MaxFileSize caps one file; 0 means sotparse.DefaultMaxFileSize.
	MaxFileSize int64
	// MaxPerFile caps the findings held of one check in one file (0: no
	// cap); the others are counted in Result.Omitted. The caller caps
	// the result itself (Result.Cap) once a baseline has filtered it.
	MaxPerFile int
	// ReleaseText lets each document's text go once the checks that read
	// one document at a time (DocChecks) have read it, at any size: a run
	// holds its typed model and what its findings quote, not its texts.
	// A check that asks for a text later has it read back from the file.
	// A run that applies fixes needs the texts and leaves this unset.
	ReleaseText bool
	// MaxFindings, when positive, is the cap the caller applies to the
	// findings, Result.Cap(MaxPerFile, MaxFindings), with nothing
	// filtering them in between (no baseline, no focus): the run then
	// holds only the findings of the places the report can show and
	// counts the others in Result.Omitted, as Cap would. Its memory does
	// not grow with the findings past the cap.
	MaxFindings int
	// NoFixes leaves the findings without their suggested fixes: a run
	// that reports only does not pay for them.
	NoFixes bool
	// ForgetModel lets the documents' typed model go once the checks have
	// run (sotparse.Workspace.ForgetModel), before the findings are
	// resolved: a run that only reports its findings then never holds
	// both. The returned Workspace keeps its files, not its model.
	ForgetModel bool
	// Parsed, when set, is called when the parse is done, before the
	// checks that read the model run: nothing else runs then, and what
	// the parse allocated is garbage. cmd/sotvet collects it there.
	Parsed func()
	// Forgotten, when set, is called once ForgetModel has let the model
	// go, before the findings are resolved: the model is garbage then,
	// and the findings, allocated next, can take its place. cmd/sotvet
	// collects it there.
	Forgotten func()
	// Reuse, when set, makes the run report on the files in Reuse.Focus
	// only, taking the other documents from Reuse.Store's summaries where
	// it can; findings in other files are dropped. If a check needed a
	// summarized document that could not be read back, Run runs again
	// without the summaries.
	Reuse *sotparse.Reuse
	// Discovery, when set, is the workspace's files as a walk of FS would
	// list them: the run does not walk FS again. A session that knows
	// which files changed since its last walk passes it.
	Discovery *sotparse.Discovery

	// listing, when set, is newListing(Root, Discovery), which a session
	// derives once for as long as it keeps one walk.
	listing *listing
	// redacted, when set, remembers message redactions between the runs
	// of a session: an edit's run says mostly what the last one said.
	redacted *redactMemo
}

// listing is what a run derives from the paths a walk listed: the files'
// names for the passes, in order, and each entry's index.
type listing struct {
	files, others []string
	at            map[string]int
}

func newListing(root string, disc *sotparse.Discovery) *listing {
	l := &listing{files: make([]string, 0, len(disc.Problems)+len(disc.Entries)), at: make(map[string]int, len(disc.Entries))}
	for _, p := range disc.Problems {
		l.files = append(l.files, filepath.Join(root, filepath.FromSlash(p.Path)))
	}
	for i, e := range disc.Entries {
		l.at[e.Path] = i
		l.files = append(l.files, filepath.Join(root, filepath.FromSlash(e.Path)))
	}
	sort.Strings(l.files)
	// Files outside the model exist too: references to them must resolve.
	for _, p := range disc.Others {
		l.others = append(l.others, filepath.Join(root, filepath.FromSlash(p)))
	}
	return l
}

// Run discovers the workspace, runs the analyzers in Requires order and
// returns the findings, suppressions applied, sorted by file and offset.
func Run(opt Options) (*Result, *sotparse.Workspace, error) {
	if err := analysis.Validate(opt.Analyzers); err != nil {
		return nil, nil, err
	}
	order, err := topo(opt.Analyzers)
	if err != nil {
		return nil, nil, err
	}
	disc := opt.Discovery
	if disc == nil {
		if disc, err = sotparse.Discover(opt.FS, sotparse.DiscoverOptions{Ignored: opt.Ignored}); err != nil {
			return nil, nil, fmt.Errorf("reading workspace: %w", err)
		}
	}
	maxSize := opt.MaxFileSize
	if maxSize <= 0 {
		maxSize = sotparse.DefaultMaxFileSize
	}
	// Problems found while walking (links out of the root, unreadable
	// entries) become read errors of those files, so they surface as
	// findings at the file.
	readErr := map[string]error{}
	for _, p := range disc.Problems {
		readErr[p.Path] = errors.New(p.Message)
	}
	ls := opt.listing
	if ls == nil || opt.Discovery == nil {
		ls = newListing(opt.Root, disc)
	}
	files, others := ls.files, ls.others
	sizeOf := func(rel string) (int64, bool) {
		if i, ok := ls.at[rel]; ok {
			return disc.Entries[i].Size, true
		}
		return 0, false
	}
	readRel := func(rel string) ([]byte, error) {
		if err := readErr[rel]; err != nil {
			return nil, err
		}
		if size, _ := sizeOf(rel); size > maxSize {
			return nil, fmt.Errorf("file is %d bytes, over the %d-byte limit; not read", size, maxSize)
		}
		// Regular files only, never more than the limit: a file that grew
		// since discovery, or a FIFO put in its place, cannot hang the run.
		return safefs.ReadFile(opt.FS, rel, maxSize)
	}
	readFile := func(name string) ([]byte, error) {
		rel, ok := sotparse.RelPath(opt.Root, name)
		if !ok {
			return nil, fmt.Errorf("%s is outside the workspace", name)
		}
		return readRel(rel)
	}

	fset := token.NewFileSet()
	if opt.Reuse != nil && opt.Reuse.Models != nil {
		// The documents kept decoded are placed in the models' file set.
		fset = opt.Reuse.Models.Fset
	}
	pkg := types.NewPackage(opt.Root, "workspace")
	// Room for every document: a map that grows while the parse's
	// workers wait on its lock costs them all.
	text := &textIndex{fset: fset}
	if opt.ReleaseText {
		// Only then does the parse add to it (afterDoc).
		text.docs = make(map[string]*docText, len(disc.Entries))
	}
	parse := sotparse.PassOptions{
		Reuse:  opt.Reuse,
		Stream: &sotparse.Stream{Release: opt.ReleaseText, DropFixes: opt.NoFixes, MaxPerDoc: opt.MaxPerFile},
		Read:   readRel,
		Size:   sizeOf,
	}
	if opt.ReleaseText {
		parse.Stream.AfterDoc = text.afterDoc
		if !slices.Contains(order, secretscheck.Analyzer) {
			// No scans of the secrets check to redact with: the documents
			// with findings are scanned while their text is at hand. The
			// scanner is built for the first of them: a run without
			// findings does not build the secrets rules. A build that
			// fails leaves the documents unscanned, and redact reports it.
			if _, err := secretscheck.Config(); err != nil {
				return nil, nil, err
			}
			scanner := sync.OnceValues(redactScanner)
			text.scan = func(path string, content []byte) ([]secretSpan, bool) {
				sc, err := scanner()
				if err != nil {
					return nil, false
				}
				return secretscheck.Spans(sc.Scan(path, content), content), true
			}
		}
	}
	if opt.Discovery != nil && len(disc.Problems) == 0 && disc.Sized && entriesSorted(disc.Entries) {
		// The parse would derive this very listing from the files' names.
		parse.Discovery = disc
	}
	analyzerOf := map[*sotparse.DocCheck]*analysis.Analyzer{}
	for _, a := range order {
		if dc := doccheck.Of(a); dc != nil {
			parse.Stream.Checks = append(parse.Stream.Checks, dc)
			analyzerOf[dc] = a
		}
	}
	sevs := &severities{sev: opt.Severity}
	if opt.MaxPerFile > 0 {
		// The parse's cap counts what the report would count there: a
		// finding turned off is no finding, and one a suppression may
		// silence or that may fold into another at its place is held,
		// for Result.Cap to count after suppress and mergeClusters.
		var ignMu sync.Mutex
		ignores := map[*sotparse.Doc]bool{}
		parse.Stream.Capping = func(c *sotparse.DocCheck, doc *sotparse.Doc, content []byte, d analysis.Diagnostic) sotparse.CapAction {
			a := analyzerOf[c]
			if a == nil {
				return sotparse.CapCounted
			}
			if sevs.severityOf(a.Name, d.Category) == SeverityOff {
				return sotparse.CapIgnored
			}
			if inClusters(a.Name, d.Category) {
				return sotparse.CapHeld
			}
			ignMu.Lock()
			ig, ok := ignores[doc]
			if !ok {
				ig = holdsIgnore(content)
				ignores[doc] = ig
			}
			ignMu.Unlock()
			if ig {
				return sotparse.CapHeld
			}
			return sotparse.CapCounted
		}
	}
	// A diagnostic is held as reported, in one list for every check, and
	// becomes a finding once the checks are done: a run with many
	// findings holds them in their compact form while the checks' own
	// state is live, and never holds both forms, nor two lists.
	var (
		mu   sync.Mutex
		held []heldFinding
	)
	checkIndex := make(map[*analysis.Analyzer]uint16, len(order))
	for i, a := range order {
		checkIndex[a] = uint16(i)
	}
	// Beyond MaxPerFile findings of one check in one file, a finding is
	// counted, not held: a document with a finding every other byte then
	// costs a counter, not gigabytes. A check reports one file's findings
	// in one order on every run, so the same ones are kept.
	type capKey struct {
		base  int
		check uint16
	}
	var (
		perCheck = map[capKey]*int{} // pointers: a finding costs one lookup
		omitted  Omitted
		capped   = map[string]bool{}
	)
	// countFor counts one more finding of k and returns how many; the
	// caller holds mu.
	countFor := func(k capKey) int {
		n := perCheck[k]
		if n == nil {
			n = new(int)
			perCheck[k] = n
		}
		*n++
		return *n
	}
	var bound *findingBound
	if opt.MaxFindings > 0 && opt.Reuse == nil {
		bound = newFindingBound(opt.MaxFindings, opt.MaxPerFile, fset, text)
	}
	boundSev := func(check uint16, cat string) Severity { return sevs.severityOf(order[check].Name, cat) }
	// mayIgnore notes, per file, whether its text may hold a suppression
	// (the text index's word, or the text at hand); the caller holds mu.
	ignores := map[string]bool{}
	mayIgnore := func(ws *sotparse.Workspace, name string) bool {
		ig, ok := ignores[name]
		if !ok {
			ig = text.mayIgnoreIn(ws, name)
			ignores[name] = ig
		}
		return ig
	}
	collect := func(ws *sotparse.Workspace, a *analysis.Analyzer, d analysis.Diagnostic) {
		if opt.NoFixes {
			d.SuggestedFixes = nil
		}
		if opt.MaxPerFile > 0 && d.Pos.IsValid() {
			// Past its check's cap in the file a finding is counted, not
			// held, unless the report would not count it so: one that is
			// off, one a suppression may silence, one that may fold into
			// another at its place. Those are held, and Result.Cap counts
			// them after suppress and mergeClusters.
			if tf := fset.File(d.Pos); tf != nil {
				sev := sevs.severityOf(a.Name, d.Category)
				mu.Lock()
				over := sev != SeverityOff && !inClusters(a.Name, d.Category) && !mayIgnore(ws, tf.Name()) &&
					countFor(capKey{tf.Base(), checkIndex[a]}) > opt.MaxPerFile
				if over {
					omitted.Add(a.Name, tf.Name(), sev, 1)
					capped[tf.Name()] = true
				}
				mu.Unlock()
				if over {
					return
				}
			}
		}
		h := holdFinding(checkIndex[a], d)
		mu.Lock()
		defer mu.Unlock()
		if bound != nil {
			bound.mu.Lock()
			defer bound.mu.Unlock()
			bound.ws = ws
			if p, tf, ok := bound.placeOfLocked(d.Pos, nil); ok {
				sev := sevs.severityOf(a.Name, d.Category)
				if sev == SeverityOff {
					return // dropped with no suppression to judge it
				}
				if bound.over(p) {
					if cat, ok := bound.category(d.Category); ok {
						bound.drop(tf, p, checkIndex[a], cat, sev)
						return
					}
				}
				bound.note(p)
			}
		}
		if held == nil {
			// The per-document checks' findings are counted already:
			// room for them and some more, without regrowing (as many
			// as the bound holds, at most).
			n := ws.DocDiagnostics() + 256
			if bound != nil {
				n = min(n, 2*bound.max+256)
			}
			held = make([]heldFinding, 0, n)
		}
		held = append(held, h)
		if bound != nil && len(held) >= max(2*bound.max, 2*bound.nheld) {
			held = bound.evict(held, boundSev)
			bound.nheld = len(held)
		}
	}
	if bound != nil {
		// What the per-document checks report during the parse is
		// counted there, past the places the report can show: the parse
		// does not hold it until their checks run.
		parse.Stream.Keep = func(c *sotparse.DocCheck, doc *sotparse.Doc, content []byte, d analysis.Diagnostic) bool {
			a := analyzerOf[c]
			if a == nil || d.Pos < token.Pos(doc.File.Tok.Base()) {
				return true
			}
			mu.Lock()
			defer mu.Unlock()
			bound.mu.Lock()
			defer bound.mu.Unlock()
			p, tf, ok := bound.placeOfLocked(d.Pos, content)
			if !ok {
				return true
			}
			sev := sevs.severityOf(a.Name, d.Category)
			if sev == SeverityOff {
				return true // collect drops it
			}
			if !bound.over(p) {
				bound.note(p)
				return true
			}
			cat, ok := bound.category(d.Category)
			if !ok {
				return true
			}
			if opt.MaxPerFile > 0 && !inClusters(a.Name, d.Category) {
				// Counted against the check's cap in the file, as
				// collect counts it (a file that may hold a suppression
				// has no place here: placeOfLocked holds its findings).
				if countFor(capKey{tf.Base(), checkIndex[a]}) > opt.MaxPerFile {
					omitted.Add(a.Name, tf.Name(), sev, 1)
					capped[tf.Name()] = true
					return false
				}
			}
			bound.drop(tf, p, checkIndex[a], cat, sev)
			return false
		}
	}
	results, err := execute(order, fset, pkg, files, others, readFile, parse, opt.Parsed, collect)
	if err != nil {
		return nil, nil, err
	}
	ws, _ := results[sotparse.Analyzer].(*sotparse.Workspace)
	if ws == nil {
		return nil, nil, errors.New("no analyzer requires sotparse.Analyzer")
	}
	if opt.Reuse != nil && opt.Reuse.Store != nil && ws.ReadBackErr() != nil {
		// A check needed a document a summary stood for, and it could not
		// be read back: the answer may be incomplete, so start over with
		// the same focus and no summaries.
		r := *opt.Reuse
		r.Store = nil
		opt.Reuse = &r
		return Run(opt)
	}
	if opt.ReleaseText && ws.ReadBackErr() != nil {
		// A released text changed before a check read it back: start
		// over, keeping the texts this time.
		opt.ReleaseText = false
		return Run(opt)
	}

	// What the per-document checks reported beyond the cap, counted in
	// the parse.
	for _, d := range ws.Dropped() {
		for _, a := range order {
			if doccheck.Of(a) == d.Check {
				omitted.Add(a.Name, d.Path, sevs.severityOf(a.Name, d.Category), d.N)
				capped[d.Path] = true
			}
		}
	}
	if bound != nil {
		// The places past the cap, as the bound saw them at the end.
		bound.mu.Lock()
		bound.settlePlaces()
		held = bound.evict(held, boundSev)
		bound.count(&omitted, func(check uint16) string { return order[check].Name }, func(check uint16, cat string) string {
			cat = shownCategory(order[check].Name, cat)
			if cat == "" {
				return order[check].Name
			}
			return order[check].Name + "/" + cat
		})
		bound.mu.Unlock()
	}
	res := &Result{Files: len(ws.Files), Omitted: omitted}
	perCheck = nil
	for _, a := range order {
		if a != sotparse.Analyzer {
			res.Checked = append(res.Checked, a.Name)
		}
	}
	sort.Strings(res.Checked)
	if opt.ForgetModel {
		ws.ForgetModel()
		if opt.Forgotten != nil {
			opt.Forgotten()
		}
	}
	// The findings, their suppressions and the texts they flag are read
	// by line from here on, and so may be the workspace once Run returns.
	ws.UnpackLines()
	res.Findings = make([]Finding, len(held))
	rs := resolver{fset: fset, sevs: sevs}
	for i := range held {
		h := &held[i]
		res.Findings[i] = rs.resolve(order[h.check].Name, h.diagnostic())
	}
	held = nil
	res.Findings = suppress(ws, text, res.Findings, res.Checked, knownRunning(order), capped)
	res.Findings = dropOff(res.Findings, opt.Severity)
	if opt.Reuse != nil {
		// Out of focus, a document may have been judged on its summary.
		kept := res.Findings[:0]
		for _, f := range res.Findings {
			if ws.Focused(f.File) {
				kept = append(kept, f)
			}
		}
		res.Findings = kept
	}
	scans, _ := results[secretscheck.Analyzer].(*secretscheck.Scans)
	if err := redact(ws, text, scans, opt.redacted, res.Findings); err != nil {
		return nil, nil, err
	}
	SortFindings(res.Findings)
	res.Findings = mergeClusters(res.Findings)
	fingerprint(ws, text, res.Findings)
	if opt.ReleaseText && ws.ReadBackErr() != nil {
		opt.ReleaseText = false
		return Run(opt)
	}
	return res, ws, nil
}

// execute runs the analyzers, each as soon as the analyzers it requires have
// finished, at most GOMAXPROCS at a time: checks share only the read-only
// workspace, so independent ones overlap (most of them are sequential).
func execute(order []*analysis.Analyzer, fset *token.FileSet, pkg *types.Package, files, others []string, readFile func(string) ([]byte, error), parse sotparse.PassOptions, parsed func(), collect func(*sotparse.Workspace, *analysis.Analyzer, analysis.Diagnostic)) (map[*analysis.Analyzer]any, error) {
	type state struct {
		done   chan struct{}
		result any
		err    error
	}
	states := make(map[*analysis.Analyzer]*state, len(order))
	for _, a := range order {
		states[a] = &state{done: make(chan struct{})}
	}
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for _, a := range order {
		st := states[a]
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(st.done)
			resultOf := map[*analysis.Analyzer]any{}
			for _, req := range a.Requires {
				rs := states[req]
				<-rs.done
				if rs.err != nil {
					st.err = fmt.Errorf("%s: needs %s, which failed", a.Name, req.Name)
					return
				}
				resultOf[req] = rs.result
			}
			sem <- struct{}{}
			defer func() { <-sem }()
			pass := &analysis.Pass{
				Analyzer:     a,
				Fset:         fset,
				OtherFiles:   files,
				IgnoredFiles: others,
				Pkg:          pkg,
				TypesInfo:    &types.Info{},
				TypesSizes:   types.SizesFor("gc", "amd64"),
				ResultOf:     resultOf,
				ReadFile:     readFile,
				Report: func(d analysis.Diagnostic) {
					ws, _ := resultOf[sotparse.Analyzer].(*sotparse.Workspace)
					collect(ws, a, d)
				},
				ImportObjectFact:  func(types.Object, analysis.Fact) bool { return false },
				ExportObjectFact:  func(types.Object, analysis.Fact) { panic("sotvet: facts are not supported") },
				ImportPackageFact: func(*types.Package, analysis.Fact) bool { return false },
				ExportPackageFact: func(analysis.Fact) { panic("sotvet: facts are not supported") },
				AllObjectFacts:    func() []analysis.ObjectFact { return nil },
				AllPackageFacts:   func() []analysis.PackageFact { return nil },
			}
			defer func() {
				// A check's bug costs the run an error naming it, not a crash.
				if r := recover(); r != nil {
					st.err = fmt.Errorf("%s: internal error (please report): %v", a.Name, r)
				}
			}()
			run := a.Run
			if a == sotparse.Analyzer {
				run = func(pass *analysis.Pass) (any, error) {
					ws := sotparse.ParsePassWith(pass, parse)
					if parsed != nil {
						parsed()
					}
					return ws, nil
				}
			}
			res, err := run(pass)
			if err != nil {
				st.err = fmt.Errorf("%s: %w", a.Name, err)
				return
			}
			st.result = res
		}()
	}
	wg.Wait()
	results := map[*analysis.Analyzer]any{}
	for _, a := range order { // the first error in a stable order
		st := states[a]
		if st.err != nil {
			return nil, st.err
		}
		results[a] = st.result
	}
	return results, nil
}

// topo returns the analyzers and everything they require, each after its
// requirements, in a stable order; analyzers declaring facts are rejected.
func topo(roots []*analysis.Analyzer) ([]*analysis.Analyzer, error) {
	var order []*analysis.Analyzer
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer) error
	visit = func(a *analysis.Analyzer) error {
		if seen[a] {
			return nil
		}
		seen[a] = true
		if len(a.FactTypes) > 0 {
			return fmt.Errorf("analyzer %s uses facts, which sotvet does not support", a.Name)
		}
		for _, r := range a.Requires {
			if err := visit(r); err != nil {
				return err
			}
		}
		order = append(order, a)
		return nil
	}
	sorted := append([]*analysis.Analyzer(nil), roots...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, a := range sorted {
		if err := visit(a); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// heldFinding is a diagnostic as the run holds it until the checks are
// done: a span, a category and a message, and the check's index in the
// run's order; any other diagnostic is held whole.
type heldFinding struct {
	pos, end token.Pos
	category string
	message  string
	whole    *analysis.Diagnostic
	check    uint16
}

func holdFinding(check uint16, d analysis.Diagnostic) heldFinding {
	if d.URL != "" || d.SuggestedFixes != nil || d.Related != nil {
		// A copy: taking d's address would move every diagnostic held,
		// compact ones too, to the heap.
		whole := d
		return heldFinding{check: check, whole: &whole}
	}
	return heldFinding{check: check, pos: d.Pos, end: d.End, category: d.Category, message: d.Message}
}

func (h *heldFinding) diagnostic() analysis.Diagnostic {
	if h.whole != nil {
		return *h.whole
	}
	return analysis.Diagnostic{Pos: h.pos, End: h.end, Category: h.category, Message: h.message}
}

// resolver resolves diagnostics to findings, remembering what the last
// one needed: diagnostics come in runs of one check and category, and of
// one file.
type resolver struct {
	fset *token.FileSet
	sevs *severities
	// The severity of the last check and category.
	check, category string
	severity        Severity
	// The last file a position was in.
	file *token.File
}

func (rs *resolver) resolve(check string, d analysis.Diagnostic) Finding {
	f := Finding{Check: check, Category: shownCategory(check, d.Category), Message: d.Message, Severity: rs.severityOf(check, d.Category)}
	if d.Pos.IsValid() {
		f.File, f.Line, f.Col, f.Offset, f.EndLine, f.EndCol = rs.span(d.Pos, d.End)
	}
	for _, r := range d.Related {
		if !r.Pos.IsValid() {
			continue
		}
		p := rs.fset.PositionFor(r.Pos, false)
		if p.Line == 0 {
			p.Line, p.Column = 1, 1
		}
		f.Related = append(f.Related, Related{File: p.Filename, Line: p.Line, Col: p.Column, Message: r.Message})
	}
	if len(d.SuggestedFixes) > 0 {
		f.Fixes = make([]Fix, 0, len(d.SuggestedFixes))
	}
	for _, sf := range d.SuggestedFixes {
		msg, unsafe := fixsafety.Split(sf.Message)
		fix := Fix{Message: msg, Unsafe: unsafe, Edits: make([]Edit, 0, len(sf.TextEdits))}
		for _, te := range sf.TextEdits {
			tf := rs.fset.File(te.Pos)
			if tf == nil {
				continue
			}
			end := te.End
			if !end.IsValid() {
				end = te.Pos
			}
			fix.Edits = append(fix.Edits, Edit{File: tf.Name(), Start: tf.Offset(te.Pos), End: tf.Offset(end), New: string(te.NewText)})
		}
		f.Fixes = append(f.Fixes, fix)
	}
	return f
}

// severityOf returns the severity of a finding of check and category: the
// configured one, or the default. A prose finding's category holds its
// alert's level, so one rule at two levels is two keys here and in sevs.
func (rs *resolver) severityOf(check, category string) Severity {
	if rs.severity != "" && check == rs.check && category == rs.category {
		return rs.severity
	}
	s := rs.sevs.severityOf(check, category)
	rs.check, rs.category, rs.severity = check, category, s
	return s
}

// severities resolves the severity of each check and category once a
// run: a run's findings come in few of them (a prose run's, one per rule
// that found something), and resolving one builds two codes and looks
// each up in three maps.
type severities struct {
	sev map[string]Severity // the configured ones
	mu  sync.Mutex
	of  map[[2]string]Severity
}

func (s *severities) severityOf(check, category string) Severity {
	k := [2]string{check, category}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.of[k]
	if !ok {
		v = severityOf(check, category, s.sev)
		if s.of == nil {
			s.of = map[[2]string]Severity{}
		}
		s.of[k] = v
	}
	return v
}

// SeverityFor returns the severity of a finding of check and category
// under the overrides sev (nil for the defaults).
func SeverityFor(check, category string, sev map[string]Severity) Severity {
	return severityOf(check, category, sev)
}

// dropOff drops the findings whose severity is off, once the findings
// about suppressions, which the driver makes itself, have their configured
// severity too.
func dropOff(fs []Finding, sev map[string]Severity) []Finding {
	out := fs[:0]
	for _, f := range fs {
		if f.Check == SuppressionCheck {
			if s, ok := sev[f.Code()]; ok {
				f.Severity = s
			} else if s, ok := sev[f.Check]; ok {
				f.Severity = s
			}
		}
		if f.Severity != SeverityOff {
			out = append(out, f)
		}
	}
	return out
}

func severityOf(check, category string, sev map[string]Severity) Severity {
	severity := SeverityError
	category, ruleSev, perRule := ruleSeverity(check, category)
	if s, ok := DefaultSeverity[check+"/"+category]; ok && category != "" {
		severity = s
	} else if perRule {
		severity = ruleSev
	} else if s, ok := DefaultSeverity[check]; ok {
		severity = s
	}
	if s, ok := sev[check]; ok {
		severity = s
	}
	if s, ok := sev[check+"/"+category]; ok && category != "" {
		severity = s
	}
	return severity
}

// span is span(rs.fset, pos, end), read from the last file when pos and
// end are in it: no search of the file set, no lock.
func (rs *resolver) span(pos, end token.Pos) (file string, line, col, offset, endLine, endCol int) {
	in := func(p token.Pos) bool { return rs.file.Base() <= int(p) && int(p) <= rs.file.Base()+rs.file.Size() }
	if rs.file == nil || !in(pos) {
		rs.file = rs.fset.File(pos)
		if rs.file == nil {
			return span(rs.fset, pos, end)
		}
	}
	if end.IsValid() && end >= pos && !in(end) {
		return span(rs.fset, pos, end)
	}
	p, endLine, endCol := spanIn(rs.file, pos, end)
	return p.Filename, p.Line, p.Column, p.Offset, endLine, endCol
}

// span returns where a diagnostic from pos to end is: its file, line,
// column and offset, and the line and column of its end.
func span(fset *token.FileSet, pos, end token.Pos) (file string, line, col, offset, endLine, endCol int) {
	p, endLine, endCol := spanIn(fset, pos, end)
	return p.Filename, p.Line, p.Column, p.Offset, endLine, endCol
}

// positions is what maps a token.Pos to a position: a *token.FileSet, or
// a *token.File for its own positions (no search, no lock).
type positions interface {
	PositionFor(p token.Pos, adjusted bool) token.Position
}

// spanIn returns where pos is in src, and the line and column of end.
func spanIn(src positions, pos, end token.Pos) (p token.Position, endLine, endCol int) {
	p = src.PositionFor(pos, false)
	if p.Line == 0 { // an empty or unread file has no line table
		p.Line, p.Column = 1, 1
	}
	endLine, endCol = p.Line, p.Column
	if end.IsValid() && end > pos { // an empty span ends where it starts
		if e := src.PositionFor(end, false); e.Line > 0 {
			endLine, endCol = e.Line, e.Column
		}
	}
	return p, endLine, endCol
}

// SortFindings orders findings by file, offset, check and message; findings
// equal in all four keep their order.
func SortFindings(fs []Finding) {
	// Sort indices, not the findings: a finding is large, and a stable sort
	// moves each one many times.
	idx := make([]int32, len(fs))
	for i := range idx {
		idx[i] = int32(i)
	}
	sorted := true
	sortRuns(idx, func(i, j int32) int {
		a, b := &fs[i], &fs[j]
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Offset, b.Offset); c != 0 {
			return c
		}
		if c := strings.Compare(a.Check, b.Check); c != 0 {
			return c
		}
		if c := strings.Compare(a.Message, b.Message); c != 0 {
			return c
		}
		return cmp.Compare(i, j)
	})
	for i, j := range idx {
		if int(j) != i {
			sorted = false
			break
		}
	}
	if sorted {
		return
	}
	// Permute in place, cycle by cycle: a copy of all the findings would
	// be garbage as large as the findings.
	for i := range idx {
		if int(idx[i]) == i || idx[i] < 0 {
			continue
		}
		tmp := fs[i]
		k := i
		for {
			j := int(idx[k])
			idx[k] = -1
			if j == i {
				fs[k] = tmp
				break
			}
			fs[k] = fs[j]
			k = j
		}
	}
}

// sortRuns sorts s by compare, which must be a total order, taking
// advantage of the runs already sorted in it: findings come check by
// check, each check's in order of file and offset, so merging the runs
// costs far fewer comparisons than sorting. A slice of many short runs is
// sorted as it is.
func sortRuns(s []int32, compare func(a, b int32) int) {
	starts := []int{0}
	for i := 1; i < len(s); i++ {
		if compare(s[i-1], s[i]) > 0 {
			if len(starts) >= 64 && len(starts) > len(s)/16 {
				slices.SortFunc(s, compare)
				return
			}
			starts = append(starts, i)
		}
	}
	if len(starts) == 1 {
		return
	}
	src, dst := s, make([]int32, len(s))
	for len(starts) > 1 {
		// Merge the runs two by two, from src into dst.
		next := starts[:0:0]
		for r := 0; r < len(starts); r += 2 {
			lo := starts[r]
			if r+1 == len(starts) {
				copy(dst[lo:], src[lo:])
				next = append(next, lo)
				break
			}
			mid, hi := starts[r+1], len(s)
			if r+2 < len(starts) {
				hi = starts[r+2]
			}
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if compare(src[j], src[i]) < 0 {
					dst[k] = src[j]
					j++
				} else {
					dst[k] = src[i]
					i++
				}
				k++
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
			next = append(next, lo)
		}
		starts = next
		src, dst = dst, src
	}
	if &src[0] != &s[0] {
		copy(s, src)
	}
}

// fingerprint gives each finding a stable hash of its check, category, file
// and the normalised text it flags (or the flagged line when the range is
// empty), plus an occurrence counter for identical ones; moving lines does not
// change it.
func fingerprint(ws *sotparse.Workspace, text *textIndex, fs []Finding) {
	seen := make(map[[8]byte]int, len(fs))
	h := sha256.New()
	var buf []byte
	var sum [sha256.Size]byte
	// The fingerprints share one string, cut into each finding's: a run
	// with many findings then holds one allocation for them, not one each.
	all := make([]byte, 0, len(fs)*19) // 16 hex digits, a colon, a count
	ends := make([]int, len(fs))
	// The text of a file whose findings the parse kept no flagged text
	// for (those of the checks that compare documents) is read back once:
	// the findings come sorted by file, and each text goes before the
	// next is read.
	var cur struct {
		path    string
		file    *sotparse.File
		content []byte
	}
	for i := range fs {
		f := &fs[i]
		h.Reset()
		buf = append(buf[:0], f.Check...)
		buf = append(buf, 0)
		buf = append(buf, f.Category...)
		buf = append(buf, 0)
		buf = append(buf, f.File...)
		buf = append(buf, 0)
		if fields, ok := text.flagged(f.File, f.Offset, f.EndLine, f.EndCol); ok {
			buf = append(buf, fields...)
		} else {
			if cur.path != f.File {
				cur.path, cur.file, cur.content = f.File, ws.File(f.File), nil
				if cur.file != nil {
					cur.content = ws.TransientFileContent(cur.file)
				}
			}
			if cur.file != nil {
				buf = appendFields(buf, flaggedIn(cur.file.Tok, cur.content, f.Offset, f.EndLine, f.EndCol))
			}
		}
		buf = append(buf, 0)
		buf = appendNormalisedMessage(buf, f.Message)
		buf = append(buf, 0)
		h.Write(buf)
		h.Sum(sum[:0])
		var key [8]byte
		copy(key[:], sum[:8])
		seen[key]++
		all = hex.AppendEncode(all, key[:])
		all = append(all, ':')
		all = strconv.AppendInt(all, int64(seen[key]), 10)
		ends[i] = len(all)
	}
	joined := string(all)
	start := 0
	for i := range fs {
		fs[i].Fingerprint = joined[start:ends[i]]
		start = ends[i]
	}
}

// flaggedIn returns the bytes of content (the text of tf) that a finding
// at offset, ending at endLine:endCol, flags.
func flaggedIn(tf *token.File, content []byte, offset, endLine, endCol int) []byte {
	if len(content) == 0 {
		return nil
	}
	start := min(offset, len(content))
	end := start
	if endLine > 0 && endLine <= tf.LineCount() {
		end = min(tf.Offset(tf.LineStart(endLine))+endCol-1, len(content))
	}
	if end <= start {
		ls := start
		for ls > 0 && content[ls-1] != '\n' {
			ls--
		}
		le := start
		for le < len(content) && content[le] != '\n' {
			le++
		}
		start, end = ls, le
	}
	return content[start:end]
}

// appendFields appends the words of text (as strings.Fields splits them)
// joined by single spaces.
func appendFields(buf, text []byte) []byte {
	first := true
	for i := 0; i < len(text); {
		// Skip spaces.
		for i < len(text) {
			if c := text[i]; c < utf8.RuneSelf {
				if !asciiSpace(c) {
					break
				}
				i++
				continue
			}
			r, n := utf8.DecodeRune(text[i:])
			if !unicode.IsSpace(r) {
				break
			}
			i += n
		}
		if i == len(text) {
			break
		}
		j := i
		for j < len(text) {
			if c := text[j]; c < utf8.RuneSelf {
				if asciiSpace(c) {
					break
				}
				j++
				continue
			}
			r, n := utf8.DecodeRune(text[j:])
			if unicode.IsSpace(r) {
				break
			}
			j += n
		}
		if !first {
			buf = append(buf, ' ')
		}
		first = false
		buf = append(buf, text[i:j]...)
		i = j
	}
	return buf
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// appendNormalisedMessage appends normaliseMessage(m).
func appendNormalisedMessage(buf []byte, m string) []byte {
	start, last, valid := len(buf), 0, false
	for i := 0; i < len(m); i++ {
		if c := m[i]; c >= '0' && c <= '9' {
			buf = append(buf, m[last:i]...)
			last = i + 1
		} else if c >= utf8.RuneSelf && !valid {
			if !utf8.ValidString(m) {
				return append(buf[:start], normaliseMessage(m)...)
			}
			// Valid UTF-8 holds no ASCII byte inside a rune: dropping
			// the digit bytes drops the digits.
			valid = true
		}
	}
	return append(buf, m[last:]...)
}

// normaliseMessage drops digits so that a message naming a line number does
// not churn the fingerprint.
func normaliseMessage(m string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return -1
		}
		return r
	}, m)
}

// entriesSorted reports whether es are in the order of their paths, the
// order of the pass's sorted file names (a walk lists "a/b" before "a-c").
func entriesSorted(es []sotparse.Entry) bool {
	for i := 1; i < len(es); i++ {
		if es[i].Path <= es[i-1].Path {
			return false
		}
	}
	return true
}

// knownRunning is KnownCode with the checks of the run known too, whether
// registered or not: a binary that links only some checks (one check's
// tests) does not take a suppression of one it runs for a misspelling.
func knownRunning(order []*analysis.Analyzer) func(string) bool {
	return func(name string) bool {
		if KnownCode(name) {
			return true
		}
		check, cat, hasCat := strings.Cut(name, "/")
		if !slices.ContainsFunc(order, func(a *analysis.Analyzer) bool { return a.Name == check }) {
			return false
		}
		return !hasCat || slices.Contains(Categories(check), cat) || OpenCategory(check, cat)
	}
}
