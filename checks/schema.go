package checks

import (
	"slices"
	"strings"

	"github.com/svrnty/sotvet/checks/authority"
	"github.com/svrnty/sotvet/checks/frontmatter"
	"github.com/svrnty/sotvet/checks/internal/vocab"
	"github.com/svrnty/sotvet/checks/workboard"
)

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
