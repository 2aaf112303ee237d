// Package registry lists every check sotvet has. It is apart from the
// driver (package checks) so that a binary linking the driver, such as a
// check's own tests, does not link every check: importing registry
// registers them all with the driver (checks.Register).
package registry

import (
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/authority"
	"github.com/svrnty/sotvet/checks/cases"
	"github.com/svrnty/sotvet/checks/consistency"
	"github.com/svrnty/sotvet/checks/contradiction"
	"github.com/svrnty/sotvet/checks/evidence"
	"github.com/svrnty/sotvet/checks/frontmatter"
	"github.com/svrnty/sotvet/checks/glossary"
	"github.com/svrnty/sotvet/checks/hygiene"
	"github.com/svrnty/sotvet/checks/internal/vocab"
	"github.com/svrnty/sotvet/checks/phrases"
	"github.com/svrnty/sotvet/checks/prose"
	"github.com/svrnty/sotvet/checks/records"
	"github.com/svrnty/sotvet/checks/refs"
	"github.com/svrnty/sotvet/checks/secrets"
	"github.com/svrnty/sotvet/checks/status"
	"github.com/svrnty/sotvet/checks/structure"
	"github.com/svrnty/sotvet/checks/syntax"
	"github.com/svrnty/sotvet/checks/workboard"
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

func init() { checks.Register(All...) }

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

// Schema is what the checks, as configured now, accept in a workspace:
// editors complete frontmatter and workboard values from it.
type Schema struct {
	Statuses         []string // the status vocabulary, configured extras included
	AllowedPromotion []string // allowed values of core_promotion_status
	RequiredKeys     []string // frontmatter keys a document must have ("a|b": either)
}

// CurrentSchema reads the schema from the checks' flags: call it after a
// configuration's settings are applied.
func CurrentSchema() Schema {
	s := Schema{Statuses: slices.Clone(vocab.Base)}
	if f := workboard.Analyzer.Flags.Lookup(vocab.FlagName); f != nil {
		s.Statuses = append(s.Statuses, splitComma(f.Value.String())...)
	}
	if f := authority.Analyzer.Flags.Lookup("allowed-promotion"); f != nil {
		s.AllowedPromotion = splitComma(f.Value.String())
	}
	if f := frontmatter.Analyzer.Flags.Lookup("require"); f != nil {
		s.RequiredKeys = splitComma(f.Value.String())
	}
	return s
}

func splitComma(v string) []string {
	var out []string
	for _, w := range strings.Split(v, ",") {
		if w = strings.TrimSpace(w); w != "" {
			out = append(out, w)
		}
	}
	return out
}
