// Package doccheck pairs each check with its per-document part: a check
// package registers its sotparse.DocCheck here, so that the driver finds it
// for any check it runs without importing the checks (a binary that links
// one check, such as that check's tests, pairs that one).
package doccheck

import (
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/sotparse"
)

var (
	mu         sync.RWMutex
	byAnalyzer = map[*analysis.Analyzer]*sotparse.DocCheck{}
)

// Register records dc as the per-document part of a. Check packages call
// it from init.
func Register(a *analysis.Analyzer, dc *sotparse.DocCheck) {
	mu.Lock()
	defer mu.Unlock()
	byAnalyzer[a] = dc
}

// Of returns a's per-document part, or nil if it has none.
func Of(a *analysis.Analyzer) *sotparse.DocCheck {
	mu.RLock()
	defer mu.RUnlock()
	return byAnalyzer[a]
}

// All returns every registered pairing, for tests.
func All() map[*analysis.Analyzer]*sotparse.DocCheck {
	mu.RLock()
	defer mu.RUnlock()
	out := make(map[*analysis.Analyzer]*sotparse.DocCheck, len(byAnalyzer))
	for a, dc := range byAnalyzer {
		out[a] = dc
	}
	return out
}
