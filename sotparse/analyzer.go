package sotparse

import (
	"path"
	"path/filepath"
	"reflect"

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

func run(pass *analysis.Pass) (any, error) {
	root := pass.Pkg.Path()
	disc := &Discovery{Known: map[string]bool{".": true}}
	abs := map[string]string{}
	// IgnoredFiles are the other files of the workspace: not parsed, but
	// they exist, and references to them resolve.
	for _, name := range pass.IgnoredFiles {
		rel, err := filepath.Rel(root, name)
		if err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		for d := rel; d != "." && !disc.Known[d]; d = path.Dir(d) {
			disc.Known[d] = true
		}
	}
	for _, name := range pass.OtherFiles {
		rel, err := filepath.Rel(root, name)
		if err != nil {
			rel = name
		}
		rel = filepath.ToSlash(rel)
		abs[rel] = name
		disc.Known[rel] = true
		for d := path.Dir(rel); d != "." && !disc.Known[d]; d = path.Dir(d) {
			disc.Known[d] = true
		}
		role := RoleOf(rel)
		if role == 0 {
			continue
		}
		disc.Entries = append(disc.Entries, Entry{Path: rel, Role: role})
	}
	ws := Parse(pass.Fset, disc, func(p string) ([]byte, error) { return pass.ReadFile(abs[p]) }, 0)
	ws.Root = root
	return ws, nil
}
