// Package consistency defines an Analyzer that reports statements of one
// document that another statement of the workspace contradicts: the
// document's own frontmatter against its items and dates, its headings
// against each other, its counts against its sequence, its statements
// about a JSON record against the record, and its frontmatter schema
// against the schema of the documents of its kind.
//
// # Analyzer consistency
//
// consistency: report documents whose frontmatter, headings, counts or record statements contradict the workspace
//
// Each finding names the place that contradicts it as a related location
// (a note line in text output). Categories, with their default severity:
//
//   - draft-complete (warning): a document whose frontmatter status is
//     "draft" while it defines work items and every one of them is
//     validated. The fix sets the status to validated: an unsafe fix
//     (it asserts a validation), applied only with --unsafe-fixes. A
//     BLOCKER document is not judged: whether a blocker is over once its
//     items are validated is its author's call (the stage it blocks may
//     still be blocked).
//   - stale-review (warning): a last_reviewed date older than the newest
//     date the body itself records: a dated heading ("## Runtime Evidence -
//     2026-06-01") or a run directory's timestamp
//     ("harness-runs/20260601T025817Z-...") anywhere in the body, dates no
//     later than today. The fix bumps last_reviewed to that date: an
//     unsafe fix (it asserts a review), applied only with --unsafe-fixes.
//   - duplicate-heading (error): the same heading text twice at the same
//     level under the same parent heading, with different bodies: a reader
//     who follows one misses the other. (Identical bodies are a pasted
//     section, which structure's duplicate-line catches line by line.)
//   - date-order (warning): sibling headings that carry dates (same level,
//     same parent) out of chronological order: a heading dated before a
//     sibling placed above it. A journal reads top to bottom. Siblings
//     dated the same day are ordered by the runs they record: a section
//     whose newest run directory timestamp ("20260601T022100Z") is older
//     than the newest run a section placed above it records reads as
//     newer evidence than it is (a "still blocked" entry placed after the
//     pass that ended the block); sections that record no run are not
//     compared.
//   - count-mismatch (warning): a document that defines work items and says
//     how many its sequence has ("This is intentionally two slices", "split
//     into 3 issues") while it defines a different number. Numbers are
//     digits or the words one to twelve.
//   - record-contradiction (error): a statement about an admission record's
//     status (model-provider "status", target-repository "admission_status")
//     that the record contradicts, in the section (the innermost heading's)
//     that names the record by its path: "- Admission status: `admitted`",
//     "- `admission_status`: `not_admitted`", "Admission JSON has `status`:
//     `admitted`", "The record is `not_admitted`". Only the values admitted
//     and not_admitted are compared. A section names a record by its path,
//     or by its title: a heading (below the H1, outside a TEMPLATE
//     document) that ends "Admission Record", "Admission JSON" or
//     "Admission File" and whose words before that noun (after a work
//     item's id) are the record's file name up to its first dot, a number
//     joined to the word before it, but for the leading words every record
//     file name of the workspace shares ("CTO Case"), and at least three
//     ("CTO-WORK-040 - Stage 5 Target Repository Admission Record" names
//     CTO-CASE-STAGE5-TARGET-REPOSITORY-ADMISSION.json; "Stage 4 Target
//     Repository Admission Record" and "Other Repo Target Repository
//     Admission Record" do not). With one record file, whose prefix is
//     unknown, the last three or more of its words.
//   - schema-drift (warning): documents of one kind (by file-name suffix)
//     that identify themselves with different frontmatter keys: `name` (a
//     slug) with `tier` and `description`, `title` with `route`, `name` as
//     a title ("CTO Case ... PRD"). The schema of a document is the set of
//     its keys among name, title, tier, description and route, with the
//     style of its name. A schema used by more than half the documents of
//     the kind is its convention, and each other document is reported
//     once, at its frontmatter, with the majority in the message. A kind
//     with no such majority (a tie, or 13, 13 and 6 of 32) has no
//     convention: nothing is reported. When -schema declares the keys the
//     workspace wants, every document whose keys differ is reported
//     instead.
//
// Flags:
//
//   - -schema: the identity keys every document must have, comma-separated
//     ("name,tier,description"); empty (the default) compares documents with
//     the majority of their kind.
package consistency

import _ "embed"

//go:embed doc.go
var doc string
