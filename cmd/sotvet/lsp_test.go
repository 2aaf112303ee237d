package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	laneCmds["lspframe"] = cmdLSPFrame
}

// cmdLSPFrame writes the LSP messages of a file, one JSON value a line
// ($WORK expanded), as the Content-Length framed stream an editor sends:
//
//	lspframe messages.jsonl stdin.lsp
func cmdLSPFrame(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: lspframe in.jsonl out")
	}
	in, err := os.Open(ts.MkAbs(args[0]))
	ts.Check(err)
	defer in.Close()
	var b strings.Builder
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.ReplaceAll(line, "$WORK", ts.Getenv("WORK"))
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(line), line)
	}
	ts.Check(sc.Err())
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o644))
}
