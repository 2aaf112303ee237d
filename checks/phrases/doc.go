// Package phrases defines an Analyzer that checks that required phrases
// appear in the documents that must contain them.
//
// # Analyzer phrases
//
// phrases: check that required phrases appear where they are required
//
// Planning documents list the exact phrases their evidence must contain in
// "Required Phrases", "Required Evidence" and "Validator Summary Phrases"
// sections; the old Python validator held more such lists in its code. The
// check reports, by category:
//
//   - missing-phrase: a required phrase that is not in the document it is
//     looked for in. A phrase of a section is reported at its list item; a
//     phrase of a configured rule at the H1 of the document the rule applies
//     to (at the start of its body when it has no H1), or at the heading of
//     the work item the rule names. The message names the document searched.
//   - missing-target: a configured rule whose "in" names a document the
//     workspace does not have (reported where the rule applies), or whose
//     work item no document defines (reported at the item's WORKBOARD.yaml
//     entry when there is one; otherwise there is nothing to report at).
//
// Where a section's phrases are looked for. A route is the set of
// documents that share a file-name stem (CTO-X-PRD.md, CTO-X-ISSUES.md and
// CTO-X-CLOSEOUT.md form route CTO-X). The phrases of a section in any
// document of a route must appear in the route's target: its document of
// the first -targets kind the route has (default EVIDENCE, then CLOSEOUT,
// then RECORD; every document of that kind when there are several, in
// different directories, and a phrase in any of them counts). A route with
// none of those kinds is its own target: each document's phrases must
// appear in the document itself. In the reference corpus the PRD's
// Required Evidence and the ISSUES document's Required Phrases are checked
// against the CLOSEOUT (CTO-ENDGOAL-COMPLETION-AUDIT-ISSUES.md against
// CTO-ENDGOAL-COMPLETION-AUDIT-CLOSEOUT.md), and a CLOSEOUT's own
// Validator Summary Phrases against the CLOSEOUT itself.
//
// When the target is the document holding the list, the list's own section
// (from its heading to the next heading of the same or a higher level) is
// not searched: a list cannot satisfy itself. Every other part of the
// target's body is, phrase lists included.
//
// Matching. Both the phrase and the target body are compared in plain
// text form (sotparse.PlainText): code-span backticks and emphasis markers
// (*, **, __) are removed and runs of white space collapse to one space, so
// "changed files: `src/strings.py`" matches "changed files: src/strings.py"
// across a line break. Otherwise the comparison is exact: case,
// punctuation and word order count, and a table row "| Cortex governs |
// proven |" does not say "Cortex governs: proven".
//
// Configured rules. -rules (in sotvet.yaml, checks: phrases: rules:) is a
// YAML list of requirements, the way a team moves the hard-coded lists of
// a validator into data:
//
//	checks:
//	  phrases:
//	    rules:
//	      - docs: .sot/03-PROTOCOLS/*-CLOSEOUT.md
//	        in: self
//	        phrases: ["Do not activate Case as default backend."]
//	      - item: CTO-WORK-077
//	        in: route
//	        phrases: ["completion_status: complete"]
//
// Each rule has exactly one of docs (a doublestar glob of document paths)
// or item (a work item id: the rule applies to each document that defines
// the item with a heading); in, where the phrases are looked for: "self"
// (the document the rule applies to, all of it), "route" (its route's
// target, as for sections; the default) or the workspace-relative path of
// a document; and phrases, a non-empty list. Unknown or duplicate keys and
// malformed rules are configuration errors, reported at the setting. The
// default is no rules.
//
// Flags:
//
//   - -scope: comma-separated doublestar globs of the documents whose
//     phrase sections are checked (default ".sot/**"). Configured rules
//     name their documents themselves.
//   - -targets: comma-separated document kinds, in order of preference,
//     that a route's phrases are looked for in (default
//     "EVIDENCE,CLOSEOUT,RECORD").
//   - -sections: comma-separated phrase sections whose lists are checked
//     (default "Required Phrases,Required Evidence,Validator Summary
//     Phrases").
//   - -rules: the configured requirements, as above.
package phrases

import _ "embed"

//go:embed doc.go
var doc string
