package secrets

import (
	_ "embed"
	"flag"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v4"
	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/internal/parallel"
	"github.com/svrnty/sotvet/internal/textenc"
	"github.com/svrnty/sotvet/internal/warmup"
	engine "github.com/svrnty/sotvet/secrets"
	"github.com/svrnty/sotvet/sotparse"
)

//go:embed doc.go
var doc string

// Analyzer scans every workspace file with the secrets engine.
var Analyzer = &analysis.Analyzer{
	Name:       "secrets",
	Doc:        docutil.MustExtract(doc, "secrets"),
	URL:        "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#secrets",
	Requires:   []*analysis.Analyzer{sotparse.Analyzer},
	Run:        run,
	ResultType: reflect.TypeFor[*Scans](),
}

// Scans are the secrets the check's scanner found in each file it
// scanned, as the driver's redaction needs them: it neither scans those
// files a second time nor reads a released text back for their secrets.
type Scans struct {
	byPath map[string][]Span
}

// Span is a secret a message must not quote: where it is, its text, and
// its finding's Redacted.
type Span struct {
	Start, End int
	Text       string
	Mask       string
}

// Spans returns the secrets of found, a scan of content, that a message
// must not quote (an allowed value is public), their texts copied out of
// content.
func Spans(found []engine.Finding, content []byte) []Span {
	var out []Span
	for _, x := range found {
		if x.AllowReason != "value" && x.End <= len(content) {
			out = append(out, Span{x.Start, x.End, string(content[x.Start:x.End]), x.Redacted})
		}
	}
	return out
}

// Of returns the secrets of path's scan, and whether path was scanned.
func (s *Scans) Of(path string) ([]Span, bool) {
	if s == nil {
		return nil, false
	}
	spans, ok := s.byPath[path]
	return spans, ok
}

var (
	allowPaths     stringList
	allowValues    patternList
	endpointKeys   stringList
	allowLocalhost = true
)

func init() {
	Analyzer.Flags.Var(&allowPaths, "allow-paths", "doublestar globs of files whose secrets are accepted (comma-separated or a YAML list)")
	Analyzer.Flags.Var(&allowValues, "allow-values", "regular expressions of accepted values: a YAML list, or one pattern on the command line")
	Analyzer.Flags.Var(&endpointKeys, "endpoint-suffixes", "key suffixes whose URL values are endpoint findings (default _BASE_URL, _ENDPOINT, _API_BASE)")
	Analyzer.Flags.BoolVar(&allowLocalhost, "allow-localhost", true, "localhost and loopback endpoint values are not findings")
	// The engine's rules and keyword automaton, built once per process
	// and shared by every scanner (see internal/warmup).
	warmup.Register(Analyzer.Name, engine.Warm)
}

// Config returns the engine configuration the flags describe; the harness
// and sotvet scan use it too, so that all three judge alike.
func Config() (engine.Config, error) {
	cfg := engine.DefaultConfig()
	cfg.AllowPaths = allowPaths
	cfg.EndpointKeySuffixes = endpointKeys
	cfg.AllowLocalhost = allowLocalhost
	for _, v := range allowValues {
		re, err := regexp.Compile(v)
		if err != nil {
			return cfg, fmt.Errorf("-secrets.allow-values: %w", err)
		}
		cfg.AllowValues = append(cfg.AllowValues, re)
	}
	return cfg, cfg.Validate()
}

// DocCheck scans the documents; run scans the other files.
var DocCheck = &sotparse.DocCheck{Prepare: prepare, Run: scanDoc}

// prepared is the run's scanner, or why there is none.
type prepared struct {
	sc  *engine.Scanner
	err error
}

func prepare() any {
	sc, err := Scanner()
	return &prepared{sc, err}
}

// docScan is what scanDoc found in one document: the secrets the driver's
// redaction needs, taken while the parse holds the text.
type docScan struct {
	spans []Span
	err   error
}

func scanDoc(p *sotparse.DocPass) any {
	if len(p.Content) == 0 || !p.Focused() {
		return nil
	}
	pr := p.Prepared.(*prepared)
	if pr.err != nil {
		return &docScan{err: pr.err}
	}
	found := pr.sc.Scan(p.Doc.Path, p.Content)
	if len(found) == 0 {
		return nil // scanned, nothing found: run tells it from not scanned
	}
	report(p.Report, p.Doc.File, found)
	return &docScan{spans: Spans(found, p.Content)}
}

func run(pass *analysis.Pass) (any, error) {
	ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
	sc, err := Scanner()
	if err != nil {
		return nil, err
	}
	// Sized by the documents in focus, which are all it holds: an edit's
	// run of a session focuses on a few of many.
	scans := &Scans{byPath: make(map[string][]Span, len(ws.FocusedDocs()))}
	for i, r := range DocCheck.Each(pass, ws) {
		d := ws.Docs[i]
		switch r := r.(type) {
		case *docScan:
			if r.err != nil {
				return nil, r.err
			}
			scans.byPath[d.Path] = r.spans
		case nil:
			// scanDoc scans every document in focus with a text.
			if ws.Focused(d.Path) && d.File.Tok.Size() > 0 {
				scans.byPath[d.Path] = nil
			}
		}
	}
	// The other files are scanned in parallel; findings are reported in
	// file order. So is a document the parse refused (a NUL byte, invalid
	// UTF-8, UTF-16): no DocCheck ran on it, and one NUL byte must not get
	// a token past check that scan finds.
	var files []*sotparse.File
	for _, f := range ws.Files {
		refused := f.Role == sotparse.RoleDoc && ws.Doc(f.Path) == nil
		if f.Role != sotparse.RoleCase && (f.Role != sotparse.RoleDoc || refused) && len(f.Content) > 0 && ws.Focused(f.Path) {
			files = append(files, f)
		}
	}
	found := make([][]engine.Finding, len(files))
	recoded := make([]bool, len(files))
	parallel.For(len(files), func(i int) {
		// UTF-16 and UTF-32 text is scanned as the text it holds, as
		// scan does; its offsets are then not the file's.
		content, enc := textenc.ToUTF8(files[i].Content)
		recoded[i] = enc != textenc.UTF8
		found[i] = sc.Scan(files[i].Path, content)
	})
	for i, f := range files {
		if recoded[i] {
			// Placed at the file's start: the offsets are the text's.
			for k := range found[i] {
				found[i][k].Start, found[i][k].End = 0, 0
			}
			report(pass.Report, f, found[i])
			continue
		}
		scans.byPath[f.Path] = Spans(found[i], f.Content)
		report(pass.Report, f, found[i])
	}
	return scans, nil
}

// gitleaksInline is the engine's AllowReason for a gitleaks:allow comment.
const gitleaksInline = "inline: " + engine.GitleaksAllowMarker

// report reports the secrets found in file that are not allowed. check
// promises that every accepted secret says why: a gitleaks:allow comment
// (which sotvet scan honours, as gitleaks does) gives no reason, so here
// it allows nothing.
func report(rep func(analysis.Diagnostic), file *sotparse.File, found []engine.Finding) {
	for _, s := range found {
		if s.Allowed && s.AllowReason != gitleaksInline {
			continue
		}
		msg := fmt.Sprintf("%s: %s (%s)", s.RuleID, s.Description, s.Shown())
		switch {
		case s.AllowReason == gitleaksInline:
			msg += "; gitleaks:allow gives no reason, so check does not accept it: write sotvet:allow-secret -- <reason>"
		case s.Unjustified:
			msg += "; sotvet:allow-secret on this line gives no reason, so it allows nothing"
		}
		rep(analysis.Diagnostic{Pos: file.Pos(s.Start), End: file.Pos(s.End), Category: s.RuleID, Message: msg})
	}
}

// lastScanner is the scanner built last and the configuration it was built
// for: the documents of a run share one, and building one compiles every
// rule.
var lastScanner struct {
	sync.Mutex
	key string
	sc  *engine.Scanner
}

// Scanner returns a scanner for the flags' configuration (Config); the
// last one built is reused while the configuration stays the same.
func Scanner() (*engine.Scanner, error) {
	cfg, err := Config()
	if err != nil {
		return nil, err
	}
	// The configuration printed is its key: patterns print as their text,
	// and anything printed as an address only costs a rebuild.
	key := fmt.Sprintf("%+v", cfg)
	lastScanner.Lock()
	defer lastScanner.Unlock()
	if lastScanner.sc != nil && lastScanner.key == key {
		return lastScanner.sc, nil
	}
	sc, err := engine.NewScanner(cfg)
	if err != nil {
		return nil, err
	}
	lastScanner.key, lastScanner.sc = key, sc
	return sc, nil
}

// stringList is a flag.Value for a list given comma-separated on the command
// line or as YAML (a list) in sotvet.yaml.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(v string) error {
	v = strings.TrimSpace(v)
	*l = nil
	if v == "" {
		return nil
	}
	if strings.HasPrefix(v, "- ") || strings.HasPrefix(v, "[") {
		var list []string
		if err := yaml.Load([]byte(v), &list); err != nil {
			return fmt.Errorf("want a list of strings: %v", err)
		}
		*l = list
		return nil
	}
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

// patternList is a flag.Value for regular expressions, which may hold commas:
// a YAML list, or one pattern.
type patternList []string

func (l *patternList) String() string { return strings.Join(*l, "\n") }

func (l *patternList) Set(v string) error {
	*l = nil
	var list []string
	if t := strings.TrimSpace(v); strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "[") {
		if err := yaml.Load([]byte(t), &list); err != nil {
			return fmt.Errorf("want a list of regular expressions: %v", err)
		}
	} else if t != "" {
		list = []string{t}
	}
	for _, p := range list {
		if _, err := regexp.Compile(p); err != nil {
			return err
		}
	}
	*l = list
	return nil
}

// Clone lets the configuration validate a value without setting the flag.
func (l *patternList) Clone() flag.Value { c := append(patternList(nil), *l...); return &c }
