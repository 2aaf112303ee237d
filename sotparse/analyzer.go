package sotparse

import (
	"math"
	"path"
	"path/filepath"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Analyzer is the root analyzer: it reads pass.OtherFiles through
// pass.ReadFile, adds each file to pass.Fset once and returns the
// *Workspace. pass.Pkg.Path() is the workspace root; OtherFiles are absolute
// paths under it; IgnoredFiles lists the workspace's other files, which are
// not read but exist for references. A read error is recorded as a "syntax" problem of the file.
var Analyzer = &analysis.Analyzer{
	Name:             "sotparse",
	Doc:              "parse the planning workspace into a typed model",
	Run:              run,
	RunDespiteErrors: true,
	ResultType:       reflect.TypeFor[*Workspace](),
}

func run(pass *analysis.Pass) (any, error) { return ParsePass(pass, nil), nil }

// ParsePass builds the workspace of pass as Analyzer does, reusing document
// summaries as ParseReusing does; a driver that keeps summaries between
// runs calls it in place of Analyzer.Run.
func ParsePass(pass *analysis.Pass, reuse *Reuse) *Workspace {
	return ParsePassWith(pass, PassOptions{Reuse: reuse})
}

// PassOptions are what a driver may add to the parse of a pass.
type PassOptions struct {
	Reuse  *Reuse  // summaries to reuse (ParseReusing)
	Stream *Stream // DocChecks to run as documents are parsed (ParseStreaming)
	// Size returns the size discovery saw of a workspace-relative path:
	// when it knows every file's, a streaming parse places the files by
	// them and need not hold every text at once.
	Size func(path string) (int64, bool)
	// Read, when set, reads a workspace-relative path as pass.ReadFile
	// reads the file it names: the parse then reads by the paths it has,
	// without a map from each to its file's name.
	Read func(path string) ([]byte, error)
	// Discovery, when set, lists the pass's files as ParsePassWith would
	// derive them from OtherFiles and IgnoredFiles (every entry with its
	// role and size, in path order; no Problems): the parse takes it as
	// it is, but for Known, derived from the entries and others as from
	// the names (1.4 ms on 10,000 files). A session's run, re-checking a
	// few of many files, then does not rebuild the listing of all of
	// them from their names.
	Discovery *Discovery
}

// ParsePassWith builds the workspace of pass as Analyzer does, with what
// opt adds.
func ParsePassWith(pass *analysis.Pass, opt PassOptions) *Workspace {
	root := pass.Pkg.Path()
	if opt.Discovery != nil && opt.Read != nil {
		disc := *opt.Discovery
		disc.Root = root
		// What exists is what the names below make exist: a walk also
		// knows the directories it saw (empty ones, ones whose files are
		// all ignored) and the paths it listed nowhere, which the names
		// of a pass's files never show.
		var ms *Models
		if opt.Reuse != nil {
			ms = opt.Reuse.Models
		}
		disc.Known = ms.knownFrom(disc.Entries, disc.Others)
		ws := ParseStreaming(pass.Fset, &disc, opt.Read, math.MaxInt64, opt.Reuse, opt.Stream)
		ws.Root = root
		return ws
	}
	n := len(pass.IgnoredFiles) + len(pass.OtherFiles)
	disc := &Discovery{Known: make(map[string]bool, n), Sized: opt.Size != nil}
	disc.Known["."] = true
	// The names of the files to read: those outside root only, when
	// opt.Read reads the others.
	var abs map[string]string
	if opt.Read == nil {
		abs = make(map[string]string, n)
	}
	// IgnoredFiles are the other files of the workspace: not parsed, but
	// they exist, and references to them resolve.
	for _, name := range pass.IgnoredFiles {
		rel, ok := RelPath(root, name)
		if !ok {
			continue
		}
		for d := rel; d != "." && !disc.Known[d]; d = path.Dir(d) {
			disc.Known[d] = true
		}
	}
	for _, name := range pass.OtherFiles {
		rel, ok := RelPath(root, name)
		if !ok {
			rel = filepath.ToSlash(name)
		}
		if !ok || opt.Read == nil {
			if abs == nil {
				abs = map[string]string{}
			}
			abs[rel] = name
		}
		disc.Known[rel] = true
		for d := path.Dir(rel); d != "." && !disc.Known[d]; d = path.Dir(d) {
			disc.Known[d] = true
		}
		role := RoleOf(rel)
		if role == 0 {
			// Only a path discovery could not read (an unreadable
			// directory) is listed without a role: reading it again
			// reports the problem at the path instead of skipping it.
			role = RoleOther
		}
		e := Entry{Path: rel, Role: role}
		if opt.Size != nil {
			size, ok := opt.Size(rel)
			e.Size = size
			disc.Sized = disc.Sized && ok
		}
		disc.Entries = append(disc.Entries, e)
	}
	// The driver's ReadFile enforces the size limit (max-file-size may
	// raise it above the default): no second limit here.
	read := func(p string) ([]byte, error) {
		if name, ok := abs[p]; ok || opt.Read == nil {
			return pass.ReadFile(name)
		}
		return opt.Read(p)
	}
	disc.Root = root
	ws := ParseStreaming(pass.Fset, disc, read, math.MaxInt64, opt.Reuse, opt.Stream)
	ws.Root = root
	return ws
}

// RelPath returns name relative to root, slash-separated, and whether name
// is under root. The common case, a path joined onto root, is a prefix cut;
// anything else goes through filepath.Rel.
func RelPath(root, name string) (string, bool) {
	if rest, ok := strings.CutPrefix(name, root+string(filepath.Separator)); ok && !strings.Contains(rest, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rest), true
	}
	rel, err := filepath.Rel(root, name)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// knownFrom is Discovery.Known as ParsePassWith derives it from a pass's
// file names: the files listed, the others, and their directories.
func knownFrom(entries []Entry, others []string) map[string]bool {
	known := make(map[string]bool, len(entries)+len(others)+1)
	known["."] = true
	add := func(p string) {
		for d := p; d != "." && !known[d]; d = path.Dir(d) {
			known[d] = true
		}
	}
	for _, e := range entries {
		add(e.Path)
	}
	for _, p := range others {
		add(p)
	}
	return known
}
