package harness_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/svrnty/sotvet/internal/mockprovider"
)

// laneBin is where scripts/ci/install-lanes.sh put the npm CLIs.
func laneBin() string {
	d := os.Getenv("SOTVET_LANES_DIR")
	if d == "" {
		c, _ := os.UserCacheDir()
		d = filepath.Join(c, "sotvet", "lanes")
	}
	return filepath.Join(d, "node_modules", ".bin")
}

// standinCA builds the stand-in ca into dir.
func standinCA(tb testing.TB, dir string) string {
	out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "ca"), "./engine/case/testdata/ca").CombinedOutput()
	if err != nil {
		tb.Fatalf("building the stand-in ca: %v\n%s", err, out)
	}
	return dir
}

// BenchmarkLaneOverhead measures, per real lane, the harness's overhead
// around the backend on the scripted provider: the whole run minus the
// backend's own time and the verification commands' own time (gates and
// the response-shape probe, the workspace copy, git, containment, evidence).
// Target: under 300 ms. The case lane runs the stand-in ca.
func BenchmarkLaneOverhead(b *testing.B) {
	srv, err := mockprovider.Start(mustCaseFiles(b))
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	adm := filepath.Join(b.TempDir(), "admitted.json")
	if err := os.WriteFile(adm, []byte(`{"admission_timestamp":"2026-05-31T00:00:00Z","allowed_network_class":"loopback","approval_source":"bench",
"credential_source_class":"dummy","model":"gpt-5.5","provider":"mock","review_trigger":"never","status":"admitted"}`), 0o644); err != nil {
		b.Fatal(err)
	}
	caDir := b.TempDir()
	var caOnce sync.Once
	for _, lane := range []struct{ name, scenario string }{{"codex", mockprovider.Edit}, {"pi", mockprovider.Edit}, {"case", mockprovider.Case}} {
		b.Run(lane.name, func(b *testing.B) {
			path := os.Getenv("PATH")
			if lane.name == "case" {
				caOnce.Do(func() { standinCA(b, caDir) })
				path = caDir + string(os.PathListSeparator) + path
			} else if _, err := os.Stat(filepath.Join(laneBin(), lane.name)); err != nil {
				b.Skipf("%s is not installed in %s (scripts/ci/install-lanes.sh)", lane.name, laneBin())
			} else {
				path = laneBin() + string(os.PathListSeparator) + path
			}
			var overhead, backend, total time.Duration
			for b.Loop() {
				opt := options(b, "r1-string-slugify")
				opt.Engine, opt.AllowEngines = lane.name, []string{lane.name}
				opt.Model, opt.AdmissionFile = "mock/gpt-5.5", adm
				opt.Environ = append(opt.Environ, "PATH="+path,
					"SOTVET_PROVIDER_BASE_URL="+srv.URL(lane.scenario), "SOTVET_PROVIDER_API_KEY=sk-bench-dummy-key")
				t0 := time.Now()
				res := run(b, opt)
				d := time.Since(t0)
				if res.Report.Status != "pass" {
					b.Fatalf("status %s blockers %+v", res.Report.Status, res.Report.Blockers)
				}
				var verif time.Duration
				for _, c := range res.Report.Verification.Commands {
					verif += time.Duration(c.DurationMS) * time.Millisecond
				}
				be := time.Duration(res.Report.BackendRun.DurationMS) * time.Millisecond
				total += d
				backend += be
				overhead += d - verif - be
			}
			b.ReportMetric(float64(overhead.Milliseconds())/float64(b.N), "overhead-ms/op")
			b.ReportMetric(float64(backend.Milliseconds())/float64(b.N), "backend-ms/op")
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "run-ms/op")
		})
	}
}

func mustCaseFiles(tb testing.TB) []mockprovider.File {
	files, err := mockprovider.CaseFiles(filepath.Join(casesDir, "r1-string-slugify", "repo"), filepath.Join(casesDir, "r1-string-slugify", "fake"))
	if err != nil {
		tb.Fatal(err)
	}
	return files
}
