package main

import (
	"crypto/ed25519"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/svrnty/sotvet/guard"
	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/ledger"
)

// guardSchemaKind is the guard record's name for sotvet schema.
const guardSchemaKind = "guard"

const guardUsage = `usage: sotvet guard --repo DIR [--out RUNS] [--conflict PATH|ID ...] [--assume-outside PID ...] [--sign-key FILE] [--json]

Runs the Core Route Admission Guard against the repository DIR without
changing it: the worktree list (branch, HEAD, dirty state, last commit
time of each), the main worktree's status, linked worktrees holding work,
lock files and merges or rebases in progress, processes working inside
the repository (command names only), and the configured conflicts. Each
check is pass, blocked or unknown; unknown blocks too. Git never reads
the repository's configuration (nor the system's or the user's), so no
program the repository names runs; it takes no optional locks.

The guard record (schema: sotvet schema guard) is written as
RUNS/guards/<guard-id>.json; sotvet harness verify checks it, and the
evidence check compares a document's Route State with the records it cites.

A --conflict with a "/" is a path: a worktree at it or inside it (a
relative path matches by its trailing elements). Anything else is a work
id, matched in a worktree's branch or directory name, ignoring case.

A process of the repository's owner whose working directory or files
cannot be read (a VM's PID 1, which even root cannot inspect) makes the
process check unknown, and the message names it (pid, command, owner).
--assume-outside PID is the operator's decision that it works outside the
repository: the check then passes over it, and the record carries the
decision for a reviewer (verify, summary and the panel show it).

Exit status: 0 when the guard passes, 1 when it blocks, 2 on error.

flags:
`

func cmdGuard(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("guard", flag.ContinueOnError)
	fs.SetOutput(stderr)
	repo := fs.String("repo", "", "the repository to check (its main worktree, a linked one, or a bare repository)")
	out := fs.String("out", "", "runs root the record is written under (default "+harness.DefaultRunsRoot()+")")
	var conflicts listFlag
	fs.Var(&conflicts, "conflict", "`PATH|ID` of a worktree that must not be present: a path (with a /) or a work id (repeatable)")
	var assume pidList
	fs.Var(&assume, "assume-outside", "`PID` of a process the guard cannot inspect that the operator declares to work outside the repository; recorded in the guard record (repeatable)")
	signKey := fs.String("sign-key", "", "ed25519 private key (PKCS #8 PEM) to sign the record with")
	asJSON := fs.Bool("json", false, "print the record as JSON")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), guardUsage)
		fs.PrintDefaults()
	}
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		if code == exitClean {
			return exitClean
		}
		return code
	}
	if len(pos) > 0 || *repo == "" {
		fmt.Fprintln(stderr, "sotvet guard: want --repo DIR and no other argument")
		fmt.Fprintln(stderr, "Run 'sotvet guard --help' for usage.")
		return exitError
	}
	var key ed25519.PrivateKey
	if *signKey != "" {
		var err error
		if key, err = evidence.LoadSigningKey(*signKey); err != nil {
			fmt.Fprintf(stderr, "sotvet guard: %v\n", err)
			return exitError
		}
	}
	g, err := guard.Run(guard.Options{Repo: *repo, Conflicts: conflicts, AssumeOutside: assume})
	if err != nil {
		fmt.Fprintf(stderr, "sotvet guard: %v\n", err)
		return exitError
	}
	root := *out
	if root == "" {
		root = harness.DefaultRunsRoot()
	}
	path, err := guard.Write(root, g, key)
	if err != nil {
		fmt.Fprintf(stderr, "sotvet guard: writing the record: %v\n", err)
		return exitError
	}
	if *asJSON {
		data, _ := evidence.Marshal(g)
		stdout.Write(data)
	} else {
		for _, c := range g.Checks {
			line := fmt.Sprintf("%-8s %-21s", c.Status, c.Name)
			if c.Reason != "" {
				line += " " + c.Reason + ":"
			}
			fmt.Fprintln(stdout, strings.TrimRight(line+" "+printable(c.Detail), " "))
		}
		fmt.Fprintf(stdout, "guard_status: %s\ncore_route_admission_status: %s\nblocked_reason: %s\nnext_allowed_action: %s\n",
			g.GuardStatus, g.CoreRouteAdmissionStatus, g.BlockedReason, g.NextAllowedAction)
		for _, u := range g.Uninspected {
			if u.AssumedOutside {
				fmt.Fprintf(stdout, "assumed_outside: %s (operator's decision, recorded)\n", printable(u.String()))
			}
		}
		fmt.Fprintf(stdout, "unchanged: %t (refs %.12s, index %.12s, worktrees %.12s, status %.12s)\n",
			g.Unchanged, g.After.Refs, g.After.Index, g.After.Worktrees, g.After.Status)
		fmt.Fprintf(stdout, "record: %s\n", printable(path))
	}
	if g.GuardStatus != "pass" {
		return exitFindings
	}
	return exitClean
}

// printable replaces control characters, which a path in the other
// repository may hold, so that a detail cannot drive the terminal.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return '?'
		}
		return r
	}, s)
}

// pidList is a repeatable flag of process ids.
type pidList []int

func (p *pidList) String() string { return fmt.Sprint([]int(*p)) }

func (p *pidList) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return fmt.Errorf("%q is not a process id", s)
	}
	*p = append(*p, n)
	return nil
}

// guardNotes are the operator's decisions a guard record at path carries,
// for verify to show beside its verdict; nil for anything else.
func guardNotes(path string) []string {
	id, ok := strings.CutSuffix(filepath.Base(path), ".json")
	if !ok || !ledger.ValidGuardID(id) {
		return nil
	}
	data, err := ledger.ReadFile(path)
	if err != nil {
		return nil
	}
	// Shown beside verify's own verdict, valid or not.
	var g ledger.Guard
	ledger.Unmarshal(data, &g)
	var notes []string
	for _, u := range g.Uninspected {
		if u.AssumedOutside {
			notes = append(notes, "the operator assumed "+printable(u.String())+" outside the repository (--assume-outside)")
		}
	}
	return notes
}
