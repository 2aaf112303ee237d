package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/svrnty/sotvet/panel"
	"github.com/svrnty/sotvet/secrets"
	"github.com/svrnty/sotvet/sotparse"
)

func cmdServe(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("serve", flag.ContinueOnError)
	flags.SetOutput(stderr)
	var in summaryInputs
	in.register(flags)
	addr := flags.String("addr", panel.DefaultAddr, "address to listen on; anything but loopback is reachable from other machines")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: sotvet serve [--addr 127.0.0.1:8742] [--runs DIR] [dir]")
		flags.PrintDefaults()
	}
	opt, code, ok := in.parse(flags, args, stderr)
	if !ok {
		return code
	}
	if err := panel.CheckAddr(*addr); err != nil {
		fmt.Fprintf(stderr, "sotvet: --addr: %v\n", err)
		return exitError
	}
	if !panel.Loopback(*addr) {
		fmt.Fprintf(stderr, "sotvet: warning: --addr %s is not loopback: other machines can read this panel (workspace, findings, evidence)\n", *addr)
	}
	sc, err := secrets.NewScanner(secrets.DefaultConfig())
	if err != nil {
		fmt.Fprintf(stderr, "sotvet: secrets scanner: %v\n", err)
		return exitError
	}
	ln, err := net.Listen("tcp", *addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		host, _, _ := net.SplitHostPort(*addr)
		fmt.Fprintf(stderr, "sotvet: %s is in use (another sotvet serve?): choose another port with --addr %s:PORT, or --addr %s:0 for any free one\n", *addr, host, host)
		return exitError
	}
	if err != nil {
		fmt.Fprintf(stderr, "sotvet: %v\n", err)
		return exitError
	}
	popt := panel.Options{Summary: opt, Addr: ln.Addr().String(), Redactor: sc}
	if !in.noGit {
		popt.Ignore = func() (func(string, bool) bool, error) { return sotparse.GitIgnored(opt.Root) }
	}
	h, err := panel.New(popt)
	if err != nil {
		ln.Close()
		fmt.Fprintf(stderr, "sotvet: %v\n", err)
		return exitError
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 60 * time.Second, MaxHeaderBytes: 64 << 10}
	ctx, stop := signalContext()
	defer stop()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	fmt.Fprintf(stdout, "sotvet panel: %s on http://%s/ (read-only; Ctrl-C stops)\n", opt.Root, ln.Addr())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "sotvet: %v\n", err)
		return exitError
	}
	return exitClean
}
