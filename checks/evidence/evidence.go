package evidence

import (
	"crypto/ed25519"
	"encoding/base64"
	"flag"
	"fmt"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/docutil"
	hevidence "github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/verify"
	"github.com/svrnty/sotvet/sotparse"
)

// Analyzer compares documents' claims about harness runs with the runs.
var Analyzer = &analysis.Analyzer{
	Name:     "evidence",
	Doc:      docutil.MustExtract(doc, "evidence"),
	URL:      "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#evidence",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run:      run,
}

// Categories of findings.
const (
	CategoryMismatch = "mismatch"
	CategoryInvalid  = "invalid-evidence"
	CategoryMissing  = "missing-evidence"
)

var (
	runsRoots     Roots
	reportMissing bool
	trustedKeys   Keys
)

func init() {
	Analyzer.Flags.Var(&runsRoots, "runs-root", "read runs cited under `old` from `new`: old=new, repeatable or comma-separated (an empty value clears the list)")
	Analyzer.Flags.BoolVar(&reportMissing, "report-missing", false, "report cited runs that do not exist on this machine (as warnings)")
	Analyzer.Flags.Var(&trustedKeys, "trusted-keys", "ed25519 public `keys` (base64, comma-separated) one of which must have signed every cited run (default: sotvet.yaml's trusted-keys)")
}

// Keys is the -trusted-keys flag: the keys a cited run must be signed with.
type Keys struct {
	text []string
	keys []ed25519.PublicKey
}

// String implements flag.Value.
func (k *Keys) String() string {
	if k == nil {
		return ""
	}
	return strings.Join(k.text, ",")
}

// Set implements flag.Value: it replaces the keys with the comma-separated
// base64 keys in v.
func (k *Keys) Set(v string) error {
	var text []string
	var keys []ed25519.PublicKey
	for _, part := range strings.Split(v, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		b, err := base64.StdEncoding.DecodeString(part)
		if err != nil || len(b) != ed25519.PublicKeySize {
			return fmt.Errorf("%q is not the base64 of an ed25519 public key", part)
		}
		text, keys = append(text, part), append(keys, ed25519.PublicKey(b))
	}
	k.text, k.keys = text, keys
	return nil
}

// Clone returns an independent copy, to validate a value without setting it.
func (k *Keys) Clone() flag.Value { return &Keys{} }

// Mapping reads the run paths under Old from New.
type Mapping struct{ Old, New string }

// Roots is the -runs-root flag: mappings of run directory prefixes.
type Roots struct{ m []Mapping }

// String implements flag.Value.
func (r *Roots) String() string {
	if r == nil {
		return ""
	}
	s := make([]string, len(r.m))
	for i, m := range r.m {
		s[i] = m.Old + "=" + m.New
	}
	return strings.Join(s, ",")
}

// Set implements flag.Value: it adds the comma-separated old=new mappings
// in v; an empty v clears the list.
func (r *Roots) Set(v string) error {
	if strings.TrimSpace(v) == "" {
		r.m = nil
		return nil
	}
	var add []Mapping
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		old, nw, ok := strings.Cut(part, "=")
		old, nw = strings.TrimSpace(old), strings.TrimSpace(nw)
		if !ok || old == "" || nw == "" {
			return fmt.Errorf("%q: want old=new", part)
		}
		if !strings.HasPrefix(old, "/") && !strings.HasPrefix(old, "~/") {
			return fmt.Errorf("%q: the old prefix must be an absolute path", part)
		}
		if old != "/" {
			old = strings.TrimSuffix(path.Clean(old), "/")
		}
		abs, err := filepath.Abs(nw)
		if err != nil {
			return fmt.Errorf("%q: %v", part, err)
		}
		add = append(add, Mapping{Old: old, New: abs})
	}
	r.m = append(r.m, add...)
	return nil
}

// Clone returns an independent copy, to validate a value without setting it.
func (r *Roots) Clone() flag.Value { return &Roots{m: slices.Clone(r.m)} }

// Mappings returns the mappings, longest old prefix first.
func (r *Roots) Mappings() []Mapping {
	out := slices.Clone(r.m)
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Old) > len(out[j].Old) })
	return out
}

// checked is one run directory, verified.
type checked struct {
	violations []verify.Violation
	report     *hevidence.Report
	err        error
}

type checker struct {
	pass     *analysis.Pass
	mappings []Mapping
	home     string
	runs     map[string]*checked
	// guardCache holds the guard records read, by path (guard.go).
	guardCache map[string]*guardRecord
	// classified holds what classify found of each path cited, by the
	// path as written: a workspace cites a few runs from thousands of
	// places, and each citation looked at the file system again (three
	// stats of the same run directory for each).
	classified map[string]*citation
}

func run(pass *analysis.Pass) (any, error) {
	ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
	c := &checker{pass: pass, mappings: runsRoots.Mappings(), runs: map[string]*checked{}, guardCache: map[string]*guardRecord{}, classified: map[string]*citation{}}
	c.home, _ = os.UserHomeDir()
	for _, d := range ws.FocusedDocs() {
		c.doc(d)
		c.guards(d)
	}
	return nil, nil
}

// citation is a document's citation of a run.
type citation struct {
	ref     sotparse.Ref
	dir     string // the run directory on this machine
	local   string // the cited path on this machine
	missing bool
}

func (c *checker) doc(d *sotparse.Doc) {
	var cites []*citation
	for _, r := range d.Refs.Of(sotparse.RefAbsPath) {
		if r.Kind != sotparse.RefAbsPath {
			continue
		}
		if ct := c.classify(r); ct != nil {
			cites = append(cites, ct)
		}
	}
	if len(cites) == 0 {
		return
	}
	sort.SliceStable(cites, func(i, j int) bool { return cites[i].ref.Pos < cites[j].ref.Pos })
	seen := map[string]bool{}
	for _, ct := range cites {
		if seen[ct.dir] {
			continue
		}
		seen[ct.dir] = true
		if ct.missing {
			if reportMissing {
				msg := "cited run not found on this machine: " + ct.ref.Text
				if ct.local != ct.ref.Text {
					msg += " (looked in " + ct.local + ")"
				}
				c.pass.Report(analysis.Diagnostic{Pos: ct.ref.Pos, End: ct.ref.End, Category: CategoryMissing, Message: msg})
			}
			continue
		}
		if r := c.verify(ct.dir); r.err != nil {
			c.pass.Report(analysis.Diagnostic{Pos: ct.ref.Pos, End: ct.ref.End, Category: CategoryInvalid,
				Message: fmt.Sprintf("cited run %s cannot be verified: %v", ct.dir, r.err)})
		} else if len(r.violations) > 0 {
			c.pass.Report(analysis.Diagnostic{Pos: ct.ref.Pos, End: ct.ref.End, Category: CategoryInvalid,
				Message: fmt.Sprintf("cited run %s fails verification: %s", ct.dir, summarize(r.violations))})
		}
	}
	sections := newSections(d.Headings)
	for _, f := range d.Facts.All() {
		spec, ok := factSpecs[normKey(f.Key)]
		if !ok {
			continue
		}
		ct := bind(sections, cites, f.Pos)
		if ct == nil || ct.missing {
			continue
		}
		r := c.verify(ct.dir)
		if r.report == nil {
			continue
		}
		c.compare(f, spec, ct.dir, r.report)
	}
	c.stageSections(d, sections, cites)
}

func summarize(vs []verify.Violation) string {
	const show = 3
	var parts []string
	for i, v := range vs {
		if i == show {
			parts = append(parts, fmt.Sprintf("and %d more", len(vs)-show))
			break
		}
		parts = append(parts, v.String())
	}
	noun := "violations"
	if len(vs) == 1 {
		noun = "violation"
	}
	return fmt.Sprintf("%d %s: %s", len(vs), noun, strings.Join(parts, "; "))
}

func (c *checker) verify(dir string) *checked {
	if r, ok := c.runs[dir]; ok {
		return r
	}
	vs, rep, err := verify.Dir(dir, verify.Options{TrustedKeys: trustedKeys.keys})
	r := &checked{violations: vs, report: rep, err: err}
	c.runs[dir] = r
	return r
}

// local maps a cited path to this machine and says which -runs-root
// mapping's old prefix, if any, it fell under.
func (c *checker) local(p string) (local, root string) {
	for _, m := range c.mappings {
		if p == m.Old || strings.HasPrefix(p, m.Old+"/") || m.Old == "/" {
			rest := strings.TrimPrefix(p, m.Old)
			return filepath.Join(m.New, filepath.FromSlash(rest)), m.Old
		}
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok && c.home != "" {
		return filepath.Join(c.home, filepath.FromSlash(rest)), ""
	}
	return filepath.FromSlash(p), ""
}

// classify says whether the cited path names a run, and where the run is:
// found once per path a run (classifyPath), for each citation of it.
func (c *checker) classify(r sotparse.Ref) *citation {
	t, ok := c.classified[r.Text]
	if !ok {
		t = c.classifyPath(r.Text)
		c.classified[r.Text] = t
	}
	if t == nil {
		return nil
	}
	ct := *t
	ct.ref = r
	return &ct
}

// classifyPath is classify of a citation of p, without its reference.
func (c *checker) classifyPath(p string) *citation {
	if p != "/" {
		p = strings.TrimSuffix(path.Clean(p), "/")
	}
	local, root := c.local(p)
	switch {
	case path.Base(p) == hevidence.ReportJSON:
		return &citation{local: local, dir: filepath.Dir(local), missing: !isFile(local)}
	case isDir(local) && isFile(filepath.Join(local, hevidence.ReportJSON)):
		return &citation{local: local, dir: local}
	case isGuardPath(p):
		return nil // a guard record or the guards directory (guard.go)
	case c.underRunsRoot(p, root):
		_, err := stat(local)
		return &citation{local: local, dir: local, missing: err != nil}
	}
	return nil
}

// underRunsRoot reports whether p sits directly under a runs root: a
// directory named harness-runs, or a mapping's old prefix.
func (c *checker) underRunsRoot(p, root string) bool {
	parent := path.Dir(p)
	if path.Base(parent) == "harness-runs" {
		return true
	}
	if root != "" && parent == root {
		return true
	}
	return false
}

// stat is os.Stat (a test counts its calls).
var stat = os.Stat

func isFile(p string) bool {
	info, err := stat(p)
	return err == nil && info.Mode().IsRegular()
}

func isDir(p string) bool {
	info, err := stat(p)
	return err == nil && info.IsDir()
}

// sections locates a document's headings.
type sections struct{ hs []*sotparse.Heading }

func newSections(hs []*sotparse.Heading) sections {
	hs = slices.Clone(hs)
	sort.SliceStable(hs, func(i, j int) bool { return hs[i].Pos < hs[j].Pos })
	return sections{hs}
}

// at returns the index of the heading whose section holds p, or -1 before
// the first heading.
func (s sections) at(p token.Pos) int {
	return sort.Search(len(s.hs), func(i int) bool { return s.hs[i].Pos > p }) - 1
}

// end returns where the section of heading i ends: at the next heading of
// the same or a higher level when nested is true, at the next heading of
// any level otherwise. -1 (before the first heading) ends at the first
// heading. token.NoPos means the end of the document.
func (s sections) end(i int, nested bool) token.Pos {
	for j := i + 1; j < len(s.hs); j++ {
		if i < 0 || !nested || s.hs[j].Level <= s.hs[i].Level {
			return s.hs[j].Pos
		}
	}
	return token.NoPos
}

func before(p, end token.Pos) bool { return end == token.NoPos || p < end }

// bind finds the run a fact at p is about: the nearest citation before it
// whose section (subsections included) holds it, else the first citation
// after it under the same heading.
func bind(s sections, cites []*citation, p token.Pos) *citation {
	var best *citation
	for _, ct := range cites {
		if ct.ref.Pos >= p {
			break
		}
		if before(p, s.end(s.at(ct.ref.Pos), true)) {
			best = ct
		}
	}
	if best != nil {
		return best
	}
	h := s.at(p)
	end := s.end(h, false)
	for _, ct := range cites {
		if ct.ref.Pos > p && before(ct.ref.Pos, end) {
			return ct
		}
	}
	return nil
}

// Value kinds of facts.
type kind int

const (
	kStatus    kind = iota + 1 // pass, fail, blocked
	kWord                      // an identifier
	kInt                       // a number
	kIntOrNone                 // a number, or none
	kBool                      // true or false
	kList                      // code spans, or none
)

type factSpec struct {
	field string // report.json's field, for messages
	kind  kind
	get   func(*hevidence.Report) any // string, bool, *int, int or []string
}

// value is the run's value of the fact: from the run directory when the
// fact lies beside report.json (runGetters), else from the report.
func (s factSpec) value(dir string, r *hevidence.Report) any {
	if g, ok := runGetters[s.field]; ok {
		return g(dir)
	}
	return s.get(r)
}

var factSpecs = map[string]factSpec{}

func init() {
	add := func(spec factSpec, keys ...string) {
		for _, k := range keys {
			factSpecs[k] = spec
		}
	}
	add(factSpec{"status", kStatus, func(r *hevidence.Report) any { return r.Status }}, "report status", "run status")
	add(factSpec{"backend", kWord, func(r *hevidence.Report) any { return r.Backend }}, "backend", "engine")
	add(factSpec{"backend_exit_code", kIntOrNone, func(r *hevidence.Report) any { return r.BackendExitCode }}, "backend exit code")
	add(factSpec{"exit_code", kInt, func(r *hevidence.Report) any { return r.ExitCode }}, "exit code", "run exit code", "harness exit code")
	add(factSpec{"changed_files", kList, func(r *hevidence.Report) any { return r.ChangedFiles }}, "changed files")
	add(factSpec{"tests_passed", kBool, func(r *hevidence.Report) any { return r.TestsPassed }}, "tests passed", "verification passed")
	add(factSpec{"required_events.passed", kBool, func(r *hevidence.Report) any { return r.RequiredEvents.Passed }}, "required events passed")
	add(factSpec{"allowed_writes_passed", kBool, func(r *hevidence.Report) any { return r.AllowedWritesPassed }}, "allowed writes passed")
	add(factSpec{"forbidden_paths_passed", kBool, func(r *hevidence.Report) any { return r.ForbiddenPathsPassed }}, "forbidden paths passed")
	add(factSpec{"case_process_started", kBool, func(r *hevidence.Report) any { return r.CaseProcessStarted }}, "case process started")
	add(factSpec{"backend_process_started", kBool, func(r *hevidence.Report) any { return r.BackendProcessStarted }}, "backend process started")
	add(factSpec{"source_admission_status", kWord, func(r *hevidence.Report) any { return r.SourceAdmissionStatus }}, "source admission status")
	add(factSpec{"approval_status", kWord, func(r *hevidence.Report) any { return r.ApprovalStatus }}, "approval status")
	add(factSpec{"sandbox", kWord, func(r *hevidence.Report) any { return r.Sandbox }}, "sandbox")
	add(factSpec{"fixture", kWord, func(r *hevidence.Report) any { return r.Fixture }}, "fixture")
	add(factSpec{"case_id", kWord, func(r *hevidence.Report) any { return r.CaseID }}, "case id")
	add(factSpec{"run_id", kWord, func(r *hevidence.Report) any { return r.RunID }}, "run id")
}

// normKey is a fact key as the table holds it: lower case, "_" for a
// space, single spaces, no code span.
func normKey(k string) string {
	if key, ok := normASCIIKey(k); ok {
		return key
	}
	k = strings.ToLower(strings.Trim(strings.TrimSpace(k), "`"))
	k = strings.ReplaceAll(k, "_", " ")
	return strings.Join(strings.Fields(k), " ")
}

// normASCIIKey is normKey of an ASCII key of up to 64 bytes, in one pass
// and without allocating when the key is normal already: every fact of
// every document is looked up by it.
func normASCIIKey(k string) (string, bool) {
	var buf [64]byte
	if len(k) > len(buf) {
		return "", false
	}
	for i := 0; i < len(k); i++ {
		if k[i] >= utf8.RuneSelf {
			return "", false
		}
	}
	k = strings.Trim(strings.TrimSpace(k), "`")
	out, space := buf[:0], false
	for i := 0; i < len(k); i++ {
		switch c := k[i]; c {
		case ' ', '\t', '\n', '\v', '\f', '\r', '_':
			space = len(out) > 0
		default:
			if space {
				out, space = append(out, ' '), false
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			out = append(out, c)
		}
	}
	if string(out) == k {
		return k, true
	}
	return string(out), true
}

var (
	wordPattern = lazyRE.New(`^[A-Za-z0-9][A-Za-z0-9._:/+-]*$`)
	intPattern  = lazyRE.New(`^-?[0-9]+$`)
	spanPattern = lazyRE.New("`([^`]+)`")
	listSep     = lazyRE.New(`^(?:\s|,|;|\band\b)*$`)
)

// scalar returns a fact's value when it is one plain token, optionally in
// a code span and with a final period.
func scalar(v string) (string, bool) {
	v = strings.TrimSpace(v)
	v = strings.TrimSpace(strings.TrimRight(v, ".;,"))
	if len(v) >= 2 && strings.HasPrefix(v, "`") && strings.HasSuffix(v, "`") && strings.Count(v, "`") == 2 {
		v = strings.TrimSpace(v[1 : len(v)-1])
	}
	if v == "" || strings.ContainsAny(v, "` \t") {
		return "", false
	}
	return v, true
}

// list returns a fact's value when it is a list of code spans or of bare
// paths, or none.
func list(v string) ([]string, bool) {
	v = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(v), "."))
	if s, ok := scalar(v); ok && (strings.EqualFold(s, "none") || s == "[]") {
		return []string{}, true
	}
	var out []string
	if spans := spanPattern.FindAllStringSubmatch(v, -1); len(spans) > 0 {
		if !listSep.MatchString(spanPattern.ReplaceAllString(v, "")) {
			return nil, false
		}
		for _, m := range spans {
			out = append(out, strings.TrimSpace(m[1]))
		}
	} else {
		for _, p := range strings.Split(v, ",") {
			p = strings.TrimSpace(p)
			if p == "" || strings.ContainsAny(p, " \t`") {
				return nil, false
			}
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), true
}

// stated parses the document's value for a fact of kind k; ok is false
// when the value is prose the check does not interpret.
func stated(k kind, v string) (any, bool) {
	if k == kList {
		return list(v)
	}
	s, ok := scalar(v)
	if !ok {
		return nil, false
	}
	switch k {
	case kStatus:
		s = strings.ToLower(s)
		return s, s == hevidence.StatusPass || s == hevidence.StatusFail || s == hevidence.StatusBlocked
	case kWord:
		return s, wordPattern.MatchString(s)
	case kInt:
		n, err := strconv.Atoi(s)
		return n, err == nil && intPattern.MatchString(s)
	case kIntOrNone:
		if l := strings.ToLower(s); l == "none" || l == "null" {
			return (*int)(nil), true
		}
		n, err := strconv.Atoi(s)
		return &n, err == nil && intPattern.MatchString(s)
	case kBool:
		b, err := strconv.ParseBool(strings.ToLower(s))
		return b, err == nil && (strings.EqualFold(s, "true") || strings.EqualFold(s, "false"))
	}
	return nil, false
}

// show renders a value for a message.
func show(v any) string {
	switch x := v.(type) {
	case *int:
		if x == nil {
			return "none"
		}
		return strconv.Itoa(*x)
	case []string:
		if len(x) == 0 {
			return "none"
		}
		return strings.Join(x, ", ")
	}
	return fmt.Sprint(v)
}

func equal(k kind, doc, rep any) bool {
	switch k {
	case kWord:
		return strings.EqualFold(doc.(string), rep.(string))
	case kIntOrNone:
		a, b := doc.(*int), rep.(*int)
		return (a == nil) == (b == nil) && (a == nil || *a == *b)
	case kList:
		r := slices.Clone(rep.([]string))
		slices.Sort(r)
		return slices.Equal(doc.([]string), slices.Compact(r))
	}
	return doc == rep
}

func (c *checker) compare(f *sotparse.Fact, spec factSpec, dir string, rep *hevidence.Report) {
	got, ok := stated(spec.kind, f.Value)
	if !ok {
		return
	}
	want := spec.value(dir, rep)
	if equal(spec.kind, got, want) {
		return
	}
	c.pass.Report(analysis.Diagnostic{
		Pos: f.ValuePos, End: f.End, Category: CategoryMismatch,
		Message: fmt.Sprintf("%s: the document says %s, but report.json of run %s has %s %s",
			normKey(f.Key), show(got), rep.RunID, spec.field, show(want)),
	})
}
