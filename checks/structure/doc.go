// Package structure defines an Analyzer that checks the outline of the
// workspace's documents: required PRD sections, the status and acceptance
// of ISSUES work items, one H1, heading levels, and duplicated lines.
//
// # Analyzer structure
//
// structure: check document outlines: PRD sections, work items, headings, repeated lines
//
// Categories:
//
//   - missing-section: a PRD (a "-PRD.md" document) lacks a section the
//     -prd-sections list requires. A section is a heading of any level whose
//     text equals one of the alternatives, compared case-insensitively with
//     hyphens read as spaces and a trailing colon ignored ("Non-goals"
//     matches "Non-Goals"). Reported at the H1 (or the start of the body).
//   - item-status: a work item of an ISSUES document with no "Status:" line
//     in its section, or an empty one.
//   - item-acceptance: a work item of an ISSUES document with no acceptance:
//     neither task checkboxes in its section nor an "Acceptance:",
//     "Acceptance criteria:" or "Acceptance evidence:" label or heading
//     followed by a list or by text on the label's line; or such a label
//     followed by nothing.
//   - h1: a document with no H1 heading, or a second (third, ...) H1.
//   - heading-level: a heading more than one level deeper than the heading
//     before it (an H3 right after an H1).
//   - duplicate-line: a body line identical to the line before it, both
//     non-blank, outside fenced code blocks and tables; lines that are only a
//     list marker or task box, thematic breaks and setext underlines ("---",
//     "***", "==="), and lines that are only an HTML tag are not compared.
//     The suggested fix deletes the repeated line.
//   - near-duplicate-line (warning): a list item that restates the list
//     item right before it in other words: the two differ, but their words
//     are the same once the framing words (-framing-words: "require",
//     "occurs", "is", ...) are dropped ("- Require no Target Repository
//     path exposure." then "- No Target Repository path exposure."). Items
//     that differ in any other word ("Aggregate validator passed" then
//     "Post-merge aggregate validator passed", "edit upstream `a`" then
//     "edit upstream `b`") are parallel statements, not repeats. Not
//     compared across a blank line, a paragraph or a blockquote. Two items
//     also restate each other when they state the same fact in other
//     words: the same content words in any order, each cut to its stem
//     ("expose", "exposure"), with the same polarity ("No X", "X: none",
//     "X does not occur", "X doesn't occur" and "Must not X" all deny X);
//     "Require X review" then "No X review" deny each other and are not a
//     restatement.
//
// Why the default PRD sections are few. The PRDs of the cto-planb corpus
// follow four conventions:
//
//   - most (21 of 31): Problem Statement (once just Problem), Solution,
//     Scope, Non-Goals, Acceptance Criteria, Validation, Success
//     Definition, often with User Stories, Risks and Dependencies;
//   - evidence-route PRDs (4): the same without Success Definition, ending
//     in Required Evidence;
//   - short PRDs (4): Problem, Scope, Non-goals, Acceptance Criteria,
//     Validation, and sometimes Success Definition, without Solution;
//   - two older shapes: the Case candidate backend PRD (a user-story PRD:
//     Problem Statement, Solution, User Stories, Implementation Decisions,
//     Acceptance Criteria, Validation, Success Definition, Out of Scope;
//     no Scope or Non-Goals section) and the Case provider admission PRD
//     (Purpose, Current Evidence, Problem, Product Requirement, Required
//     Contract, Acceptance Evidence, Explicit Non-Goals).
//
// Every one of them states the problem, what is out of bounds, and how
// acceptance is judged; no other section is common to all. So the default
// requires exactly those three, with the names each convention uses:
//
//	Problem Statement|Problem, Non-Goals|Explicit Non-Goals|Out of Scope, Acceptance Criteria|Acceptance Evidence
//
// That raises no finding on a corpus PRD and still catches a PRD that has,
// say, no problem section at all. A workspace that follows one convention
// strictly sets the full list:
//
//	checks:
//	  structure:
//	    prd-sections:
//	      - Problem Statement|Problem
//	      - Solution
//	      - Scope
//	      - Non-Goals
//	      - Acceptance Criteria
//	      - Validation
//	      - Success Definition
//
// Why work items without a Status line are findings. Items CTO-WORK-003 to
// -011 of the corpus (the Case candidate backend, Stage 1 and Stage 2
// ISSUES documents) have no Status line; their workboard status had to be
// inferred from later documents (see the corpus RECONSTRUCTION.md). An
// issue document is where an item's state is recorded; without it nothing
// in the item says whether it is open or done, and the status check cannot
// compare it with the workboard. Acceptance may be written as task boxes
// ("Acceptance criteria:" with "- [ ]" items) or as a plain list after
// "Acceptance:"; the corpus uses both.
//
// Flags:
//
//   - -prd-sections: the sections every PRD must have, as a comma-separated
//     list or a YAML list (in sotvet.yaml: a list of strings, each "A|B"
//     for either A or B, or a list of lists of alternatives); "A|B" means a
//     section named A or B. An empty value requires none.
//   - -framing-words: comma-separated words near-duplicate-line drops
//     before comparing two list items (default: require, requires,
//     required, ensure, ensures, record, records, keep, keeps, state,
//     states, must, should, shall, occur, occurs, happens, is, are, be).
package structure

import _ "embed"

//go:embed doc.go
var doc string
