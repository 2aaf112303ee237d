package checks

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/internal/didyoumean"
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
	"status": {"blocked-by-open", "doc-status", "pending-validation", "remains-blocked", "stale-blocked-by", "stale-blocker", "stale-issue",
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
				if cs, ok := f.Value.(interface{ IDs() []string }); ok {
					out = append(out, cs.IDs()...)
				}
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// KnownCode reports whether name is a check, the driver's suppression
// pseudo-check, or a check/category of either.
func KnownCode(name string) bool {
	check, cat, hasCat := strings.Cut(name, "/")
	if Lookup(check) == nil && check != SuppressionCheck {
		return false
	}
	return !hasCat || slices.Contains(Categories(check), cat) || OpenCategory(check, cat)
}

// Codes returns every check name and every check/category code, sorted.
func Codes() []string {
	var out []string
	for _, a := range registered {
		out = append(out, a.Name)
		for _, c := range Categories(a.Name) {
			out = append(out, a.Name+"/"+c)
		}
	}
	out = append(out, SuppressionCheck)
	for _, c := range Categories(SuppressionCheck) {
		out = append(out, SuppressionCheck+"/"+c)
	}
	sort.Strings(out)
	return out
}

// CodeHint returns " (did you mean X?)" for the known check or code
// closest to an unknown name, or "".
func CodeHint(name string) string {
	return didyoumean.Hint(name, Codes())
}

// Select returns the analyzers that run and the severities findings get
// for an enable and a disable list (from sotvet.yaml or the command line)
// and the configured severities sev (which it does not change). Each name
// is a check or a check/category code: enabling only some categories of a
// check runs the check and silences its other categories; disabling a
// category sets its severity to off.
func Select(enable, disable []string, sev map[string]Severity) ([]*analysis.Analyzer, map[string]Severity, error) {
	for _, name := range append(slices.Clone(enable), disable...) {
		if !KnownCode(name) {
			what := "check"
			if check, _, ok := strings.Cut(name, "/"); ok && (Lookup(check) != nil || check == SuppressionCheck) {
				what = "category"
			}
			return nil, nil, fmt.Errorf("unknown %s %q%s (see 'sotvet checks')", what, name, CodeHint(name))
		}
	}
	out := make(map[string]Severity, len(sev))
	for k, v := range sev {
		out[k] = v
	}
	enabled := map[string]bool{}      // checks enabled whole
	onlyCats := map[string][]string{} // checks enabled by some categories only
	for _, name := range enable {
		check, cat, ok := strings.Cut(name, "/")
		if !ok {
			enabled[check] = true
		} else {
			onlyCats[check] = append(onlyCats[check], cat)
		}
	}
	for check, cats := range onlyCats {
		if enabled[check] {
			continue
		}
		for _, cat := range cats {
			out[check+"/"+cat] = SeverityFor(check, cat, sev)
		}
		out[check] = SeverityOff
	}
	var analyzers []*analysis.Analyzer
	for _, a := range registered {
		if len(enable) > 0 && !enabled[a.Name] && onlyCats[a.Name] == nil {
			continue
		}
		if slices.Contains(disable, a.Name) {
			continue
		}
		analyzers = append(analyzers, a)
	}
	for _, name := range disable {
		if strings.Contains(name, "/") {
			out[name] = SeverityOff
		} else if name == SuppressionCheck {
			out[name] = SeverityOff
		}
	}
	if len(analyzers) == 0 {
		return nil, nil, errors.New("no checks enabled")
	}
	return analyzers, out, nil
}

// categoryDocs describes the categories whose check's Doc has no list
// item of their own.
var categoryDocs = map[string]string{
	"cases/contract":            "contract: a problem in a harness case's task contract (case.yaml), found as 'sotvet harness run' finds it before a run.",
	"syntax/syntax":             "syntax: a file sotvet cannot parse (malformed YAML frontmatter, WORKBOARD.yaml or JSON record), at the position the parser gives.",
	"records/endpoint-value":    "endpoint-value: a record member holding a provider endpoint written as a value; endpoints come from the environment.",
	"suppression/malformed":     "malformed: a sotvet:ignore comment that names no check (want <!-- sotvet:ignore CHECK[/CATEGORY] -- reason -->).",
	"suppression/no-reason":     "no-reason: a sotvet:ignore comment without '-- reason'; it suppresses nothing.",
	"suppression/unknown-check": "unknown-check: a sotvet:ignore comment naming a check or check/category that does not exist.",
	"suppression/unused":        "unused (warning): a sotvet:ignore comment that suppresses no finding of a check that ran; remove it.",
}

// CategoryDoc returns the paragraph of check's documentation that
// describes category: the Doc's "- category (severity): ..." list item
// (which may name several categories, comma-separated), unwrapped into one
// paragraph; "" when there is none.
func CategoryDoc(check, category string) string {
	if d, ok := categoryDocs[check+"/"+category]; ok {
		return d
	}
	if check == "secrets" {
		for _, r := range secrets.DefaultRules() {
			if r.ID == category {
				return category + ": a secret in the text (" + r.Description + "); the value is never printed."
			}
		}
	}
	a := Lookup(check)
	if a == nil {
		return ""
	}
	lines := strings.Split(a.Doc, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		item, ok := strings.CutPrefix(t, "- ")
		if !ok {
			continue
		}
		head, _, ok := strings.Cut(item, ":")
		if !ok || !slices.ContainsFunc(strings.Split(head, ","), func(n string) bool {
			n, _, _ = strings.Cut(strings.TrimSpace(n), " (")
			return n == category
		}) {
			continue
		}
		indent := len(l) - len(strings.TrimLeft(l, " \t"))
		para := []string{item}
		for _, m := range lines[i+1:] {
			mi := len(m) - len(strings.TrimLeft(m, " \t"))
			if strings.TrimSpace(m) == "" || mi <= indent {
				break
			}
			para = append(para, strings.TrimSpace(m))
		}
		return strings.Join(para, " ")
	}
	return ""
}
