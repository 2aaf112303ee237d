package records

import (
	"fmt"
	"go/token"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/sotparse"
)

// Analyzer checks model-provider and target-repository admission records.
var Analyzer = &analysis.Analyzer{
	Name:     "records",
	Doc:      docutil.MustExtract(doc, "records"),
	URL:      "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#records",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run:      run,
}

// valueType is the JSON type a member must have.
type valueType int

const (
	tString valueType = iota
	tStrings
	tBool
)

func (t valueType) String() string {
	switch t {
	case tStrings:
		return "a list of strings"
	case tBool:
		return "a boolean"
	}
	return "a string"
}

// memberRule is the rule table entry of one member of a record kind.
type memberRule struct {
	name string
	typ  valueType
	// nonEmpty: the value must be set whatever the status;
	// nonEmptyAdmitted: it must be set when the record is admitted.
	nonEmpty, nonEmptyAdmitted bool
	enum                       []string // the allowed values, when closed
}

// kindRule is the rule table of one record kind.
type kindRule struct {
	kind    sotparse.RecordKind
	status  string // the member holding the admission status
	members []memberRule
}

func (k *kindRule) member(name string) *memberRule {
	for i := range k.members {
		if k.members[i].name == name {
			return &k.members[i]
		}
	}
	return nil
}

const admitted = "admitted"

// ModelStatuses is the admission status vocabulary of model-provider
// admission (the model provider admission PRD): admitted first, then the
// non-admitted values.
var ModelStatuses = []string{admitted, "missing_admission", "mismatch", "invalid_admission", "not_admitted"}

// TargetStatuses are the admission_status values of the target repository
// admission template.
var TargetStatuses = []string{admitted, "not_admitted"}

// RequiredForbiddenActions are the actions every target-repository
// admission must forbid.
var RequiredForbiddenActions = []string{"push", "merge", "deploy", "close", "pr_open", "issue_close",
	"public_publication", "credential_change", "vendor_source_mutation", "cortex_core_mutation"}

// AdmittedRisk is the only risk classification an admitted target
// repository may have.
const AdmittedRisk = "low_risk_noncritical"

var modelRule = &kindRule{
	kind:   sotparse.RecordModelAdmission,
	status: "status",
	members: []memberRule{
		{name: "status", enum: ModelStatuses},
		{name: "provider", nonEmpty: true},
		{name: "model", nonEmpty: true},
		{name: "credential_source_class", nonEmptyAdmitted: true},
		{name: "allowed_network_class", nonEmptyAdmitted: true},
		{name: "approval_source", nonEmptyAdmitted: true},
		{name: "admission_timestamp", nonEmptyAdmitted: true},
		{name: "review_trigger", nonEmptyAdmitted: true},
	},
}

var targetRule = &kindRule{
	kind:   sotparse.RecordTargetAdmission,
	status: "admission_status",
	members: []memberRule{
		{name: "admission_status", enum: TargetStatuses},
		{name: "target_repository_path", nonEmptyAdmitted: true},
		{name: "repository_owner", nonEmptyAdmitted: true},
		{name: "ownership_evidence", nonEmptyAdmitted: true},
		{name: "risk_classification", nonEmptyAdmitted: true},
		{name: "noncritical_rationale", nonEmptyAdmitted: true},
		{name: "allowed_paths", typ: tStrings, nonEmptyAdmitted: true},
		{name: "forbidden_paths", typ: tStrings, nonEmptyAdmitted: true},
		{name: "forbidden_actions", typ: tStrings},
		{name: "operator_outcome_required", typ: tBool},
		{name: "approval_source", nonEmptyAdmitted: true},
		{name: "approval_timestamp", nonEmptyAdmitted: true},
		{name: "review_trigger", nonEmptyAdmitted: true},
	},
}

var kindRules = []*kindRule{modelRule, targetRule}

func ruleFor(kind sotparse.RecordKind) *kindRule {
	for _, k := range kindRules {
		if k.kind == kind {
			return k
		}
	}
	return nil
}

func run(pass *analysis.Pass) (any, error) {
	ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
	syntax := ws.ProblemsFor("syntax")
	for _, r := range ws.Records {
		if !ws.Focused(r.Path) {
			// A record's findings depend on its own text only; out of
			// focus the driver would drop them.
			continue
		}
		var problems []sotparse.Problem
		for _, p := range syntax {
			if p.Path == r.Path {
				problems = append(problems, p)
			}
		}
		kind, fallback := r.Kind, false
		if kind == sotparse.RecordUnknown {
			if len(problems) > 0 {
				continue // unreadable JSON: the syntax check reports it
			}
			kind, fallback = classify(r), true
		}
		k := ruleFor(kind)
		if k == nil {
			continue
		}
		c := &checker{pass: pass, r: r, k: k, problems: problems}
		c.check(fallback)
	}
	return nil, nil
}

// classify recognises a record sotparse could not: by file name, then by
// model-admission members.
func classify(r *sotparse.Record) sotparse.RecordKind {
	name := strings.ToUpper(path.Base(r.Path))
	switch {
	case strings.Contains(name, "TARGET-REPOSITORY-ADMISSION"):
		return sotparse.RecordTargetAdmission
	case strings.Contains(name, "MODEL-PROVIDER-ADMISSION"):
		return sotparse.RecordModelAdmission
	}
	for _, m := range r.Members {
		switch m.Name {
		case "provider", "model", "credential_source_class", "allowed_network_class", "admission_timestamp":
			return sotparse.RecordModelAdmission
		}
	}
	return sotparse.RecordUnknown
}

type checker struct {
	pass     *analysis.Pass
	r        *sotparse.Record
	k        *kindRule
	problems []sotparse.Problem // syntax problems of the record's file

	strs  map[string]string    // decoded string members
	lists map[string][]element // decoded list members
	bools map[string]bool      // decoded boolean members
}

func (c *checker) report(pos, end token.Pos, category, format string, args ...any) {
	if end < pos {
		end = pos
	}
	c.pass.Report(analysis.Diagnostic{Pos: pos, End: end, Category: category, Message: fmt.Sprintf(format, args...)})
}

// start returns the position of the record's opening brace.
func (c *checker) start() token.Pos {
	b := c.r.File.Content
	i := 0
	for i < len(b) && b[i] != '{' {
		i++
	}
	if i == len(b) {
		i = 0
	}
	return c.r.File.Pos(i)
}

// reportedBySyntax reports whether the syntax check already has a finding
// inside the member (a strict-decoding type error).
func (c *checker) reportedBySyntax(m *sotparse.Member) bool {
	for _, p := range c.problems {
		if p.Pos >= m.Pos && p.Pos <= m.End {
			return true
		}
	}
	return false
}

func (c *checker) check(fallback bool) {
	c.strs, c.lists, c.bools = map[string]string{}, map[string][]element{}, map[string]bool{}
	if fallback {
		for _, m := range c.r.Members {
			if c.k.member(m.Name) == nil {
				c.report(m.Pos, m.End, "unknown-member", "unknown member %s for a %s record", quote(m.Name), c.k.kind)
			}
		}
	}
	var missing []string
	for _, mr := range c.k.members {
		m := c.r.Member(mr.name)
		if m == nil {
			missing = append(missing, mr.name)
			continue
		}
		c.decode(m, mr)
	}
	if len(missing) > 0 {
		c.report(c.start(), c.start(), "missing-member", "%s record has no %s %s", c.k.kind, plural(len(missing), "member"), quoteList(missing))
	}
	status, haveStatus := c.strs[c.k.status]
	isAdmitted := haveStatus && status == admitted
	for _, mr := range c.k.members {
		m := c.r.Member(mr.name)
		if m == nil {
			continue
		}
		c.values(m, &mr, isAdmitted)
	}
	if c.k.kind == sotparse.RecordTargetAdmission {
		c.targetRules(isAdmitted)
	}
	c.credentials()
}

// decode reads a member's value into the checker's maps, reporting a value
// of the wrong type.
func (c *checker) decode(m *sotparse.Member, mr memberRule) {
	kind := m.Value.Kind()
	bad := func(got string) {
		if !c.reportedBySyntax(m) {
			c.report(m.ValuePos, m.End, "wrong-type", "member %s is %s; want %s", quote(m.Name), got, mr.typ)
		}
	}
	if kind == 'n' {
		bad("null")
		return
	}
	switch mr.typ {
	case tString:
		var s string
		if kind != '"' || json.Unmarshal(m.Value, &s) != nil {
			bad(kindName(kind))
			return
		}
		c.strs[m.Name] = s
	case tBool:
		if kind != 't' && kind != 'f' {
			bad(kindName(kind))
			return
		}
		c.bools[m.Name] = kind == 't'
	case tStrings:
		els, ok := elements(m.Value)
		if kind != '[' || !ok {
			bad(kindName(kind))
			return
		}
		var out []element
		for _, e := range els {
			if e.raw.Kind() != '"' || json.Unmarshal(e.raw, &e.s) != nil {
				if !c.reportedBySyntax(m) {
					p := m.ValuePos + token.Pos(e.off)
					c.report(p, p+token.Pos(len(e.raw)), "wrong-type", "%s entry is %s; want a string", m.Name, kindName(e.raw.Kind()))
				}
				continue
			}
			out = append(out, e)
		}
		c.lists[m.Name] = out
	}
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case '{':
		return "an object"
	case '[':
		return "a list"
	case 'n':
		return "null"
	}
	return "not a JSON value"
}

// values applies the per-member rules: emptiness, vocabulary, timestamps.
func (c *checker) values(m *sotparse.Member, mr *memberRule, isAdmitted bool) {
	s, isStr := c.strs[m.Name]
	list, isList := c.lists[m.Name]
	if !isStr && !isList {
		if _, ok := c.bools[m.Name]; !ok {
			return // wrong type, already reported
		}
	}
	empty := (isStr && isEmpty(s)) || (isList && len(list) == 0)
	if empty && (mr.nonEmpty || (mr.nonEmptyAdmitted && isAdmitted)) && mr.enum == nil {
		what := "empty"
		if isStr && strings.TrimSpace(s) != "" {
			what = "a placeholder (" + quote(s) + ")"
		}
		if mr.nonEmpty {
			c.report(m.ValuePos, m.End, "empty-value", "member %s is %s; a %s record must name it", quote(m.Name), what, c.k.kind)
		} else {
			c.report(m.ValuePos, m.End, "empty-value", "member %s is %s but the record is admitted", quote(m.Name), what)
		}
	}
	if mr.enum != nil && isStr && !slices.Contains(mr.enum, s) {
		if s == "" {
			c.report(m.ValuePos, m.End, "unknown-status", "%s is empty; want %s", m.Name, orList(mr.enum))
		} else {
			c.report(m.ValuePos, m.End, "unknown-status", "%s %s is not a %s status; want %s", m.Name, quote(s), c.k.kind, orList(mr.enum))
		}
	}
	if !isStr || strings.TrimSpace(s) == "" || isPlaceholder(s) {
		return
	}
	switch m.Name {
	case "admission_timestamp":
		if msg := checkTimestamp(s, false); msg != "" {
			c.report(m.ValuePos, m.End, "timestamp", "admission_timestamp %s %s", quote(s), msg)
		}
	case "approval_timestamp":
		if msg := checkTimestamp(s, true); msg != "" {
			c.report(m.ValuePos, m.End, "timestamp", "approval_timestamp %s %s", quote(s), msg)
		}
	}
}

// checkTimestamp returns why s is not an RFC 3339 timestamp with a zone (or,
// when dateOK, a YYYY-MM-DD date), or "".
func checkTimestamp(s string, dateOK bool) string {
	if _, err := time.Parse(time.RFC3339, s); err == nil {
		return ""
	}
	if _, err := time.Parse(time.DateOnly, s); err == nil {
		if dateOK {
			return ""
		}
		return "is a date without a time; want an RFC 3339 timestamp with a time zone such as 2026-05-31T00:00:00-04:00"
	}
	if _, err := time.Parse("2006-01-02T15:04:05.999999999", s); err == nil {
		return "has no time zone; want an RFC 3339 timestamp with a time zone such as 2026-05-31T00:00:00-04:00"
	}
	if dateOK {
		return "is neither a date (YYYY-MM-DD) nor an RFC 3339 timestamp"
	}
	return "is not an RFC 3339 timestamp with a time zone such as 2026-05-31T00:00:00-04:00"
}

// placeholders are values that stand for a missing one.
var placeholders = []string{"tbd", "todo", "fixme", "xxx", "...", "…", "?", "-", "n/a"}

// isEmpty reports whether a string value is empty or a placeholder.
func isEmpty(s string) bool {
	return strings.TrimSpace(s) == "" || isPlaceholder(s)
}

func isPlaceholder(s string) bool {
	t := strings.ToLower(strings.TrimSpace(s))
	if slices.Contains(placeholders, t) {
		return true
	}
	return (strings.HasPrefix(t, "<") && strings.HasSuffix(t, ">")) ||
		(strings.HasPrefix(t, "${") && strings.HasSuffix(t, "}")) ||
		(strings.HasPrefix(t, "{{") && strings.HasSuffix(t, "}}"))
}

// targetRules applies the target-repository rules that span members.
func (c *checker) targetRules(isAdmitted bool) {
	if m := c.r.Member("target_repository_path"); m != nil {
		if s, ok := c.strs[m.Name]; ok && !isEmpty(s) && !path.IsAbs(s) {
			c.report(m.ValuePos, m.End, "target-path", "target_repository_path %s is not an absolute path", quote(s))
		}
	}
	if m := c.r.Member("risk_classification"); m != nil && isAdmitted {
		if s, ok := c.strs[m.Name]; ok && s != AdmittedRisk && !isEmpty(s) {
			c.report(m.ValuePos, m.End, "risk-classification", "risk_classification is %s but an admitted target repository must be %s", quote(s), quote(AdmittedRisk))
		}
	}
	if m := c.r.Member("operator_outcome_required"); m != nil {
		if v, ok := c.bools[m.Name]; ok && !v {
			c.report(m.ValuePos, m.End, "operator-outcome", "operator_outcome_required is false; it must be true")
		}
	}
	for _, name := range []string{"allowed_paths", "forbidden_paths", "forbidden_actions"} {
		c.duplicates(name)
	}
	allowed := c.paths("allowed_paths", "allowed-path", true)
	forbidden := c.paths("forbidden_paths", "forbidden-path", false)
	for _, a := range allowed {
		for _, f := range forbidden {
			if rel := overlap(a, f); rel != "" {
				c.report(a.pos, a.end, "path-overlap", "allowed path %s %s %s", quote(a.raw), rel, quote(f.raw))
			}
		}
	}
	c.actions()
}

// duplicates reports repeated entries of a list member.
func (c *checker) duplicates(name string) {
	m := c.r.Member(name)
	seen := map[string]bool{}
	for _, e := range c.lists[name] {
		if seen[e.s] {
			p := m.ValuePos + token.Pos(e.off)
			c.report(p, p+token.Pos(len(e.raw)), "duplicate-entry", "%s lists %s more than once", name, quote(e.s))
		}
		seen[e.s] = true
	}
}

// actions reports required forbidden actions that are missing.
func (c *checker) actions() {
	m := c.r.Member("forbidden_actions")
	list, ok := c.lists["forbidden_actions"]
	if m == nil || !ok {
		return
	}
	var missing, hints []string
	for _, want := range RequiredForbiddenActions {
		found := false
		var near string
		for _, e := range list {
			if e.s == want {
				found = true
				break
			}
			if normAction(e.s) == want && near == "" {
				near = e.s
			}
		}
		if found {
			continue
		}
		missing = append(missing, want)
		if near != "" {
			hints = append(hints, fmt.Sprintf("%s is written %s", quote(near), quote(want)))
		}
	}
	if len(missing) == 0 {
		return
	}
	msg := fmt.Sprintf("forbidden_actions does not forbid %s", strings.Join(missing, ", "))
	if len(hints) > 0 {
		msg += " (" + strings.Join(hints, "; ") + ")"
	}
	c.report(m.ValuePos, m.End, "forbidden-actions", "%s", msg)
}

// normAction lower-cases an action and writes spaces and hyphens as
// underscores: "PR open" -> "pr_open".
func normAction(s string) string {
	return strings.NewReplacer(" ", "_", "-", "_").Replace(strings.ToLower(strings.TrimSpace(s)))
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// quote quotes a value for a message: shortened when long, and withheld
// when it looks like a credential.
func quote(s string) string {
	if credentialFormat(s) != "" {
		return "(a value that looks like a credential)"
	}
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "..."
	}
	return fmt.Sprintf("%q", s)
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quote(n)
	}
	return andList(q)
}

func andList(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func orList(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}
