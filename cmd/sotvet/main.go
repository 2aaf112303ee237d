// Command sotvet vets a planning source-of-truth workspace.
//
// Usage:
//
//	sotvet check [flags] [dir]   run the checks (dir defaults to .)
//	sotvet checks [--format json] list the checks
//	sotvet explain <check>       print a check's documentation
//	sotvet guard --repo DIR      run the Core Route Admission Guard read-only
//	sotvet harness <command>     run cases through a backend, verify their evidence
//	sotvet init [dir]            write a starter sotvet.yaml
//	sotvet lsp                   serve the checks to an editor (LSP on stdio)
//	sotvet scan [--staged] [paths]  scan files for secrets
//	sotvet schema <kind>         print a record kind's JSON Schema
//	sotvet version               print the version
//
// Exit codes: 0 clean (or only findings below --fail-on), 1 findings,
// 2 usage or I/O error.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/svrnty/sotvet/internal/didyoumean"
)

const (
	exitClean    = 0
	exitFindings = 1
	exitError    = 2
)

func main() {
	tuneGC()
	if !wantsMemProfile(os.Args[1:], os.Getenv("GODEBUG")) {
		// Sampling costs a run on the real corpus ~1 ms: a stack walk every
		// 512 KB allocated and a page fault for each new bucket of the
		// profile's 1.4 MB hash table; its stacks take ~1.5 MB on a
		// 10,000-document run.
		runtime.MemProfileRate = 0
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// tuneGC sets the collector for a run of sotvet; GOGC and GOMEMLIMIT
// override it.
//
// A run keeps its workspace's typed model live until the checks are done,
// and allocates many times that while it parses. Collecting at 2.5 times
// the live heap costs a 10,000-document run no more CPU than at 5 times
// (a smaller heap saves the kernel's page faults), and 2 times costs ~5%
// more.
//
// While the live heap is small the collector runs less often still (see
// collectLessWhileSmall), but keeps to a soft memory limit of 32 MiB
// (smallLimit, limitBySize). While it is moderate, the run keeps to a soft
// memory limit of 112 MiB (limitBySize, moderateLimit): a 10,000-document
// run then peaks at 135-145 MB instead of 125-160 MB, for ~0-5% more CPU.
// Past 64 MiB live the limit follows the live heap (headroomFor: the limit
// is 1.5 times the live heap, never under 112 MiB), rather than being
// lifted: on 10,000 documents of ~100 MB
// live the heap no longer grows to 2.5 times it (GOGC 150), 265 -> 197
// MB, for about the same CPU (fewer fresh pages faulted in). Once a large
// workspace is parsed, the run collects (collectAfterParse,
// checks.Options.Parsed), and again once its model is let go
// (collectAfterModel, checks.Options.Forgotten).
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		collectLessWhileSmall(150, smallHeap)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		limitBySize()
	}
}

// wantsMemProfile reports whether the process may write a heap profile:
// it was asked for one (--debug.memprofile), or GODEBUG sets the rate.
func wantsMemProfile(args []string, godebug string) bool {
	if strings.Contains(godebug, "memprofilerate=") {
		return true
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if strings.HasPrefix(strings.TrimLeft(a, "-"), "debug.memprofile") && strings.HasPrefix(a, "-") {
			return true
		}
	}
	return false
}

// run runs the command args names. Its standard error passes through the
// secrets redactor line by line: an error that quotes a workspace (a
// configuration value, a baseline's field, a file's line) shows no
// credential the engine recognises, whichever command printed it.
func run(args []string, stdout, stderr io.Writer) int {
	errs := redactLines(stderr)
	defer errs.Flush()
	return dispatch(args, stdout, errs)
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitError
	}
	switch args[0] {
	case "check":
		return cmdCheck(args[1:], stdout, stderr)
	case "checks":
		return cmdChecks(args[1:], stdout, stderr)
	case "guard":
		return cmdGuard(args[1:], stdout, stderr)
	case "harness":
		return cmdHarness(args[1:], stdout, stderr)
	case "explain":
		return cmdExplain(args[1:], stdout, stderr)
	case "init":
		return cmdInit(args[1:], stdout, stderr)
	case "scan":
		return cmdScan(args[1:], stdout, stderr)
	case "schema":
		return cmdSchema(args[1:], stdout, stderr)
	case "summary":
		return cmdSummary(args[1:], stdout, stderr)
	case "serve":
		return cmdServe(args[1:], stdout, stderr)
	case "lsp":
		return cmdLsp(args[1:], stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintln(stdout, versionLine())
		return exitClean
	case "help", "-h", "--help", "-help":
		usage(stdout)
		return exitClean
	}
	fmt.Fprintf(stderr, "sotvet: unknown command %q%s\nRun 'sotvet help' for usage.\n", args[0], didyoumean.Hint(args[0], commands))
	return exitError
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: sotvet <command> [arguments]

commands:
  check [flags] [dir]   vet the workspace in dir (default .)
  checks [--format json]
                        list the checks
  explain <check>       print a check's documentation
  guard --repo DIR [--out RUNS] [--conflict PATH|ID ...]
                        run the Core Route Admission Guard read-only against
                        another repository and write a sealed guard record
  harness run|verify|matrix|fixtures
                        run a case through a backend and write re-verifiable
                        evidence; verify a run; run every case ('sotvet harness' for more)
  init [--force] [dir]  write a commented starter sotvet.yaml with every default
  lsp                   the language server for editors, on stdin and stdout (docs/editors.md)
  scan [--staged] [paths...]
                        scan any files or the staged content for secrets
  schema <kind>         print the JSON Schema of a record kind (model-provider-admission,
                        target-repository-admission, comparison, guard, summary)
  serve [--addr 127.0.0.1:8742] [--runs DIR] [dir]
                        a read-only web panel of the summary (loopback by default)
  summary [--json] [--runs DIR] [dir]
                        the control summary: proof ladder, workboard, findings, runs, approvals
  version               print the version

Run 'sotvet check -h' for the check flags.
`)
}
