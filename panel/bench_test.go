package panel

import (
	"context"
	"net/http/httptest"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/matrix"
	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/summary"
)

var (
	benchOnce sync.Once
	benchRuns string
	benchErr  error
)

// manyRuns is a runs root of four harness matrices: 60 real runs.
func manyRuns(b *testing.B) string {
	benchOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			benchErr = err
			return
		}
		if benchRuns, benchErr = os.MkdirTemp("", "sotvet-panel-bench-"); benchErr != nil {
			return
		}
		for range 4 {
			if _, benchErr = matrix.Run(context.Background(), matrix.Options{
				Base:     harness.Options{RunsRoot: benchRuns, FakeCommand: []string{exe, "harness", "fake-backend"}, Environ: os.Environ()},
				CasesDir: "../testdata/cases", Jobs: 2,
			}); benchErr != nil {
				return
			}
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchRuns
}

func benchCorpus(b *testing.B) string {
	return testcorpus.Require(b)
}

// BenchmarkSummaryCorpus60Runs: the summary of the real corpus and 60
// runs, every run verified. Target: under 100 ms.
func BenchmarkSummaryCorpus60Runs(b *testing.B) {
	root, runs := benchCorpus(b), manyRuns(b)
	cpu := cpuTime()
	n := 0
	for b.Loop() {
		s, err := summary.Compute(summary.Options{Root: root, RunsRoot: runs})
		if err != nil || s.Runs.Total != 60 {
			b.Fatalf("%v, %d runs", err, s.Runs.Total)
		}
		n++
	}
	// CPU time says what the work costs when other processes share the
	// machine and stretch the wall time.
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(n), "cpu-ms/op")
}

// cpuTime is the user and system CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPage: one page served (overview, workboard, findings, run),
// the summary unchanged since the last request. Target: under 50 ms.
func BenchmarkPage(b *testing.B) {
	root, runs := benchCorpus(b), manyRuns(b)
	s, err := summary.Compute(summary.Options{Root: root, RunsRoot: runs})
	if err != nil {
		b.Fatal(err)
	}
	h, err := New(Options{Summary: summary.Options{Root: root, RunsRoot: runs}, Addr: "127.0.0.1:8742", Redactor: scanner(b)})
	if err != nil {
		b.Fatal(err)
	}
	run := "/runs/" + s.Runs.Lanes[0].Latest[0].Dir
	for _, target := range []string{"/", "/workboard", "/findings", run, "/api/cto/control-summary"} {
		name := target
		if target == run {
			name = "/runs/{id}"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				rec := httptest.NewRecorder()
				req := httptest.NewRequest("GET", "http://127.0.0.1:8742"+target, nil)
				h.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatalf("%s: %d", target, rec.Code)
				}
			}
		})
	}
}

// BenchmarkSummaryCorpus60RunsCached: the same with the panel's verify
// cache warm, as when a document changes under a running panel.
func BenchmarkSummaryCorpus60RunsCached(b *testing.B) {
	root, runs := benchCorpus(b), manyRuns(b)
	opt := summary.Options{Root: root, RunsRoot: runs, VerifyCache: summary.NewVerifyCache()}
	if _, err := summary.Compute(opt); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := summary.Compute(opt); err != nil {
			b.Fatal(err)
		}
	}
}
