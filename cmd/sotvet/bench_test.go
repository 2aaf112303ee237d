package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svrnty/sotvet/internal/cputime"
	"github.com/svrnty/sotvet/internal/testcorpus"
)

// BenchmarkCheckDir runs `sotvet check --format $SOTVET_BENCH_FORMAT` on the
// workspace $SOTVET_BENCH_DIR (a scripts/gen-corpus shape, say), for
// profiling a whole run in-process: go test -bench CheckDir -cpuprofile.
func BenchmarkCheckDir(b *testing.B) {
	dir := os.Getenv("SOTVET_BENCH_DIR")
	if dir == "" {
		b.Skip("SOTVET_BENCH_DIR is not set")
	}
	format := os.Getenv("SOTVET_BENCH_FORMAT")
	if format == "" {
		format = "json"
	}
	tuneGC()
	cpu := cputime.Process()
	for b.Loop() {
		if code := run([]string{"check", "--no-cache", "--format", format, dir}, io.Discard, io.Discard); code > 1 {
			b.Fatalf("exit code %d", code)
		}
	}
	b.ReportMetric(float64((cputime.Process()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// BenchmarkProcess runs a built sotvet as a separate process, as a user, a
// hook or CI does, where its start-up (loading the binary, package
// initialization, the checks' one-time builds) and its cold heap count:
// `sotvet version`, `sotvet check` of the sample workspace, and of the
// real corpus (its target is 40 ms wall; skipped without the corpus). It
// reports wall time per run, the process's CPU (cpu-ms/op) and its minor
// page faults (faults/op).
func BenchmarkProcess(b *testing.B) {
	bin := buildSotvet(b)
	sample, err := filepath.Abs("../../testdata/workspace")
	if err != nil {
		b.Fatal(err)
	}
	runs := []struct {
		name string
		args []string
	}{
		{"version", []string{"version"}},
		{"check-sample", []string{"check", sample}},
	}
	if dir, ok := testcorpus.Dir(); ok {
		runs = append(runs, struct {
			name string
			args []string
		}{"check-corpus", []string{"check", dir}})
	} else {
		b.Logf("the corpus is not beside the checkout (looked in %s): check-corpus skipped", dir)
	}
	for _, r := range runs {
		b.Run(r.name, func(b *testing.B) {
			var cpu time.Duration
			var faults int64
			for b.Loop() {
				cmd := exec.Command(bin, r.args...)
				err := cmd.Run()
				if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() > exitFindings {
					b.Fatalf("sotvet %s: %v", strings.Join(r.args, " "), err)
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				faults += cputime.MinorFaults(cmd.ProcessState)
			}
			b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(faults)/float64(b.N), "faults/op")
		})
	}
}

// buildSotvet builds the command into a temporary directory.
func buildSotvet(b *testing.B) string {
	b.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		b.Skipf("skipped: no go command to build sotvet with: %v", err)
	}
	bin := filepath.Join(b.TempDir(), "sotvet")
	if out, err := exec.Command(goBin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}
