package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/svrnty/sotvet/lsp"
)

// cmdLsp serves the Language Server Protocol on stdin and stdout. The
// editor starts it; --stdio is accepted because many clients pass it.
func cmdLsp(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("lsp", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Bool("stdio", true, "talk LSP over stdin and stdout (the only transport)")
	flags.Usage = func() {
		fmt.Fprintln(stderr, `usage: sotvet lsp [--stdio]

Serves the checks of 'sotvet check' to an editor over the Language Server
Protocol on stdin and stdout: diagnostics as you type, quick fixes,
navigation over work item ids, .sot/ paths and glossary terms, hover and
completion. The editor starts it; see docs/editors.md.`)
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitClean
		}
		return exitError
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(stderr, "sotvet lsp: unexpected argument %q: the editor names the workspace at initialize\n", flags.Arg(0))
		return exitError
	}
	// stdout carries the protocol: nothing else may write to it.
	return lsp.Serve(context.Background(), stdio{os.Stdin, stdout}, version())
}

// stdio joins stdin and stdout into the stream the server reads and writes.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }
