package checks

import (
	proseengine "github.com/svrnty/sotvet/prose"
	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/authority"
	"github.com/svrnty/sotvet/checks/cases"
	"github.com/svrnty/sotvet/checks/consistency"
	"github.com/svrnty/sotvet/checks/contradiction"
	"github.com/svrnty/sotvet/checks/evidence"
	"github.com/svrnty/sotvet/checks/frontmatter"
	"github.com/svrnty/sotvet/checks/glossary"
	"github.com/svrnty/sotvet/checks/hygiene"
	"github.com/svrnty/sotvet/checks/phrases"
	"github.com/svrnty/sotvet/checks/prose"
	"github.com/svrnty/sotvet/checks/records"
	"github.com/svrnty/sotvet/checks/refs"
	"github.com/svrnty/sotvet/checks/secrets"
	"github.com/svrnty/sotvet/checks/status"
	"github.com/svrnty/sotvet/checks/structure"
	"github.com/svrnty/sotvet/checks/syntax"
	"github.com/svrnty/sotvet/checks/workboard"
	"github.com/svrnty/sotvet/sotparse"
)

// All is the registry: every check sotvet has, in name order.
var All = []*analysis.Analyzer{
	authority.Analyzer,
	cases.Analyzer,
	consistency.Analyzer,
	contradiction.Analyzer,
	evidence.Analyzer,
	frontmatter.Analyzer,
	glossary.Analyzer,
	hygiene.Analyzer,
	phrases.Analyzer,
	prose.Analyzer,
	records.Analyzer,
	refs.Analyzer,
	secrets.Analyzer,
	status.Analyzer,
	structure.Analyzer,
	syntax.Analyzer,
	workboard.Analyzer,
}

// docChecks are the parts of the checks that read one document at a time:
// the driver has the parse run them as it parses each document
// (sotparse.Stream), so that a run can let each text go once they have
// read it. A check missing here finds the same, reading texts back.
var docChecks = map[*analysis.Analyzer]*sotparse.DocCheck{
	authority.Analyzer:     authority.DocCheck,
	consistency.Analyzer:   consistency.DocCheck,
	contradiction.Analyzer: contradiction.DocCheck,
	frontmatter.Analyzer:   frontmatter.DocCheck,
	glossary.Analyzer:      glossary.DocCheck,
	hygiene.Analyzer:       hygiene.DocCheck,
	prose.Analyzer:         prose.DocCheck,
	refs.Analyzer:          refs.DocCheck,
	secrets.Analyzer:       secrets.DocCheck,
	status.Analyzer:        status.DocCheck,
	structure.Analyzer:     structure.DocCheck,
}

// DocumentLocal names the checks whose findings in a file follow from that
// file's own text and the configuration alone: a run over the file by
// itself finds in it what a run over the whole workspace finds there (no
// other document, workboard, record or glossary is read). An editor shows
// them before the workspace is loaded; a check that reads any other file
// must not be listed (lsp's TestEarlyIsSubset checks the list on real
// documents).
var DocumentLocal = map[string]bool{
	frontmatter.Analyzer.Name: true,
	hygiene.Analyzer.Name:     true,
	secrets.Analyzer.Name:     true,
	structure.Analyzer.Name:   true,
	syntax.Analyzer.Name:      true,
}

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
	"prose/" + prose.SkippedRule: SeverityNote,
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
	for _, a := range All {
		if a.Name == name {
			return a
		}
	}
	return nil
}
