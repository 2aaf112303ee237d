package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
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

// cmdHTTPGet is the scenarios' HTTP client: "httpget [-host H] URL FILE"
// writes the status line, the headers and the body of GET URL to FILE,
// waiting up to 10 s for a panel started in the background to listen.
func cmdHTTPGet(ts *testscript.TestScript, neg bool, args []string) {
	host := ""
	if len(args) == 4 && args[0] == "-host" {
		host, args = args[1], args[2:]
	}
	if len(args) != 2 {
		ts.Fatalf("usage: httpget [-host H] URL FILE")
	}
	req, err := http.NewRequest("GET", args[0], nil)
	ts.Check(err)
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
			return
		}
		ts.Fatalf("httpget: %v", err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	ts.Check(err)
	out := fmt.Sprintf("%s\n", res.Status)
	for _, k := range []string{"Content-Type", "Content-Security-Policy", "Allow"} {
		if v := res.Header.Get(k); v != "" {
			out += k + ": " + v + "\n"
		}
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(out+"\n"+string(body)), 0o644))
}
