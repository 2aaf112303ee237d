// Package evidence defines an Analyzer that compares what documents say
// about harness runs with the runs' own evidence.
//
// # Analyzer evidence
//
// evidence: check documents' claims about harness runs against the runs' evidence
//
// Documents cite runs by absolute path in a code span: a run directory
// ("Run artifact directory: `/…/harness-runs/20260601T013918Z-r1-string-slugify-2381028`")
// or its report ("`/…/20260601T025817Z-r1-string-slugify-2907822/report.json`").
// When the cited run exists on this machine the check loads it, re-verifies
// it as `sotvet harness verify` does, and compares the facts the document
// states about it with its report.json. The check reports, by category:
//
//   - mismatch (error): a fact that disagrees with the report, at the
//     fact's value.
//   - invalid-evidence (error): a cited run directory that fails
//     verification (a digest, the event chain, a required field...), at the
//     document's first citation of it.
//   - missing-evidence: a cited run that does not exist here. Runs usually
//     live on another machine, so this is not reported unless
//     -report-missing is set, and then as a warning.
//
// A path names a run when it ends in report.json, when it is a directory
// holding report.json, or when it sits directly under a runs root: a
// directory named harness-runs, or the old side of a -runs-root mapping.
// Other paths (files inside a run, binaries, checkouts) are not runs.
// -runs-root old=new (repeatable, or comma-separated) reads the runs under
// old from new instead, so that
// -runs-root=/home/svrnty/.hermes/profiles/cto-planb/harness-runs=/mnt/runs
// checks a copy of the user's runs; a path starting with ~/ is taken from
// the home directory.
//
// The facts compared are "- key: value" bullets whose key is, ignoring
// case, "_" for spaces and a code span around the key:
//
//   - report status, run status: pass, fail or blocked (status);
//   - backend, engine: the backend id (backend);
//   - backend exit code: a number, or none (backend_exit_code);
//   - exit code, run exit code, harness exit code: a number (exit_code);
//   - changed files: code spans, or none (changed_files, as a set);
//   - tests passed, verification passed, required events passed, allowed
//     writes passed, forbidden paths passed, case process started, backend
//     process started: true or false;
//   - source admission status, approval status, sandbox, fixture, case id,
//     run id: a word;
//   - the staged proof ladder: stage, proof stage: a number (stage); mutation
//     mode, approval id, consumed by pass evidence: a word; approval
//     consumed, operator outcome required: true or false; source repository
//     mutated, source mutated: true or false (the negation of
//     source_non_mutation.unchanged); operator outcome: accepted, rejected
//     or none, read from the run's outcome.json (sotvet harness outcome).
//
// A run cited in a section whose heading names a stage ("## Stage 3 -
// Copied Repo Fixture") is also compared with that stage: a staged run at
// another stage is a mismatch at the citation, so evidence filed under the
// wrong rung of the ladder is caught. And a "Status: validated ..." line in
// such a section is a mismatch when the section cites staged runs on this
// machine but none of them is a verified pass at that stage with the
// accepted operator outcome its report requires.
//
// A value is compared only when it is plainly one of those, optionally in
// a code span and with a final period: "Report status: `fail`." is
// compared, "Report status: `fail` until the rerun" is prose and is not.
//
// A fact belongs to the run cited nearest before it in the same section (a
// section runs from its heading to the next heading of the same or a
// higher level, so a run cited under "## Evidence" also covers its "###"
// subsections); failing that, to the first run cited after it under the
// same heading. A fact with no run in its section is not compared. Only
// the first citation of a run in a document is checked for missing or
// invalid evidence.
//
// Documents also cite Core Route Admission Guard records (sotvet guard):
// a record file (".../guards/guard-….json") or a guards directory (every
// record in it). Each is verified as sotvet harness verify does (seal,
// trusted keys, and a verdict its checks give); one that fails is
// invalid-evidence at its citation. The document's Route State facts —
// guard_status, core_route_admission_status, blocked_reason,
// next_allowed_action — are then compared with the latest verified record
// cited (by start time), as mismatches with the record's citation as the
// related location:
//
//   - a claim that the guard passed (guard_status: pass,
//     core_route_admission_status: admitted) needs that record to say so,
//     whatever its age; with no verified record cited it is a mismatch;
//   - any other fact is compared when the record is not older than the
//     document's last_reviewed (else created) day: a record of the same
//     day or later that disagrees means the document is stale.
//
// Flags:
//
//   - -runs-root: old=new mappings of run directory prefixes.
//   - -report-missing: report cited runs that do not exist here.
//   - -trusted-keys: ed25519 public keys (base64) one of which must have
//     signed each cited run; an unsigned run is then invalid evidence
//     (default: sotvet.yaml's trusted-keys).
package evidence

import _ "embed"

//go:embed doc.go
var doc string
