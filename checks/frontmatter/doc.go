// Package frontmatter defines an Analyzer that checks the YAML frontmatter
// of planning documents against the workspace convention.
//
// # Analyzer frontmatter
//
// frontmatter: check document frontmatter against the workspace convention
//
// Every markdown document in scope must open with a YAML frontmatter block
// between two --- lines. The check reports, by category:
//
//   - syntax: a block that sotparse could not read: an opening --- that is
//     never closed, malformed YAML, a block that is not a mapping, a key
//     that is not a scalar or has a non-scalar value, and duplicate keys.
//     These are reported for every document, in scope or not, because no
//     other check owns them.
//   - missing: a document in scope without any frontmatter, reported at the
//     start of the file.
//   - required: a required key that is absent, reported at the opening ---
//     line, one finding per key. The default requirement is name or title,
//     status, owner, created, last_reviewed, core_promotion_status and
//     lifecycle_classification. A missing core_promotion_status has a
//     suggested fix that inserts "core_promotion_status: not-promoted" just
//     before the closing --- line: an unsafe fix (the classification is a
//     person's), applied only with --unsafe-fixes.
//   - empty: a required key that is present with an empty value.
//   - status: a status that is not in the status vocabulary (draft,
//     candidate, validated, blocked, plus -extra-statuses). A known status
//     written in the wrong case, such as "Validated", has a suggested fix that
//     lower-cases it.
//   - date: a created or last_reviewed value that is not a valid ISO
//     calendar date (YYYY-MM-DD).
//   - date-order: last_reviewed earlier than created.
//   - future-date: created or last_reviewed later than today (the local date,
//     or -today).
//   - unknown-key: a key that is neither one of the convention's keys (name,
//     title, tier, status, owner, source, created, last_reviewed,
//     lifecycle_classification, core_promotion_status, description, route)
//     nor listed in -allow-keys. It is a warning by default. When the key is
//     a known key in another spelling (Status, last-reviewed) the message
//     names the key that was probably meant.
//
// Flags:
//
//   - -scope: comma-separated doublestar globs of workspace-relative document
//     paths the document rules apply to (default ".sot/**"; root documents
//     such as CONTEXT.md are out of scope). A comma inside {a,b} belongs to
//     the glob.
//   - -require: comma-separated required keys, replacing the default list;
//     "a|b" requires a or b (default "name|title,status,owner,created,
//     last_reviewed,core_promotion_status,lifecycle_classification").
//   - -allow-keys: comma-separated extra keys that are not reported as
//     unknown.
//   - -today: the date future dates are judged against, YYYY-MM-DD (for
//     reproducible runs and tests).
//   - -extra-statuses: comma-separated statuses added to the vocabulary.
package frontmatter

import _ "embed"

//go:embed doc.go
var doc string
