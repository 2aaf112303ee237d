package panel

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/compare"
	"github.com/svrnty/sotvet/harness/engine/fake"
	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/harness/ledger/ledgertest"
	"github.com/svrnty/sotvet/harness/matrix"
	"github.com/svrnty/sotvet/harness/verify"
	"github.com/svrnty/sotvet/internal/raceexit"
	"github.com/svrnty/sotvet/internal/testtmp"
	"github.com/svrnty/sotvet/secrets"
	"github.com/svrnty/sotvet/summary"
)

// TestMain lets the test binary be the fake lane's backend, as the sotvet
// binary is, so the tests can make real runs with harness matrix.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "harness" && os.Args[2] == "fake-backend" {
		os.Exit(fake.Main(os.Args[3:], os.Stdout, os.Stderr))
	}
	raceexit.Set() // the fake backends it runs are this binary
	os.Exit(testtmp.Run(testtmp.RunFunc(func() int {
		code := m.Run()
		for _, d := range []string{matrixRoot, benchRuns, bigRoot} {
			if d != "" {
				os.RemoveAll(d)
			}
		}
		return code
	})))
}

var (
	matrixOnce sync.Once
	matrixRoot string
	matrixRun  *matrix.Matrix
	matrixErr  error
)

// realRuns returns a runs root holding one harness matrix of real fake
// lane runs (made once per test binary), and the matrix.
func realRuns(t testing.TB) (string, *matrix.Matrix) {
	t.Helper()
	matrixOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			matrixErr = err
			return
		}
		if matrixRoot, matrixErr = os.MkdirTemp("", "sotvet-panel-runs-"); matrixErr != nil {
			return
		}
		matrixRun, matrixErr = matrix.Run(context.Background(), matrix.Options{
			Base:     harness.Options{RunsRoot: matrixRoot, FakeCommand: []string{exe, "harness", "fake-backend"}, Environ: os.Environ()},
			CasesDir: "../testdata/cases",
			Jobs:     2,
		})
	})
	if matrixErr != nil {
		t.Fatal(matrixErr)
	}
	return matrixRoot, matrixRun
}

// copyTree copies a directory (regular files and directories only).
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func sampleCopy(t testing.TB) string {
	dir := filepath.Join(t.TempDir(), "workspace")
	copyTree(t, "../testdata/workspace", dir)
	return dir
}

func scanner(t testing.TB) *secrets.Scanner {
	sc, err := secrets.NewScanner(secrets.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// writeRecord writes a sealed, unsigned ledger record where sotvet would.
func writeRecord(t testing.TB, runs string, rec ledger.Sealed) { ledgertest.Write(t, runs, rec, nil) }

// serve starts the panel on a loopback port for root and runs.
func serve(t testing.TB, root, runs string) *httptest.Server {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	h, err := New(Options{Summary: summary.Options{Root: root, RunsRoot: runs}, Addr: ts.Listener.Addr().String(), Redactor: scanner(t)})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = h
	ts.Start()
	t.Cleanup(ts.Close)
	return ts
}

type resp struct {
	code   int
	header http.Header
	body   string
}

func do(t testing.TB, ts *httptest.Server, method, target string, hdr map[string]string) resp {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+target, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return resp{res.StatusCode, res.Header, string(b)}
}

func get(t testing.TB, ts *httptest.Server, target string) resp {
	return do(t, ts, http.MethodGet, target, nil)
}

// aRun returns a run of the matrix by fixture ("" for the first plain
// run) as a directory relative to the runs root.
func aRun(t testing.TB, runs string, m *matrix.Matrix, fixture string) string {
	for _, e := range m.Runs {
		if e.Fixture == fixture {
			rel, err := filepath.Rel(runs, e.RunDir)
			if err != nil {
				t.Fatal(err)
			}
			return filepath.ToSlash(rel)
		}
	}
	t.Fatalf("no run with fixture %q", fixture)
	return ""
}

func TestRoutes(t *testing.T) {
	runs, m := realRuns(t)
	ts := serve(t, sampleCopy(t), runs)
	pass := aRun(t, runs, m, "")
	failed := aRun(t, runs, m, "failed-tests")
	cases := []struct {
		target string
		code   int
		ctype  string
		want   []string
	}{
		{"/", 200, "text/html", []string{"<h1>Control summary</h1>", "Stage 1", "gated engine", "not-started", "approval_required", "execution_allowed", "Next operator action"}},
		{"/workboard", 200, "text/html", []string{"<h1>Workboard</h1>", `id="item-CTO-WORK-103"`, `href="#item-CTO-WORK-102"`, "candidate"}},
		{"/findings", 200, "text/html", []string{"<h1>Findings</h1>", `<label for="f-check">Check</label>`, "Showing 0 of 0 findings."}},
		{"/findings?check=refs&severity=error", 200, "text/html", []string{`<option value="refs" selected>`, `<option value="error" selected>`}},
		{"/files/WORKBOARD.yaml?line=3", 200, "text/html", []string{`<tr id="L3" class="hl" aria-current="location">`, "CTO-WORK-101"}},
		{"/files/.sot/03-PROTOCOLS/CTO-SLUGIFY-FIXTURE-PRD.md", 200, "text/html", []string{"Local planning SOT only."}},
		{"/runs", 200, "text/html", []string{"<h1>Runs</h1>", "Lane fake", "/runs/" + pass}},
		{"/runs/" + pass, 200, "text/html", []string{"Event timeline", "run.started", "run.completed", `class="pl add"`, "valid (unsigned: anyone can rewrite this run): every digest", "sha256"}},
		{"/runs/" + failed, 200, "text/html", []string{"verification_failed", "--- FAIL"}},
		{"/approval", 200, "text/html", []string{"<h1>Approval packet</h1>", "never executable", "Blocked next actions"}},
		{"/api/cto/control-summary", 200, "application/json", []string{`"schema_version": 1`, `"runtime_default_activation": false`, `"execution_allowed": false`}},
		{"/api/findings", 200, "application/json", []string{`"items": []`, `"total": 0`}},
		{"/api/runs/" + pass, 200, "application/json", []string{`"status": "pass"`, `"verified": true`, `"type": "run.completed"`, `"artifact": "patch.diff"`}},
		{"/api/token", 200, "application/json", []string{`"change"`}},
		{"/static/panel.css", 200, "text/css", []string{".ladder"}},
		{"/static/panel.js", 200, "text/javascript", []string{"/api/token"}},
		{"/static/nope.js", 404, "text/plain", nil},
		{"/nope", 404, "", nil},
		{"/files/nope.md", 404, "text/plain", nil},
		{"/runs/nope", 404, "text/plain", nil},
		{"/api/runs/nope", 404, "text/plain", nil},
	}
	for _, c := range cases {
		t.Run(c.target, func(t *testing.T) {
			r := get(t, ts, c.target)
			if r.code != c.code {
				t.Fatalf("status %d, want %d: %.300s", r.code, c.code, r.body)
			}
			if !strings.HasPrefix(r.header.Get("Content-Type"), c.ctype) {
				t.Errorf("content type %q, want %q", r.header.Get("Content-Type"), c.ctype)
			}
			for _, w := range c.want {
				if !strings.Contains(r.body, w) {
					t.Errorf("no %q in the response", w)
				}
			}
			if got := r.header.Get("Content-Security-Policy"); got != CSP {
				t.Errorf("CSP %q", got)
			}
			if r.header.Get("X-Content-Type-Options") != "nosniff" {
				t.Error("no nosniff")
			}
		})
	}
}

// The API serves exactly what sotvet summary --json computes.
func TestSummaryAPIMatchesSummary(t *testing.T) {
	runs, _ := realRuns(t)
	root := sampleCopy(t)
	ts := serve(t, root, runs)
	var got, want map[string]any
	if err := json.Unmarshal([]byte(get(t, ts, "/api/cto/control-summary").body), &got); err != nil {
		t.Fatal(err)
	}
	s, err := summary.Compute(summary.Options{Root: root, RunsRoot: runs})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(s)
	json.Unmarshal(b, &want)
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if string(gb) != string(wb) {
		t.Errorf("the API and summary.Compute differ:\n%s\n%s", gb, wb)
	}
}

func TestOnlyGetAndHead(t *testing.T) {
	ts := serve(t, sampleCopy(t), "")
	for _, m := range []string{"POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT", "PROPFIND"} {
		for _, target := range []string{"/", "/api/cto/control-summary", "/files/WORKBOARD.yaml"} {
			r := do(t, ts, m, target, nil)
			if r.code != http.StatusMethodNotAllowed || r.header.Get("Allow") != "GET, HEAD" {
				t.Errorf("%s %s: %d, Allow %q; want 405, GET, HEAD", m, target, r.code, r.header.Get("Allow"))
			}
		}
	}
	r := do(t, ts, "HEAD", "/", nil)
	if r.code != 200 || r.body != "" || r.header.Get("Content-Security-Policy") == "" {
		t.Errorf("HEAD /: %d, %d bytes", r.code, len(r.body))
	}
}

func TestHostHeader(t *testing.T) {
	ts := serve(t, sampleCopy(t), "")
	_, port, _ := strings.Cut(strings.TrimPrefix(ts.URL, "http://"), ":")
	for host, want := range map[string]int{
		"127.0.0.1:" + port:        200,
		"localhost:" + port:        200,
		"LOCALHOST:" + port:        200,
		"[::1]:" + port:            200,
		"127.0.0.2:" + port:        200, // loopback too
		"evil.example:" + port:     403, // DNS rebinding
		"127.0.0.1.nip.io:" + port: 403,
		"localhost:1":              403,
		"127.0.0.1":                403, // no port
		"10.0.0.1:" + port:         403,
	} {
		if r := do(t, ts, "GET", "/api/token", map[string]string{"Host": host}); r.code != want {
			t.Errorf("Host %q: %d, want %d", host, r.code, want)
		}
	}
}

func TestEmptyHost(t *testing.T) {
	ts := serve(t, sampleCopy(t), "")
	req := httptest.NewRequest("GET", "/", nil)
	req.Host = ""
	rec := httptest.NewRecorder()
	ts.Config.Handler.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Errorf("no Host: %d, want 403", rec.Code)
	}
}

func TestHostRule(t *testing.T) {
	for _, c := range []struct {
		addr, host string
		ok         bool
	}{
		{"0.0.0.0:80", "192.168.1.5:80", true},
		{"0.0.0.0:80", "localhost:80", true},
		{"0.0.0.0:80", "panel.example:80", false},
		{"192.168.1.5:80", "192.168.1.5:80", true},
		{"192.168.1.5:80", "192.168.1.6:80", false},
		{"192.168.1.5:80", "localhost:80", false},
		{"[::1]:80", "[::1]:80", true},
		{"localhost:80", "127.0.0.1:80", true},
		{"127.0.0.1:80", "127.0.0.1", true},
		{"127.0.0.1:80", "localhost", true},
		{"127.0.0.1:80", "[::1]", true},
		{"127.0.0.1:80", "evil.example", false},
		{"127.0.0.1:8742", "127.0.0.1", false},
	} {
		hr, err := newHostRule(c.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := hr.allows(c.host); got != c.ok {
			t.Errorf("bound %s, Host %s: %t, want %t", c.addr, c.host, got, c.ok)
		}
	}
	if _, err := newHostRule("panel.example:80"); err == nil {
		t.Error("a host name as the bind address was accepted")
	}
	if !Loopback("127.0.0.1:1") || !Loopback("localhost:1") || Loopback("0.0.0.0:1") || Loopback(":1") {
		t.Error("Loopback")
	}
}

// Path parameters never leave the workspace or the runs root.
func TestPathsStayInTheirRoots(t *testing.T) {
	runs, m := realRuns(t)
	root := sampleCopy(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("outside the roots\n"), 0o644)
	os.MkdirAll(filepath.Join(outside, "run", "backend"), 0o755)
	copyTree(t, filepath.Join(runs, aRun(t, runs, m, "")), filepath.Join(outside, "run"))
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.md")))
	must(os.Symlink(outside, filepath.Join(root, "linkdir")))
	must(os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	must(os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[core]\n"), 0o644))
	// A runs root of its own, so the shared one stays untouched.
	myRuns := t.TempDir()
	copyTree(t, filepath.Join(runs, aRun(t, runs, m, "")), filepath.Join(myRuns, "good"))
	must(os.Symlink(filepath.Join(outside, "run"), filepath.Join(myRuns, "linked-run")))
	ts := serve(t, root, myRuns)

	if r := get(t, ts, "/runs/good"); r.code != 200 {
		t.Fatalf("/runs/good: %d", r.code)
	}
	for _, target := range []string{
		"/files/link.md",
		"/files/linkdir/secret.txt",
		"/files/..%2f..%2f..%2fetc%2fpasswd",
		"/files/%2e%2e/%2e%2e/etc/passwd",
		"/files/%2Fetc%2Fpasswd",
		"/files//etc/passwd",
		"/files/.git/config",
		"/files/.sot/..%2f..%2fworkspace/WORKBOARD.yaml",
		"/files/WORKBOARD.yaml%00.md",
		"/files/..%5c..%5cetc%5cpasswd",
		"/files/.sot",
		"/runs/linked-run",
		"/api/runs/linked-run",
		"/runs/..%2f" + filepath.Base(outside) + "%2frun",
		"/api/runs/%2e%2e%2fgood",
		"/api/runs/good%2f..%2fgood",
		"/runs/good/report.json",
	} {
		r := do(t, ts, "GET", target, nil)
		if r.code != http.StatusNotFound && r.code != http.StatusMovedPermanently {
			t.Errorf("%s: %d, want 404: %.200s", target, r.code, r.body)
		}
		if strings.Contains(r.body, "outside the roots") || strings.Contains(r.body, "root:x:0") || strings.Contains(r.body, "[core]") {
			t.Errorf("%s: served content from outside the roots", target)
		}
	}
	// The raw handler too, with paths no client would clean.
	h := ts.Config.Handler
	for _, raw := range []string{"/files/../../etc/passwd", "/files/./WORKBOARD.yaml", "/runs/../good"} {
		req := httptest.NewRequest("GET", "http://x"+raw, nil)
		req.URL.Path = raw
		req.Host = strings.TrimPrefix(ts.URL, "http://")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code == 200 {
			t.Errorf("raw %s: 200", raw)
		}
	}
}

// No page has inline script, inline handlers or inline styles: the CSP
// forbids them and the panel must work under it.
func TestNoInlineScript(t *testing.T) {
	runs, m := realRuns(t)
	ts := serve(t, sampleCopy(t), runs)
	script := regexp.MustCompile(`<script[^>]*>`)
	inline := regexp.MustCompile(`(?i)\s(on[a-z]+|style)\s*=`)
	for _, target := range []string{"/", "/workboard", "/findings", "/files/WORKBOARD.yaml?line=2", "/runs", "/runs/" + aRun(t, runs, m, ""), "/approval"} {
		r := get(t, ts, target)
		for _, tag := range script.FindAllString(r.body, -1) {
			if !strings.Contains(tag, `src="/static/`) {
				t.Errorf("%s: inline script %s", target, tag)
			}
		}
		if strings.Contains(r.body, "<script>") || inline.MatchString(r.body) {
			t.Errorf("%s: inline script, handler or style: %s", target, inline.FindString(r.body))
		}
		if strings.Contains(r.body, "javascript:") {
			t.Errorf("%s: a javascript: URL", target)
		}
	}
}

// Secrets are redacted in every page and API response.
func TestSecretsRedacted(t *testing.T) {
	// Built at run time: the repository holds no credential-looking literal.
	token := "ghp_" + "Xq7Kd9Lm2Pz4Rt8Vw1Ny" + "6Bc3Hf5Js0GaTu7Q"
	// A format of the imported rule set, and a private key hex-encoded.
	shop := "shp" + "at_" + "9f8e7d6c5b4a39281706f5e4d3c2b1a0"
	hexKey := hex.EncodeToString([]byte("-----" + "BEGIN PRIVATE KEY-----\n" + "MC4CAQAw" + "BQYDK2VwBCIEIHq0m3Zr8Vt2bN5pW4sX1cY7dE9fA6gH2jK3lM4nO5pQ\n-----" + "END PRIVATE KEY-----\n"))
	root := sampleCopy(t)
	doc := filepath.Join(root, ".sot", "03-PROTOCOLS", "CTO-SLUGIFY-FIXTURE-PRD.md")
	b, _ := os.ReadFile(doc)
	os.WriteFile(doc, append(b, []byte("\n- deploy token: "+token+"\n- shop token: "+shop+"\n- key dump: "+hexKey+"\n")...), 0o644)
	runs, m := realRuns(t)
	myRuns := t.TempDir()
	copyTree(t, filepath.Join(runs, aRun(t, runs, m, "")), filepath.Join(myRuns, "r"))
	log := filepath.Join(myRuns, "r", "test.log")
	lb, _ := os.ReadFile(log)
	os.WriteFile(log, append(lb, []byte("AWS_SECRET_ACCESS_KEY="+token+"\nshop="+shop+"\nkey "+hexKey+"\n")...), 0o644)
	ts := serve(t, root, myRuns)
	for _, target := range []string{"/", "/findings", "/api/findings", "/api/cto/control-summary",
		"/files/.sot/03-PROTOCOLS/CTO-SLUGIFY-FIXTURE-PRD.md", "/runs/r", "/api/runs/r", "/workboard", "/approval", "/runs"} {
		r := get(t, ts, target)
		if r.code != 200 {
			t.Errorf("%s: %d", target, r.code)
		}
		if strings.Contains(r.body, token) || strings.Contains(r.body, token[4:]) {
			t.Errorf("%s: the secret is in the response", target)
		}
		if strings.Contains(r.body, shop[6:]) || strings.Contains(r.body, hexKey[8:40]) {
			t.Errorf("%s: an imported-format token or the hex key is in the response", target)
		}
	}
	if r := get(t, ts, "/files/.sot/03-PROTOCOLS/CTO-SLUGIFY-FIXTURE-PRD.md"); !strings.Contains(r.body, "ghp_****") {
		t.Error("the file page does not show the masked secret")
	}
	if r := get(t, ts, "/api/findings?check=secrets"); !strings.Contains(r.body, `"check": "secrets"`) {
		t.Errorf("the secrets check found nothing: %.300s", r.body)
	}
}

// A change on disk changes the token and the summary.
func TestLive(t *testing.T) {
	root := sampleCopy(t)
	ts := serve(t, root, "")
	tok := func() string {
		var j struct{ Change string }
		json.Unmarshal([]byte(get(t, ts, "/api/token").body), &j)
		return j.Change
	}
	before := tok()
	if before == "" || tok() != before {
		t.Fatal("the token is empty or unstable")
	}
	if strings.Contains(before, secrets.MaskSuffix) {
		t.Fatalf("the token %q is redacted: no change would show", before)
	}
	if r := get(t, ts, "/"); !strings.Contains(r.body, `data-change="`+before+`"`) {
		t.Fatal("the page does not carry the token")
	}
	wb := filepath.Join(root, "WORKBOARD.yaml")
	b, _ := os.ReadFile(wb)
	later := time.Now().Add(2 * time.Second)
	os.WriteFile(wb, append(b, []byte("  - id: CTO-WORK-104\n    title: New\n    status: draft\n    blocked_by: [CTO-WORK-103]\n    source: .sot/03-PROTOCOLS/CTO-SLUGIFY-FIXTURE-ISSUES.md\n")...), 0o644)
	os.Chtimes(wb, later, later)
	// The token is walked again at most every tokenInterval, in the
	// background: the change shows within the two seconds the page polls.
	deadline := time.Now().Add(3 * time.Second)
	for tok() == before {
		if time.Now().After(deadline) {
			t.Fatal("the token did not change")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r := get(t, ts, "/workboard"); !strings.Contains(r.body, "item-CTO-WORK-104") {
		t.Error("the workboard page does not show the new item")
	}
}

// Bad evidence in the runs root is shown, never a crash.
func TestUnreadableEvidencePage(t *testing.T) {
	runs := t.TempDir()
	os.MkdirAll(filepath.Join(runs, "compare-x"), 0o755)
	os.WriteFile(filepath.Join(runs, "compare-x", "comparison.json"), []byte("{"), 0o644)
	os.MkdirAll(filepath.Join(runs, "broken"), 0o755)
	os.WriteFile(filepath.Join(runs, "broken", "report.json"), []byte("nope"), 0o644)
	ts := serve(t, sampleCopy(t), runs)
	if r := get(t, ts, "/"); r.code != 200 || !strings.Contains(r.body, "runs/compare-x/comparison.json") {
		t.Errorf("overview: %d", r.code)
	}
	if r := get(t, ts, "/runs/broken"); r.code != 500 || strings.Contains(r.body, runs) {
		t.Errorf("/runs/broken: %d %s", r.code, r.body)
	}
}

// File names with spaces and # are linked and served.
func TestOddFileNames(t *testing.T) {
	root := sampleCopy(t)
	os.WriteFile(filepath.Join(root, "odd name#1.txt"), []byte("one\ntwo\n"), 0o644)
	ts := serve(t, root, "")
	if r := get(t, ts, "/files/odd%20name%231.txt?line=2"); r.code != 200 || !strings.Contains(r.body, `<tr id="L2" class="hl"`) {
		t.Errorf("%d: %.300s", r.code, r.body)
	}
	if got := funcs["fileURL"].(func(string, int) string)("odd name#1.txt", 2); got != "/files/odd%20name%231.txt?line=2#L2" {
		t.Errorf("fileURL: %s", got)
	}
}

// The approval page shows the packet of the newest approval record, its
// consumption, and never anything that acts.
func TestApprovalPage(t *testing.T) {
	runs := t.TempDir()
	const id = "appr-20260601T100000Z-0000a007"
	writeRecord(t, runs, &ledger.Approval{SchemaVersion: ledger.SchemaVersion, ApprovalID: id, CaseID: "c", Stage: 5, Decision: "granted", Actor: "jp",
		ApprovalText: "I approve A-7 <script>alert(1)</script>.", AllowedPaths: []string{"src/x.py"}, BlockedActions: []string{"push"}, RecordedAt: "2026-06-01T10:00:00Z"})
	writeRecord(t, runs, &ledger.Consumption{SchemaVersion: ledger.SchemaVersion, ApprovalID: id, RunID: "run-9", ConsumedAt: "2026-06-01T11:00:00Z", ConsumedByPassEvidence: "run-9"})
	ts := serve(t, sampleCopy(t), runs)
	r := get(t, ts, "/approval")
	for _, want := range []string{`id="packet-text">I approve A-7 &lt;script&gt;alert(1)&lt;/script&gt;.</pre>`, `id="copy-packet"`,
		"consumed_by_pass_evidence", "<code>run-9</code>", "<code>src/x.py</code>", "<code>push</code>", "consumed (approval <code>" + id + "</code>, stage 5, run <code>run-9</code>)"} {
		if !strings.Contains(r.body, want) {
			t.Errorf("no %q on the approval page", want)
		}
	}
	if strings.Contains(r.body, "<form") || strings.Contains(r.body, `method="post"`) {
		t.Error("the approval page has a form")
	}
	if r := get(t, serve(t, sampleCopy(t), ""), "/approval"); !strings.Contains(r.body, "No approval packet") {
		t.Error("without a packet the page does not say so")
	}
}

// What git ignores in the workspace is not served.
func TestIgnoredFilesNotServed(t *testing.T) {
	root := sampleCopy(t)
	os.WriteFile(filepath.Join(root, "local.env"), []byte("X=1\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "build"), 0o755)
	os.WriteFile(filepath.Join(root, "build", "out.txt"), []byte("x\n"), 0o644)
	ts := httptest.NewUnstartedServer(nil)
	ign := func(p string, dir bool) bool { return p == "local.env" || (dir && p == "build") }
	h, err := New(Options{Summary: summary.Options{Root: root, Ignored: ign}, Addr: ts.Listener.Addr().String(), Redactor: scanner(t)})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = h
	ts.Start()
	defer ts.Close()
	for target, want := range map[string]int{"/files/local.env": 404, "/files/build/out.txt": 404, "/files/WORKBOARD.yaml": 200} {
		if r := get(t, ts, target); r.code != want {
			t.Errorf("%s: %d, want %d", target, r.code, want)
		}
	}
}

// The ignore rules are asked again when the workspace changes.
func TestIgnoreRulesRefresh(t *testing.T) {
	root := sampleCopy(t)
	os.WriteFile(filepath.Join(root, "late.env"), []byte("X=1\n"), 0o644)
	ignoring := false
	var mu sync.Mutex
	ts := httptest.NewUnstartedServer(nil)
	h, err := New(Options{Summary: summary.Options{Root: root}, Addr: ts.Listener.Addr().String(), Redactor: scanner(t),
		Ignore: func() (func(string, bool) bool, error) {
			mu.Lock()
			defer mu.Unlock()
			if !ignoring {
				return nil, nil
			}
			return func(p string, _ bool) bool { return p == "late.env" }, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = h
	ts.Start()
	defer ts.Close()
	if r := get(t, ts, "/files/late.env"); r.code != 200 {
		t.Fatalf("before: %d", r.code)
	}
	mu.Lock()
	ignoring = true
	mu.Unlock()
	later := time.Now().Add(3 * time.Second)
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("late.env\n"), 0o644)
	os.Chtimes(filepath.Join(root, ".gitignore"), later, later)
	// Seen within the panel's refresh interval.
	deadline := time.Now().Add(3 * time.Second)
	r := get(t, ts, "/files/late.env")
	for r.code != 404 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		r = get(t, ts, "/files/late.env")
	}
	if r.code != 404 {
		t.Errorf("after the rules changed: %d, want 404", r.code)
	}
}

// A tampered artifact shows as a violation on the run page.
func TestTamperedRun(t *testing.T) {
	runs, m := realRuns(t)
	myRuns := t.TempDir()
	name := filepath.Base(aRun(t, runs, m, ""))
	copyTree(t, filepath.Join(runs, aRun(t, runs, m, "")), filepath.Join(myRuns, name))
	ts := serve(t, sampleCopy(t), myRuns)
	// Unsigned: valid, in the CLI's words, and not in the colour of trust.
	if r := get(t, ts, "/runs/"+name); !strings.Contains(r.body, `id="verdict" class="st-warning">valid (unsigned: anyone can rewrite this run)`) {
		t.Fatal("the copied run is not shown valid (unsigned) before the edit")
	}
	p := filepath.Join(myRuns, name, "test.log")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, append(b, "tampered\n"...), 0o644)
	r := eventually(t, ts, "/runs/"+name, "rejected")
	for _, want := range []string{`id="verdict" class="st-no">rejected`, "✖ violation", "Verify violations", "test.log:"} {
		if !strings.Contains(r.body, want) {
			t.Errorf("no %q on the run page", want)
		}
	}
	if s := eventually(t, ts, "/api/cto/control-summary", "verify rejects its evidence"); !strings.Contains(s.body, "verify rejects its evidence") {
		t.Error("the next action does not name the rejected run")
	}
}

// eventually gets path until its body holds want, for up to three
// seconds: the panel sees a change on disk within its refresh interval.
func eventually(t *testing.T, ts *httptest.Server, path, want string) resp {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	r := get(t, ts, path)
	for !strings.Contains(r.body, want) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		r = get(t, ts, path)
	}
	return r
}

// A comparison shows its lanes on the runs page and its blocked lanes and
// candidate on the overview; runtime default activation stays false.
func TestComparisonShown(t *testing.T) {
	runs := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A real comparison (the panel shows only what verify accepts): the
	// codex lane, whose gate is closed, blocks at once.
	_, _, err = compare.Run(context.Background(), compare.Options{
		Base:    harness.Options{RunsRoot: runs, FakeCommand: []string{exe, "harness", "fake-backend"}, Environ: os.Environ()},
		CaseDir: "../testdata/cases/r1-string-slugify", Engines: []string{"codex"}, K: 1, Jobs: 1, ID: "cmp-1",
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := serve(t, sampleCopy(t), runs)
	r := get(t, ts, "/runs")
	for _, want := range []string{"<code>cmp-1</code> (r1-string-slugify)", "<td>codex</td><td class=\"st-blocked\">blocked</td><td>engine_disabled</td>", "Runtime default activation: false"} {
		if !strings.Contains(r.body, want) {
			t.Errorf("no %q on the runs page", want)
		}
	}
	o := get(t, ts, "/")
	for _, want := range []string{"<strong>codex</strong>: engine_disabled", "codex, eligible: false"} {
		if !strings.Contains(o.body, want) {
			t.Errorf("no %q on the overview", want)
		}
	}
	// A forged comparison beside it is unreadable, never shown as a verdict.
	os.MkdirAll(filepath.Join(runs, "cmp-forged"), 0o755)
	os.WriteFile(filepath.Join(runs, "cmp-forged", "comparison.json"), []byte(`{"schema_version":1,"comparison_id":"cmp-forged","case_id":"r1","k":3,"complete":true,"created_at":"2099-06-01T00:00:00Z",
"lanes":[],"runs":[],"candidate_default":{"engine":"fake","eligible":true,"reason":"forged"},"runtime_default_activation":false,"digest":"0000","signing":null}`), 0o644)
	o = eventually(t, ts, "/", "runs/cmp-forged/comparison.json")
	if strings.Contains(o.body, "fake, eligible: true") || !strings.Contains(o.body, "runs/cmp-forged/comparison.json") {
		t.Errorf("the forged comparison is believed or not listed as unreadable")
	}
}

// The panel's verify cache never hides a change: a run edited after the
// first summary is verified again.
func TestVerifyCacheSeesChanges(t *testing.T) {
	runs, m := realRuns(t)
	myRuns := t.TempDir()
	name := filepath.Base(aRun(t, runs, m, ""))
	copyTree(t, filepath.Join(runs, aRun(t, runs, m, "")), filepath.Join(myRuns, name))
	cache := summary.NewVerifyCache()
	opt := summary.Options{Root: sampleCopy(t), RunsRoot: myRuns, VerifyCache: cache}
	verified := func() bool {
		s, err := summary.Compute(opt)
		if err != nil {
			t.Fatal(err)
		}
		return s.Runs.Lanes[0].Latest[0].Verified
	}
	// Once computed, once from the cache.
	if first, cached := verified(), verified(); !first || !cached {
		t.Fatalf("a good run is not verified (computed %t, from the cache %t)", first, cached)
	}
	p := filepath.Join(myRuns, name, "patch.diff")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, append(b, '\n'), 0o644)
	if verified() {
		t.Error("an edited run is still verified")
	}
	os.WriteFile(p, b, 0o644)
	later := time.Now().Add(time.Minute)
	os.Chtimes(p, later, later)
	if !verified() {
		t.Error("the run restored is not verified again")
	}
}

// With the workspace's trusted keys the panel believes runs as harness
// verify --workspace does: an unsigned run is rejected, on its page and in
// the summary, and never counts.
func TestTrustedKeysOnPanel(t *testing.T) {
	runs, m := realRuns(t)
	myRuns := t.TempDir()
	name := filepath.Base(aRun(t, runs, m, ""))
	copyTree(t, filepath.Join(runs, aRun(t, runs, m, "")), filepath.Join(myRuns, name))
	pub, _, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(nil)
	h, err := New(Options{Summary: summary.Options{Root: sampleCopy(t), RunsRoot: myRuns, Trust: verify.Options{TrustedKeys: []ed25519.PublicKey{pub}}},
		Addr: ts.Listener.Addr().String(), Redactor: scanner(t)})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = h
	ts.Start()
	t.Cleanup(ts.Close)
	r := get(t, ts, "/runs/"+name)
	for _, want := range []string{`id="verdict" class="st-no">rejected`, "the run is not signed, but a trusted key is required"} {
		if !strings.Contains(r.body, want) {
			t.Errorf("no %q on the run page", want)
		}
	}
	if s := get(t, ts, "/api/cto/control-summary"); strings.Contains(s.body, `"verified": true`) {
		t.Error("the summary counts an unsigned run as verified")
	}
}

// Many clients at once while the workspace changes: one walk and one
// rendering serve them, every answer is whole, and the change shows.
func TestConcurrentClients(t *testing.T) {
	root := sampleCopy(t)
	runs, m := realRuns(t)
	ts := serve(t, root, runs)
	run := "/runs/" + aRun(t, runs, m, "")
	var wg sync.WaitGroup
	for c := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				p := []string{"/", "/workboard", "/api/token", run, "/api/cto/control-summary"}[(c+i)%5]
				if r := get(t, ts, p); r.code != 200 || len(r.body) == 0 {
					t.Errorf("%s: %d", p, r.code)
				}
			}
		}()
	}
	wb := filepath.Join(root, "WORKBOARD.yaml")
	b, _ := os.ReadFile(wb)
	later := time.Now().Add(2 * time.Second)
	os.WriteFile(wb, append(b, []byte("  - id: CTO-WORK-105\n    title: New\n    status: draft\n    blocked_by: []\n    source: WORKBOARD.yaml\n")...), 0o644)
	os.Chtimes(wb, later, later)
	wg.Wait()
	if r := eventually(t, ts, "/workboard", "item-CTO-WORK-105"); !strings.Contains(r.body, "item-CTO-WORK-105") {
		t.Error("the change did not show")
	}
}
