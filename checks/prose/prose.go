package prose

import (
	"errors"
	"fmt"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/prose"
	"github.com/svrnty/sotvet/sotparse"
)

// Analyzer runs a team's Vale styles on the documents.
var Analyzer = &analysis.Analyzer{
	Name:     "prose",
	Doc:      docutil.MustExtract(doc, "prose"),
	URL:      "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#prose",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run:      run,
}

// SkippedRule is the category of the note that names a rule sotvet does not
// run.
const SkippedRule = "skipped-rule"

var (
	configFlag string
	only       = &onlyFlag{}
)

func init() {
	Analyzer.Flags.StringVar(&configFlag, "config", "", "the Vale configuration, relative to the workspace root (default: .vale.ini found upward)")
	Analyzer.Flags.Var(only, "only", "limit rules to document kinds, statuses or sections (YAML list of {rules, kinds, statuses, sections})")
}

// DocCheck lints each document as it is parsed.
var DocCheck = &sotparse.DocCheck{Prepare: prepare, Run: lintDoc}

// prepared is one run's view of the flags; the linter is found from the
// workspace root on first use.
type prepared struct {
	config string
	only   []Limit
	once   sync.Once
	lint   *loaded
	err    error
}

func prepare() any { return &prepared{config: configFlag, only: only.limits} }

func (p *prepared) get(root string) (*loaded, error) {
	p.once.Do(func() { p.lint, p.err = load(root, p.config) })
	return p.lint, p.err
}

var alertPool = sync.Pool{New: func() any { return new([]prose.Alert) }}

func lintDoc(p *sotparse.DocPass) any {
	if len(p.Content) == 0 || !p.Focused() {
		return nil
	}
	pr := p.Prepared.(*prepared)
	l, err := pr.get(p.Root())
	if err != nil || l == nil {
		return nil // run reports the error
	}
	// The parse's tree of the document, when it is the one the linter
	// would build, spares parsing the document again.
	tree, base := p.Markdown()
	// The alerts are made diagnostics before the next document: each
	// worker lints into one array.
	bufp := alertPool.Get().(*[]prose.Alert)
	alerts, err := l.linter.AppendLintTree((*bufp)[:0], l.rel(p.Doc.Path), p.Content, tree, base)
	defer func() { clear(alerts); *bufp = alerts[:0]; alertPool.Put(bufp) }()
	var limit *prose.SearchLimitError
	if errors.As(err, &limit) {
		// The alerts found stand; the document says which rule may have
		// more.
		p.Report(analysis.Diagnostic{Pos: p.Doc.File.Pos(0), Category: prose.LeveledCategory(limit.Rule, limit.Level), Message: limit.Error()})
	} else if err != nil {
		return err
	}
	for _, a := range alerts {
		if !allowed(pr.only, a.Rule, p.Doc, a.Start) {
			continue
		}
		d := analysis.Diagnostic{
			Pos: p.Doc.File.Pos(a.Start), End: p.Doc.File.Pos(a.End),
			// The alert's level, which the file's section of the
			// configuration set, is its finding's severity.
			Category: prose.LeveledCategory(a.Rule, a.Level), Message: a.Message, URL: a.Link,
		}
		if len(a.Fix) == 1 && p.Fixes() {
			d.SuggestedFixes = []analysis.SuggestedFix{{
				Message:   fmt.Sprintf("replace with %q", a.Fix[0]),
				TextEdits: []analysis.TextEdit{{Pos: d.Pos, End: d.End, NewText: []byte(a.Fix[0])}},
			}}
		}
		p.Report(d)
	}
	return nil
}

func run(pass *analysis.Pass) (any, error) {
	ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
	l, err := load(ws.Root, configFlag)
	if err != nil {
		return nil, err
	}
	if l == nil {
		return nil, nil
	}
	for _, r := range DocCheck.Each(pass, ws) {
		if err, ok := r.(error); ok {
			return nil, err
		}
	}
	reportSkipped(pass, ws, l)
	return nil, nil
}

// reportSkipped names, once each, the rules of the styles in use that sotvet
// does not run, at the line of the configuration that names their style.
func reportSkipped(pass *analysis.Pass, ws *sotparse.Workspace, l *loaded) {
	seen := map[string]bool{}
	for _, st := range l.linter.Styles {
		for _, s := range st.Skipped {
			if seen[s.Name] {
				continue
			}
			seen[s.Name] = true
			tf := l.configFile(pass.Fset, ws.Root)
			if tf == nil {
				continue
			}
			style := s.Name[:strings.IndexByte(s.Name, '.')]
			line := l.styleLine(style)
			pos := tf.LineStart(min(max(line, 1), tf.LineCount()))
			pass.Report(analysis.Diagnostic{
				Pos: pos, Category: SkippedRule,
				Message: fmt.Sprintf("rule %s is not run: %s", s.Name, s.Reason),
			})
		}
	}
}

// loaded is a found configuration and its linter.
type loaded struct {
	path   string // the .vale.ini
	dir    string // its directory, which its globs are relative to
	root   string // the workspace root
	data   []byte
	linter *prose.Linter
	mu     sync.Mutex
	fset   *token.FileSet
	file   *token.File
}

// rel is a workspace path as the configuration's globs see it.
func (l *loaded) rel(p string) string {
	abs := filepath.Join(l.root, filepath.FromSlash(p))
	if r, err := filepath.Rel(l.dir, abs); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return path.Clean(p)
}

func (l *loaded) styleLine(style string) int {
	for _, s := range l.linter.Config.Sections {
		for _, b := range s.BasedOnStyles {
			if b == style {
				return s.Line + 1
			}
		}
	}
	return 1
}

// configFile adds the configuration to the file set once, named by its path
// relative to the workspace root, so that a finding can point into it.
func (l *loaded) configFile(fset *token.FileSet, root string) *token.File {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file != nil && l.fset == fset {
		return l.file
	}
	name, err := filepath.Rel(root, l.path)
	if err != nil {
		return nil
	}
	l.fset, l.file = fset, fset.AddFile(filepath.ToSlash(name), -1, len(l.data))
	l.file.SetLinesForContent(l.data)
	return l.file
}

// cache keeps a configuration and its styles between runs of one process
// (the language server), while its file is unchanged.
var cache sync.Map // config path -> *cached

type cached struct {
	size    int64
	modTime int64
	l       *loaded
}

// configNames are the names Vale looks for.
var configNames = []string{".vale.ini", "_vale.ini"}

// find returns the configuration for a workspace: the one named, or the
// first .vale.ini from the root up to the repository root.
func find(root, named string) (string, error) {
	if named != "" {
		p := named
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("prose: config %s: %w", named, err)
		}
		return p, nil
	}
	if root == "" {
		return "", nil
	}
	dir, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	for {
		for _, n := range configNames {
			p := filepath.Join(dir, n)
			if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() {
				return p, nil
			}
		}
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return "", nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// top is the directory the configuration's styles must stay in: its
// repository root, or its own directory outside git.
func top(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// maxConfig bounds a .vale.ini.
const maxConfig = 1 << 20

func load(root, named string) (*loaded, error) {
	p, err := find(root, named)
	if err != nil || p == "" {
		return nil, err
	}
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > maxConfig {
		return nil, fmt.Errorf("%s: not a regular file of at most %d bytes", p, maxConfig)
	}
	if c, ok := cache.Load(p); ok {
		c := c.(*cached)
		if c.size == st.Size() && c.modTime == st.ModTime().UnixNano() {
			if c.l.root == root {
				return c.l, nil
			}
			// Another workspace under the same configuration (a run over
			// nested workspaces): its styles are the ones already read,
			// only the paths its globs see differ.
			l := &loaded{path: p, dir: c.l.dir, root: root, data: c.l.data, linter: c.l.linter}
			cache.Store(p, &cached{size: c.size, modTime: c.modTime, l: l})
			return l, nil
		}
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	cfg, err := prose.ParseConfig(p, data)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(p)
	if sd := cfg.StylesDir(); sd != "" {
		abs, err := filepath.Abs(sd)
		if err != nil {
			return nil, err
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		limit := top(dir)
		if real, err := filepath.EvalSymlinks(limit); err == nil {
			limit = real
		}
		if r, err := filepath.Rel(limit, abs); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("%s: StylesPath %s is outside %s", p, cfg.StylesPath, limit)
		}
	}
	l := &loaded{path: p, dir: dir, root: root, data: data, linter: prose.NewLinter(cfg)}
	// Read every style the configuration names now, so that a bad rule
	// file is one error for the run, not one per document.
	for i := range cfg.Sections {
		if _, _, _, err := l.linter.Active(cfg.Sections[i].Glob); err != nil {
			var ce *prose.ConfigError
			if errors.As(err, &ce) {
				return nil, err
			}
			return nil, fmt.Errorf("%s: %w", p, err)
		}
	}
	cache.Store(p, &cached{size: st.Size(), modTime: st.ModTime().UnixNano(), l: l})
	return l, nil
}
