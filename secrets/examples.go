package secrets

import (
	_ "embed"
	"strings"
	"sync"
)

//go:embed published_examples.txt
var publishedExamplesFile string

// publishedExamples is the set of values no rule reports: those listed in
// published_examples.txt and the literal values of gitleaks rule
// allowlists (such as its Firebase SDK sample keys).
var publishedExamples = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Split(publishedExamplesFile, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			m[l] = true
		}
	}
	loadGitleaks()
	for _, r := range gitleaks.set.Rules {
		for _, a := range r.Allowlists {
			if a.RegexTarget != "" && a.RegexTarget != "secret" || a.Condition == "AND" {
				continue
			}
			for _, re := range a.Regexes {
				if literalValueRE.MatchString(re) {
					m[re] = true
				}
			}
		}
	}
	return m
})

// literalValueRE matches an allowlist expression that is a plain value
// (no metacharacter), such as a published sample key.
var literalValueRE = lazyRE.New(`^[A-Za-z0-9_-]{16,}$`)

// IsPublishedExample reports whether v is a value a provider publishes as
// an example (see published_examples.txt).
func IsPublishedExample(v []byte) bool { return publishedExamples()[string(v)] }
