// Package prose defines an Analyzer that runs a team's Vale styles on the
// workspace's documents.
//
// # Analyzer prose
//
// prose: report what a team's Vale styles (.vale.ini) say about the prose of the workspace's documents
//
// The check is off until a Vale configuration is found: a .vale.ini (or
// _vale.ini) at the workspace root, or in a directory above it up to the
// repository root, or the file named by the -config flag (checks.prose.config
// in sotvet.yaml). It reads the configuration as Vale does: StylesPath,
// MinAlertLevel, Vocab (accept.txt entries are exceptions, reject.txt
// entries are reported as Vale.Avoid), [glob] sections with BasedOnStyles
// and per-rule settings (Style.Rule = NO, YES, suggestion, warning or
// error). Styles are read from StylesPath, which must lie inside the
// configuration's repository.
//
// Rules of the extension points existence, substitution, occurrence,
// repetition, capitalization, conditional and consistency run; rules of
// sequence, spelling, metric, readability and script are skipped, and each
// skipped rule is reported once as prose/skipped-rule, with the reason. A
// rule file that cannot be read is an error at its line and column.
//
// Markdown is scoped as Vale scopes it: headings, paragraphs, list items,
// table cells and block quotes, and the top-level string values of the
// front matter (scope frontmatter.KEY, within text); not code blocks, code
// spans, URLs, raw HTML or comments. The `sentence` scope splits blocks
// into sentences. A finding's code is prose/Style.Rule, at the line and
// column of Vale's alert, with Vale's message. Vale's suggestion level is a
// note, which never fails a run; warning and error are sotvet's. A
// substitution rule that names a single replacement offers it as a fix, and
// so does a capitalization rule whose action is replace.
//
// Beyond Vale, -only (checks.prose.only in sotvet.yaml) limits rules to
// documents of given kinds or statuses, or to sections: a list of entries
// {rules: [Style.Rule or Style.*], kinds: [PRD, EVIDENCE], statuses:
// [validated], sections: [Evidence]}. A rule that an entry names runs only
// where every field of one of its entries holds.
//
// Categories:
//
//   - skipped-rule (note): a rule of the styles in use that sotvet does not
//     run (sequence, spelling, metric, readability, script), said once at
//     the .vale.ini line that names its style, with the reason.
//   - Style.Rule: every rule of the team's styles is a category of its own
//     (prose/Google.Passive), at the level its style or .vale.ini gives.
//
// Flags:
//
//   - -config: the Vale configuration to use, relative to the workspace
//     root; empty looks for .vale.ini upward.
//   - -only: the SOT-aware limits above, as YAML.
package prose

import _ "embed"

//go:embed doc.go
var doc string
