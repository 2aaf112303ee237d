package checks

import (
	"testing"

	"golang.org/x/tools/go/analysis"
)

// A suppression may name a check the run runs that no registry lists (a
// check's tests link it alone).
func TestKnownRunning(t *testing.T) {
	known := knownRunning([]*analysis.Analyzer{{Name: "unlisted"}})
	for name, want := range map[string]bool{
		"unlisted":           true,
		"unlisted/anything":  false, // no category of its own
		"unlisted2":          false,
		"suppression/unused": true,
	} {
		if got := known(name); got != want {
			t.Errorf("known(%q) = %v, want %v", name, got, want)
		}
	}
}
