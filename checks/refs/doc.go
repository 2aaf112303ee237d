// Package refs defines an Analyzer that checks the references documents
// make: .sot/ paths, frontmatter sources and work item ids.
//
// # Analyzer refs
//
// refs: check that .sot/ paths, frontmatter sources and CTO-WORK ids named in
// documents resolve, and that work items are defined once, under the title
// the workboard gives them.
//
// The check reports, with these categories:
//
//   - missing-path: a .sot/ path in a document's body that names no file or
//     directory of the workspace. A path ending in a slash names a directory.
//     Globs and placeholders (a path continuing with *, <, {, $ or …, as in
//     .sot/03-PROTOCOLS/*.md or .sot/NN-…/) are not checked. Paths prefixed
//     by another directory (cto/.sot/...) or absolute paths name other trees
//     and are not .sot/ references.
//   - missing-source: a frontmatter source whose first word is a path (it
//     contains a slash or ends in .md, .yaml or .json) that does not exist.
//     A bare file name resolves when a workspace file of that name exists
//     anywhere. Other sources ("conversation"), URLs, absolute paths and
//     paths leaving the workspace are not checked.
//   - unknown-id: a CTO-WORK id mentioned in a document under .sot/ that the
//     workboard does not list. Each id is reported once per document, at its
//     first mention. Nothing is reported when there is no WORKBOARD.yaml, or
//     when it could not be read in full (the workboard check reports why).
//     Documents at the workspace root (README.md, CONTEXT.md and the like)
//     describe the workspace rather than plan it and may discuss ids that do
//     not exist; they are not checked for unknown ids.
//   - conflicting-definition: a work item defined by heading
//     ("### CTO-WORK-009 - Title", "## Issue: CTO-WORK-078 - Title" or
//     "## CTO-WORK-064: Title") in two places with different titles. The
//     definition in the document the workboard names as the item's source
//     comes first, then the others in path order; every later definition is
//     reported, naming the first one's document and both titles.
//   - duplicate-definition: the same, with the same title.
//   - title-mismatch: a definition whose title differs from the workboard's
//     title for the id. Titles are compared ignoring case, punctuation and
//     white space, so "Fail-Closed" matches "fail closed". A heading already
//     reported as a conflicting definition is not reported again here.
//
// Each path is reported once per document, at its first mention.
package refs
