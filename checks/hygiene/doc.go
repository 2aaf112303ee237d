// Package hygiene defines an Analyzer that reports the whitespace defects
// markdownlint reports in the workspace's documents, each with a fix.
//
// # Analyzer hygiene
//
// hygiene: report blank-line runs, blank lines at the end of a file and trailing spaces in documents
//
// Each rule has the markdownlint rule it follows; -rules selects them (by
// either name). Findings are warnings, and each has a suggested fix.
//
//   - blank-lines (MD012, no-multiple-blanks): two or more consecutive blank
//     lines. Reported at the second blank line; the fix deletes all but the
//     first. Fenced code blocks are not read.
//   - final-newline (MD047, single-trailing-newline): a file that does not
//     end with exactly one newline: no newline at the end, or one or more
//     blank lines after the last line of text. The fix leaves one newline.
//   - trailing-spaces (MD009, no-trailing-spaces): a line that ends in
//     spaces or tabs, outside fenced code blocks. As in markdownlint's
//     default (br_spaces: 2), exactly two spaces after text are a hard line
//     break and are not reported. The fix deletes them.
//
// Every workspace document is read (.sot/**/*.md and the markdown files at
// the root), frontmatter included.
//
// Flags:
//
//   - -rules: comma-separated rules to report, by sotvet or markdownlint name
//     ("blank-lines,MD047"); empty reports none. Default: all three.
package hygiene

import _ "embed"

//go:embed doc.go
var doc string
