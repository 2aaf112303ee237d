package checks_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
)

// TestAllChecksConcurrently runs every registered check over the sample
// workspace and the real corpus: the driver runs independent checks at the
// same time (go test -race watches them share the workspace), and two runs
// must give the same findings in the same order.
func TestAllChecksConcurrently(t *testing.T) {
	same := func(t *testing.T, dir string) {
		first := checktest.Findings(t, dir, checks.All...)
		again := checktest.Findings(t, dir, checks.All...)
		if !reflect.DeepEqual(first, again) {
			t.Errorf("%s: two runs differ", dir)
		}
	}
	t.Run("sample", func(t *testing.T) { same(t, filepath.Join("..", "testdata", "workspace")) })
	t.Run("corpus", func(t *testing.T) { same(t, checktest.CorpusDir(t)) })
}
