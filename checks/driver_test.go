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
	"github.com/svrnty/sotvet/checks/registry"
)

// TestAllChecksConcurrently runs every registered check over the sample
// workspace and the real corpus: the driver runs independent checks at the
// same time (go test -race watches them share the workspace), and two runs
// must give the same findings in the same order.
func TestAllChecksConcurrently(t *testing.T) {
	same := func(t *testing.T, dir string) {
		first := checktest.Findings(t, dir, registry.All...)
		again := checktest.Findings(t, dir, registry.All...)
		if !reflect.DeepEqual(first, again) {
			t.Errorf("%s: two runs differ", dir)
		}
	}
	t.Run("sample", func(t *testing.T) { same(t, filepath.Join("..", "testdata", "workspace")) })
	t.Run("corpus", func(t *testing.T) { same(t, checktest.CorpusDir(t)) })
}

// TestSortFindingsStable: findings sort by file, offset, check and message,
// and those equal in all four keep their order, as a stable sort keeps it:
// on random findings, and on findings in runs already sorted, as checks
// report them (SortFindings merges those).
func TestSortFindingsStable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(i int) checks.Finding {
		return checks.Finding{File: string(rune('a' + rng.IntN(3))), Offset: rng.IntN(4), Check: string(rune('x' + rng.IntN(2))), Message: string(rune('m' + rng.IntN(2))), Fingerprint: strconv.Itoa(i)}
	}
	check := func(name string, fs []checks.Finding) {
		t.Helper()
		want := slices.Clone(fs)
		sort.SliceStable(want, func(i, j int) bool { return lessFinding(&want[i], &want[j]) })
		checks.SortFindings(fs)
		if !slices.EqualFunc(fs, want, func(a, b checks.Finding) bool { return a.Fingerprint == b.Fingerprint }) {
			t.Fatalf("%s: SortFindings differs from a stable sort", name)
		}
	}
	sizes, runs := 200, 300
	if raceEnabled {
		sizes, runs = 60, 60 // the race detector sees no goroutine here
	}
	for n := range sizes {
		fs := make([]checks.Finding, n)
		for i := range fs {
			fs[i] = random(i)
		}
		check("random n="+strconv.Itoa(n), fs)
	}
	for k := range runs {
		// Runs of findings sorted but for their order among equals; some
		// short, some long.
		var fs []checks.Finding
		for range rng.IntN(1 + k%70) {
			run := make([]checks.Finding, rng.IntN(1+rng.IntN(200)))
			for i := range run {
				run[i] = random(0)
			}
			slices.SortFunc(run, func(a, b checks.Finding) int {
				if lessFinding(&a, &b) {
					return -1
				}
				if lessFinding(&b, &a) {
					return 1
				}
				return 0
			})
			fs = append(fs, run...)
		}
		for i := range fs {
			fs[i].Fingerprint = strconv.Itoa(i)
		}
		check("runs "+strconv.Itoa(k), fs)
	}
}

func lessFinding(a, b *checks.Finding) bool {
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
}
