package panel

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/matrix"
	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
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

var (
	bigOnce sync.Once
	bigRoot string
	bigErr  error
)

// bigWorkspace is a synthetic workspace of 10,000 documents
// (scripts/gen-corpus), made once per test binary.
func bigWorkspace(b *testing.B) string {
	bigOnce.Do(func() {
		if bigRoot, bigErr = os.MkdirTemp("", "sotvet-panel-10k-"); bigErr != nil {
			return
		}
		bigErr = gencorpus.Write(bigRoot, 10000, 1)
	})
	if bigErr != nil {
		b.Fatal(bigErr)
	}
	return bigRoot
}

// BenchmarkPanelConcurrentSlowClients: 50 clients at once against the
// panel on loopback (httptest), on a 10,000-document workspace and a runs
// root of real runs, each on a slow link (about 3 MB/s of bytes on the
// wire, so that a compressed page costs what it weighs) and each sending
// Accept-Encoding: gzip as browsers do. The first pass finds the pages
// not yet rendered, as clients do after a change on disk. It reports each
// page's 95th percentile time to the first byte (the server's share of a
// request) and to the last byte (what a user waits for). Target: every
// page's first byte under 100 ms.
func BenchmarkPanelConcurrentSlowClients(b *testing.B) { benchSlowClients(b, false) }

// BenchmarkPanelConcurrentSlowClientsAfterChange: the same, a document
// touched on disk before each pass, so that the clients come as the
// summary of 10,000 documents is computed again: what the users of a
// panel see when someone saves a file.
func BenchmarkPanelConcurrentSlowClientsAfterChange(b *testing.B) { benchSlowClients(b, true) }

func benchSlowClients(b *testing.B, change bool) {
	root := bigWorkspace(b)
	runs, m := realRuns(b)
	ts := httptest.NewUnstartedServer(nil)
	h, err := New(Options{Summary: summary.Options{Root: root, RunsRoot: runs}, Addr: ts.Listener.Addr().String(), Redactor: scanner(b)})
	if err != nil {
		b.Fatal(err)
	}
	ts.Config.Handler = h
	ts.Start()
	defer ts.Close()
	pages := []string{"/", "/workboard", "/findings", "/runs", "/runs/" + aRun(b, runs, m, ""), "/approval", "/api/token"}
	// The first request computes the summary; the benchmark measures the
	// pages served from it.
	if r := getB(b, ts, "/"); r != 200 {
		b.Fatalf("/: %d", r)
	}
	const clients = 50
	ttfb, full := map[string][]time.Duration{}, map[string][]time.Duration{}
	wire := map[string]int64{}
	var mu sync.Mutex
	touched := filepath.Join(root, "CONTEXT.md")
	pass := 0
	for b.Loop() {
		if change {
			// A new time each pass: the next walk sees a change.
			pass++
			at := time.Now().Add(time.Duration(pass) * time.Hour)
			if err := os.Chtimes(touched, at, at); err != nil {
				b.Fatal(err)
			}
			time.Sleep(2 * tokenInterval)
		}
		var wg sync.WaitGroup
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var link slowLink
				client := &http.Client{Transport: &http.Transport{DialContext: link.dial}}
				defer client.CloseIdleConnections()
				for i := range pages {
					p := pages[(c+i)%len(pages)]
					req, _ := http.NewRequest("GET", ts.URL+p, nil)
					start := time.Now()
					resp, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					first := time.Since(start)
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					last := time.Since(start)
					if resp.StatusCode != 200 {
						b.Errorf("%s: %d", p, resp.StatusCode)
					}
					mu.Lock()
					ttfb[p] = append(ttfb[p], first)
					full[p] = append(full[p], last)
					wire[p] = max(wire[p], link.n.Swap(0))
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
	}
	p95 := func(d []time.Duration) time.Duration {
		slices.Sort(d)
		return d[len(d)*95/100]
	}
	worst, worstFull := time.Duration(0), time.Duration(0)
	for i, p := range pages {
		first, last := p95(ttfb[p]), p95(full[p])
		worst, worstFull = max(worst, first), max(worstFull, last)
		b.ReportMetric(float64(first.Microseconds())/1000, fmt.Sprintf("p95-ms-page%d", i))
		b.Logf("%-40s p95 first byte %v, last byte %v, %d bytes on the wire (n=%d)", p, first, last, wire[p], len(ttfb[p]))
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-p95-ms")
	b.ReportMetric(float64(worstFull.Microseconds())/1000, "worst-p95-last-byte-ms")
}

// slowLink dials connections that deliver at most slowLinkRate bytes a
// second to the reader, counting them.
type slowLink struct {
	n atomic.Int64
}

const slowLinkRate = 3 << 20

func (l *slowLink) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &slowConn{Conn: c, link: l}, nil
}

type slowConn struct {
	net.Conn
	link  *slowLink
	start time.Time
	read  int64
}

func (c *slowConn) Read(p []byte) (int, error) {
	// An idle link saves up no more than a short burst.
	if since := time.Since(c.start); c.start.IsZero() || time.Duration(c.read*int64(time.Second)/slowLinkRate) < since-20*time.Millisecond {
		c.start, c.read = time.Now(), 0
	}
	n, err := c.Conn.Read(p)
	c.read += int64(n)
	c.link.n.Add(int64(n))
	if ahead := time.Duration(c.read*int64(time.Second)/slowLinkRate) - time.Since(c.start); ahead > 0 {
		time.Sleep(ahead)
	}
	return n, err
}

func getB(b *testing.B, ts *httptest.Server, p string) int {
	resp, err := http.Get(ts.URL + p)
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}
