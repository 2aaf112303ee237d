// Package vocab holds the status vocabulary shared by the checks.
package vocab

import (
	"slices"
	"strings"
)

// Base is the status vocabulary of the workspace convention.
var Base = []string{"draft", "candidate", "validated", "blocked"}

// Statuses is a flag.Value: the base vocabulary plus configured extras,
// given as a comma-separated list.
type Statuses struct{ extra []string }

func (s *Statuses) String() string { return strings.Join(s.extra, ",") }

// Set replaces the extra statuses.
func (s *Statuses) Set(v string) error {
	s.extra = nil
	for _, w := range strings.Split(v, ",") {
		if w = strings.TrimSpace(w); w != "" {
			s.extra = append(s.extra, w)
		}
	}
	return nil
}

// Has reports whether status is in the vocabulary.
func (s *Statuses) Has(status string) bool {
	return slices.Contains(Base, status) || slices.Contains(s.extra, status)
}

// List returns the whole vocabulary.
func (s *Statuses) List() []string { return append(slices.Clone(Base), s.extra...) }

// FlagName is the per-check flag every status-aware check defines.
const FlagName = "extra-statuses"
