package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// ipcserve FILE...  stand-in local services a backend must not reach: a
// unix socket in a 0700 directory ($WORK/agent/sock, like an ssh-agent's),
// an abstract unix socket and a TCP service on loopback. Each answers
// "secret-from-host". Where they are is written to each FILE as lines
// "unix PATH", "abstract NAME", "tcp PORT".
func cmdIPCServe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: ipcserve FILE...")
	}
	dir := filepath.Join(ts.Getenv("WORK"), "agent")
	ts.Check(os.MkdirAll(dir, 0o700))
	ts.Check(os.Chmod(dir, 0o700))
	sock := filepath.Join(dir, "sock")
	abstract := fmt.Sprintf("sotvet-contain-ipc-%d", os.Getpid())
	var lns []net.Listener
	for _, a := range [][2]string{{"unix", sock}, {"unix", "@" + abstract}, {"tcp", "127.0.0.1:0"}} {
		ln, err := net.Listen(a[0], a[1])
		ts.Check(err)
		lns = append(lns, ln)
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				c.Write([]byte("secret-from-host\n"))
				c.Close()
			}
		}()
	}
	ts.Defer(func() {
		for _, ln := range lns {
			ln.Close()
		}
	})
	port := lns[2].Addr().(*net.TCPAddr).Port
	desc := fmt.Sprintf("unix %s\nabstract %s\ntcp %d\n", sock, abstract, port)
	for _, f := range args {
		ts.Check(os.WriteFile(ts.MkAbs(f), []byte(desc), 0o644))
	}
	ts.Setenv("AGENT_SOCK", sock)
	ts.Setenv("LOOPBACK_PORT", fmt.Sprint(port))
	ts.Setenv("ABSTRACT_SOCK", strings.TrimPrefix(abstract, "@"))
}

func init() { laneCmds["ipcserve"] = cmdIPCServe }
