// Package authority defines an Analyzer that checks that child-local
// planning documents claim no authority they do not have.
//
// # Analyzer authority
//
// authority: check that local planning documents claim no Core authority
//
// A planning workspace is local SOT: nothing in it is a Core Protocol,
// nothing is promoted, no backend is the default, and an approval exists
// only where its record says so. The check judges the markdown documents in
// -scope that no -exempt glob matches, and reports, by category:
//
//   - promotion-status: a frontmatter core_promotion_status whose value is
//     not one of -allowed-promotion (default "not-promoted"), at the value.
//     A missing or empty value is the frontmatter check's business.
//   - disclaimer-missing: a document of one of the -disclaimer-kinds without
//     the -disclaimer line, reported at its H1 (or at the start of the body
//     when there is no H1).
//   - disclaimer-misplaced: the disclaimer line is there, as a line of a
//     top-level paragraph, but not where it belongs: the first paragraph
//     after the H1 must start with it (on its first line, or wrapped over
//     its first lines). HTML comments (suppressions) between the H1 and
//     the paragraph are skipped. Reported at the line.
//   - one category per forbidden-claim rule, its id: with the built-in
//     rules core-promotion, core-authority, runtime-default-activation,
//     default-backend and approval-contradiction (below).
//
// The disclaimer is compared after removing emphasis and code-span markers
// and collapsing white space. The default -disclaimer-kinds are computed
// from the reference corpus (cto-planb): every PRD, ISSUES, EVIDENCE,
// CLOSEOUT, RECORD, CONTRACT, TEMPLATE, PACKET, GUARD, MATRIX, GATES,
// BLOCKER and ATTEMPT document there carries the disclaimer; the one BRIEF
// (CTO-CASE-BACKEND-BRIEF.md) and the documents without a kind suffix (the
// workspace intent, CONTEXT.md) do not, and AUDIT has no document to learn
// from, so those kinds are left out.
//
// Forbidden claims. A claim rule matches text taken from the markdown
// structure, never from the raw file:
//
//   - fact: a key and its value, matched as "key: value" (code-span and
//     emphasis markers removed from the value), in every form a document
//     states one: a list item "- key: value" (sotparse's Facts); a row of
//     a two-column table ("| Default backend | Case |"); a cell under a
//     header that names its key ("| Case | yes |" under "| Lane | Default
//     backend |"); a bold label ("**Approval:** granted", "__Key__:
//     value"), a line or a list item's first line (sotparse's KeyValues).
//     A table whose value column defines the keys ("| Field | Meaning |",
//     Description, Purpose ...) states none;
//   - frontmatter: a scalar frontmatter field, matched as "key: value"
//     (core_promotion_status excepted: promotion-status judges it);
//   - sentence: a sentence of a paragraph, of a list item's paragraph or of
//     a table cell. Inline text is read from the parsed markdown: code spans
//     are replaced by the placeholder ‹code› (what a code span says is
//     quoted, not asserted), struck-through text, raw HTML and images are
//     dropped, links read as their text. Headings, blockquotes, fenced and
//     indented code blocks and HTML blocks are never read. Sentences end at
//     ".", "!" or "?" followed by a space and a character that is not a
//     lower-case letter.
//
// A sentence is matched as it stands and, when no alternative of the rule
// matches it so, in its canonical form: one word order for the claims the
// rules' expressions spell in one. The canonical form reads the passive
// with an agent actively ("The request was approved by JP" -> "JP approved
// the request"; "Approved by JP: the request" likewise), a fronted
// complement after its clause ("As the runtime default, the Pi lane was
// ..." -> "the Pi lane was ... as the runtime default"), a change of state
// as the state it ends in ("flipped from false to true" -> "is true"),
// "switched on" (turned on) as "activated", "serves as" (acts, functions,
// works as) as "is", "was made X" and "replaced Y as X" as "became X", and
// "S defaults to X" as "the default of S is X". A rewrite needs its verb
// group unbroken ("was not made" stays), keeps what governs the clause in
// front of it ("We should confirm that ..."), and drops no word the
// negation rules read, which then judge the canonical form. Such a finding
// spans the whole sentence.
//
// Text that is only mentioned is not a claim: the items of a Required
// Phrases, Required Evidence or Validator Summary Phrases section (phrases
// other documents must contain), and anything in a section whose heading
// lists what not to do or claim (Non-Goals, Out of Scope, Forbidden ...,
// Prohibited, Blocked Actions, Disallowed, Not Allowed, Anti-Goals,
// Rejected, Must Not, Do Not, Don'ts, Risks, Non-Admission ..., Failure
// Modes, Negative Gates; whole words, any case), down to the next heading of
// the same or a higher level.
//
// Negation is built in, the same for every rule. A match is not a claim
// when:
//
//   - its sentence is a question (ends with "?");
//   - it lies inside double quotes ("..." or “...”);
//   - anywhere before it in its sentence there is a word that negates,
//     forbids, conditions, hedges or reports: not, never, no, none, nothing,
//     nobody, neither, nor, cannot, any "n't" contraction (don't, doesn't,
//     isn't, aren't, won't ...), without, false, deny/denied, forbid...,
//     prohibit..., disallow..., reject..., refuse..., prevent..., avoid...,
//     block/blocked, until, unless, before, if, whether, once, pending,
//     only, later, future, instead, means, may, might, could, would,
//     should, can, must, shall, need(s), require(s/d), want(s), claim...,
//     misread..., mistake..., misinterpret..., overstate..., treat...,
//     imply, assume... So "Do not activate Case as default backend.", "must
//     not claim Case is the default backend", "Rejected feedback: activate
//     Case as runtime default now." and "CTO still needs a run ... without
//     activating Case as default" are not claims;
//   - the match itself contains a negation (not, no, never, none, cannot,
//     n't, without, false, denied, no longer);
//   - after it, in the same clause (up to a comma, semicolon, parenthesis,
//     dash, or "but", "while", "whereas", "although", "though"), comes not,
//     never, no longer, false, until, unless, pending, only, before, if,
//     once, when, whenever or yet: "Runtime default activation remains
//     false.", "... stays false", "... is not enabled", "... not yet",
//     "... only after Stage 6". A negation in a later clause does not
//     govern the match: "Case is the default backend, not a fixture." is
//     a claim. "before" after a past act dates it rather than defers it:
//     "JP granted approval before validation" is a claim, "approval is
//     granted before execution" is not.
//
// Gerunds ("Promoting any CTO artifact into Core.", "without activating
// Case as default") name an action without asserting it; the built-in
// patterns match finite verbs only.
//
// The rule set. The rules are data: -claims (in sotvet.yaml under checks:
// authority: claims:) is a YAML list of mappings, and configuring it
// replaces the built-in set (an empty list turns claim checking off). Each
// rule has:
//
//   - id (required): kebab-case; the category of its findings. Several
//     rules may share an id, say one for facts and one for sentences.
//   - pattern (required): a Go regular expression, or a list of them
//     (alternatives), matched case-insensitively. Write ‹code› to match a
//     code span inside a sentence.
//   - scope (required): fact, frontmatter, sentence, or a list of them.
//   - message (required): the finding's message; the matched text is
//     appended.
//   - unless: a regular expression or a list of them; a sentence, fact or
//     field one of them matches is not a claim of this rule.
//   - contradicts: "key: value". The rule then reports only in a route
//     (the documents sharing a file-name stem, sotparse's Doc.Stem) whose
//     records state key: value and none states another value for key. The
//     records of a route are its RECORD documents; a route without any has
//     as records its documents that state the key. A record states a key
//     with a fact or a frontmatter field; keys compare lower-cased with
//     spaces and dashes as underscores, values lower-cased without markup
//     or trailing punctuation. The message names the record.
//
// Unknown or duplicate keys, a bad expression, an unknown scope or a
// missing field are configuration errors, reported at the setting.
//
// The built-in set (DefaultClaims; `sotvet init` writes it out in full):
//
//   - core-promotion: a fact core_promotion_status: promoted, core
//     promotion: complete (done, granted, approved ...) or
//     promoted_to_core: true; a sentence or frontmatter value saying that
//     something is, was or has been promoted (in)to Core, that Core
//     promotion is complete, granted, approved, done or occurred, or
//     core_promotion_status: promoted.
//   - core-authority: a fact or field core_authority (core_protocol) that
//     is true, active or granted; a sentence whose subject is any artifact
//     of the workspace ("this/the ... route, slice, stage, lane, packet,
//     record, document, PRD, contract, guard, ladder, work item, gate ..."
//     with up to four words before the noun and an optional name after it,
//     or a bare "Stage 6", "route `x`", "CTO ...") saying it is, became,
//     remains or serves as a Core Protocol or (active) Core authority, or
//     holds Core authority; or "Core authority rests with this route"; or
//     a status that is Core's ("Status: Core Protocol (promoted 2 June
//     2026).", "- status: Core Protocol"). A subject named as Core's own
//     ("The Core Sequence Protocol is a Core Protocol") is no artifact of
//     the workspace.
//     The subject list is open: the noun names an artifact, not a document
//     kind. "This route is not active Core authority." and "Not active Core
//     authority." are negated as above.
//   - runtime-default-activation: a fact or field runtime_default_activation
//     (or candidate_default_activation, case_runtime_default_active ...)
//     that is true, yes, on, enabled or active; a sentence saying runtime
//     (or candidate) default activation is true, on, enabled or active, that
//     something is activated or enabled as (the runtime) default, or that
//     someone activated it (the Pi lane, say) so.
//   - default-backend: a fact or field default_backend (default engine,
//     runtime default backend) with a value other than none, fake, false,
//     not..., pending or a candidate; a sentence saying something is, was,
//     becomes or remains the (runtime) default backend or engine, that the
//     default backend is Case, Codex, Pi, Claude or ‹code›, that Case
//     (Codex, Pi, Claude) is (the) default, that the default of something
//     is one of them ("the harness defaults to Pi"), or that someone made
//     Case (or a backend) the default or promoted it to default. A sentence that says candidate, candidates
//     or candidacy, or names the fake lane (the convention's default
//     validation lane), is not such a claim: "Case is the leading candidate
//     default backend" is what the convention wants said.
//   - approval-contradiction: a fact or field approval_granted: true or
//     (JP, operator, human) approval (status, state): granted, given,
//     received or approved, or a sentence saying approval was (has been,
//     is) granted, JP approved, JP gave (granted) approval, or JP
//     (operator, human) approval was granted, given, recorded or
//     received, in a route whose records say approval_granted: false. The
//     approval lifecycle of the workspace keeps request, approval and
//     evidence in separate routes (CTO-GOVERNED-EXECUTION-REQUEST-RECORD:
//     approval_granted: false; CTO-GOVERNED-EXECUTION-APPROVAL-RECORD:
//     true; the evidence closeout consumes it), so an approval recorded in
//     its own route never contradicts the request.
//
// A finding is reported once per rule id and line.
//
// Flags:
//
//   - -scope: comma-separated doublestar globs of the documents judged
//     (default ".sot/**"). A comma inside {a,b} belongs to the glob.
//   - -exempt: comma-separated doublestar globs of documents exempt from
//     every rule of the check (a document that really is a Core Protocol,
//     say). Default: none.
//   - -allowed-promotion: comma-separated allowed core_promotion_status
//     values (default "not-promoted").
//   - -disclaimer: the disclaimer line (default "Local planning SOT only.
//     Not a Core Protocol. Not active Core authority."); empty turns the
//     disclaimer rules off.
//   - -disclaimer-kinds: comma-separated kinds that must carry the
//     disclaimer; "other" names documents without a kind suffix (default
//     PRD,ISSUES,EVIDENCE,CLOSEOUT,RECORD,CONTRACT,TEMPLATE,PACKET,GUARD,
//     MATRIX,GATES,BLOCKER,ATTEMPT).
//   - -claims: the forbidden-claim rules, as above (default: the built-in
//     set).
package authority

import _ "embed"

//go:embed doc.go
var doc string
