package harness_test

import (
	"testing"
	"time"

	"github.com/svrnty/sotvet/harness/sandbox"
)

// BenchmarkRunOverhead measures a fake-lane run's harness overhead: the
// whole run minus the verification commands' own time. Target: under
// 300 ms. It runs unconfined and, where the kernel offers it, under
// Landlock (the shim adds one exec before the backend and before each
// verification command).
func BenchmarkRunOverhead(b *testing.B) {
	for _, mode := range []string{sandbox.None, sandbox.Landlock} {
		b.Run("sandbox="+mode, func(b *testing.B) {
			if mode == sandbox.Landlock && sandbox.KernelABI() < sandbox.RulesetABI {
				b.Skip("no Landlock here")
			}
			var overhead, total time.Duration
			for b.Loop() {
				opt := options(b, "r1-string-slugify")
				opt.Sandbox = mode
				t0 := time.Now()
				res := run(b, opt)
				d := time.Since(t0)
				if res.Report.Status != "pass" || res.Report.Sandbox != map[string]string{sandbox.None: "none", sandbox.Landlock: "landlock"}[mode] {
					b.Fatalf("status %s sandbox %s", res.Report.Status, res.Report.Sandbox)
				}
				var verif time.Duration
				for _, c := range res.Report.Verification.Commands {
					verif += time.Duration(c.DurationMS) * time.Millisecond
				}
				total += d
				overhead += d - verif
			}
			b.ReportMetric(float64(overhead.Milliseconds())/float64(b.N), "overhead-ms/op")
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "run-ms/op")
		})
	}
}
