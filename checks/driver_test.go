package checks_test

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
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

// TestSortFindingsStable: findings sort by file, offset, check and message,
// and those equal in all four keep their order, as a stable sort keeps it.
func TestSortFindingsStable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 200 {
		fs := make([]checks.Finding, n)
		for i := range fs {
			fs[i] = checks.Finding{File: string(rune('a' + rng.IntN(3))), Offset: rng.IntN(4), Check: string(rune('x' + rng.IntN(2))), Message: string(rune('m' + rng.IntN(2))), Fingerprint: strconv.Itoa(i)}
		}
		want := slices.Clone(fs)
		sort.SliceStable(want, func(i, j int) bool {
			a, b := want[i], want[j]
			if a.File != b.File {
				return a.File < b.File
			}
			if a.Offset != b.Offset {
				return a.Offset < b.Offset
			}
			if a.Check != b.Check {
				return a.Check < b.Check
			}
			return a.Message < b.Message
		})
		checks.SortFindings(fs)
		if !slices.EqualFunc(fs, want, func(a, b checks.Finding) bool { return a.Fingerprint == b.Fingerprint }) {
			t.Fatalf("n=%d: SortFindings differs from a stable sort", n)
		}
	}
}
