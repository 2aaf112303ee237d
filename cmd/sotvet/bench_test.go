package main

import (
	"io"
	"os"
	"testing"

	"github.com/svrnty/sotvet/internal/cputime"
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
