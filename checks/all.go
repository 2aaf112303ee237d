package checks

import (
	"slices"
	"sort"

	proseengine "github.com/svrnty/sotvet/prose"
	"golang.org/x/tools/go/analysis"
)

// registered are the checks the process knows by name, in name order:
// those the registry package registers (checks/registry), every check
// sotvet has once it is imported. The driver does not import the checks
// itself, so that a binary linking it, such as one check's tests, links
// only the checks it uses.
var registered []*analysis.Analyzer

// Register adds checks to those Lookup, Select and the code lists know.
// It is for package initialization (the registry's init), before any run.
func Register(as ...*analysis.Analyzer) {
	for _, a := range as {
		if Lookup(a.Name) == nil {
			registered = append(registered, a)
		}
	}
	sort.Slice(registered, func(i, j int) bool { return registered[i].Name < registered[j].Name })
}

// Registered returns the registered checks, in name order.
func Registered() []*analysis.Analyzer { return slices.Clone(registered) }

// DefaultSeverity maps "check" or "check/category" to the severity its
// findings have unless the configuration says otherwise; anything not listed
// is an error.
var DefaultSeverity = map[string]Severity{
	SuppressionCheck + "/unused": SeverityWarning,
	"frontmatter/unknown-key":    SeverityWarning,
	"refs/duplicate-definition":  SeverityWarning,
	"evidence/missing-evidence":  SeverityWarning,
	// Staleness: an older statement the workspace has since overtaken.
	"status/stale-issue":           SeverityWarning,
	"status/stale-remains-blocked": SeverityWarning,
	"status/stale-blocked-by":      SeverityWarning,
	"status/stale-other-blocked":   SeverityWarning,
	"status/stale-blocker":         SeverityWarning,
	// A validated result whose own validation is recorded as not run.
	"status/pending-validation": SeverityWarning,
	// Whitespace never changes what a document says.
	"hygiene": SeverityWarning,
	// A provider-prefixed token in a format its provider's rule does not
	// expect: likely a secret, possibly a mangled or made-up one.
	"secrets/prefixed-token": SeverityWarning,
	// A vendor's prefix alone, with no provider name on the line or at a
	// length the provider's rule does not take: as likely, no surer.
	"secrets/vendor-token": SeverityWarning,
	// A Sentry DSN can only send events; Sentry ships it in browser code.
	"secrets/sentry-dsn": SeverityWarning,
	// Contradictions between statements of one document, or with its kind's
	// schema, that leave the reader a way to the truth; a repeated heading
	// and a contradicted record are errors.
	"consistency/draft-complete": SeverityWarning,
	"consistency/stale-review":   SeverityWarning,
	"consistency/date-order":     SeverityWarning,
	"consistency/count-mismatch": SeverityWarning,
	"consistency/schema-drift":   SeverityWarning,
	// A stale attempt and a gap in the ids leave the reader a way to the
	// truth; the other contradictions do not.
	"contradiction/superseded": SeverityWarning,
	"contradiction/missing-id": SeverityWarning,
	// Heuristics: equal counts for two commits are the mark of a copied
	// section ("rarely"), not proof of one; a warning, since the counts may
	// really be equal.
	"contradiction/copied-results": SeverityWarning,
	// A proof's approval source given two ways: the document may say why.
	"contradiction/provenance": SeverityWarning,
	// A pasted guard misnames the document; what it guards still holds.
	"contradiction/misplaced-guard":    SeverityWarning,
	"contradiction/mislabeled-command": SeverityWarning,
	// Saying one thing twice in other words is a smell, not a contradiction.
	"structure/near-duplicate-line": SeverityWarning,
	// A rule the prose check cannot run is said once, and fails nothing.
	// (checks/prose's SkippedRule; the registry's tests keep them equal.)
	"prose/skipped-rule": SeverityNote,
}

// ruleSeverity is the default severity of a finding whose check sets it
// per rule and file, and its category as the finding shows it: a prose
// finding's category carries its alert's level (a suggestion is a note),
// since a configuration may give a rule one level in one file and
// another in the next.
func ruleSeverity(check, category string) (string, Severity, bool) {
	if check != "prose" {
		return category, "", false
	}
	rule, l, ok := proseengine.SplitCategory(category)
	switch {
	case !ok:
		return category, "", false
	case l == proseengine.Error:
		return rule, SeverityError, true
	case l == proseengine.Warning:
		return rule, SeverityWarning, true
	}
	return rule, SeverityNote, true
}

// shownCategory is category as a finding shows it: a prose finding's
// without its level.
func shownCategory(check, category string) string {
	category, _, _ = ruleSeverity(check, category)
	return category
}

// OpenCategory reports whether check's categories are not fixed but named
// by the team's own rules (prose: Style.Rule), so that any such name may be
// configured.
func OpenCategory(check, category string) bool {
	return check == "prose" && proseengine.IsRuleName(category)
}

// Lookup returns the registered check with the given name, or nil.
func Lookup(name string) *analysis.Analyzer {
	for _, a := range registered {
		if a.Name == name {
			return a
		}
	}
	return nil
}
