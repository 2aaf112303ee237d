package secrets

import (
	_ "embed"
	"regexp/syntax"
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
				if v, ok := literalValue(re); ok {
					m[v] = true
				}
			}
		}
	}
	return m
})

// literalValue returns the value an allowlist expression matches when it
// is a plain value of eight or more bytes, such as a published sample key
// or password (hal\+9ooo_da!sY, from NuGet's documentation).
func literalValue(re string) (string, bool) {
	t, err := syntax.Parse(re, syntax.Perl)
	if err != nil || t.Op != syntax.OpLiteral || t.Flags&syntax.FoldCase != 0 || len(t.Rune) < 8 {
		return "", false
	}
	return string(t.Rune), true
}

// IsPublishedExample reports whether v is a value a provider publishes as
// an example (see published_examples.txt).
func IsPublishedExample(v []byte) bool { return publishedExamples()[string(v)] }
