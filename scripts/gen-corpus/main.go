//go:build devtools

// Command gen-corpus writes a synthetic source-of-truth planning workspace for
// benchmarks:
//
//	go run -tags devtools ./scripts/gen-corpus -n 10000 -out DIR [-seed 1] [-force] [-shape S]
//
// The workspace holds n markdown documents (CONTEXT.md included) in the shape
// of the real cto-planb corpus; see package gencorpus.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
)

func main() {
	n := flag.Int("n", 10000, "number of markdown documents to write")
	out := flag.String("out", "", "output directory (created if absent; must be empty unless -force)")
	seed := flag.Int64("seed", 1, "random seed; the output depends only on -n and -seed")
	force := flag.Bool("force", false, "write into a non-empty directory, replacing earlier generated files")
	quiet := flag.Bool("q", false, "do not print a summary")
	shape := flag.String("shape", "default", "workspace shape: default, "+strings.Join(gencorpus.Shapes, ", ")+" (see package gencorpus); -n is its size")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: gen-corpus -n N -out DIR [-seed S] [-force]")
		os.Exit(2)
	}
	start := time.Now()
	if err := gencorpus.WriteShape(*out, *shape, *n, *seed, gencorpus.Options{Force: *force}); err != nil {
		fmt.Fprintln(os.Stderr, "gen-corpus:", err)
		os.Exit(1)
	}
	if !*quiet {
		fmt.Fprintf(os.Stderr, "gen-corpus: wrote a %s workspace of size %d to %s in %v\n", *shape, *n, *out, time.Since(start).Round(time.Millisecond))
	}
}
