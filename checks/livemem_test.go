package checks_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
)

// liveAtPeak runs the default checks over dir as `sotvet check` does (texts
// released, model forgotten, no fixes) and returns the live heap when the
// parse is done: the model and what the per-document checks keep, the
// run's largest live heap.
func liveAtPeak(t testing.TB, dir string) uint64 {
	t.Helper()
	analyzers, sev, err := checks.Select(nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var live uint64
	_, _, err = checks.Run(checks.Options{Root: dir, FS: os.DirFS(dir), Analyzers: analyzers, Severity: sev,
		ReleaseText: true, NoFixes: true, ForgetModel: true, MaxFindings: 1000,
		Parsed: func() {
			// Twice: pools keep what they held until a second collection.
			runtime.GC()
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			live = ms.HeapAlloc
		}})
	if err != nil {
		t.Fatal(err)
	}
	return live
}

// inputBytes is the size of the files under dir.
func inputBytes(t testing.TB, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			info, err := d.Info()
			if err == nil {
				n += info.Size()
			}
			return err
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// liveBudget is what a run may keep live at its peak for each byte of
// input it adds, per shape, about 10% over what it keeps (1.71, 3.74 and
// 3.57 bytes when this was written; docs/scaling.md, "Round 15"; distinct
// 1.82, 2.11 before its ids were packed as differences and its texts'
// places kept a group, "Round 22"). A
// change that keeps more of each document (a text, a view of one, an
// entry per line) fails here; one that keeps less should lower it.
var liveBudget = []struct {
	shape        string
	small, large int
	perByte      float64
}{
	{"default", 100, 500, 1.88},
	{"mesh", 200, 1000, 4.11},
	{"items", 500, 2500, 3.93},
	{"distinct", 200, 1000, 2.00},
}

// TestLiveHeapPerInputByte: the live heap at the run's peak grows with
// the input by at most the shape's budget per byte. Not timed: it counts
// bytes. The parse's slabs are pooled per P, so their slack grows with the
// workers (mesh read 4.37 at GOMAXPROCS 64): the run is held to two, as
// on CI's machine.
func TestLiveHeapPerInputByte(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory is not the run's")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for _, b := range liveBudget {
		t.Run(b.shape, func(t *testing.T) {
			small, large := t.TempDir(), t.TempDir()
			write := func(dir string, n int) {
				var err error
				if b.shape == "default" {
					err = gencorpus.Write(dir, n, 3)
				} else {
					err = gencorpus.WriteShape(dir, b.shape, n, 3, gencorpus.Options{})
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			write(small, b.small)
			write(large, b.large)
			liveAtPeak(t, small) // compiles what the checks compile once
			s, l := liveAtPeak(t, small), liveAtPeak(t, large)
			grew := float64(int64(l)-int64(s)) / float64(inputBytes(t, large)-inputBytes(t, small))
			t.Logf("%s: live %d -> %d bytes, %.2f bytes per input byte (budget %.2f)", b.shape, s, l, grew, b.perByte)
			if grew > b.perByte {
				t.Errorf("%s: the live heap grew by %.2f bytes per input byte, over the budget of %.2f", b.shape, grew, b.perByte)
			}
		})
	}
}
