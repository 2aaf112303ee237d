package secrets

import (
	"strings"
	"testing"

	"github.com/svrnty/sotvet/secrets/internal/gitleaksrules"
)

// TestLazyGateSameVerdicts: every imported rule's gate, built on its first
// call, passes exactly the keyword hits the gate built from its expression
// at load passes, in texts that put each keyword inside a word, at a word
// or name start, before an operator and at the text's start.
func TestLazyGateSameVerdicts(t *testing.T) {
	byID := map[string]*Rule{}
	for _, r := range append(GitleaksRules(), ThirdPartyRules()...) {
		byID[r.ID] = r
	}
	checked := 0
	for _, set := range append([]*gitleaksrules.Set{gitleaksSet}, thirdPartySets...) {
		for _, gr := range set.Rules {
			r := byID[gr.ID]
			if r == nil || r.Source == "" || !strings.HasPrefix(r.Source, sourceName(set.Module)) {
				continue
			}
			eager := gitleaksGate(gr.Regex, gr.Keywords)
			if set.Module != "github.com/zricethezav/gitleaks/v8" {
				eager = andGate(eager, nameStartGate(gr.Regex, gr.Keywords))
			}
			for _, k := range gr.Keywords {
				for _, text := range []string{k, k + " = 'x'", "rook" + k + "table", "my_" + strings.ToUpper(k) + "_KEY: v", "a" + k + "Key => v", "x " + k + `" : "v"`} {
					i := strings.Index(strings.ToLower(text), strings.ToLower(k)) + len(k) - 1
					want := eager == nil || eager([]byte(text), i)
					if got := r.Gate([]byte(text), i); got != want {
						t.Fatalf("%s: keyword %q in %q: lazy gate %v, gate built at load %v", gr.ID, k, text, got, want)
					}
					checked++
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("%d hits checked: the rules were not found", checked)
	}
}

// TestLazyGateBuildsOnce: the gate is built on its first call, not before,
// and once.
func TestLazyGateBuildsOnce(t *testing.T) {
	builds := 0
	g := lazyGate(func() func([]byte, int) bool {
		builds++
		return func(data []byte, i int) bool { return data[i] == '=' }
	})
	if builds != 0 {
		t.Fatal("built before its first call")
	}
	if g([]byte("a="), 0) || !g([]byte("a="), 1) || builds != 1 {
		t.Fatalf("verdicts wrong or %d builds", builds)
	}
	if !lazyGate(func() func([]byte, int) bool { return nil })(nil, 0) {
		t.Fatal("a nil gate must pass")
	}
}
