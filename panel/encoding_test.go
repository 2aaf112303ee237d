package panel

import (
	"compress/gzip"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every page sent compressed is the redacted page: no secret in the gzip
// bytes nor in what they decompress to, and the plain form for a client
// that does not accept gzip.
func TestCompressedPagesRedacted(t *testing.T) {
	token := "ghp_" + "Xq7Kd9Lm2Pz4Rt8Vw1Ny" + "6Bc3Hf5Js0GaTu7Q"
	hexKey := hex.EncodeToString([]byte("-----" + "BEGIN PRIVATE KEY-----\n" + "MC4CAQAw" + "BQYDK2VwBCIEIHq0m3Zr8Vt2bN5pW4sX1cY7dE9fA6gH2jK3lM4nO5pQ\n-----" + "END PRIVATE KEY-----\n"))
	root := sampleCopy(t)
	doc := filepath.Join(root, ".sot", "03-PROTOCOLS", "CTO-SLUGIFY-FIXTURE-PRD.md")
	b, _ := os.ReadFile(doc)
	os.WriteFile(doc, append(b, []byte("\n- deploy token: "+token+"\n- key dump: "+hexKey+"\n")...), 0o644)
	runs, m := realRuns(t)
	myRuns := t.TempDir()
	copyTree(t, filepath.Join(runs, aRun(t, runs, m, "")), filepath.Join(myRuns, "r"))
	log := filepath.Join(myRuns, "r", "test.log")
	lb, _ := os.ReadFile(log)
	os.WriteFile(log, append(lb, []byte("AWS_SECRET_ACCESS_KEY="+token+"\nkey "+hexKey+"\n")...), 0o644)
	ts := serve(t, root, myRuns)
	leaks := func(s string) bool {
		return strings.Contains(s, token[4:]) || strings.Contains(s, hexKey[8:40])
	}
	compressed := 0
	for _, target := range []string{"/", "/findings", "/findings?check=secrets", "/api/findings", "/api/cto/control-summary",
		"/runs/r", "/api/runs/r", "/workboard", "/approval", "/runs"} {
		gz := do(t, ts, "GET", target, map[string]string{"Accept-Encoding": "gzip"})
		plain := do(t, ts, "GET", target, map[string]string{"Accept-Encoding": "identity"})
		if gz.code != 200 || plain.code != 200 {
			t.Fatalf("%s: %d, %d", target, gz.code, plain.code)
		}
		if v := gz.header.Get("Vary"); v != "Accept-Encoding" {
			t.Errorf("%s: Vary %q", target, v)
		}
		if e := plain.header.Get("Content-Encoding"); e != "" {
			t.Errorf("%s: sent %s to a client that accepts only identity", target, e)
		}
		body := gz.body
		if gz.header.Get("Content-Encoding") == "gzip" {
			compressed++
			zr, err := gzip.NewReader(strings.NewReader(gz.body))
			if err != nil {
				t.Fatalf("%s: %v", target, err)
			}
			d, err := io.ReadAll(zr)
			if err != nil {
				t.Fatalf("%s: %v", target, err)
			}
			body = string(d)
			if leaks(gz.body) {
				t.Errorf("%s: the secret is in the gzip bytes", target)
			}
		}
		if body != plain.body {
			t.Errorf("%s: the gzip form differs from the plain one", target)
		}
		if leaks(body) || leaks(plain.body) {
			t.Errorf("%s: the secret is in the response", target)
		}
		if gz.header.Get("Content-Security-Policy") != CSP {
			t.Errorf("%s: no CSP on the compressed response", target)
		}
	}
	if compressed < 5 {
		t.Errorf("%d pages sent compressed", compressed)
	}
	// The 304 of a page carries no body at all.
	r := get(t, ts, "/runs/r")
	nm := do(t, ts, "GET", "/runs/r", map[string]string{"If-None-Match": r.header.Get("ETag")})
	if nm.code != 304 || nm.body != "" {
		t.Errorf("If-None-Match: %d %q", nm.code, nm.body)
	}
}

// A client that holds the current page gets 304; a change on disk makes
// a new tag.
func TestETag(t *testing.T) {
	root := sampleCopy(t)
	ts := serve(t, root, "")
	for _, target := range []string{"/", "/workboard", "/findings", "/api/token", "/api/cto/control-summary"} {
		r := get(t, ts, target)
		tag := r.header.Get("ETag")
		if r.code != 200 || tag == "" {
			t.Fatalf("%s: %d, ETag %q", target, r.code, tag)
		}
		if cc := r.header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("%s: Cache-Control %q", target, cc)
		}
		if nm := do(t, ts, "GET", target, map[string]string{"If-None-Match": tag}); nm.code != 304 || nm.body != "" {
			t.Errorf("%s: If-None-Match %s: %d %q", target, tag, nm.code, nm.body)
		}
		if nm := do(t, ts, "GET", target, map[string]string{"If-None-Match": `W/"other", ` + tag}); nm.code != 304 {
			t.Errorf("%s: a list naming the tag: %d", target, nm.code)
		}
		if nm := do(t, ts, "GET", target, map[string]string{"If-None-Match": `"other"`}); nm.code != 200 {
			t.Errorf("%s: another tag: %d", target, nm.code)
		}
	}
	before := get(t, ts, "/workboard").header.Get("ETag")
	wb := filepath.Join(root, "WORKBOARD.yaml")
	b, _ := os.ReadFile(wb)
	os.WriteFile(wb, append(b, "  - id: CTO-WORK-106\n    title: New\n    status: draft\n    blocked_by: []\n    source: WORKBOARD.yaml\n"...), 0o644)
	r := eventually(t, ts, "/workboard", "item-CTO-WORK-106")
	if r.header.Get("ETag") == before {
		t.Error("the tag did not change with the page")
	}
	if nm := do(t, ts, "GET", "/workboard", map[string]string{"If-None-Match": before}); nm.code != 200 {
		t.Errorf("the old tag still answers %d", nm.code)
	}
}

func TestAcceptsGzip(t *testing.T) {
	for h, want := range map[string]bool{
		"": false, "gzip": true, "gzip, deflate, br": true, "br;q=1.0, gzip;q=0.8": true,
		"gzip;q=0": false, "GZIP": true, "identity": false, "*": true, "*;q=0": false,
		"gzip;q=0, *": false, "*, gzip;q=0": false, "deflate, *;q=0.1": true, "gzip;q=x": false, "x-gzip": true,
	} {
		if got := acceptsGzip(h); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", h, got, want)
		}
	}
}
