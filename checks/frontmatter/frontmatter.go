package frontmatter

import (
	"bytes"
	"fmt"
	"go/token"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/checks/internal/fixsafety"
	"github.com/svrnty/sotvet/checks/internal/flagutil"
	"github.com/svrnty/sotvet/checks/internal/vocab"
	"github.com/svrnty/sotvet/sotparse"
)

// Analyzer checks document frontmatter against the workspace convention.
var Analyzer = &analysis.Analyzer{
	Name:     "frontmatter",
	Doc:      docutil.MustExtract(doc, "frontmatter"),
	URL:      "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#frontmatter",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run:      run,
}

// DefaultScope is the default value of -scope.
var DefaultScope = []string{".sot/**"}

// DefaultRequired is the default value of -require: each entry is a key, or
// alternatives separated by "|" of which one must be present.
var DefaultRequired = []string{
	"name|title", "status", "owner", "created", "last_reviewed",
	"core_promotion_status", "lifecycle_classification",
}

var (
	scope     = flagutil.Globs(slices.Clone(DefaultScope))
	required  = keyList(slices.Clone(DefaultRequired))
	allowKeys keyList
	today     dateFlag
	statuses  vocab.Statuses
)

func init() {
	Analyzer.Flags.Var(&scope, "scope", "comma-separated doublestar globs of the documents the document rules apply to")
	Analyzer.Flags.Var(&required, "require", `comma-separated required frontmatter keys; "a|b" requires a or b`)
	Analyzer.Flags.Var(&allowKeys, "allow-keys", "comma-separated extra frontmatter keys that are not reported as unknown")
	Analyzer.Flags.Var(&today, "today", "date that future dates are judged against, YYYY-MM-DD (default: the local date)")
	Analyzer.Flags.Var(&statuses, vocab.FlagName, "comma-separated statuses added to the status vocabulary")
}

// keyList is a comma-separated list of frontmatter keys.
type keyList []string

func (k *keyList) String() string { return strings.Join(*k, ",") }

func (k *keyList) Set(v string) error {
	var out []string
	for _, w := range strings.Split(v, ",") {
		if w = strings.TrimSpace(w); w != "" {
			out = append(out, w)
		}
	}
	*k = out
	return nil
}

// dateFlag is an optional YYYY-MM-DD date.
type dateFlag struct {
	t   time.Time
	set bool
}

func (d *dateFlag) String() string {
	if !d.set {
		return ""
	}
	return d.t.Format(time.DateOnly)
}

func (d *dateFlag) Set(v string) error {
	if v == "" {
		*d = dateFlag{}
		return nil
	}
	t, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return fmt.Errorf("want a YYYY-MM-DD date, got %q", v)
	}
	*d = dateFlag{t: t, set: true}
	return nil
}

func (d *dateFlag) date() time.Time {
	if d.set {
		return d.t
	}
	now := time.Now()
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
}

var isoDate = lazyRE.New(`^\d{4}-\d{2}-\d{2}$`)

// DocCheck is the part of the check that reads one document at a time:
// every rule but the syntax findings, which the parse reports.
var DocCheck = &sotparse.DocCheck{Prepare: prepare, Run: checkDoc}

// prepared is what the flags say, made once per run.
type prepared struct {
	today time.Time
	reqs  []requirement
}

func prepare() any { return &prepared{today: today.date(), reqs: requirements()} }

// noFields is what checkDoc returns for a frontmatter without fields: it
// is judged by run, which knows whether its keys were unreadable.
type noFields struct{}

func run(pass *analysis.Pass) (any, error) {
	ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
	// A block that is not a mapping, or whose keys are all unreadable, has
	// syntax findings and no fields: its keys are not judged again.
	problems := map[string][]sotparse.Problem{}
	for _, p := range ws.ProblemsFor("frontmatter") {
		pass.Report(analysis.Diagnostic{Pos: p.Pos, End: p.End, Category: "syntax", Message: p.Message})
		problems[p.Path] = append(problems[p.Path], p)
	}
	unreadable := func(d *sotparse.Doc) bool {
		fm := d.Frontmatter
		for _, p := range problems[d.Path] {
			if fm.Pos <= p.Pos && p.Pos <= fm.End {
				return true
			}
		}
		return false
	}
	results := DocCheck.Each(pass, ws)
	var pr *prepared
	for i, d := range ws.Docs {
		if _, ok := results[i].(noFields); !ok || unreadable(d) {
			continue
		}
		if pr == nil {
			pr = prepare().(*prepared)
		}
		c := &checker{
			report:  pass.Report,
			content: func() []byte { return ws.Content(d) },
			fixes:   ws.Fixes(),
			today:   pr.today,
			reqs:    pr.reqs,
		}
		c.check(d)
	}
	return nil, nil
}

func checkDoc(p *sotparse.DocPass) any {
	d := p.Doc
	if !scope.Match(d.Path) || !p.Focused() {
		return nil
	}
	switch d.FrontmatterState {
	case sotparse.FrontmatterAbsent:
		pos := d.File.Pos(0)
		if d.BOM {
			pos = d.File.Pos(3)
		}
		p.Report(analysis.Diagnostic{Pos: pos, End: pos, Category: "missing",
			Message: "document has no frontmatter (want a --- block with " + describeRequired() + ")"})
	case sotparse.FrontmatterOK:
		fm := d.Frontmatter
		if fm == nil {
			return nil
		}
		if len(fm.Fields) == 0 {
			// Unreadable keys or none: run tells, and reports what
			// required does here, on the opening delimiter.
			p.Flag(fm.Pos, fm.Pos+3)
			return noFields{}
		}
		pr := p.Prepared.(*prepared)
		c := &checker{
			report:  p.Report,
			content: func() []byte { return p.Content },
			fixes:   p.Fixes(),
			today:   pr.today,
			reqs:    pr.reqs,
		}
		c.check(d)
	}
	return nil
}

// checker checks one document's frontmatter.
type checker struct {
	report  func(analysis.Diagnostic)
	content func() []byte // the document's text
	fixes   bool          // the run wants suggested fixes
	today   time.Time
	reqs    []requirement
}

func (c *checker) reportf(pos, end token.Pos, category, format string, args ...any) {
	c.report(analysis.Diagnostic{Pos: pos, End: end, Category: category, Message: fmt.Sprintf(format, args...)})
}

func (c *checker) check(d *sotparse.Doc) {
	fm := d.Frontmatter
	c.required(d)
	c.status(d)
	c.dates(d)
	for _, f := range fm.Unknown {
		if f.Duplicate || slices.Contains(allowKeys, f.Key) {
			continue
		}
		msg := fmt.Sprintf("unknown frontmatter key %q", f.Key)
		if k := likelyKey(f.Key); k != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", k)
		}
		c.report(analysis.Diagnostic{Pos: f.KeyPos, End: f.KeyPos + token.Pos(len(f.Key)), Category: "unknown-key", Message: msg})
	}
}

// likelyKey returns the known key that key is a respelling of, or "".
func likelyKey(key string) string {
	norm := strings.ToLower(strings.NewReplacer("-", "_", " ", "_").Replace(strings.TrimSpace(key)))
	for _, k := range sotparse.KnownKeys {
		if k == norm {
			return k
		}
	}
	return ""
}

func describeRequired() string {
	var parts []string
	for _, r := range required {
		parts = append(parts, strings.ReplaceAll(r, "|", " or "))
	}
	if len(parts) == 0 {
		return "the convention's keys"
	}
	return strings.Join(parts, ", ")
}

// requirement is a required key, or keys that stand for each other, and
// the message of a frontmatter without any (made once per run: a legacy
// workspace has hundreds of thousands of them).
type requirement struct {
	alts []string
	msg  string
}

func requirements() []requirement {
	var out []requirement
	for _, req := range required {
		alts := strings.Split(req, "|")
		quoted := make([]string, len(alts))
		for i, k := range alts {
			quoted[i] = fmt.Sprintf("%q", k)
		}
		out = append(out, requirement{alts, "missing required frontmatter key " + strings.Join(quoted, " or ")})
	}
	return out
}

func (c *checker) required(d *sotparse.Doc) {
	fm := d.Frontmatter
	for _, req := range c.reqs {
		alts := req.alts
		present := false
		for _, k := range alts {
			f := fm.Get(k)
			if f == nil {
				continue
			}
			present = true
			if f.Scalar && isEmpty(f) {
				c.reportf(f.KeyPos, f.KeyPos+token.Pos(len(f.Key)), "empty", "required frontmatter key %q has an empty value", f.Key)
			}
		}
		if present {
			continue
		}
		diag := analysis.Diagnostic{Pos: fm.Pos, End: fm.Pos + 3, Category: "required", Message: req.msg}
		if len(alts) == 1 && alts[0] == "core_promotion_status" && c.fixes {
			// Unsafe: "not-promoted" states a classification someone
			// must make; the key's absence does not say it.
			diag.SuggestedFixes = []analysis.SuggestedFix{fixsafety.Unsafe(analysis.SuggestedFix{
				Message:   "add core_promotion_status: not-promoted",
				TextEdits: []analysis.TextEdit{{Pos: fm.Close, End: fm.Close, NewText: []byte("core_promotion_status: not-promoted" + c.eol(d, fm.Close))}},
			})}
		}
		c.report(diag)
	}
}

// isEmpty reports whether the scalar value of f is empty or a YAML null
// ("~", "null"): sotparse keeps the text, not the tag.
func isEmpty(f *sotparse.Field) bool {
	switch strings.TrimSpace(f.Value) {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

// eol returns the line ending of the line before pos: "\r\n" or "\n".
func (c *checker) eol(d *sotparse.Doc, pos token.Pos) string {
	off := d.File.Tok.Offset(pos)
	if off >= 2 && bytes.Equal(c.content()[off-2:off], []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

// valueSpan returns the range of the scalar text of f in the file: the
// value without quotes or a trailing comment where it can be found there,
// otherwise the whole value range.
func (c *checker) valueSpan(d *sotparse.Doc, f *sotparse.Field) (token.Pos, token.Pos) {
	start, end := d.File.Tok.Offset(f.ValuePos), d.File.Tok.Offset(f.ValueEnd)
	if f.Value == "" || start > end || end > d.File.Tok.Size() {
		return f.ValuePos, f.ValueEnd
	}
	if content := c.content(); end <= len(content) {
		if i := bytes.Index(content[start:end], []byte(f.Value)); i >= 0 {
			return f.ValuePos + token.Pos(i), f.ValuePos + token.Pos(i+len(f.Value))
		}
	}
	return f.ValuePos, f.ValueEnd
}

func (c *checker) status(d *sotparse.Doc) {
	f := d.Frontmatter.Status
	if f == nil || !f.Scalar || isEmpty(f) || statuses.Has(f.Value) {
		return
	}
	pos, end := c.valueSpan(d, f)
	lower := strings.ToLower(strings.TrimSpace(f.Value))
	if statuses.Has(lower) {
		diag := analysis.Diagnostic{
			Pos: pos, End: end, Category: "status",
			Message: fmt.Sprintf("frontmatter status %q must be lower-case %q", f.Value, lower),
		}
		if f.Value == string(c.content()[d.File.Tok.Offset(pos):d.File.Tok.Offset(end)]) {
			diag.SuggestedFixes = []analysis.SuggestedFix{{
				Message:   fmt.Sprintf("replace %q with %q", f.Value, lower),
				TextEdits: []analysis.TextEdit{{Pos: pos, End: end, NewText: []byte(lower)}},
			}}
		}
		c.report(diag)
		return
	}
	c.reportf(pos, end, "status", "frontmatter status %q is not in the status vocabulary (%s)", f.Value, strings.Join(statuses.List(), ", "))
}

func (c *checker) dates(d *sotparse.Doc) {
	fm := d.Frontmatter
	at := func(f *sotparse.Field) (token.Pos, token.Pos) { return c.valueSpan(d, f) }
	parse := func(f *sotparse.Field) (time.Time, bool) {
		if f == nil || !f.Scalar || isEmpty(f) {
			return time.Time{}, false
		}
		if isoDate.MatchString(f.Value) {
			if t, err := f.Date(); err == nil {
				return t, true
			}
		}
		pos, end := at(f)
		c.reportf(pos, end, "date", "%s %q is not a valid YYYY-MM-DD date", f.Key, f.Value)
		return time.Time{}, false
	}
	created, okC := parse(fm.Created)
	reviewed, okR := parse(fm.LastReviewed)
	if okC && okR && created.After(reviewed) {
		pos, end := at(fm.LastReviewed)
		c.reportf(pos, end, "date-order", "last_reviewed %s is before created %s", fm.LastReviewed.Value, fm.Created.Value)
	}
	for _, x := range []struct {
		f  *sotparse.Field
		t  time.Time
		ok bool
	}{{fm.Created, created, okC}, {fm.LastReviewed, reviewed, okR}} {
		if x.ok && x.t.After(c.today) {
			pos, end := at(x.f)
			c.reportf(pos, end, "future-date", "%s %s is in the future (today is %s)", x.f.Key, x.f.Value, c.today.Format(time.DateOnly))
		}
	}
}
