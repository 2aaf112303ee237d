// Package contradiction defines an Analyzer that reports records of the
// workspace that disagree with each other about what was approved, which
// path is primary, what a run proved, and which items exist.
//
// # Analyzer contradiction
//
// contradiction: report records that disagree across documents about approvals, roles, test results, closeouts, readiness and ids
//
// Each rule compares statements of the typed model (facts, work ids,
// commits, statuses) across documents. Every finding names each
// contradicting place as a related location (a note line in text output)
// with the sentence that makes it one, and says what would resolve it.
// Categories, with their default severity:
//
//   - role (error): a provider/model pair that one statement makes the
//     primary (or default) path and another the fallback (or backup,
//     secondary). Each statement is read into a fact (the pair, its role):
//     a sentence that names the pair ("`qwen-local` / `qwen3.6`",
//     "`openai-codex` with model `gpt-5.5`", "`x`, model `y`", "`x` (model
//     `y`)", or in plain text "x with model y" where the workspace names
//     that pair elsewhere) within five words of a role word or the verb
//     "falls back to", with no other pair and no negation between them; a
//     table row whose header names provider and model columns and one of
//     whose other cells is a role word; a section's key: value facts
//     ("fallback_provider", "fallback_model" beside "provider", "model",
//     the unprefixed pair being the primary one). A sentence that is
//     hedged ("may be recorded as the primary ... only when", "if",
//     "unless", a question; "when", except for "falls back") states a
//     branch, one placed in the past ("Before 2026-05-31", "previously",
//     "superseded") history, and a role after a possessive ("its own
//     primary model") another owner's: none is read. The statements of the
//     role fewer statements give are reported, each with every statement
//     of the other role.
//   - copied-results (warning): two documents that report the same test
//     counts in the same order ("5 passed", "103 passed, 4 skipped", "107
//     passed", at least two of them) for different commits, with no commit
//     in common. Counts are read wherever the text gives them (a fact, a
//     table cell, a sentence, with a timing or not: "5 passed in 0.41s"),
//     and commits wherever it names one ("... commit: `sha subject`",
//     "Commit 154d835 (...)"); the labels may be reworded, the counts are
//     what was copied. Different code that passes exactly the same counts
//     at every step is the mark of a copied section; rerunning the tests
//     for the commit resolves it.
//   - approval-timeline (error): a document that says approval was not
//     granted while it cites, as its own evidence, a run which another,
//     validated, document cites as the evidence of a run that passed (it
//     records a "... passed: true" or "... status: pass" fact, or a test
//     count). The denial is read as a fact: "approval_granted: false",
//     "approval granted: no", "approval status: pending", or a sentence
//     ("JP has not approved this execution", "Approval: not granted.",
//     "approval has not been given") without a condition; a document that
//     records a grant denies nothing. A run is its directory: a cited file
//     of it (report.json, a proof), in a code span, a table cell or alone
//     on a line of a fenced block, or the directory itself when a file of
//     it is cited somewhere. A citation labelled as a failed or blocked
//     run, or as context ("Context only, not evidence for this request"),
//     is not evidence of a pass. The approval the record says is missing is
//     the one the run needed: record the grant, or stop pointing at the
//     later run.
//   - superseded (warning): a document whose frontmatter status is
//     "blocked" that says an item is not to be validated while the
//     workboard and another, validated, document say it is ("`ID` is
//     validated ...", "`ID`: validated."), and neither document links to
//     the other (by its .sot path or its file name). The instruction is
//     read as a fact (the item; not to be validated) in any of its forms:
//     "Do not mark `ID` validated", "`ID` must not be marked validated",
//     "`ID` must remain candidate", "Leave `ID` unvalidated", "Nobody may
//     set `ID` to validated", "Validated status for `ID` is not allowed",
//     emphasis, or a table row whose other cell says "no". A clause with a
//     condition or a scope ("until the Harness produces a pass", "on this
//     attempt") is no standing instruction, nor is what this document does
//     ("This attempt does not validate `ID`"). Linking the blocked attempt
//     to what superseded it (or marking it superseded) resolves it.
//   - closeout-workboard (error): a closeout whose "Workboard" section
//     (a heading that starts with the word: "Workboard Items Closed")
//     lists fewer work items than its route's required phrases name,
//     among the items the route's documents define ("## Workboard" lists
//     `CTO-WORK-075` while the route requires the phrase "CTO-WORK-074"
//     and defines both). Ids of other routes a phrase names are
//     references, not items the closeout closes, and so are items the
//     workboard gives another status than validated ("CTO-WORK-074 remains
//     candidate"): a closeout closes only validated items.
//   - circular-readiness (error): a work item whose section says it needs
//     another item first while that item is blocked by it (its "Blocked
//     by" line or its workboard blocked_by): neither can be done first.
//     The need is read as a fact (this item needs that one) from the ids
//     listed under a label or a table header that names it ("Readiness
//     packet:", "**Needs first:**", "| Needed first | Item |"), or from a
//     sentence of the item's section with "requires", "depends on",
//     "prerequisite", "needs ... first" or "cannot start before" (the ids
//     after the verb; none when another item is its subject); "is not a
//     prerequisite" denies it. Two items whose Blocked by lines name each
//     other, where a document states one side, are the same cycle (one the
//     workboard alone states is the workboard check's).
//   - misplaced-guard (warning): a guard sentence that names a kind of
//     document ("This closeout does not authorize another Case run.",
//     "State: This record is not execution evidence.") in a document of
//     another kind whose route has no document of that kind, and whose
//     route stem does not name it either: a sentence pasted from another
//     kind of document, claiming this one is something it is not. A
//     closeout's PRD may require its closeout's guard; a PRD of a route
//     without a closeout may not. The guard is read as a fact (this
//     document, of kind K, does not do X) whatever its form: another verb
//     ("This closeout grants no further run"), the other word order
//     ("Another Case run is not authorized by this closeout"), emphasis,
//     a list item of any section, or a table cell.
//   - mislabeled-command (warning): a command that some statements label
//     as the harness's ("- Harness command: `python3 -m pytest -q`") and
//     others as the target repository's test command ("Tests command",
//     "target validation command", "validation command"): the label fewer
//     places give is reported, with the places that give the other. Each
//     statement is read into a fact (the command, whose it is): a key:
//     value fact whose value is the one code span, a sentence or table row
//     with one code span (a command, with arguments) whose other words
//     name one owner ("`...` is the CTO Harness's own validator command",
//     "| Harness command | `...` |", "Record names the Harness command
//     `...`"), or a one-line fenced block under a label ("Harness
//     command:"). Harness words are "harness" and "self-test"; target words
//     "target", "test(s)", "validation", "repository"; a label with both, or
//     neither ("New command", "command"), names no owner, and a denied
//     owner ("not by the target repository", "is not a Harness command")
//     is none. An even split has no majority to judge by and is not
//     reported.
//   - missing-id (warning): a gap in the sequence of work ids the workboard
//     and the work item headings define ("CTO-WORK-050", "CTO-WORK-054"
//     and nothing defining 051 to 053). Mentions of ids in the gap are
//     named as related places; a gap is reported only when the workboard
//     could be read whole, and not when every id in it is recorded as
//     skipped on purpose: a document line or a workboard comment that
//     names the ids, or their range ("CTO-WORK-051..053", "`CTO-WORK-051`
//     to `CTO-WORK-053`"), with "skipped", "unused", "reserved",
//     "withdrawn", "intentionally", "on purpose" or "not assigned".
//   - stale-record (error): a record document (kind RECORD) whose own
//     document-level Status line denies its subject ("Status: not admitted
//     for execution." in the "Case Source Admission Record": "not" and a
//     word sharing a stem with the last word of the title), and a
//     validated document of another kind, created after the record was
//     last reviewed, with a fact that says the subject holds: its key
//     starts with a phrase of two words or more that ends the record's
//     title ("- source admission freshness: current"), or, in a document
//     that links to the record's path, names the title's last word; its
//     value starts "current", "admitted", "resolved", "validated" or
//     "fresh". A statement in prose says the same when it is read into the
//     same fact: a bullet, sentence or table row that names the subject
//     phrase followed (past words such as "status", "is", "remained",
//     "still") by "current", "admitted", "resolved" or "fresh" ("- source
//     admission status remained current", "| source admission | current
//     |"), or such a word just before the phrase ("Still current: the
//     source admission"), or the phrase's first words with a word of its
//     last word's stem ("the Case source is admitted"). A line with a word
//     that negates, conditions or requires ("not", "cannot", "isn't",
//     "nobody", "if", "until", "require", "must", "confirm", "before" ...)
//     states no fact. The later
//     evidence claims what the record still denies: update the record, or
//     say why the evidence may claim it.
//   - provenance (warning): a fact that gives a proof's approval source
//     ("- approval_source: JP chat instruction on 2026-06-02 ...") other
//     than what the proof artifact records, as quoted by a document that
//     cites the same artifact (an absolute path: "Both Stage 5 proof
//     artifacts record approval_source as `JP chat approval on
//     2026-06-01`."), or as a JSON record the document links holds it in
//     its approval_source field. They differ when both give a date and
//     the dates differ, or when the source's words before its date differ
//     ("JP chat approval" and "JP chat instruction"). A warning: the
//     quoting document may already say why they differ.
//
// Sentences are read line by line, outside fenced code blocks and
// blockquotes, which are never statements; a code span is quoted text (an
// id, a name, a command), never a sentence word. In a run focused on some
// files (an editor, a pre-commit hook), the other documents' sentences are
// read only when a finding in focus depends on them.
package contradiction

import _ "embed"

//go:embed doc.go
var doc string
