package main

import (
	"flag"
	"strings"

	"github.com/svrnty/sotvet/internal/didyoumean"
)

// suggestFlag returns the defined flag closest to the undefined one err
// names, when it is close enough to be a typo: within two edits, or the
// only flag it is a prefix of.
func suggestFlag(flags *flag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: ")
	if !ok {
		return ""
	}
	name = strings.TrimLeft(name, "-")
	var names []string
	flags.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return didyoumean.Closest(name, names)
}

// commands are the subcommands run dispatches, for the "did you mean" of
// a mistyped one.
var commands = []string{"check", "checks", "explain", "guard", "harness", "init", "lsp", "scan", "schema", "serve", "summary", "version", "help"}
