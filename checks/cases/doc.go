// Package cases defines an Analyzer that validates the harness task
// contracts of a workspace.
//
// # Analyzer cases
//
// cases: validate harness case contracts (case.yaml)
//
// A harness case is a directory holding case.yaml, the task contract, and
// a repo/ fixture tree. Every case.yaml in the tree, at any depth, is
// validated exactly as `sotvet harness run` validates it before a run, and
// each problem is reported at its position in case.yaml (category
// "contract"):
//
//   - malformed YAML, a contract that is not a mapping, unknown or
//     duplicate keys, missing required keys (id, title, task,
//     mutation_mode, allowed_writes, forbidden_paths, forbidden_actions);
//   - values of the wrong type, an id outside [a-z0-9._-], an unknown
//     mutation_mode, required_events that are not normalized events,
//     timeouts that are not durations between 1ns and 24h;
//   - path globs in allowed_writes and forbidden_paths that are absolute,
//     unclean, escape the tree with "..", or are not valid patterns, and an
//     empty allowed_writes in a mutating case;
//   - verification commands that are empty, that do not split into
//     words (an unterminated quote), or that need a shell in any word: a
//     pipe, redirection, $VAR, glob, &&, ;, command substitution, ...
//     (commands run without a shell; write the list form or an explicit
//     [sh, -c, ...]);
//   - a case directory without its repo/ fixture tree (reported at the
//     start of the file), and a fake.solution that is not a directory of
//     the case (reported at its value).
//
// An empty or absent verification list is not reported: it is a gate of
// the run (missing_test_command), not a contract error. A case.yaml that
// cannot be read or is not UTF-8 is the syntax check's business.
package cases

import _ "embed"

//go:embed doc.go
var doc string
