// Package records defines an Analyzer that checks the JSON admission
// records of the workspace against the rules of their kind, and embeds the
// JSON Schemas of those kinds.
//
// # Analyzer records
//
// records: check model-provider and target-repository admission records
//
// A JSON file under .sot/ is an admission record of one of two kinds,
// recognised by its members (sotparse) or, when those are missing, by its
// file name ("...MODEL-PROVIDER-ADMISSION...json",
// "...TARGET-REPOSITORY-ADMISSION...json") or by model-admission members
// such as provider, model or admission_timestamp. A JSON file of neither
// kind is not judged. JSON syntax errors, duplicate members and members
// unknown to a recognised kind are reported by the syntax check, not here; a
// record whose JSON cannot be read is skipped.
//
// Model-provider admission records (the route of the model provider
// admission PRD) have these members, every one required:
//
//   - status: admitted, or one of the non-admitted values of the admission
//     status vocabulary: missing_admission, mismatch, invalid_admission,
//     not_admitted;
//   - provider, model: the exact provider and model id, never empty;
//   - credential_source_class, allowed_network_class, approval_source,
//     review_trigger: not empty when the record is admitted;
//   - admission_timestamp: not empty when admitted; when set, an RFC 3339
//     timestamp with a time zone ("2026-05-31T00:00:00-04:00").
//
// Target-repository admission records (the Stage 5 target repository
// admission template) have every field of the template, each required:
//
//   - admission_status: admitted or not_admitted;
//   - target_repository_path: an absolute path when set;
//   - repository_owner, ownership_evidence, noncritical_rationale,
//     review_trigger, approval_source, approval_timestamp: not empty when
//     admitted ("missing ownership evidence", "missing approval source"
//     gates); approval_timestamp, when set, is a date (YYYY-MM-DD) or an
//     RFC 3339 timestamp, as the template allows "timestamp or date";
//   - risk_classification: low_risk_noncritical when admitted;
//   - allowed_paths: not empty when admitted ("empty allowed_paths" gate);
//     each entry an explicit relative path: not empty, not absolute, no ".."
//     segment, not a glob, not the whole repository (".");
//   - forbidden_paths: not empty when admitted; each entry relative, without
//     "..", a valid doublestar glob when it has glob characters;
//   - no allowed path may overlap a forbidden path: be equal to it, lie under
//     it, or contain it. An entry is a path prefix of its subtree whether or
//     not it ends in "/" (a trailing "/" marks a directory); an entry with
//     glob characters (".env.*") is a doublestar pattern matched against the
//     allowed path and each of its parent directories, and an allowed
//     directory contains a pattern whose literal leading directories lie
//     inside it;
//   - forbidden_actions: contains every required action: push, merge,
//     deploy, close, pr_open, issue_close, public_publication,
//     credential_change, vendor_source_mutation, cortex_core_mutation
//     (the "missing forbidden action" gate); more actions may be listed;
//   - operator_outcome_required: true (the "missing operator outcome
//     requirement" gate).
//
// Not-admitted records are templates or refusals, so the concrete record
// skeleton of the template (empty strings, empty path lists) is valid with
// admission_status not_admitted; the gates that hold whatever the status
// (status vocabulary, required actions, operator outcome, well-formed paths
// and timestamps) still apply. A value such as "TBD", "TODO" or
// "<approval>" counts as empty. The array members must not repeat an entry.
//
// In both kinds, no member may look like a credential, at any depth: a
// string value in a known secret format (OpenAI, Anthropic, GitHub, GitLab,
// AWS, Google, Slack, Hugging Face and Stripe keys, private key blocks,
// JWTs, bearer tokens, URLs with a password), or a member named like a
// secret (password, secret, token, api_key, access_key, private_key, ...)
// whose value is a non-placeholder string without spaces. Messages never
// repeat such a value.
//
// Findings are reported at the member, its value, or the array element
// concerned; a missing member at the record's opening brace. Categories:
//
//   - missing-member: a required member is absent;
//   - wrong-type: a member is not of its kind's JSON type (a string, a list
//     of strings, a boolean), or is null;
//   - unknown-member: a member unknown to the kind, for records recognised
//     only by file name or members (the syntax check reports the others);
//   - empty-value: a member that must be set is empty;
//   - unknown-status: status or admission_status outside the vocabulary;
//   - timestamp: a malformed admission_timestamp or approval_timestamp;
//   - target-path: target_repository_path is not absolute;
//   - risk-classification: an admitted record that is not
//     low_risk_noncritical;
//   - allowed-path, forbidden-path: a malformed path entry;
//   - path-overlap: an allowed path overlapping a forbidden path;
//   - forbidden-actions: required forbidden actions are missing;
//   - operator-outcome: operator_outcome_required is not true;
//   - duplicate-entry: an array member lists an entry twice;
//   - credential: a member that looks like a credential.
//
// The rules are mirrored by JSON Schemas (draft 2020-12) embedded in the
// binary, one per kind, that editors can validate records against; they
// are printed by "sotvet schema <kind>".
package records

import _ "embed"

//go:embed doc.go
var doc string
