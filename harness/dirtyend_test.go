package harness_test

import (
	"os"
	"testing"

	"github.com/svrnty/sotvet/harness/evidence"
)

// TestDirtyEndOnEveryCase: the dirty-end fixture ends with
// dirty_ending_tree on every shipped case, whatever the case allows. The
// case TestFixtures runs every fixture on (fixturesCase) is not run again
// here: its dirty-end run is TestFixtures/dirty-end, which asserts all
// this and more.
func TestDirtyEndOnEveryCase(t *testing.T) {
	ents, err := os.ReadDir(casesDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !e.IsDir() || e.Name() == fixturesCase {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			t.Parallel()
			opt := options(t, e.Name())
			opt.Fixture = "dirty-end"
			r := run(t, opt).Report
			if r.Status != evidence.StatusFail || len(r.Blockers) != 1 || r.Blockers[0].Code != evidence.DirtyEndingTree || !r.TestsPassed {
				t.Errorf("status %s tests passed %v blockers %+v", r.Status, r.TestsPassed, r.Blockers)
			}
		})
	}
}
