package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// freePort returns a loopback port nothing listens on now.
func freePort() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "0"
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// cmdHTTPGet is the scenarios' HTTP client: "httpget [-host H] [-header
// 'K: V']... [-revalidate] URL FILE" writes the status line, the headers
// and the body of GET URL to FILE, waiting up to 10 s for a panel started
// in the background to listen. A gzip body is written decompressed (its
// Content-Encoding header stays). -revalidate asks a second time with the
// first answer's ETag in If-None-Match and writes the second answer.
func cmdHTTPGet(ts *testscript.TestScript, neg bool, args []string) {
	host, revalidate := "", false
	hdr := http.Header{}
	for len(args) > 2 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-host":
			host, args = args[1], args[2:]
		case "-header":
			k, v, ok := strings.Cut(args[1], ":")
			if !ok {
				ts.Fatalf("httpget: -header %q: want K: V", args[1])
			}
			hdr.Add(strings.TrimSpace(k), strings.TrimSpace(v))
			args = args[2:]
		case "-revalidate":
			revalidate, args = true, args[1:]
		default:
			ts.Fatalf("httpget: unknown flag %s", args[0])
		}
	}
	if len(args) != 2 {
		ts.Fatalf("usage: httpget [-host H] [-header 'K: V']... [-revalidate] URL FILE")
	}
	get := func(etag string) *http.Response {
		req, err := http.NewRequest("GET", args[0], nil)
		ts.Check(err)
		req.Header = hdr.Clone()
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		if host != "" {
			req.Host = host
		}
		var res *http.Response
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if res, err = http.DefaultClient.Do(req); err == nil || time.Now().After(deadline) {
				break
			}
		}
		if err != nil {
			if neg {
				return nil
			}
			ts.Fatalf("httpget: %v", err)
		}
		return res
	}
	res := get("")
	if res == nil {
		return
	}
	if revalidate {
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res = get(res.Header.Get("ETag")); res == nil {
			return
		}
	}
	defer res.Body.Close()
	var r io.Reader = res.Body
	if res.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(res.Body)
		ts.Check(err)
		r = zr
	}
	body, err := io.ReadAll(r)
	ts.Check(err)
	out := fmt.Sprintf("%s\n", res.Status)
	for _, k := range []string{"Content-Type", "Content-Encoding", "Vary", "Cache-Control", "Content-Security-Policy", "Allow"} {
		if v := res.Header.Get(k); v != "" {
			out += k + ": " + v + "\n"
		}
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(out+"\n"+string(body)), 0o644))
}
