package checks

import (
	"slices"
	"sort"
	"sync"

	"github.com/svrnty/sotvet/checks/authority"
	"github.com/svrnty/sotvet/secrets"
)

// categories lists, per check, the categories its findings carry: the
// sub-rules sotvet.yaml can set a severity for as "check/category".
// TestCategoriesDeclared keeps it complete.
var categories = map[string][]string{
	"authority": {"approval-contradiction", "core-authority", "core-promotion", "default-backend",
		"disclaimer-misplaced", "disclaimer-missing", "promotion-status", "runtime-default-activation"},
	"cases": {"contract"},
	"consistency": {"count-mismatch", "date-order", "draft-complete", "duplicate-heading", "record-contradiction",
		"schema-drift", "stale-review"},
	"contradiction": {"approval-timeline", "circular-readiness", "closeout-workboard", "copied-results", "mislabeled-command",
		"misplaced-guard", "missing-id", "provenance", "role", "stale-record", "superseded"},
	"evidence":    {"invalid-evidence", "mismatch", "missing-evidence"},
	"frontmatter": {"date", "date-order", "empty", "future-date", "missing", "required", "status", "syntax", "unknown-key"},
	"glossary":    {"empty-definition", "missing-glossary", "undefined-term"},
	"hygiene":     {"blank-lines", "final-newline", "trailing-spaces"},
	"phrases":     {"missing-phrase", "missing-target"},
	"prose":       {"skipped-rule"},
	"records": {"allowed-path", "credential", "duplicate-entry", "empty-value", "endpoint-value", "forbidden-actions",
		"forbidden-path", "missing-member", "operator-outcome", "path-overlap", "risk-classification", "target-path",
		"timestamp", "unknown-member", "unknown-status", "wrong-type"},
	"refs": {"conflicting-definition", "duplicate-definition", "missing-path", "missing-source", "title-mismatch", "unknown-id"},
	"status": {"blocked-by-open", "doc-status", "remains-blocked", "stale-blocked-by", "stale-issue",
		"stale-other-blocked", "stale-remains-blocked", "unchecked-acceptance", "workboard-mismatch"},
	"structure": {"duplicate-line", "h1", "heading-level", "item-acceptance", "item-status", "missing-section",
		"near-duplicate-line"},
	"syntax":         {"syntax"},
	"workboard":      {"cycle", "duplicate-id", "id-format", "missing-blocker", "missing-source", "schema", "status", "syntax"},
	SuppressionCheck: {"malformed", "no-reason", "unknown-check", "unused"},
}

// secretsRuleIDs are the ids of the secrets engine's default rules, which
// do not change during a process.
var secretsRuleIDs = sync.OnceValue(func() []string {
	var ids []string
	for _, r := range secrets.DefaultRules() {
		ids = append(ids, r.ID)
	}
	return ids
})

// Categories returns the categories the named check's findings can carry,
// sorted: its own, plus those its settings define (the ids of authority's
// claim rules, the secrets engine's rule ids).
func Categories(check string) []string {
	out := slices.Clone(categories[check])
	switch check {
	case "secrets":
		out = append(out, secretsRuleIDs()...)
	case "authority":
		// The ids of the claims setting's rules.
		if a := Lookup("authority"); a != nil {
			if f := a.Flags.Lookup("claims"); f != nil {
				if cs, ok := f.Value.(*authority.ClaimSet); ok {
					for _, c := range cs.Claims() {
						out = append(out, c.ID)
					}
				}
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}
