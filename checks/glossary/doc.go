// Package glossary defines an Analyzer that checks that the terms documents
// say CONTEXT.md defines are defined there, and that every glossary entry
// has a definition.
//
// # Analyzer glossary
//
// glossary: check that terms documents say CONTEXT.md defines are defined there
//
// CONTEXT.md at the workspace root is the glossary: entries of the form
// "**Term**:" or "**Term** (qualifier):" followed by the definition. A
// document claims that CONTEXT.md defines a term in one of these forms
// (the file name may be a code span, emphasised or a relative path; the
// verbs are matched case-insensitively):
//
//   - "`CONTEXT.md` defines X." (also "now defines", "also defines",
//     "must define", "should define", and "defines the term X" or "defines
//     two terms: X and Y");
//   - "Add X to `CONTEXT.md`." (also "adds", "added", "adding");
//   - "X is added to `CONTEXT.md`", "X was added to ...", "X is defined in
//     `CONTEXT.md`" (also "are", "were", "has been", "have been").
//
// X is a code span, a bold or emphasised phrase, a double-quoted phrase, or
// a Title Case phrase ("Core Route Admission Guard": capitalised words,
// with "of", "for", "the", "to", "in", "on" allowed between them), or a list
// of those joined by commas, "and" or "or"; a parenthetical after a term is
// skipped. A Title Case phrase must end the sentence or be followed by
// punctuation or a word such as "as", "and", "with", "for" or "to";
// otherwise the phrase may go on in lower case ("Same-run fake baseline")
// and the sentence is not read as a claim, rather than guess at the term.
// Leading sentence words ("The", "Then", "Also", ...) are not part of a
// Title Case subject. Sentences that name no such term ("Add the new
// vocabulary to CONTEXT.md") are not claims.
//
// Claims are read in paragraphs, list items, headings and table rows, not in
// fenced code blocks or blockquotes, nor where the verb lies inside a code
// span. Terms are looked up case-insensitively; a plural ("Core Protocols")
// matches the singular entry.
//
// Categories:
//
//   - undefined-term: the glossary has no entry for a claimed term. When an
//     entry differs only in hyphens, spacing or punctuation the message
//     names it.
//   - empty-definition: a glossary entry with no definition (only white
//     space, or only an "_Avoid_:" line).
//   - missing-glossary: a document claims CONTEXT.md defines a term but the
//     workspace has no CONTEXT.md. (A CONTEXT.md that could not be read is
//     the syntax check's business.)
package glossary

import _ "embed"

//go:embed doc.go
var doc string
