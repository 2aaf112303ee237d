// Package workboard defines an Analyzer that checks the work item register,
// WORKBOARD.yaml.
//
// # Analyzer workboard
//
// workboard: check WORKBOARD.yaml for malformed items, bad or duplicate ids,
// unknown statuses, broken or circular blocked_by lists and missing source
// documents.
//
// WORKBOARD.yaml is a mapping with one key, items, whose value is a list of
// work items. Each item has the keys id, title, status and source, and may
// have blocked_by, a list of work item ids. A workspace without a
// WORKBOARD.yaml is not a finding of this check.
//
// The check reports, with these categories:
//
//   - syntax: YAML that cannot be read as a workboard (syntax errors, a
//     missing or malformed items list, duplicate keys, values of the wrong
//     shape).
//   - schema: an item without one of the required keys, with an empty
//     required value, or with a key the workboard does not define.
//   - id-format: an id that does not match the -id-pattern regular
//     expression (default ^CTO-WORK-\d{3,}$).
//   - duplicate-id: an id used by an earlier item too; the later items are
//     reported.
//   - status: a status outside the status vocabulary (draft, candidate,
//     validated, blocked, plus the statuses given to -extra-statuses). A
//     status such as "unknown" is a finding: the register must say where each
//     item stands.
//   - missing-blocker: a blocked_by entry naming an id that no item has.
//   - cycle: an item blocked by itself, and every dependency cycle among
//     blocked_by lists. Each group of mutually blocking items is reported
//     once, at the item with the smallest id, with one cycle through it, as
//     in "CTO-WORK-004 -> CTO-WORK-007 -> CTO-WORK-004".
//   - missing-source: a source naming a document that does not exist in the
//     workspace. A source is a workspace-relative path such as
//     .sot/03-PROTOCOLS/CTO-X-ISSUES.md; a bare file name also resolves when
//     a workspace file of that name exists. Values that are not paths (no
//     slash and no .md, .yaml or .json suffix), URLs, absolute paths and
//     placeholders are not checked.
//
// Mentions of ids in documents are checked against the workboard by the refs
// check.
package workboard
