// Package status defines an Analyzer that checks that the statuses the
// workspace gives documents and work items agree with each other.
//
// # Analyzer status
//
// status: check that document, work item and workboard statuses agree
//
// Statuses are judged only when they are words of the status vocabulary
// (draft, candidate, validated, blocked, plus -extra-statuses); anything
// else ("Status: not admitted for execution.") is prose this check does not
// interpret. The check reports, by category:
//
//   - doc-status: a document-level body line "Status: X." (one outside any
//     work item section) whose whole value is a single vocabulary status that
//     differs from the frontmatter status. A line that qualifies the status
//     ("Status: validated for copied-repo fixture proof on 2026-06-01",
//     "Status: validated as an approval packet only") describes a stage or a
//     facet, not the document, and is not compared.
//   - workboard-mismatch: a work item whose Status line in its defining
//     document gives a vocabulary status different from the status of the
//     WORKBOARD.yaml item with the same id, when no other document states the
//     workboard's status for that item.
//   - unchecked-acceptance: a validated work item with unchecked acceptance
//     checkboxes, reported at the first unchecked box.
//   - blocked-by-open: a validated work item whose "Blocked by" line names an
//     item that is not validated. The blocker's status is its workboard
//     status, or, when the workboard lacks the item or its status, the
//     Status line of its defining document; a blocker with neither is the
//     refs check's business.
//   - remains-blocked: a validated work item that its own document says
//     "remains blocked".
//   - pending-validation (warning): a result document (EVIDENCE, CLOSEOUT,
//     RECORD, AUDIT) whose frontmatter status is validated while one of its
//     facts (a "- key: value" item, a table row, a bold label) records a
//     validation as not yet run: a key that names a validation (a command,
//     "python3 tools/validate_cto_child.py", or a label with "validat",
//     "test", "check", "health", "lint" or "verif") and a value that is a
//     pending word ("required", "pending", "outstanding", "TBD", "not yet
//     run", "to be run", ...), alone or before a qualifier ("required
//     before final claim"). Nothing in the document supports its claim.
//     A PRD or an issue document that says a validator is required states
//     a requirement and is not read, nor is a section whose heading says
//     it is a template, requirements, a plan or what comes next, or a
//     possible outcome ("## Template", "## Next Stage", "### Option B"),
//     nor "required before Stage 6" (a later gate); a key another fact of
//     the document gives a result ("...: passed") is not pending. Reported once per
//     document, at the first such fact.
//
// Four more categories report staleness, as warnings: a statement the
// workspace has since overtaken. The newer status being right does not make
// the older statement right, but a reader who knows where the newer one is
// can trust the workspace again, so each names the place that contradicts
// it (a "related" location: a note line in text output, "related" in JSON,
// relatedLocations in SARIF):
//
//   - stale-issue: a work item that its defining document leaves
//     "candidate", "blocked" or "draft" on its Status line while
//     WORKBOARD.yaml and another document (in one of the forms below) say it
//     is validated. The fix sets the Status line to validated, and, when
//     every item of the document is then validated, the frontmatter status
//     too: an unsafe fix (it asserts a validation), applied only with
//     --unsafe-fixes, and offered only for an item whose acceptance boxes
//     are all checked (ticking one is for a person). An item with no Status line whose acceptance checkboxes are all
//     unchecked is stale in the same circumstances (reported at the first
//     box, without a fix).
//   - stale-remains-blocked: in the document that defines a validated item
//     and records its validation in a journal ("Result: `CTO-WORK-016` is
//     validated ..."), a statement outside the item's section that the item
//     remains blocked, placed after the validation, in a section dated after
//     it, or that is the last line of the file naming the item. An entry
//     placed before the validation and dated no later is history. A
//     sentence that dates itself ("On 2026-05-12, `CTO-WORK-016` remains
//     blocked") is dated by that day, as for stale-other-blocked; so is
//     one in the item's own section (remains-blocked).
//   - stale-blocked-by: a validated item whose "Blocked by" list still names
//     blockers: list items under an empty "Blocked by:" line (prose or ids),
//     or a "Blocked by:" value with prose besides its ids ("CTO-WORK-039 and
//     explicit JP selection"). A value made of ids only is the item's
//     dependency list, judged by blocked-by-open; "none" is no blocker.
//   - stale-other-blocked: a sentence whose subject is the id of an item
//     defined in another document, followed by a phrase of the "remains
//     blocked" family, while that item is validated: in the workboard, or,
//     when the workboard gives it no status, on every Status line that
//     defines it. The sentence may be history written before the
//     validation, so it is reported only when nothing dates it before: a
//     sentence in a section dated earlier than the journal entry of the
//     item's defining document that validates it is history and is not
//     reported; one that nothing dates says so in its message. Each
//     document is reported once per item, at its last such sentence, with
//     the workboard entry and the defining Status line as related places.
//     A section whose heading starts "Branch", "Option", "Alternative",
//     "Scenario" or "If" describes a possible outcome: what it says stays
//     blocked is not read, nor a sentence that states a condition ("If the
//     record is revoked, `CTO-WORK-016` remains blocked."), nor one that a
//     phrase set off before its subject places in the past ("Originally,",
//     "In the superseded plan,", "Before the record landed,", "(at that
//     point)", "Minutes:"); a phrase that contrasts the past with now
//     ("Unlike the old design,", "Since the re-plan,") does not. A
//     sentence that dates itself ("On 2026-05-12,", "As of 2026-06-05,",
//     "Per the 2026-05-28 standup,", "Status 2026-06-04:") is an entry of
//     that day, dated by it rather than by its section: history unless the
//     validation is dated and the sentence's day is on or after it; a date
//     that opens a span reaching now ("Since 2026-05-12,") dates nothing.
//     The sentence is read into the fact "these items
//     remain blocked" whatever its form: the id list may also be the
//     subject of a later clause ("The endpoint answered, but `CTO-WORK-016`
//     remains blocked") or of a clause after a verb that reports a
//     finding ("we confirmed that `CTO-WORK-016` stays blocked"; not
//     after a request, a modal, a negation or in a question, and history
//     when the reporting words are: "The May retro recorded that"),
//     follow a noun that names it ("The Stage 2 item `CTO-WORK-016`
//     continues to be blocked", "Both `CTO-WORK-016` and ..."), have an
//     aside before the verb, which frames the claim as a phrase before it
//     would ("`CTO-WORK-016` (checked 2026-06-03) stays blocked" is dated;
//     "(at the time)" makes it history, "(if the audit fails)" a
//     condition; "(filed 2026-05-10)" dates another event, not the
//     claim), follow a label that says
//     it ("Still blocked: `CTO-WORK-016`"), or fill a table row with the
//     phrase ("| `CTO-WORK-016` | remains blocked |"); emphasis is ignored.
//   - stale-blocker: a sentence that names a validated item as what
//     something remains blocked by: the "remains blocked" family, or the
//     present "is blocked" ("is currently blocked"), followed by "by",
//     "on", "behind" or "pending" (with "only" or "solely" before them)
//     and the id list ("Stage 5 owned repository execution remains blocked
//     by `CTO-WORK-040`", "is still blocked on the item CTO-WORK-040"), or
//     by "until" and the id list's completion ("stays blocked until
//     `CTO-WORK-040` is validated"). A validated item blocks nothing. The
//     item may be defined in the same document. A past, a future, a modal
//     or a negation before the verb ("was blocked by", "will remain
//     blocked by", "would remain blocked by", "no longer remains blocked
//     by", "nothing remains blocked by", "used to remain blocked by"), a
//     sentence that states a condition ("If ..., Stage 5 remains blocked
//     by ...") or asks a question, a frame that places it in the past (as
//     for stale-other-blocked: "In the old design, Stage 5 remains blocked
//     by ..."), a code span or a quotation a later mark closes (an inch
//     mark hides nothing), a sentence dated before the validation by
//     itself (as for stale-other-blocked: "On 2026-05-12, ..."), and a
//     section about a possible outcome ("Branch ...") are not read; a sentence dated before the item's validation, or
//     placed before the journal entry of the same document that validates
//     it and dated no later, is history. Each document is reported once
//     per item, at its last such sentence, with the places that say the
//     item is validated; not when stale-other-blocked already reports the
//     document for that item (the same staleness). A plain "is blocked by"
//     whose subject is an id ("`CTO-WORK-041` is blocked by
//     `CTO-WORK-040`") declares a dependency, as a "Blocked by:" line
//     does, and is not read.
//
// The "remains blocked" family is data: "remains blocked", "remain
// blocked", "stays blocked", "is still blocked", "still remains blocked",
// "continues to be blocked", "is blocked pending", "is blocked until",
// "has stayed blocked", "has remained blocked", "has been kept blocked",
// "has been blocked since" and their plurals, plus -still-blocked.
//
// A work item is validated when the first word of its Status line is
// "validated". An item defined in two documents (the refs check reports
// that) is judged once per definition.
//
// Why workboard-mismatch needs a second document (and what stale-issue
// reports instead). WORKBOARD.yaml records the
// latest status any document gives an item. Issue documents are written
// before the work and are often not edited afterwards: the status of a
// candidate item is raised by a later evidence or closeout document
// ("`CTO-WORK-055` is validated." in the Stage 6 refresh evidence), while
// the issue text keeps "Status: candidate.". Such a workboard is right and
// the issue document merely older, so the disagreement is not reported when
// another document states the workboard's status for the item in one of
// these forms:
//
//   - a sentence whose subject is the id, or a list of ids, followed by
//     "is" or "are" and the status: "`CTO-WORK-055` is validated.",
//     "Result: `CTO-WORK-078`, `CTO-WORK-079`, and `CTO-WORK-080` are
//     validated." ("Do not mark `CTO-WORK-049` validated" does not count);
//   - a document about the item (it lists the id under a "Workboard"
//     heading, or has a "Work item: `ID`" line) whose own result is the
//     status: a document-level "Status: validated." line or a "- status:
//     validated" fact outside any work item section;
//   - a second definition of the item whose Status line gives the status.
//
// Without such a statement nothing in the workspace supports the workboard's
// value, and either the workboard or the document is wrong: an error. With
// one, the issue document is stale: a stale-issue warning when the
// workboard says validated, nothing otherwise.
//
// Why remains-blocked is narrow. Documents use "remains blocked" mostly about
// other things ("Real Case Stage 2 remains blocked until ...", "Stage 3
// remains blocked until copied-repo fixture proof exists", "Record says
// `CTO-WORK-024` remains blocked because ..."), and issue documents keep
// dated evidence journals ("## Spark vLLM Runtime Evidence - 2026-06-01")
// whose entries record the state on that day ("`CTO-WORK-016` remains
// blocked because no real Case Stage 2 pass report exists") next to the
// later entry that validated the item ("Result: `CTO-WORK-016` is validated
// for Stage 2 artificial fixture only"). So a statement is reported only
// when its subject is the item itself:
//
//   - anywhere in the document after the item's Status line, a sentence
//     that starts with the item's id (alone or in a list of ids) followed by
//     a phrase of the family, unless it is inside a code span or the
//     document also states, in the form above, that the item is validated
//     (the statement is then a journal entry, which stale-remains-blocked
//     judges);
//   - inside the item's own section, such a sentence even when the document
//     records the validation elsewhere, a sentence that starts "this issue",
//     "this item", "this work item", "the item" or "the issue" followed by
//     "remains blocked", and the bare sentence "Status remains blocked".
//
// A sentence "starts with the item's id followed by a phrase of the
// family" in any of the forms stale-other-blocked reads: the id list as
// the subject of a later clause, after a noun naming it, under a label
// that says it, or in a table row.
//
// Fenced code blocks and blockquotes are never read. List markers, task
// boxes and a leading "Label:" ("Result:") are skipped when finding a
// sentence's subject.
//
// Flags:
//
//   - -extra-statuses: comma-separated statuses added to the vocabulary.
//   - -still-blocked: comma-separated phrases added to the "remains
//     blocked" family.
package status

import _ "embed"

//go:embed doc.go
var doc string
